"""Similarity with a late-interaction model: the MaxSim matrix of the texts (rows as queries, columns as documents),
equal to sentence-transformers' own similarity of its own encode_query / encode_document; a picked cell's alignment
whose shares sum to that cell; compare mode beside a dense B by rank."""

import numpy as np
import pytest
from scipy.stats import spearmanr

from core.data.examples import EXAMPLES, PARAPHRASE_CLUSTERS
from tests.conftest import app_test_on_model
from tests.figures import figure

PAGE = "views/similarity.py"
TEXTS = EXAMPLES[PARAPHRASE_CLUSTERS]


def _metrics(at) -> dict[str, str]:
    return {metric.label: metric.value for metric in at.metric}


@pytest.fixture(scope="module")
def reference(late_folders):
    from sentence_transformers import MultiVectorEncoder

    model = MultiVectorEncoder(str(late_folders["colbert"]), device="cpu", local_files_only=True)
    return model.similarity(model.encode_query(TEXTS), model.encode_document(TEXTS)).numpy()


def test_the_matrix_is_maxsim_of_queries_against_documents_and_says_it_is_not_symmetric(late_folders, reference):
    at = app_test_on_model(str(late_folders["colbert"]), PAGE)
    assert not at.exception and not at.error
    assert not any("does not show" in info.value for info in at.info)
    z = np.asarray(figure(at, "sim_heatmap").data[0].z)
    np.testing.assert_allclose(z, reference, rtol=1e-5, atol=1e-5)
    assert "not symmetric" in " ".join(caption.value for caption in at.caption)
    assert float(_metrics(at)["Mean off-diagonal MaxSim"]) == pytest.approx(
        reference[~np.eye(len(TEXTS), dtype=bool)].mean(), abs=1e-3)


def test_a_picked_cell_shows_its_alignment_whose_shares_sum_to_the_cell(late_folders, reference):
    at = app_test_on_model(str(late_folders["colbert"]), PAGE)
    query, document = (box for box in at.main.selectbox if box.label.startswith("Text "))
    query.set_value(4).run()
    document.set_value(1).run()
    metrics = _metrics(at)
    score = float(metrics["MaxSim of A for B"])
    assert score == pytest.approx(reference[4, 1], abs=1e-4)
    parts = [float(metrics[name]) for name in ("Share of A's own tokens", "Share of the query expansion",
                                               "Share of the prompt or marker")]
    assert sum(parts) == pytest.approx(score, abs=3e-4) and parts[1] > 0  # the expansion matches too
    shown = figure(at, "sim_why_alignment")
    bars = [trace for trace in shown.data if trace.type == "bar"]
    assert sum(float(np.sum(bar.x)) for bar in bars) == pytest.approx(reference[4, 1], abs=1e-4)
    assert {bar.name for bar in bars} == {"the text's tokens", "query expansion", "prompt or marker"}
    grid = next(trace for trace in shown.data if trace.type == "heatmap")
    boxes = next(trace for trace in shown.data if trace.type == "scatter" and trace.showlegend)
    maxima = [grid.x[int(np.argmax(row))] for row in np.asarray(grid.z)]
    assert list(boxes.x) == maxima  # each row's box is on its maximum
    table = at.dataframe[-1].value
    assert table["share"].sum() == pytest.approx(reference[4, 1], abs=1e-4)


def test_compare_mode_sets_a_dense_b_beside_it_by_rank(late_folders):
    at = app_test_on_model(str(late_folders["colbert"]), PAGE)
    at.toggle(key="sim_compare").set_value(True).run()
    assert not at.exception and not at.error
    a = np.asarray(figure(at, "sim_heatmap").data[0].z)
    b = np.asarray(figure(at, "sim_b_heatmap").data[0].z)
    assert np.allclose(b, b.T, atol=1e-6) and not np.allclose(a, a.T)
    off = ~np.eye(len(TEXTS), dtype=bool)
    assert float(_metrics(at)["Rank agreement (Spearman ρ)"]) == pytest.approx(
        spearmanr(a[off], b[off]).statistic, abs=1e-3)
    assert not any(chart.proto.id.endswith("-sim_diff_heatmap") for chart in at.get("plotly_chart"))
    assert "rank" in at.table[0].value.columns[0]
