"""Every figure's numbers can be downloaded."""

from __future__ import annotations

import pandas as pd
import streamlit as st


def csv_download(frame: pd.DataFrame, file_name: str, label: str = "Download CSV", *, index: bool = True,
                 key: str | None = None) -> None:
    st.download_button(label, frame.to_csv(index=index).encode("utf-8"), file_name=file_name, mime="text/csv",
                       key=key or f"download-{file_name}")
