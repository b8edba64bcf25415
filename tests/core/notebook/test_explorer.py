"""core.notebook's Explorer against references computed apart from it: `python -m core embed`'s files and
sentence-transformers' own encoders (SentenceTransformer, SparseEncoder, MultiVectorEncoder), hidden states read with
transformers and pooled here, cosines, rankings and CKA written with NumPy, and sentence-transformers'
InformationRetrievalEvaluator; refusals in the app's one sentence; no Streamlit on the import path."""

import json
import subprocess
import sys

import numpy as np
import pyarrow.parquet as pq
import pytest
import scipy.sparse as sp
import torch
from sentence_transformers import MultiVectorEncoder, SentenceTransformer, SparseEncoder
from transformers import AutoModel, AutoTokenizer

from core.analysis.explanation import NoExactSplit
from core.cli import main
from core.evaluation.retrieval import build_task
from core.models.catalog import ModelUnavailable
from core.models.packages import packaged_minilm_folder
from core.notebook import Explorer, Why
from tests.conftest import ROOT
from tests.core.analysis.test_agreement import numpy_cka
from tests.references import assert_top_order, information_retrieval

MINILM = "all-MiniLM-L6-v2"
TEXTS = ["A man is playing a guitar.", "A man plays the guitar on stage.", "A woman slices an onion.",
         "Someone is chopping vegetables.", "The cat sleeps on the sofa.", "A kitten naps on the couch.",
         "Stocks fell sharply on Monday.", "Markets dropped at the start of the week.", "", "Rain is expected."]
BANK = ["We had a picnic on the grassy bank of the river.", "She deposited her salary at the bank this morning.",
        "You can always bank on your sister to help."]


@pytest.fixture(scope="module")
def explorer():
    return Explorer(MINILM, device="cpu")


@pytest.fixture(scope="module")
def reference():
    return SentenceTransformer(str(packaged_minilm_folder()), device="cpu")


def hidden_states(texts):
    """Every layer's token states as transformers returns them, (layers + 1, texts, tokens, dims), and the mask."""
    folder = str(packaged_minilm_folder())
    tokenizer, network = AutoTokenizer.from_pretrained(folder), AutoModel.from_pretrained(folder)
    batch = tokenizer(list(texts), padding=True, return_tensors="pt")
    with torch.no_grad():
        states = network(**batch, output_hidden_states=True).hidden_states
    return torch.stack(states).numpy(), batch["attention_mask"].numpy(), batch, tokenizer


def pooled(states, mask, pooling: str) -> np.ndarray:
    """(layers + 1, texts, dims): the mask-weighted mean of the token states, or the first token's."""
    if pooling == "cls":
        return states[:, :, 0]
    weights = mask[None, :, :, None].astype(np.float64)
    return (states * weights).sum(axis=2) / weights.sum(axis=2)


def cosines(vectors: np.ndarray) -> np.ndarray:
    unit = vectors / np.linalg.norm(vectors, axis=1, keepdims=True)
    return unit @ unit.T


def embedded(tmp_path, texts, output: str, *options) -> object:
    """What `python -m core embed` writes for these texts and options, read back."""
    source = tmp_path / "in.txt"
    source.write_text("\n".join(texts) + "\n", encoding="utf-8")
    out = tmp_path / output
    assert main(["embed", "--input", str(source), "--output", str(out), *map(str, options)]) == 0
    return out


def test_importing_core_notebook_pulls_in_no_streamlit_and_no_page():
    code = "import json, sys, core.notebook; print(json.dumps(sorted({m.split('.')[0] for m in sys.modules})))"
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    imported = set(json.loads(result.stdout.strip().splitlines()[-1]))
    assert "core" in imported
    assert not imported & {"streamlit", "ui", "views"}


def test_embed_equals_core_embed_and_sentence_transformers_encode(explorer, reference, tmp_path):
    vectors = explorer.embed(TEXTS)
    assert isinstance(vectors, np.ndarray) and vectors.shape == (len(TEXTS), 384) and vectors.dtype == np.float32
    written = np.load(embedded(tmp_path, TEXTS, "out.npy", "--model", MINILM, "--pooling", "default"))
    np.testing.assert_array_equal(vectors, written)
    np.testing.assert_allclose(vectors, reference.encode(TEXTS), atol=1e-5)
    np.testing.assert_allclose(explorer.embed(TEXTS, role="query"), reference.encode_query(TEXTS), atol=1e-5)
    np.testing.assert_allclose(explorer.embed(TEXTS[0]), reference.encode([TEXTS[0]]), atol=1e-5)


