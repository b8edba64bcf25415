"""An uploaded corpus file: the uploader, the parsed table (cached per file) and its text column."""

from __future__ import annotations

import pandas as pd
import streamlit as st
from streamlit.runtime.uploaded_file_manager import UploadedFile

from core.data.uploads import UPLOAD_TYPES, check_size, decode_text, parse_table, text_columns

UPLOAD_HINT = "Upload a .txt file (one text a line) or a .csv / .jsonl file with a text column."


@st.cache_data(show_spinner=False, max_entries=8)
def _parsed(name: str, data: bytes) -> pd.DataFrame:
    return parse_table(name, decode_text(name, data))


def read_table(upload: UploadedFile) -> pd.DataFrame:
    """`core.corpus.read_upload`, parsed once per (name, bytes): a rerun does not read the file again."""
    check_size(upload.name, upload.size)
    return _parsed(upload.name, upload.getvalue())


def uploaded_corpus(*, file_key: str, column_key: str, column_label: str = "Text column", hint: str = UPLOAD_HINT,
                    help: str | None = None) -> tuple[pd.DataFrame, str] | None:
    """The uploaded table and the text column picked in it; None (after showing `hint`) until a file is uploaded.

    Raises `CorpusError` for a file that cannot be read."""
    upload = st.file_uploader("Corpus file", type=list(UPLOAD_TYPES), key=file_key, help=help)
    if upload is None:
        st.info(hint)
        return None
    table = read_table(upload)
    names = text_columns(table)
    if len(names) == 1:  # a .txt file, or a table of one column: nothing to pick
        return table, names[0]
    return table, st.selectbox(column_label, names, key=column_key)
