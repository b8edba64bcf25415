"""The Model page's view of a late-interaction model: a typed text's tokens as a query and as a document (its prompt
or marker, the query expansion and the skiplist's drops marked), the bytes their vectors take beside one dense
vector, and what the built-in corpus takes."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from core.analysis.late.alignment import BYTES_PER_VALUE
from core.analysis.late.storage import storage_sentence
from core.data.stsb import DataUnavailable
from core.encoding.late.tokens import TOKEN_USES, TokenUses, token_uses
from core.models.loading import LoadedModel
from core.plots.late.tokens import token_uses_figure
from core.progress import byte_size
from ui.components.downloads import csv_download
from ui.state.persist import kept
from ui.work.cache import builtin_storage_of

EXAMPLE = "Where do cats sleep? On the warm rug, mostly."


def _table(sides: dict[str, TokenUses], width: int) -> pd.DataFrame:
    # the use's column keeps its name "kind", as earlier downloads of this CSV have it
    return pd.DataFrame([{"role": role, "position": i, "token": token, "kind": TOKEN_USES[use],
                          "bytes": 0 if use in ("dropped", "unscored") else width * BYTES_PER_VALUE}
                         for role, side in sides.items()
                         for i, (token, use) in enumerate(zip(side.tokens, side.uses))])


def late_tokens_view(model: LoadedModel) -> None:
    pipeline = model.late_pipeline
    st.header("Tokens as vectors")
    text = kept(st.text_area, "Text to read as a query and as a document", key="model_late_text", url=True,
                default=EXAMPLE, height=80).strip()
    if not text:
        st.info("Type a text above to see which of its tokens become vectors as a query and as a document.")
        return
    sides = {role: token_uses(model, text, role=role) for role in ("query", "document")}
    width = pipeline.width
    query, document, dense = st.columns(3)
    for column, role in ((query, "query"), (document, "document")):
        side = sides[role]
        column.metric(f"As a {role}", byte_size(side.vectors * width * BYTES_PER_VALUE),
                      help=f"{side.vectors} vectors × {width} float32 × 4 bytes"
                           + (f" ({side.scored} tokens scored, then pooled)" if side.vectors != side.scored else ""))
    dense.metric("One dense vector", byte_size(model.hidden_size * BYTES_PER_VALUE),
                 help=f"{model.hidden_size} float32: what a dense model on the same transformer keeps per text.")
    st.plotly_chart(token_uses_figure(sides, width), key="model_late_tokens")
    added = sum(use == "expansion" for use in sides["query"].uses)
    st.caption(f"Each box is one token the model reads; every scored one becomes a {width}-dimension vector "
               f"({width * BYTES_PER_VALUE:,} bytes as float32). As a query the text gets {added} expansion tokens "
               "(query expansion: the model scores them like the text's own tokens)"
               + (f"; as a document the skiplist drops {len(pipeline.skiplist)} tokens such as "
                  f"{' '.join(f'`` {word} ``' for word in pipeline.skiplist[:6])}, which keep no vector"
                  if pipeline.skiplist else "")
               + (f"; {pipeline.token_pooling}" if pipeline.token_pooling else "")
               + ". Hover a box for what becomes of it and its bytes.")
    csv_download(_table(sides, width), "late-tokens.csv", index=False, key="model_late_csv")
    try:
        storage = builtin_storage_of(model.model_id, model.fingerprint, _model=model)
    except DataUnavailable as err:
        st.caption(f"The built-in corpus's storage is not shown: {err}")
    else:
        st.caption(storage_sentence(storage, "Retrieval's built-in STS-B corpus"))
