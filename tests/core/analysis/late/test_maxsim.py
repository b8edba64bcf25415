"""Exact MaxSim over token matrices equals sentence-transformers' own scoring (its `maxsim` / `mean_maxsim` and a
MultiVectorEncoder's `similarity` of its own vectors), whatever the blocks it is computed in; its top k is the best k
of every score; the token index's candidates, rescored exactly, find what exact search finds."""

import numpy as np
import pytest
import torch

from core.analysis.late.index import LateIndex, build_late_index, measured_recall, stored_late_index
from core.analysis.late.maxsim import EMPTY_DOCUMENT_SCORE, maxsim_scores, maxsim_top_k
from core.encoding.late.matrix import TokenMatrix
from core.encoding.late.tokens import encode_multivector
from core.models.loading import load_model
from tests.multivector import TEXTS

pytestmark = pytest.mark.usefixtures("one_omp_thread")  # HNSW graphs the same on every run


def ragged(rng, lengths, width=8) -> list[np.ndarray]:
    """Unit token vectors, `lengths[i]` of them for text i."""
    texts = []
    for count in lengths:
        vectors = rng.normal(size=(count, width)).astype(np.float32)
        texts.append(vectors / np.linalg.norm(vectors, axis=1, keepdims=True).clip(1e-6))
    return texts


def stacked(texts: list[np.ndarray]) -> TokenMatrix:
    offsets = np.concatenate([[0], np.cumsum([len(t) for t in texts])]).astype(np.int64)
    return TokenMatrix.bare(np.concatenate(texts).astype(np.float32), offsets)


@pytest.mark.parametrize("mean", [False, True])
@pytest.mark.parametrize("budget", [64, 4096, 64 * 2**20])  # one query token at a time … everything at once
def test_scores_equal_sentence_transformers_maxsim_in_any_blocks(mean, budget):
    from sentence_transformers.util.similarity import maxsim

    rng = np.random.default_rng(0)
    queries = ragged(rng, [5, 1, 12, 3])
    documents = ragged(rng, [7, 0, 1, 30, 4, 0, 9, 2])  # documents with no token score as sentence-transformers says
    expected = maxsim([torch.from_numpy(q) for q in queries], [torch.from_numpy(d) for d in documents],
                      length_normalize=mean).numpy()
    ours = maxsim_scores(stacked(queries).rows(), stacked(documents).rows(), mean=mean, budget=budget)
    np.testing.assert_allclose(ours, expected, rtol=1e-6, atol=1e-5)
    assert (ours[:, [1, 5]] <= EMPTY_DOCUMENT_SCORE / 12).all()


def test_a_slice_of_a_matrix_scores_as_its_own_texts():
    rng = np.random.default_rng(1)
    queries, documents = ragged(rng, [4, 6]), ragged(rng, [3, 5, 2, 8, 1])
    whole = stacked(documents)
    part = maxsim_scores(stacked(queries).rows(), whole[1:4].rows())
    np.testing.assert_allclose(part, maxsim_scores(stacked(queries).rows(), stacked(documents[1:4]).rows()))


@pytest.fixture(scope="module", params=["colbert", "pooled-meanmaxsim", "pylate"])
def late_model(request, late_folders):
    return load_model(str(late_folders[request.param]), "cpu")


def test_scores_equal_the_models_own_similarity_of_encode_query_and_encode_document(late_model):
    from sentence_transformers import MultiVectorEncoder

    reference = MultiVectorEncoder(str(late_model.folder), device="cpu", local_files_only=True)
    expected = reference.similarity(reference.encode_query(TEXTS), reference.encode_document(TEXTS)).numpy()
    queries = TokenMatrix.of(encode_multivector(late_model, TEXTS, role="query"))
    documents = TokenMatrix.of(encode_multivector(late_model, TEXTS, role="document"))
    ours = maxsim_scores(queries.rows(), documents.rows(), mean=late_model.late_pipeline.similarity == "meanmaxsim")
    np.testing.assert_allclose(ours, expected, rtol=1e-5, atol=1e-5)


def test_top_k_is_the_best_k_of_every_score_with_ties_to_the_lower_index():
    rng = np.random.default_rng(2)
    queries = stacked(ragged(rng, [3, 4, 2]))
    texts = ragged(rng, [rng.integers(1, 9) for _ in range(40)])
    texts[17] = texts[5].copy()  # a tie: the lower index ranks first
    corpus = stacked(texts)
    exclude = [{0, 5}, set(), {39}]
    hits = maxsim_top_k(queries, corpus, 7, exclude=exclude)
    q_vectors, q_offsets = queries.rows()
    for q in range(3):
        query = q_vectors[q_offsets[q]:q_offsets[q + 1]]
        brute = np.array([sum(max(float(a @ b) for b in text) for a in query) for text in texts])
        brute[list(exclude[q])] = -np.inf
        order = np.lexsort((np.arange(len(texts)), -np.round(brute, 5)))[:7]
        assert list(hits.indices[q]) == list(order)
        np.testing.assert_allclose(hits.scores[q], brute[order], rtol=1e-5)


def test_candidates_hold_each_query_tokens_nearest_document_tokens():
    rng = np.random.default_rng(3)
    corpus = stacked(ragged(rng, [rng.integers(1, 12) for _ in range(300)], width=16))
    queries = stacked(ragged(rng, [6, 3], width=16))
    index = build_late_index(corpus, exact_up_to=0)
    q_vectors, q_offsets = queries.rows()
    vectors, offsets = corpus.rows()
    for q, found in enumerate(index.candidates(queries)):
        nearest = np.argsort(-(q_vectors[q_offsets[q]:q_offsets[q + 1]] @ vectors.T), axis=1)[:, :3]
        owners = set(np.searchsorted(offsets, nearest.ravel(), side="right") - 1)
        assert owners <= set(found.tolist())  # HNSW on 2,000 tokens finds the 3 nearest of each


def test_with_every_token_fetched_the_index_finds_what_exact_search_finds():
    rng = np.random.default_rng(4)
    corpus = stacked(ragged(rng, [rng.integers(0, 10) for _ in range(120)], width=16))
    queries = stacked(ragged(rng, [5, 8, 2], width=16))
    index = build_late_index(corpus, exact_up_to=0)
    index.neighbours = corpus.token_count
    exact = maxsim_top_k(queries, corpus, 10)
    found = index.search(queries, 10)
    np.testing.assert_array_equal(found.indices, exact.indices)
    np.testing.assert_allclose(found.scores, exact.scores, rtol=1e-6)
    assert measured_recall(index) == 1.0


def test_the_index_reaches_its_recall_goal_and_reads_back_from_disk():
    rng = np.random.default_rng(5)
    corpus = stacked(ragged(rng, [rng.integers(1, 15) for _ in range(400)], width=16))
    built = stored_late_index(corpus, "test-corpus", exact_up_to=0)
    assert built.graph is not None and built.recall_at_10 >= 0.95
    again = stored_late_index(corpus, "test-corpus", exact_up_to=0)
    assert (again.neighbours, again.recall_at_10) == (built.neighbours, built.recall_at_10)
    queries = stacked(ragged(rng, [4, 4], width=16))
    np.testing.assert_array_equal(again.search(queries, 5).indices, built.search(queries, 5).indices)
    assert "recall@10 against exact MaxSim" in built.caption
    small = stored_late_index(corpus, "test-corpus")  # under the threshold: exact, nothing built
    assert isinstance(small, LateIndex) and small.graph is None and small.caption.startswith("exact MaxSim")