@pytest.mark.parametrize("pooling, layer, normalize", [("mean", 3, False), ("cls", 2, True), ("mean", 0, False)])
def test_embed_with_pooling_layer_and_normalize_equals_core_embed_and_hidden_states_pooled_by_hand(
        tmp_path, pooling, layer, normalize):
    texts = [text for text in TEXTS if text]
    found = Explorer(MINILM, pooling=pooling, layer=layer, normalize=normalize, device="cpu").embed(texts)
    written = np.load(embedded(tmp_path, texts, "out.npy", "--model", MINILM, "--pooling", pooling, "--layer", layer,
                               *(["--normalize"] if normalize else [])))
    np.testing.assert_array_equal(found, written)
    states, mask, _, _ = hidden_states(texts)
    expected = pooled(states, mask, pooling)[layer]
    if normalize:
        expected = expected / np.linalg.norm(expected, axis=1, keepdims=True)
    np.testing.assert_allclose(found, expected, atol=1e-4)


def test_max_length_and_truncate_dim_shape_the_vectors_as_core_embed_does(tmp_path, reference):
    texts = [text for text in TEXTS if text]
    ex = Explorer(MINILM, max_length=8, truncate_dim=64, device="cpu")
    with pytest.warns(UserWarning, match="were cut at that limit"):
        found = ex.embed(texts)
    written = np.load(embedded(tmp_path, texts, "out.npy", "--model", MINILM, "--pooling", "default",
                               "--max-length", 8, "--truncate-dim", 64))
    assert found.shape == (len(texts), 64)
    np.testing.assert_array_equal(found, written)
    reference.max_seq_length = 8
    try:
        np.testing.assert_allclose(found, reference.encode(texts, truncate_dim=64), atol=1e-5)
    finally:
        reference.max_seq_length = 256


def test_similarity_is_the_pages_heatmap_of_the_cosines(explorer, reference):
    figure = explorer.similarity(TEXTS)
    heatmap = figure.data[0]
    vectors = reference.encode(TEXTS).astype(np.float64)
    np.testing.assert_allclose(np.array(heatmap.z, dtype=float), cosines(vectors), atol=1e-5)
    assert (heatmap.zmin, heatmap.zmax, heatmap.colorscale[0][1]) == (-1.0, 1.0, "rgb(5,48,97)")  # RdBu_r, fixed
    assert figure.layout.title.text == "all-MiniLM-L6-v2 · default pooling · layer 6 (last)"
    dot = explorer.similarity(TEXTS, metric="dot").data[0]
    np.testing.assert_allclose(np.array(dot.z, dtype=float), vectors @ vectors.T, rtol=1e-4, atol=1e-4)
    assert dot.zmin == pytest.approx(float((vectors @ vectors.T).min()), abs=1e-4)  # fitted, as the page's dot


def test_reordered_similarity_keeps_each_cell_with_its_texts(explorer, reference):
    heatmap = explorer.similarity(TEXTS, reorder=True).data[0]
    order = [int(name.split(".")[0]) - 1 for name in heatmap.y]
    assert sorted(order) == list(range(len(TEXTS))) and order != list(range(len(TEXTS)))
    expected = cosines(reference.encode(TEXTS).astype(np.float64))[np.ix_(order, order)]
    np.testing.assert_allclose(np.array(heatmap.z, dtype=float), expected, atol=1e-5)


def test_sentence_drift_curves_are_the_cosines_of_every_layers_mean_pooled_sentences(explorer):
    figure = explorer.layers(BANK, curves="sentence")
    states, mask, _, _ = hidden_states(BANK)
    layers = pooled(states, mask, "mean")
    pairs = [(0, 1), (0, 2), (1, 2)]
    assert [trace.name for trace in figure.data] == ["S1 · S2", "S1 · S3", "S2 · S3"]
    for trace, (i, j) in zip(figure.data, pairs):
        expected = [cosines(layer[[i, j]])[0, 1] for layer in layers]
        np.testing.assert_allclose(trace.y, expected, atol=1e-4)


