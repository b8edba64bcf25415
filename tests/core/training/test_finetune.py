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
    multi_vector_from,
    read_card,
    recall_comparison,
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


LATE_PAIRS = PairSet("toy positives", tuple(f"a sentence about topic {i}" for i in range(12)),
                     tuple(f"another line on subject {i}" for i in range(12)))


def test_multi_vector_training_equals_sentence_transformers_converting_and_training_it(tiny_sentence_transformer_folder,
                                                                                      tmp_path):
    """The same conversion (the projection drawn from the seed), trainer, loss and arguments give the same weights."""
    from datasets import Dataset
    from sentence_transformers import MultiVectorEncoder, MultiVectorEncoderTrainer, MultiVectorEncoderTrainingArguments
    from sentence_transformers.multi_vector_encoder.losses import MultiVectorMultipleNegativesRankingLoss

    torch.manual_seed(FEW.seed)
    reference = MultiVectorEncoder(str(tiny_sentence_transformer_folder), device="cpu", local_files_only=True)
    with multi_vector_from(str(tiny_sentence_transformer_folder), "cpu", FEW.seed) as ours:
        assert [type(m).__name__ for m in ours] == ["Transformer", "Dense", "MultiVectorMask", "Normalize"]
        start = weights(ours)
        assert all(torch.equal(start[k], v) for k, v in weights(reference).items())
        arguments = MultiVectorEncoderTrainingArguments(
            output_dir=str(tmp_path), per_device_train_batch_size=FEW.batch_size, learning_rate=FEW.learning_rate,
            warmup_steps=FEW.warmup_ratio, max_steps=FEW.max_steps, seed=FEW.seed, data_seed=FEW.seed,
            batch_sampler="no_duplicates", use_cpu=True, report_to="none", save_strategy="no",
            dataloader_num_workers=0)
        MultiVectorEncoderTrainer(model=reference, args=arguments, train_dataset=Dataset.from_dict(
            {"anchor": list(LATE_PAIRS.first), "positive": list(LATE_PAIRS.second)}),
            loss=MultiVectorMultipleNegativesRankingLoss(reference)).train()
        control = RunControl()
        assert train(ours, LATE_PAIRS, "multi-vector", FEW, control) == 3
        trained = weights(ours)
    assert not torch.equal(trained["1.linear.weight"], start["1.linear.weight"])
    for name, value in weights(reference).items():
        torch.testing.assert_close(trained[name], value, rtol=1e-5, atol=1e-6, msg=name)
    assert [step for step, _ in control.snapshot().losses] == [1, 2, 3]


def test_a_multi_vector_run_saves_a_late_interaction_model_measured_beside_its_dense_base(
        tiny_sentence_transformer_folder, monkeypatch):
    from sentence_transformers import MultiVectorEncoder

    from core.data.stsb import stsb_corpus
    from core.evaluation.retrieval import build_task
    from core.models.catalog import LATE
    from tests.references import multi_vector_retrieval

    corpus = list(stsb_corpus()[:150])
    task = build_task("small", {corpus[5]: {corpus[6]}, "A man plays a guitar.": {corpus[3], corpus[40]},
                                "Stocks fell.": {corpus[11]}}, corpus)
    monkeypatch.setattr("core.training.finetune.paraphrase_task", lambda split: task)
    base = str(tiny_sentence_transformer_folder)
    result = run(RunRequest(base, LATE_PAIRS, "multi-vector", FEW, "tiny-late"))
    card = read_card("tiny-late")
    assert card["kind"] == LATE and card["objective"] == "multi-vector" and card["steps"] == 3
    entry = find_entry("tiny-late")
    assert entry.kind == LATE and entry.source == "finetuned" and "late interaction" in entry.description
    tuned = load_model("tiny-late", "cpu")
    assert tuned.kind == LATE and tuned.late_pipeline.similarity == "maxsim" and tuned.dimensions == 128
    assert card["before"] == pytest.approx(evaluate(load_model(base, "cpu"), retrieval=True))  # the dense base
    expected = multi_vector_retrieval(task, MultiVectorEncoder(str(result.path), device="cpu", local_files_only=True),
                                      (1, 10))
    assert set(card["after"]) == {"recall@1", "recall@10", "mrr@10"}  # no STS: MaxSim is not symmetric
    for key in card["after"]:
        assert card["after"][key] == pytest.approx(expected[f"maxsim_{key}"], abs=1e-9)
    said = recall_comparison("tiny-late", card)
    assert f"{card['after']['recall@1']:.3f} for tiny-late" in said and f"{card['before']['recall@1']:.3f}" in said
    assert recall_comparison("tiny-late", card | {"kind": None}) is None
    delete_model("tiny-late")


def test_a_static_model_cannot_become_a_multi_vector_one(tmp_path):
    from sentence_transformers import SentenceTransformer
    from sentence_transformers.sentence_transformer.modules import StaticEmbedding
    from tokenizers import Tokenizer

    from core.models.packages import packaged_minilm_folder

    tokenizer = Tokenizer.from_file(str(packaged_minilm_folder() / "tokenizer.json"))
    SentenceTransformer(modules=[StaticEmbedding(tokenizer, embedding_dim=8)]).save(str(tmp_path / "static"))
    with pytest.raises(FinetuneError, match="no transformer to give each token its own vector"):
        with multi_vector_from(str(tmp_path / "static"), "cpu", 1):
            pass
