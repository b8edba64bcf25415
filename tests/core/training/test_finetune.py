import numpy as np
import pytest
import torch

from core.data.pairs import PairSet
from core.encoding.encoder import encode
from core.models.catalog import ModelUnavailable, catalog, find_entry
from core.models.loading import load_model, sentence_transformer
from core.training.finetune import (
    CARD,
    FinetuneError,
    RunControl,
    RunRequest,
    TrainingBusy,
    TrainingLock,
    TrainOptions,
    check_name,
    delete_model,
    evaluate,
    finetuned_dir,
    read_card,
    run,
    start_in_background,
    suggest_name,
    train,
)

FEW = TrainOptions(batch_size=4, max_steps=3, learning_rate=1e-3, seed=7)
PAIRS = PairSet("toy pairs", tuple(f"a sentence about topic {i}" for i in range(12)),
                tuple(f"another line on subject {i % 4}" for i in range(12)),
                tuple((i % 5) / 4 for i in range(12)))


@pytest.fixture(autouse=True)
def small_dev(monkeypatch):
    """Measure on the first 64 STS-B dev pairs so runs stay quick."""
    from core.data.stsb import load_stsb

    monkeypatch.setattr("core.evaluation.sts.load_stsb", lambda split: load_stsb(split)[:64])


def weights(model) -> dict[str, torch.Tensor]:
    return {k: v.detach().clone() for k, v in model.state_dict().items()}


@pytest.mark.parametrize("rate", [0.0, -1e-5])
def test_a_learning_rate_of_zero_or_below_is_refused(rate):
    with pytest.raises(FinetuneError, match="learning rate must be above 0"):
        TrainOptions(learning_rate=rate)


def test_untrained_bert_is_built_with_the_same_random_weights_as_the_catalog_gives_it():
    built = sentence_transformer("untrained-bert")
    loaded = load_model("untrained-bert", "cpu")
    text = ["Random weights still give a vector."]
    ours = encode(loaded, text).vectors
    theirs = built.encode(text, convert_to_numpy=True)
    np.testing.assert_allclose(theirs, ours, atol=1e-5)


def test_the_same_seed_gives_the_same_weights_and_losses(tiny_bert_folder):
    runs = []
    for _ in range(2):
        model = sentence_transformer(str(tiny_bert_folder))
        control = RunControl()
        assert train(model, PAIRS, "cosine", FEW, control) == 3
        runs.append((weights(model), control.snapshot().losses))
    (first, losses1), (second, losses2) = runs
    assert [s for s, _ in losses1] == [1, 2, 3]
    assert losses1 == losses2
    assert all(torch.equal(first[k], second[k]) for k in first)
    other = sentence_transformer(str(tiny_bert_folder))
    train(other, PAIRS, "cosine", TrainOptions(batch_size=4, max_steps=3, learning_rate=1e-3, seed=8), RunControl())
    assert not all(torch.equal(first[k], v) for k, v in weights(other).items())


def test_ranking_objective_trains_on_positive_pairs(tiny_bert_folder):
    model = sentence_transformer(str(tiny_bert_folder))
    control = RunControl()
    assert train(model, PAIRS, "mnrl", TrainOptions(batch_size=2, max_steps=2, seed=1), control) == 2
    assert len(control.snapshot().losses) == 2