def test_token_drift_follows_the_shared_word_across_layers(explorer):
    figure = explorer.layers(BANK)
    states, _, batch, tokenizer = hidden_states(BANK)
    where = [tokenizer.convert_ids_to_tokens(ids).index("bank") for ids in batch["input_ids"].tolist()]
    lines = [trace for trace in figure.data if trace.name.startswith("S")]
    assert [trace.name for trace in lines] == ["S1 · S2", "S1 · S3", "S2 · S3"]
    assert "random token pairs (mean ± 1 sd)" in [trace.name for trace in figure.data]
    for trace, (i, j) in zip(lines, [(0, 1), (0, 2), (1, 2)]):
        a, b = states[:, i, where[i]], states[:, j, where[j]]
        expected = (a * b).sum(axis=1) / (np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1))
        np.testing.assert_allclose(trace.y, expected, atol=1e-4)
    with pytest.raises(ValueError, match="in none of the sentences"):
        explorer.layers(BANK, word="zebra")


def test_search_ranks_as_numpy_ranks_sentence_transformers_vectors(explorer, reference):
    corpus = [text for text in TEXTS if text]
    found = explorer.search("guitar music", corpus, k=4)
    assert list(found.columns) == ["rank", "text", "score"] and found["rank"].tolist() == [1, 2, 3, 4]
    query = reference.encode_query(["guitar music"])[0].astype(np.float64)
    documents = reference.encode_document(corpus).astype(np.float64)
    scores = documents @ query / (np.linalg.norm(documents, axis=1) * np.linalg.norm(query))
    best = np.argsort(-scores, kind="stable")[:4]
    assert found["text"].tolist() == [corpus[i] for i in best]
    np.testing.assert_allclose(found["score"], scores[best], atol=1e-5)


@pytest.fixture(scope="module")
def prompted_dense(tmp_path_factory):
    from tests.modern import embeddinggemma

    return embeddinggemma(tmp_path_factory.mktemp("prompted") / "gemma")


def test_a_prompted_models_search_reads_the_query_as_a_query_and_the_corpus_as_documents(prompted_dense,
                                                                                          sparse_folders):
    """Its query and document prompts differ, so reading either side the other way round changes the scores."""
    corpus = [text for text in TEXTS if text]
    dense = SentenceTransformer(str(prompted_dense), device="cpu")
    query = dense.encode_query(["guitar music"])[0].astype(np.float64)
    documents = dense.encode_document(corpus).astype(np.float64)
    scores = documents @ query / (np.linalg.norm(documents, axis=1) * np.linalg.norm(query))
    found = Explorer(str(prompted_dense), device="cpu").search("guitar music", corpus, k=len(corpus))
    expected = np.argsort(-scores, kind="stable")
    assert found["text"].tolist() == [corpus[i] for i in expected]
    np.testing.assert_allclose(found["score"], scores[expected], atol=1e-5)

    folder = str(sparse_folders["splade-prompted"])
    sparse = SparseEncoder(folder, device="cpu")
    rows = sparse.encode_document(corpus, convert_to_sparse_tensor=True).to_dense().numpy().astype(np.float64)
    asked = sparse.encode_query(["guitar music"], convert_to_sparse_tensor=True).to_dense().numpy()[0]
    cosines = rows @ asked / (np.linalg.norm(rows, axis=1) * np.linalg.norm(asked))  # its similarity: cosine
    hits = Explorer(folder, device="cpu").search("guitar music", corpus, k=len(corpus))
    by_text = dict(zip(corpus, cosines))
    np.testing.assert_allclose(hits["score"], [by_text[text] for text in hits["text"]], atol=1e-5)
    assert hits["score"].is_monotonic_decreasing and set(hits["text"]) == {t for t in corpus if by_text[t] > 0}


