"""The late-interaction figures draw what they are given: every token in its role's line with its use's colour and
its bytes; every row's best match boxed at the row's maximum, the share bars adding up to the score."""

import numpy as np
import pytest

from core.analysis.late.alignment import align
from core.encoding.late.tokens import TokenUses, TokenVectors
from core.plots.late.tokens import PER_LINE, USE_COLOURS, alignment_figure, token_uses_figure


def test_each_token_sits_in_its_roles_line_coloured_by_use_with_its_bytes():
    query = TokenUses(("[CLS]", "query", "cat", "[SEP]", *["[MASK]"] * 16),
                      ("special", "prompt", "typed", "special", *["expansion"] * 16), 20)
    document = TokenUses(("[CLS]", "cat", "!", "[SEP]"), ("special", "typed", "dropped", "special"), 3)
    figure = token_uses_figure({"query": query, "document": document}, width=8)
    grid = figure.data[0]
    assert list(grid.y) == ["query: 20 vectors, 640 B", "query, tokens 17–20", "document: 3 vectors, 96 B"]
    uses = list(USE_COLOURS)
    flat = [code for row in grid.z for code in row if code is not None]
    assert [uses[code] for code in flat] == [*query.uses, *document.uses]
    assert len(grid.z[0]) == PER_LINE
    hover = [cell for row in grid.customdata for cell in row if cell]
    assert sum("32 bytes" in cell for cell in hover) == 23 and sum("0 bytes" in cell for cell in hover) == 1
    assert {trace.name for trace in figure.data[1:]} == {"from the text", "the tokenizer's own ([CLS], [SEP] …)",
                                                         "the role's prompt or marker", "query expansion",
                                                         "dropped by the skiplist"}


@pytest.mark.parametrize("similarity", ["maxsim", "meanmaxsim"])
def test_each_rows_box_is_on_its_maximum_and_the_bars_sum_to_the_score(similarity):
    rng = np.random.default_rng(3)
    count = 7
    query = TokenVectors(tuple(f"q{i}" for i in range(count)), rng.normal(size=(count, 5)).astype(np.float32),
                         np.array([0, 0, 0, 0, 0, 1, 1], bool), np.array([0, 1, 0, 0, 0, 0, 0], bool), (), False)
    document = TokenVectors(tuple(f"d{i}" for i in range(9)), rng.normal(size=(9, 5)).astype(np.float32),
                            np.zeros(9, bool), np.zeros(9, bool), (), False)
    figure = alignment_figure(align(query, document, similarity))
    grid = figure.data[0]
    z = np.asarray(grid.z)
    np.testing.assert_allclose(z, query.vectors.astype(np.float64) @ document.vectors.astype(np.float64).T, atol=1e-6)
    boxes = [trace for trace in figure.data if trace.type == "scatter" and trace.showlegend][0]
    assert list(boxes.x) == [grid.x[int(np.argmax(row))] for row in z]
    bars = {trace.name: np.asarray(trace.x) for trace in figure.data if trace.type == "bar"}
    total = sum(bar.sum() for bar in bars.values())
    best = z.max(axis=1)
    assert total == pytest.approx(best.sum() / (count if similarity == "meanmaxsim" else 1))
    assert bars["query expansion"].sum() == pytest.approx(best[5:].sum() / (count if similarity == "meanmaxsim" else 1))
    assert len(bars["prompt or marker"]) == 1 and len(bars["the text's tokens"]) == 4
