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


def test_each_checkpoint_measures_the_model_in_training_against_its_start(tiny_bert_folder):
    probe = stsb_probe(30)
    model = sentence_transformer(str(tiny_bert_folder))
    start = model.encode(probe.texts)
    control = RunControl()
    assert train(model, PAIRS, "cosine", FEW, control, probe) == 3
    points = control.snapshot().drift
    assert [p.step for p in points] == [0, 1, 2, 3]
    assert points[0].cka == pytest.approx(1.0) and points[0].overlap == 1.0
    end = model.encode(probe.texts)  # the trained weights, as the last checkpoint saw them
    gold = [p.score for p in load_stsb("dev")[:30]]

    def spearman(vectors):
        u, v = vectors[probe.first], vectors[probe.second]
        cosines = (u * v).sum(1) / np.linalg.norm(u, axis=1) / np.linalg.norm(v, axis=1)
        return spearmanr(cosines, gold).statistic

    assert points[0].spearman == pytest.approx(spearman(start), abs=1e-5)
    assert points[-1].cka == pytest.approx(numpy_cka(start, end), abs=1e-5)
    assert points[-1].overlap == pytest.approx(overlap(start, end))
    assert points[-1].spearman == pytest.approx(spearman(end), abs=1e-5)
    assert points[-1].cka < 0.9999  # the weights moved: a measure that could fail


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
