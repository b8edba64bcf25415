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
