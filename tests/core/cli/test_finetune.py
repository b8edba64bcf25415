import json

import pytest

from core.cli import main
from core.models.catalog import catalog
from core.training.finetune import delete_model, finetuned_dir, read_card


@pytest.fixture(autouse=True)
def small_dev(monkeypatch):
    from core.data.stsb import load_stsb

    monkeypatch.setattr("core.evaluation.sts.load_stsb", lambda split: load_stsb(split)[:32])


def test_finetune_prints_the_contract_json_and_the_model_joins_the_catalog(tiny_bert_folder, tmp_path, capsys):
    pairs = tmp_path / "pairs.csv"
    pairs.write_text("a,b,score\n" + "".join(f"text {i},other {i},{i % 6}\n" for i in range(8)), encoding="utf-8")
    code = main(["finetune", "--model", str(tiny_bert_folder), "--data", str(pairs), "--objective", "cosine",
                 "--batch-size", "4", "--max-steps", "2", "--lr", "1e-3", "--seed", "3", "--name", "cli-tiny"])
    out = capsys.readouterr().out
    assert code == 0
    result = json.loads(out)  # stdout holds the JSON object and nothing else
    assert set(result) == {"model", "path", "before", "after", "steps", "seconds", "split"}
    assert result["model"] == "cli-tiny" and result["steps"] == 2
    assert result["path"] == str(finetuned_dir() / "cli-tiny")
    card = read_card("cli-tiny")
    assert result["after"]["spearman"] == card["after"]["spearman"]
    assert card["data"] == "pairs.csv" and card["parameters"]["seed"] == 3
    assert "cli-tiny" in [entry.id for entry in catalog()]
    delete_model("cli-tiny")


@pytest.mark.parametrize("lr", ["0", "-0.001"])
def test_a_learning_rate_of_zero_or_below_is_a_bad_argument(lr, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["finetune", "--model", "all-MiniLM-L6-v2", "--data", "stsb", "--objective", "cosine", "--lr", lr])
    assert exit_info.value.code == 2
    assert "--lr: must be above 0" in capsys.readouterr().err


