"""Every figure's numbers can be downloaded."""

from __future__ import annotations

from collections.abc import Callable

import pandas as pd
import streamlit as st

from core.data.export import spreadsheet_safe
from core.data.labels import Tags
from core.maps.html import FileRows, MapFileError, check_savable, map_html
from core.plots.map_canvas import CanvasView


def csv_download(frame: pd.DataFrame, file_name: str, label: str = "Download CSV", *, index: bool = True,
                 key: str | None = None) -> None:
    """The CSV is written when the button is pressed, not on every rerun (it was a tenth of a page's work)."""
    st.download_button(label, lambda: spreadsheet_safe(frame).to_csv(index=index).encode("utf-8"),
                       file_name=file_name, mime="text/csv", key=key or f"download-{file_name}")


def map_file_download(canvas: CanvasView, rows: Callable[[], FileRows], tags: Tags) -> None:
    """The map as one HTML file (core.maps.html) of `rows()`, both made when the button is pressed, not on every
    rerun; a map too large for one file says so instead."""
    try:
        check_savable(canvas.view["n"])
    except MapFileError as err:
        st.caption(str(err))
        return
    st.download_button("Download the map as HTML", lambda: map_html(canvas, rows(), tags).encode("utf-8"),
                       file_name="map.html", mime="text/html", key="map_html",
                       help="One file that opens in any browser with no server and no network: hover, zoom, "
                            "search, select, tag and download the selection as CSV.")
