"""The app's core for a Jupyter notebook: `Explorer(model, …)` embeds texts as `python -m core embed` does and gives
the figures and tables the pages draw, from the same core functions. No Streamlit on this path. The map widget (an
anywidget over the map canvas) is still to come.

    from core.notebook import Explorer
    ex = Explorer("all-MiniLM-L6-v2")      # pooling=, layer=, device=, max_length=, normalize=, truncate_dim=
    vectors = ex.embed(texts)              # equal to `python -m core embed`'s output
    fig = ex.similarity(texts)             # the Similarity page's heatmap
"""

from core.notebook.explorer import Explorer, Why

__all__ = ["Explorer", "Why"]