def test_a_bad_pairs_file_and_an_unavailable_model_fail_with_one_line(tmp_path, capsys):
    pairs = tmp_path / "gaps.csv"
    pairs.write_text("a,b,score\nx,y,1\nz,,2\n", encoding="utf-8")
    assert main(["finetune", "--model", "all-MiniLM-L6-v2", "--data", str(pairs), "--objective", "cosine"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no value in column 'b' (row 3)" in err
    assert main(["finetune", "--model", "bert-base-uncased", "--data", "stsb", "--objective", "mnrl"]) == 1
    assert "bert-base-uncased is not available" in capsys.readouterr().err


def test_cross_encoder_trains_a_reranker_measured_on_sts_test_beside_its_bi_encoder(tiny_bert_folder, tmp_path,
                                                                                   capsys):
    from sentence_transformers import CrossEncoder
    from sentence_transformers.cross_encoder.evaluation import CrossEncoderCorrelationEvaluator

    from core.data.stsb import load_stsb

    pairs = tmp_path / "pairs.csv"
    pairs.write_text("a,b,score\n" + "".join(f"text {i},other {i},{i % 6}\n" for i in range(8)), encoding="utf-8")
    assert main(["finetune", "--cross-encoder", "--model", str(tiny_bert_folder), "--data", str(pairs),
                 "--batch-size", "4", "--max-steps", "2", "--name", "cli-reranker"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["split"] == "test" and result["steps"] == 2
    card = read_card("cli-reranker")
    assert card["kind"] == "reranker" and card["objective"] == "reranker"
    entry = next(entry for entry in catalog() if entry.id == "cli-reranker")
    assert entry.kind == "reranker" and "reranker (cross-encoder) trained from" in entry.description
    test = load_stsb("test")  # the fixture's 32 pairs
    expected = CrossEncoderCorrelationEvaluator([[p.sentence1, p.sentence2] for p in test], [p.score for p in test],
                                                write_csv=False)(CrossEncoder(result["path"], device="cpu"))
    # batches padded otherwise move a barely trained model's near-equal scores by ~1e-7, and a tie's rank with them
    assert result["after"]["spearman"] == pytest.approx(expected["spearman"], abs=1e-4)
    assert main(["embed", "--model", "cli-reranker", "--pooling", "default", "--input", str(pairs), "--output",
                 str(tmp_path / "x.npy")]) == 1
    delete_model("cli-reranker")


def test_rerank_orders_a_files_texts_as_crossencoder_rank_does(reranker_folder, tmp_path, capsys):
    from sentence_transformers import CrossEncoder

    texts = ["A man plays the guitar.", "Stocks fell.", "Someone strums a guitar on stage.", "A cat sleeps."]
    source = tmp_path / "texts.txt"
    source.write_text("\n".join(texts) + "\n", encoding="utf-8")
    assert main(["rerank", "--model", str(reranker_folder), "--query", "guitar music", "--input", str(source),
                 "--top", "3"]) == 0
    printed = json.loads(capsys.readouterr().out)
    expected = CrossEncoder(str(reranker_folder), device="cpu").rank("guitar music", texts, top_k=3)
    assert [row["text"] for row in printed] == [texts[hit["corpus_id"]] for hit in expected]
    assert [row["score"] for row in printed] == pytest.approx([hit["score"] for hit in expected], abs=1e-5)
    assert [row["rank"] for row in printed] == [1, 2, 3]
    assert main(["rerank", "--model", "all-MiniLM-L6-v2", "--query", "q", "--input", str(source)]) == 1
    assert "which embeds texts one by one; a reranker" in capsys.readouterr().err


def test_evaluate_retrieval_reranks_the_first_stages_top_n(reranker_folder, capsys, monkeypatch):
    from core.analysis.lexical import fit_baseline
    from core.data.stsb import stsb_corpus
    from core.evaluation.rerank import rerank_task
    from core.evaluation.retrieval import build_task, lexical_stage
    from core.models.reranker import load_reranker

    corpus = list(stsb_corpus()[:200])
    task = build_task("small", {"A man is playing a flute.": {corpus[3], corpus[7]}, "Stocks fell.": {corpus[11]}},
                      corpus)
    monkeypatch.setattr("core.evaluation.retrieval.paraphrase_task", lambda split: task)
    assert main(["evaluate", "retrieval", "--baseline", "tfidf", "--rerank", str(reranker_folder), "--rerank-top",
                 "20", "--split", "dev", "--k", "1,10"]) == 0
    printed = json.loads(capsys.readouterr().out)
    expected = rerank_task(task, lexical_stage(fit_baseline("tfidf", corpus), task),
                           load_reranker(str(reranker_folder), "cpu"), depths=[20], ks=(1, 10)).reranked[20]
    assert printed["score"] == "reranker" and printed["mrr@10"] == pytest.approx(
        expected.metrics["reranker_mrr@10"])


def test_multi_vector_prints_recall_beside_the_dense_base_and_lists_a_late_interaction_model(
        tiny_sentence_transformer_folder, tmp_path, capsys, monkeypatch):
    from core.data.stsb import stsb_corpus
    from core.evaluation.retrieval import build_task
    from core.models.catalog import LATE

    corpus = list(stsb_corpus()[:100])
    task = build_task("small", {"A man plays a guitar.": {corpus[3]}, "Stocks fell.": {corpus[11], corpus[12]}},
                      corpus)
    monkeypatch.setattr("core.training.finetune.paraphrase_task", lambda split: task)
    pairs = tmp_path / "pairs.csv"
    pairs.write_text("a,b\n" + "".join(f"text {i},other {i}\n" for i in range(8)), encoding="utf-8")
    assert main(["finetune", "--multi-vector", "--model", str(tiny_sentence_transformer_folder), "--data", str(pairs),
                 "--batch-size", "4", "--max-steps", "2", "--name", "cli-late"]) == 0
    result = json.loads(capsys.readouterr().out)  # stdout holds the JSON object and nothing else
    assert set(result) == {"model", "path", "before", "after", "steps", "seconds", "split"}
    card = read_card("cli-late")
    assert set(result["before"]) == set(result["after"]) == {"recall@1", "recall@10", "mrr@10"}
    assert result["after"] == card["after"] and result["before"]["recall@1"] == card["before"]["recall@1"]
    assert "spearman" in card["before"]  # the dense base's STS is on its card, not in the comparison
    entry = next(entry for entry in catalog() if entry.id == "cli-late")
    assert entry.kind == LATE and entry.description.startswith("late interaction")
    delete_model("cli-late")


def test_multi_vector_from_pairs_without_enough_positives_is_one_line(tmp_path, capsys):
    pairs = tmp_path / "scored.csv"
    pairs.write_text("a,b,score\n" + "".join(f"text {i},other {i},{i % 5}\n" for i in range(8)), encoding="utf-8")
    assert main(["finetune", "--multi-vector", "--model", "all-MiniLM-L6-v2", "--data", str(pairs)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "fewer than one batch of 16" in err