def test_recall_equals_information_retrieval_evaluator(explorer, reference):
    corpus = [text for text in TEXTS if text]
    relevant = {"Someone plays guitar.": ["A man is playing a guitar.", "A man plays the guitar on stage."],
                "Cutting an onion.": "A woman slices an onion.",
                "A cat is sleeping.": ["A kitten naps on the couch.", "Not in the corpus at all."],
                "The stock market fell.": "Markets dropped at the start of the week.",
                "A kitten naps on the couch.": "The cat sleeps on the sofa."}  # a query that is in the corpus
    found = explorer.recall(relevant, corpus, k=(1, 2, 5))
    task = build_task("reference", {query: {texts} if isinstance(texts, str) else set(texts)
                                    for query, texts in relevant.items()}, corpus)
    expected = information_retrieval(task, reference.encode_query(task.queries), reference.encode_document(corpus),
                                     [1, 2, 5])
    assert set(found) == {"recall@1", "recall@2", "recall@5", "mrr@10", "ndcg@10"}
    for key, value in found.items():
        assert value == pytest.approx(expected[f"cosine_{key}"], abs=1e-6), key


def test_why_splits_the_cosine_exactly_over_token_pairs(explorer, reference):
    why = explorer.why(TEXTS[0], TEXTS[1])
    assert isinstance(why, Why) and why.figure is why.figures["contributions"]
    a, b = reference.encode(TEXTS[:2]).astype(np.float64)
    assert why.score == pytest.approx(float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b))), abs=1e-5)
    assert why.table["contribution"].sum() == pytest.approx(why.score, abs=1e-6)
    assert float(np.sum(why.figure.data[0].z)) == pytest.approx(why.score, abs=1e-6)
    states, mask, _, _ = hidden_states(TEXTS[:2])
    at_two = pooled(states, mask, "mean")[2]
    assert explorer.why(TEXTS[0], TEXTS[1], layer=2).score == pytest.approx(cosines(at_two)[0, 1], abs=1e-4)


def test_a_pooling_without_an_exact_split_says_so_and_integrated_gradients_explain_it(reference):
    ex = Explorer(MINILM, pooling="cls", device="cpu")
    with pytest.raises(NoExactSplit, match="^cls pooling .* gives the score no split over token pairs"):
        ex.why(TEXTS[0], TEXTS[1])
    why = ex.why(TEXTS[0], TEXTS[1], method="ig", steps=8)
    states, mask, batch, _ = hidden_states(TEXTS[:2])
    assert why.score == pytest.approx(cosines(pooled(states, mask, "cls")[-1])[0, 1], abs=1e-4)
    assert set(why.figures) == {"A", "B"} and why.figure is why.figures["A"]
    tokens = int(batch["attention_mask"][0].sum())
    assert len(why.figure.data[0].y) == tokens == (why.table["text"] == "A").sum()


def test_compare_gives_the_cka_of_both_configurations_vectors(explorer, reference):
    texts = [text for text in TEXTS if text]
    other = Explorer(MINILM, pooling="cls", layer=2, device="cpu")
    found = explorer.compare(other, texts, k=3)
    assert set(found) == {"cka", "neighbour_overlap@3", "rsa_spearman", "procrustes", "texts"}
    states, mask, _, _ = hidden_states(texts)
    assert found["cka"] == pytest.approx(numpy_cka(reference.encode(texts), pooled(states, mask, "cls")[2]),
                                         abs=1e-4)
    assert found["texts"] == len(texts)
    same = explorer.compare(MINILM, texts)
    assert same["cka"] == pytest.approx(1.0) and same["neighbour_overlap@4"] == 1.0


def test_a_sparse_model_embeds_its_csr_rows_as_core_embed_writes_them(sparse_folders, tmp_path):
    folder = str(sparse_folders["inference-free"])
    ex = Explorer(folder, device="cpu")
    encoder = SparseEncoder(folder, device="cpu")
    for role, encode in (("document", encoder.encode_document), ("query", encoder.encode_query)):
        found = ex.embed(TEXTS, role=role)
        written = sp.load_npz(embedded(tmp_path, TEXTS, f"{role}.npz", "--model", folder, "--role", role))
        assert sp.isspmatrix_csr(found) or isinstance(found, sp.csr_array)
        assert (found != written).nnz == 0
        np.testing.assert_allclose(found.toarray(), encode(TEXTS).to_dense().numpy(), atol=1e-5)


