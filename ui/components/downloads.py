"""Every figure's numbers can be downloaded."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pandas as pd
import streamlit as st

from core.data.export import spreadsheet_safe
from core.data.labels import Tags
from core.maps.html import FileRows, MapFileError, check_savable, map_html
from core.plots.map_canvas import CanvasView


def file_download(label: str, data: bytes | str | Callable[[], bytes | str], file_name: str, *, key: str,
                  mime: str | None = None, help: str | None = None, where: Any = st) -> None:
    """A download button (in `where`, a column or container) whose click neither reruns the page nor waits for one:
    `data`, when a callable, is made on the click only. A rerun per click redrew the whole page for nothing, and
    it raced the click's own request for the file."""
    where.download_button(label, data, file_name=file_name, mime=mime, key=key, help=help, on_click="ignore")


def csv_download(frame: pd.DataFrame, file_name: str, label: str = "Download CSV", *, index: bool = True,
                 key: str | None = None) -> None:
    """The CSV is written when the button is pressed, not on every rerun (it was a tenth of a page's work)."""
    file_download(label, lambda: spreadsheet_safe(frame).to_csv(index=index).encode("utf-8"), file_name,
                  mime="text/csv", key=key or f"download-{file_name}")


def map_file_download(canvas: CanvasView, rows: Callable[[], FileRows], tags: Tags, *,
                      label: str = "Download the map as HTML", file_name: str = "map.html",
                      key: str = "map_html") -> None:
    """The map as one HTML file (core.maps.html) of `rows()`, both made when the button is pressed, not on every
    rerun; a map too large for one file says so instead."""
    try:
        check_savable(canvas.view["n"])
    except MapFileError as err:
        st.caption(str(err))
        return
    file_download(label, lambda: map_html(canvas, rows(), tags).encode("utf-8"), file_name,
                  mime="text/html", key=key,
                  help="One file that opens in any browser with no server and no network: hover, zoom, search, "
                       "select, tag and download the selection as CSV.")