def test_a_run_saves_a_catalog_model_that_loads_and_encodes(tiny_bert_folder):
    base = str(tiny_bert_folder)
    result = run(RunRequest(base, PAIRS, "cosine", FEW, "tiny-toy"))
    assert result.path == finetuned_dir() / "tiny-toy"
    assert find_entry("tiny-toy").source == "finetuned"
    card = read_card("tiny-toy")
    assert card["base"] == base and card["data"] == "toy pairs" and card["objective"] == "cosine"
    assert card["parameters"]["max_steps"] == 3 and card["steps"] == 3 and card["stopped"] is False
    assert [step for step, _ in card["losses"]] == [1, 2, 3]
    assert card["before"]["spearman"] == pytest.approx(evaluate(load_model(base, "cpu"))["spearman"])
    tuned = load_model("tiny-toy", "cpu")
    assert card["after"]["spearman"] == pytest.approx(evaluate(tuned)["spearman"])
    assert card["after"]["spearman"] != card["before"]["spearman"]
    assert encode(tuned, ["hello"]).vectors.shape == (1, 32)
    assert not list(finetuned_dir().glob(".*")), "no temporary folder is left behind"
    with pytest.raises(FinetuneError, match="exists already"):
        run(RunRequest(base, PAIRS, "cosine", FEW, "tiny-toy"))
    assert suggest_name(base, "toy", "cosine").endswith("-toy-cosine")
    delete_model("tiny-toy")
    assert "tiny-toy" not in [entry.id for entry in catalog()]


def test_stop_ends_the_run_after_the_step_in_flight_and_keeps_that_model(tiny_bert_folder):
    control = RunControl()
    control.stop_requested.set()
    result = run(RunRequest(str(tiny_bert_folder), PAIRS, "cosine", FEW, "tiny-stopped"), control)
    assert result.card["stopped"] is True and result.card["steps"] == 1 and result.card["total_steps"] == 3
    assert load_model("tiny-stopped", "cpu").num_layers == 2
    delete_model("tiny-stopped")


def test_running_out_of_disk_while_saving_keeps_no_half_written_model(tiny_bert_folder, monkeypatch):
    from sentence_transformers import SentenceTransformer

    def full_disk(self, path, *args, **kwargs):
        (__import__("pathlib").Path(path) / "model.safetensors").write_bytes(b"half")
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(SentenceTransformer, "save", full_disk)
    with pytest.raises(FinetuneError, match="No space left on device.*Free some disk space"):
        run(RunRequest(str(tiny_bert_folder), PAIRS, "cosine", FEW, "tiny-full"))
    assert not (finetuned_dir() / "tiny-full").exists()
    assert not list(finetuned_dir().glob("*tiny-full*"))
    assert "tiny-full" not in [entry.id for entry in catalog()]


def test_a_second_run_while_one_holds_the_lock_is_refused_with_a_message(tiny_bert_folder):
    request = RunRequest(str(tiny_bert_folder), PAIRS, "cosine", FEW, "tiny-second")
    with TrainingLock():
        with pytest.raises(TrainingBusy, match="Another fine-tuning run is in progress"):
            run(request)
        with pytest.raises(TrainingBusy):
            start_in_background(request)
    control = start_in_background(request)  # free again once the first run let go
    assert control.finished.wait(300)
    assert control.error is None and control.snapshot().phase == "done"
    delete_model("tiny-second")


def test_an_unavailable_model_is_refused_before_any_training():
    with pytest.raises(ModelUnavailable, match="bert-base-uncased"):
        run(RunRequest("bert-base-uncased", PAIRS, "cosine", FEW, "never"))
    assert not (finetuned_dir() / "never").exists()


def test_names_that_are_taken_or_not_folder_names_are_refused():
    with pytest.raises(FinetuneError, match="exists already"):
        check_name("all-MiniLM-L6-v2")
    with pytest.raises(FinetuneError, match="cannot be a model name"):
        check_name("../escape")
    with pytest.raises(FinetuneError, match="not a fine-tuned model"):
        delete_model("all-MiniLM-L6-v2")


def test_the_card_is_json_beside_the_weights(tiny_bert_folder):
    result = run(RunRequest(str(tiny_bert_folder), PAIRS, "mnrl", TrainOptions(batch_size=2, max_steps=1), "tiny-card"))
    assert (result.path / CARD).is_file() and (result.path / "model.safetensors").is_file()
    assert result.card["pairs"] == 2  # the toy pairs scored 0.8 or more
    delete_model("tiny-card")
