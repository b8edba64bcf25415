"""Every figure's numbers can be downloaded."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from core.data.export import spreadsheet_safe


def csv_download(frame: pd.DataFrame, file_name: str, label: str = "Download CSV", *, index: bool = True,
                 key: str | None = None) -> None:
    """The CSV is written when the button is pressed, not on every rerun (it was a tenth of a page's work)."""
    st.download_button(label, lambda: spreadsheet_safe(frame).to_csv(index=index).encode("utf-8"),
                       file_name=file_name, mime="text/csv", key=key or f"download-{file_name}")