def test_a_sparse_models_heatmap_and_why_are_its_own_similarity(sparse_folders):
    folder = str(sparse_folders["splade"])
    ex = Explorer(folder, device="cpu")
    encoder = SparseEncoder(folder, device="cpu")
    texts = [text for text in TEXTS if text][:6]
    vectors = encoder.encode(texts)
    expected = encoder.similarity(vectors, vectors).numpy()
    figure = ex.similarity(texts)
    heatmap = figure.data[0]
    np.testing.assert_allclose(np.array(heatmap.z, dtype=float), expected, rtol=1e-5, atol=1e-5)
    assert figure.layout.title.text == f"{folder} · sparse, {ex.model.default_pooling} · dot"
    assert heatmap.zmax == pytest.approx(float(expected.max()), rel=1e-5)  # a dot product's colours are fitted
    why = ex.why(texts[0], texts[1])
    assert why.score == pytest.approx(float(expected[0, 1]), rel=1e-5, abs=1e-6)
    assert why.table["contribution"].sum() == pytest.approx(why.score, rel=1e-5, abs=1e-6)
    with pytest.raises(ValueError, match="^metric is|leave metric out"):
        ex.similarity(texts, metric="euclidean")


def test_a_late_interaction_model_embeds_its_token_vectors_as_core_embed_writes_them(late_folders, tmp_path):
    folder = str(late_folders["colbert"])
    ex = Explorer(folder, device="cpu")
    encoder = MultiVectorEncoder(folder, device="cpu", local_files_only=True)
    for role, encode in (("document", encoder.encode_document), ("query", encoder.encode_query)):
        found = ex.embed(TEXTS, role=role)
        table = pq.read_table(embedded(tmp_path, TEXTS, f"{role}.parquet", "--model", folder, "--role", role))
        assert isinstance(found, list) and len(found) == len(TEXTS)
        for row, (ours, theirs) in enumerate(zip(found, encode(TEXTS))):
            np.testing.assert_array_equal(ours, np.asarray(table.column("token_vectors")[row].as_py(), np.float32))
            np.testing.assert_allclose(ours, theirs.numpy(), atol=1e-6)


def test_a_late_interaction_models_heatmap_and_why_are_its_maxsim(late_folders):
    folder = str(late_folders["colbert"])
    ex = Explorer(folder, device="cpu")
    encoder = MultiVectorEncoder(folder, device="cpu", local_files_only=True)
    texts = [text for text in TEXTS if text][:5]
    expected = encoder.similarity(encoder.encode_query(texts), encoder.encode_document(texts)).numpy()
    figure = ex.similarity(texts)
    np.testing.assert_allclose(np.array(figure.data[0].z, dtype=float), expected, rtol=1e-5, atol=1e-5)
    assert "rows are queries, columns documents" in figure.layout.title.text
    why = ex.why(texts[0], texts[1])
    assert why.score == pytest.approx(float(expected[0, 1]), rel=1e-5)
    assert why.table["share"].sum() == pytest.approx(why.score, rel=1e-5)
    hits = ex.search("a guitar", texts, k=3)
    scores = encoder.similarity(encoder.encode_query(["a guitar"]), encoder.encode_document(texts)).numpy()[0]
    assert_top_order([texts.index(text) for text in hits["text"]], scores, 3)  # random weights: near ties either way
    with pytest.raises(ValueError, match="late-interaction model keeps no sentence vector"):
        ex.layers(BANK, curves="sentence")


def test_a_reranker_is_refused_in_the_sentence_core_embed_says(reranker_folder, tmp_path, capsys):
    with pytest.raises(ModelUnavailable) as refused:
        Explorer(str(reranker_folder), device="cpu").embed(TEXTS)
    said = str(refused.value)
    assert "\n" not in said and "is a reranker (a CrossEncoder)" in said
    source = tmp_path / "in.txt"
    source.write_text("a text\n", encoding="utf-8")
    assert main(["embed", "--model", str(reranker_folder), "--input", str(source), "--output",
                 str(tmp_path / "x.npy")]) == 1
    assert capsys.readouterr().err == f"error: {said}\n"


