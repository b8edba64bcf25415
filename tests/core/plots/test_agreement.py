import numpy as np

from core.plots.agreement import cka_heatmap


def test_cka_heatmap_puts_as_layers_on_rows_on_a_fixed_scale_and_escapes_names():
    matrix = np.random.default_rng(0).uniform(size=(7, 13))
    fig = cka_heatmap(matrix, a_name="all-MiniLM-L6-v2", b_name="<b>mpnet</b>")
    heat = fig.data[0]
    np.testing.assert_array_equal(heat.z, matrix)
    assert (heat.zmin, heat.zmax) == (0, 1) and heat.texttemplate == "%{z:.2f}"
    assert list(heat.y) == list(range(7)) and list(heat.x) == list(range(13))
    assert fig.layout.yaxis.title.text == "all-MiniLM-L6-v2: layer" and fig.layout.yaxis.autorange == "reversed"
    assert "<b>" not in fig.layout.xaxis.title.text and "&lt;b&gt;mpnet" in heat.hovertemplate


def test_the_drift_curve_draws_each_measure_at_its_checkpoints():
    from core.plots.finetune import drift_curve, drift_frame

    points = [{"step": 0, "cka": 1.0, "overlap": 1.0, "spearman": 0.8},
              {"step": 5, "cka": 0.9, "overlap": 0.6, "spearman": 0.84},
              {"step": 10, "cka": 0.85, "overlap": 0.5, "spearman": -0.1}]
    fig = drift_curve(points, total=10)
    assert [trace.name for trace in fig.data] == ["CKA with the start", "neighbours kept (overlap@10)",
                                                  "STS-B Spearman (probe pairs)"]
    assert list(fig.data[1].x) == [0, 5, 10] and list(fig.data[1].y) == [1.0, 0.6, 0.5]
    assert fig.layout.yaxis.range[0] < -0.1  # a negative Spearman stays on the axis
    assert drift_frame(points).columns.tolist() == ["step", "cka", "overlap", "spearman"]
