"""The app's core for a Jupyter notebook: `Explorer(model, …)` embeds texts as `python -m core embed` does and gives
the figures and tables the pages draw, from the same core functions; `Explorer.map(texts)` is the Map page's canvas as
a notebook widget (core.notebook.map_widget.MapWidget, an anywidget: the notebook extra). No Streamlit on this path.

    from core.notebook import Explorer
    ex = Explorer("all-MiniLM-L6-v2")      # pooling=, layer=, device=, max_length=, normalize=, truncate_dim=
    vectors = ex.embed(texts)              # equal to `python -m core embed`'s output
    fig = ex.similarity(texts)             # the Similarity page's heatmap
    m = ex.map(texts)                      # the map widget; labels=, method=, query=
    m.selection                            # the rows selected in the browser, a DataFrame (empty at first)
    stored = ex.open("lancedb://FOLDER/TABLE")  # a vector store's rows; ex.map(stored), ex.search(q, stored)
"""

from typing import Any

from core.kinds import Why
from core.notebook.explorer import Explorer

__all__ = ["Explorer", "MapWidget", "Why"]


def __getattr__(name: str) -> Any:
    """MapWidget is imported when it is asked for: anywidget is the notebook extra, which Explorer alone does not
    need."""
    if name == "MapWidget":
        from core.notebook.map_widget import MapWidget

        return MapWidget
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
