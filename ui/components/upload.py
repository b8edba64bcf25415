"""An uploaded corpus file: the uploader, the parsed table (cached per file) and its text column."""

from __future__ import annotations

import pandas as pd
import streamlit as st
from streamlit.runtime.uploaded_file_manager import UploadedFile

from core.data.uploads import UPLOAD_TYPES, read_upload, text_columns

UPLOAD_HINT = "Upload a .txt file (one text a line) or a .csv / .jsonl file with a text column."


@st.cache_data(show_spinner=False, max_entries=8)
def _parsed(file_id: str, _upload: UploadedFile) -> pd.DataFrame:
    return read_upload(_upload)


def read_table(upload: UploadedFile) -> pd.DataFrame:
    """`core.data.uploads.read_upload` (the size checked before the file is read), once per uploaded file: a rerun
    does not read it again."""
    return _parsed(upload.file_id, upload)


def uploaded_corpus(*, file_key: str, column_key: str, column_label: str = "Text column", hint: str = UPLOAD_HINT,
                    help: str | None = None, label: str = "Corpus file") -> tuple[pd.DataFrame, str] | None:
    """The uploaded table and the text column picked in it; None (after showing `hint`) until a file is uploaded.

    Raises `CorpusError` for a file that cannot be read."""
    upload = st.file_uploader(label, type=list(UPLOAD_TYPES), key=file_key, help=help)
    if upload is None:
        st.info(hint)
        return None
    table = read_table(upload)
    names = text_columns(table)
    if len(names) == 1:  # a .txt file, or a table of one column: nothing to pick
        return table, names[0]
    return table, st.selectbox(column_label, names, key=column_key)