@pytest.mark.parametrize("options, error, said", [
    (dict(model="no-such-model"), ModelUnavailable, "'no-such-model' is not in the local Hugging Face cache"),
    (dict(model=MINILM, layer=9), ValueError, "Layer 9 does not exist: all-MiniLM-L6-v2 has layers 0 to 6."),
    (dict(model=MINILM, pooling="median"), ValueError, "Unknown pooling 'median'"),
    (dict(model=MINILM, device="tpu"), ValueError, "Unknown device 'tpu'"),
])
def test_a_model_or_option_the_app_refuses_raises_its_one_sentence(options, error, said):
    with pytest.raises(error) as refused:
        Explorer(**options)
    assert str(refused.value).startswith(said) and "\n" not in str(refused.value)


@pytest.mark.parametrize("options, said", [
    (dict(layer=0), "layer=0 does not apply to a sparse model; leave it out."),
    (dict(pooling="cls", normalize=True), "pooling='cls' and normalize=True do not apply to a sparse model; leave "
                                          "them out."),
    (dict(layer=1, truncate_dim=8), "layer=1 and truncate_dim=8 do not apply to a sparse model; leave them out."),
])
def test_options_that_do_not_apply_to_the_kind_are_refused_in_its_sentence_by_keyword(sparse_folders, options, said):
    with pytest.raises(ValueError) as refused:
        Explorer(str(sparse_folders["splade"]), device="cpu", **options)
    assert str(refused.value) == said


def test_probe_gives_the_commands_rows_with_the_pages_figure_and_the_report(explorer):
    from core.data.stsb import stsb_sample
    from tests.probing import mean_pooled, nested_cv, text_groups

    sample = stsb_sample(120, seed=4)
    rows = explorer.probe(sample["text"].tolist(), sample["genre"].tolist(), layers=[2])
    assert list(rows.columns)[:3] == ["layer", "accuracy", "accuracy_low"] and rows["layer"].tolist() == [2]
    codes = np.asarray([list(dict.fromkeys(sample["genre"])).index(g) for g in sample["genre"]])
    expected, _ = nested_cv(mean_pooled(sample["text"].tolist(), 2), codes, text_groups(sample["text"]))
    assert rows["accuracy"].iloc[0] == pytest.approx(np.mean(expected), abs=1e-9)
    assert [trace.name for trace in rows.figure.data][1] == "probe"
    assert rows.report.confusion(2).to_numpy().sum() == 120


def test_rows_opened_from_a_store_are_probed_by_a_metadata_column_as_their_texts_and_labels_are(explorer, tmp_path):
    import pandas as pd

    from core.data.rows import ROW_ID, text_row_ids
    from core.data.stores.reading import write_store
    from core.data.stsb import stsb_sample
    from core.data.vectors import VectorCorpus
    from tests.extras import extra_module

    extra_module("lancedb", "The vector stores' clients are an optional extra: `make stores`")
    sample = stsb_sample(120, seed=4)
    texts, genres = sample["text"].tolist(), sample["genre"].tolist()
    uri = f"lancedb://{tmp_path}/docs"
    write_store(uri, VectorCorpus(texts, np.zeros((len(texts), 4), np.float32),  # probes embed the texts again
                                  pd.DataFrame({ROW_ID: text_row_ids(texts), "genre": genres})))
    stored = explorer.open(uri)
    pd.testing.assert_frame_equal(explorer.probe(stored, "genre", layers=[2]),
                                  explorer.probe(texts, genres, layers=[2]))
    with pytest.raises(ValueError, match="The rows have no column 'topic'; their columns are row_id, genre."):
        explorer.probe(stored, "topic")
    with pytest.raises(TypeError, match="a column's name is read from rows `open` returned"):
        explorer.probe(texts, "genre")


def test_direction_scores_every_text_along_the_probe_of_two_labels(explorer):
    from core.data.stsb import stsb_sample

    sample = stsb_sample(120, seed=4)
    table = explorer.direction(sample["text"].tolist(), sample["genre"].tolist(), "captions", "news", layer=3)
    assert len(table) == 120 and table["score"].is_monotonic_decreasing
    assert (table.head(10)["label"] == "captions").mean() >= 0.8  # the highest scores are captions
    assert table.attrs["p_value"] < 0.05 and table.attrs["separation"] > 1
    with pytest.raises(ValueError, match="No text is labelled “sports”"):
        explorer.direction(sample["text"].tolist(), sample["genre"].tolist(), "sports")
