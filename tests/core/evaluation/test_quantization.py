"""Quantised search against sentence-transformers: its InformationRetrievalEvaluator ranking by scores computed
from its own `quantize_embeddings`, and its `semantic_search_faiss` for binary search with and without rescoring."""

import numpy as np
import pytest
import torch
from sentence_transformers.util.quantization import quantize_embeddings, semantic_search_faiss

from core.analysis.search import unit_rows
from core.evaluation.metrics import shown_name
from core.evaluation.quantization import (
    RESCORE_MULTIPLIER,
    CalibrationError,
    bytes_per_vector,
    quantized_search,
)
from core.evaluation.retrieval import build_task
from core.evaluation.variants import CHECK_KS, Embedded, quantization_check
from tests.references import information_retrieval


def _space(seed: int, n_corpus: int = 600, n_queries: int = 120, dims: int = 96, own_texts: int = 0):
    """Seeded vectors and a task over them: each query is a noisy copy of one or two corpus texts; the first
    `own_texts` queries are corpus texts themselves (so their own text is excluded from their ranking)."""
    rng = np.random.default_rng(seed)
    corpus = rng.standard_normal((n_corpus, dims)).astype(np.float32)
    texts = [f"c{i}" for i in range(n_corpus)]
    pairs, queries = {}, []
    for q in range(n_queries):
        docs = rng.choice(n_corpus, size=1 + q % 2, replace=False)
        text = texts[n_corpus - 1 - q] if q < own_texts else f"q{q}"
        pairs[text] = {texts[d] for d in docs}
        queries.append(corpus[docs].mean(axis=0) + 0.9 * rng.standard_normal(dims).astype(np.float32))
    task = build_task("synthetic", pairs, texts)
    return task, unit_rows(np.stack(queries)), unit_rows(corpus)


def _int8_score(corpus):
    def score(a, b):
        codes = [quantize_embeddings(x.numpy(), precision="int8", calibration_embeddings=corpus).astype(np.int64)
                 for x in (a, b)]
        return torch.from_numpy((codes[0] @ codes[1].T).astype(np.float32))
    return score


def _binary_score(a, b):
    bits = [np.unpackbits(quantize_embeddings(x.numpy(), precision="ubinary"), axis=1) for x in (a, b)]
    return -torch.from_numpy((bits[0][:, None, :] != bits[1][None, :, :]).sum(-1).astype(np.float32))


@pytest.mark.parametrize("seed", [0, 1])
def test_float_int8_and_binary_equal_the_evaluator_on_their_scores(seed):
    task, queries, corpus = _space(seed, own_texts=10)
    frame = quantization_check(task, Embedded(queries, corpus)).set_index("precision")
    references = {"float32": information_retrieval(task, queries, corpus, CHECK_KS),
                  "int8": information_retrieval(task, queries, corpus, CHECK_KS, score=_int8_score(corpus)),
                  "binary": information_retrieval(task, queries, corpus, CHECK_KS, score=_binary_score)}
    for precision, reference in references.items():
        expected = {shown_name(k): v for k, v in reference.items() if "accuracy" not in k}
        assert frame.loc[precision, list(expected)].to_dict() == pytest.approx(expected, abs=1e-9), precision


def test_binary_search_and_rescoring_rank_as_semantic_search_faiss():
    task, queries, corpus = _space(3)
    bits = quantize_embeddings(corpus, precision="ubinary")
    for rescore in (False, True):
        found, _ = semantic_search_faiss(queries, corpus_embeddings=bits, corpus_precision="ubinary", top_k=10,
                                         rescore=rescore, rescore_multiplier=RESCORE_MULTIPLIER, exact=True)
        theirs = np.array([[hit["corpus_id"] for hit in row] for row in found])
        ours = quantized_search(queries, corpus, "binary-rescore" if rescore else "binary", 10).hits.indices
        assert (ours == theirs).mean() > 0.99, rescore  # faiss orders equal Hamming distances its own way
        assert (ours[:, 0] == theirs[:, 0]).all()


def test_rescoring_recovers_what_binary_loses_and_sizes_shrink():
    task, queries, corpus = _space(4, dims=256)
    frame = quantization_check(task, Embedded(queries, corpus)).set_index("precision")
    assert frame.loc["binary", "ndcg@10"] < frame.loc["float32", "ndcg@10"]
    assert frame.loc["binary, top 4×k rescored", "ndcg@10"] > frame.loc["binary", "ndcg@10"]
    assert list(frame["bytes per vector"]) == [1024, 256, 32, 32]
    assert (frame["ms per query"] > 0).all()


def test_bytes_per_vector_round_bits_up_to_bytes():
    assert [bytes_per_vector(385, p) for p in ("float32", "int8", "binary")] == [1540, 385, 49]


def test_a_corpus_too_small_to_calibrate_int8_is_refused_with_a_way_forward():
    task, queries, corpus = _space(5, n_corpus=6, n_queries=4)
    with pytest.raises(CalibrationError, match="6 text.*too few.*10 texts or more"):
        quantized_search(queries, corpus, "int8", 10)
    assert quantized_search(queries, corpus, "binary", 3).hits.indices.shape == (4, 3)
