"""The Similarity page's late-interaction matrix is the model's own (every text as a query against every text as a
document), every cell's alignment splits it exactly into its query tokens' shares (a property over random token
vectors, against a brute-force MaxSim written here), and two matrices of different scales are compared by rank."""

import numpy as np
import pandas as pd
import pytest
from scipy.stats import spearmanr

from core.analysis.late.alignment import align, alignment
from core.analysis.late.similarity import (
    alignment_table,
    late_order,
    late_text_similarity,
    rank_agreement,
    rank_moves,
)
from core.encoding.late.tokens import TokenVectors
from core.models.loading import load_model
from tests.multivector import TEXTS


def _text(rng, count: int, width: int) -> TokenVectors:
    vectors = rng.normal(size=(count, width)).astype(np.float32)
    expansion = rng.random(count) < 0.3
    prompt = ~expansion & (rng.random(count) < 0.2)
    return TokenVectors(tuple(f"t{i}" for i in range(count)), vectors, expansion, prompt, (), False)


def _brute(query: TokenVectors, document: TokenVectors, similarity: str) -> list[float]:
    """Each query token's best dot product with a document token, written out (over the token count for MeanMaxSim)."""
    best = [max(sum(float(q) * float(d) for q, d in zip(row, column)) for column in document.vectors)
            for row in query.vectors]
    return [value / len(best) for value in best] if similarity == "meanmaxsim" else best


@pytest.mark.parametrize("seed", range(60))
def test_the_shares_sum_exactly_to_the_score_whatever_the_tokens(seed):
    rng = np.random.default_rng(seed)
    similarity = ("maxsim", "meanmaxsim")[seed % 2]
    width = int(rng.integers(1, 24))
    query, document = _text(rng, int(rng.integers(1, 40)), width), _text(rng, int(rng.integers(1, 60)), width)
    explained = align(query, document, similarity)
    expected = _brute(query, document, similarity)
    np.testing.assert_allclose(explained.shares, expected, rtol=1e-9, atol=1e-9)
    assert explained.score == pytest.approx(sum(expected), rel=1e-12, abs=1e-12)
    parts = explained.typed_share + explained.expansion_share + explained.prompt_share
    assert parts == pytest.approx(explained.score, rel=1e-12, abs=1e-12)
    table = alignment_table(explained)
    assert table["share"].sum() == pytest.approx(explained.score, rel=1e-12, abs=1e-12)
    assert table.groupby("part")["share"].sum().get("expansion", 0.0) == pytest.approx(explained.expansion_share)
    if explained.score:
        assert table["share of the score"].sum() == pytest.approx(1.0)


@pytest.fixture(scope="module", params=["colbert", "pooled-meanmaxsim"])
def model(request, late_folders):
    return load_model(str(late_folders[request.param]), "cpu")


def test_the_matrix_is_the_models_own_similarity_and_every_cell_its_alignments_sum(model):
    from sentence_transformers import MultiVectorEncoder

    reference = MultiVectorEncoder(str(model.folder), device="cpu", local_files_only=True)
    expected = reference.similarity(reference.encode_query(TEXTS), reference.encode_document(TEXTS)).numpy()
    result = late_text_similarity(model, TEXTS, reorder=True)
    np.testing.assert_allclose(result.matrix, expected, rtol=1e-5, atol=1e-5)
    assert not np.allclose(result.matrix, result.matrix.T)
    assert sorted(result.order) == list(range(len(TEXTS)))
    cells = [result.matrix[i, j] for i in range(len(TEXTS)) for j in range(len(TEXTS)) if i != j]
    assert result.mean == pytest.approx(float(np.mean(cells)))
    for i, query in enumerate(result.queries):
        for j, document in enumerate(result.documents):
            assert alignment(model, query, document).score == pytest.approx(result.matrix[i, j], abs=1e-5)


def test_rank_agreement_is_spearman_over_every_cell_off_the_diagonal():
    rng = np.random.default_rng(0)
    a, b = rng.normal(size=(7, 7)), rng.normal(size=(7, 7))
    cells = [(i, j) for i in range(7) for j in range(7) if i != j]
    expected = spearmanr([a[c] for c in cells], [b[c] for c in cells]).statistic
    assert rank_agreement(a, b) == pytest.approx(expected)
    assert rank_agreement(a, np.exp(3 * a) - 5) == pytest.approx(1.0)  # any increasing change of scale
    assert rank_agreement(a[:2, :2], b[:2, :2]) is None


def test_rank_moves_are_percentile_changes_largest_first():
    rng = np.random.default_rng(1)
    texts = [f"text {i}" for i in range(6)]
    a, b = rng.normal(size=(6, 6)), rng.normal(size=(6, 6))
    moved = rank_moves(texts, a, b, top=40)
    cells = [(i, j) for i in range(6) for j in range(6) if i != j]
    percent = {name: pd.Series([m[c] for c in cells]).rank().sub(1).mul(100 / (len(cells) - 1))
               for name, m in (("A", a), ("B", b))}
    change = (percent["B"] - percent["A"]).to_numpy()
    assert len(moved) == len(cells)
    np.testing.assert_allclose(moved["rank change (B − A)"].abs(), np.sort(np.abs(change))[::-1])
    first = int(np.argmax(np.abs(change)))
    assert (moved.loc[0, "query"], moved.loc[0, "document"]) == (texts[cells[first][0]], texts[cells[first][1]])
    assert not rank_moves(texts, a, 2 * a + 1)["rank change (B − A)"].any()


def test_the_cluster_order_puts_texts_that_score_each_other_high_together():
    matrix = np.full((4, 4), 1.0)
    matrix[np.ix_([0, 2], [0, 2])] = matrix[np.ix_([1, 3], [1, 3])] = 9.0
    matrix[0, 2] = 8.0  # not symmetric: the mean of both directions counts
    order = late_order(matrix)
    assert abs(order.index(0) - order.index(2)) == 1 and abs(order.index(1) - order.index(3)) == 1
