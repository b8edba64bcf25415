"""A run's drift from its start, recorded at checkpoints by a TrainerCallback, and the base against the fine-tuned
model: each number against vectors sentence-transformers encodes and measures computed here (NumPy, scipy,
scikit-learn)."""

import numpy as np
import pytest
from scipy.stats import spearmanr

from core.data.stsb import load_stsb
from core.models.loading import load_model, sentence_transformer
from core.training import drift
from core.training.drift import checkpoint_steps, stsb_probe
from core.training.finetune import (
    RunControl,
    RunRequest,
    cross_encoder_from,
    delete_model,
    read_card,
    run,
    train,
)
from tests.core.analysis.test_agreement import numpy_cka, sklearn_neighbours
from tests.core.training.test_finetune import FEW, PAIRS


@pytest.fixture(autouse=True)
def small_probe(monkeypatch):
    monkeypatch.setattr(drift, "PROBE_PAIRS", 30)
    # the runs measure on a few STS-B dev pairs, as test_finetune's do
    monkeypatch.setattr("core.evaluation.sts.load_stsb", lambda split: load_stsb(split)[:64])


def overlap(a, b, k=10) -> float:
    pairs = zip(sklearn_neighbours(a, k), sklearn_neighbours(b, k))
    return float(np.mean([len(set(x) & set(y)) / k for x, y in pairs]))


def test_checkpoints_spread_over_the_run_and_end_on_its_last_step():
    assert checkpoint_steps(40) == {5, 10, 15, 20, 25, 30, 35, 40}
    assert checkpoint_steps(3) == {1, 2, 3} and checkpoint_steps(1) == {1}
    assert checkpoint_steps(360, 4) == {90, 180, 270, 360}


def test_the_probe_is_the_first_dev_pairs_distinct_sentences():
    probe = stsb_probe(30)
    pairs = load_stsb("dev")[:30]
    assert [probe.texts[i] for i in probe.first] == [p.sentence1 for p in pairs]
    assert [probe.texts[i] for i in probe.second] == [p.sentence2 for p in pairs]
    assert len(set(probe.texts)) == len(probe.texts)


def test_each_checkpoint_measures_the_model_in_training_against_its_start(tiny_bert_folder, monkeypatch):
    """The weights are saved each time a point is recorded; every point is then measured again here from its saved
    state, encoded by a plain SentenceTransformer: CKA with NumPy, overlap@10 with scikit-learn, Spearman with scipy,
    each against the start's state."""
    from sentence_transformers import SentenceTransformer

    from core.training import finetune

    probe = stsb_probe(30)
    model = sentence_transformer(str(tiny_bert_folder))
    states: dict[int, dict] = {}

    def saving_states(probe, record):
        def recorded(point):
            states[point.step] = {name: value.detach().clone() for name, value in model.state_dict().items()}
            record(point)

        return drift.drift_callback(probe, recorded)

    monkeypatch.setattr(finetune, "drift_callback", saving_states)
    control = RunControl()
    assert train(model, PAIRS, "cosine", FEW, control, probe) == 3
    points = control.snapshot().drift
    assert [p.step for p in points] == sorted(states) == [0, 1, 2, 3]
    gold = [p.score for p in load_stsb("dev")[:30]]

    def spearman(vectors):
        u, v = vectors[probe.first], vectors[probe.second]
        cosines = (u * v).sum(1) / np.linalg.norm(u, axis=1) / np.linalg.norm(v, axis=1)
        return spearmanr(cosines, gold).statistic

    reference = SentenceTransformer(str(tiny_bert_folder), device="cpu")  # a plain checkpoint: mean pooling
    saved = {}
    for step, state in states.items():
        reference.load_state_dict(state)
        saved[step] = reference.encode(probe.texts, batch_size=64)
    start = saved[0]
    for point in points:
        now = saved[point.step]
        assert point.cka == pytest.approx(numpy_cka(start, now), abs=1e-5), point
        assert point.overlap == pytest.approx(overlap(start, now)), point
        assert point.spearman == pytest.approx(spearman(now), abs=1e-5), point
    assert points[0].cka == pytest.approx(1.0) and points[0].overlap == 1.0
    # the checkpoint between the first and the last has weights of its own (the first step is warm-up, at rate 0)
    assert not np.allclose(saved[2], saved[0], atol=1e-4) and not np.allclose(saved[2], saved[3], atol=1e-4)
    assert points[-1].cka < 0.9999  # the weights moved: a measure that could fail


def test_a_multi_vector_run_records_no_drift(tiny_sentence_transformer_folder):
    """A late-interaction model has no one vector per text to measure drift on: its run records no point, so no
    drift curve is drawn, while it runs or on its card."""
    from core.training.finetune import multi_vector_from
    from tests.core.training.test_finetune import LATE_PAIRS

    control = RunControl()
    with multi_vector_from(str(tiny_sentence_transformer_folder), "cpu", FEW.seed) as model:
        assert train(model, LATE_PAIRS, "multi-vector", FEW, control, stsb_probe(30)) == 3
    assert control.snapshot().drift == [] and [step for step, _ in control.snapshot().losses] == [1, 2, 3]


def test_a_run_keeps_its_drift_and_the_base_against_the_result_on_its_card(tiny_bert_folder):
    from sentence_transformers import SentenceTransformer

    from core.analysis.agreement import Overlap
    from core.models.catalog import finetuned_dir

    result = run(RunRequest(str(tiny_bert_folder), PAIRS, "cosine", FEW, "tiny-drift"))
    try:
        card = read_card("tiny-drift")
        assert [point["step"] for point in card["drift"]] == [0, 1, 2, 3]
        assert set(card["drift"][0]) == {"step", "cka", "overlap", "spearman"}
        texts = card["agreement"]["texts"]
        assert texts == stsb_probe(30).texts
        # a plain checkpoint: mean pooling
        before = SentenceTransformer(str(tiny_bert_folder), device="cpu").encode(texts)
        after = SentenceTransformer(str(finetuned_dir() / "tiny-drift"), device="cpu").encode(texts)
        found = Overlap.from_json(card["agreement"]["overlap"])
        assert found.mean == pytest.approx(overlap(before, after))
        layers = np.array(card["agreement"]["cka_layers"], dtype=float)
        assert layers.shape == (3, 3) and layers[-1, -1] == pytest.approx(numpy_cka(before, after), abs=1e-4)
        assert result.card["drift"] == card["drift"]
        assert load_model("tiny-drift", "cpu").num_layers == 2
    finally:  # a failure must not leave the model for the tests after this one
        delete_model("tiny-drift")


def test_a_reranker_run_records_no_drift(tiny_bert_folder):
    control = RunControl()
    probe = stsb_probe(30)
    with cross_encoder_from(str(tiny_bert_folder), "cpu") as model:
        train(model, PAIRS, "reranker", FEW, control, probe)
    assert control.snapshot().drift == []
