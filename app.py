"""Embedding Explorer: navigation and the shared sidebar; each page lives in views/."""

import streamlit as st

from ui.sidebar import render_sidebar

st.set_page_config(page_title="Embedding Explorer", page_icon="🔎", layout="wide")

PAGES = [
    st.Page("views/home.py", title="Home", icon="🏠", default=True),
    st.Page("views/similarity.py", title="Similarity", icon="🟥", url_path="similarity"),
    st.Page("views/layers.py", title="Layers", icon="🧅", url_path="layers"),
    st.Page("views/model.py", title="Model", icon="🧩", url_path="model"),
    st.Page("views/retrieval.py", title="Retrieval", icon="🔍", url_path="retrieval"),
    st.Page("views/evaluation.py", title="Evaluation", icon="📏", url_path="evaluation"),
    st.Page("views/map.py", title="Embedding map", icon="🗺️", url_path="map"),
    st.Page("views/finetune.py", title="Fine-tune", icon="🎓", url_path="finetune"),
]

navigation = st.navigation(PAGES)
render_sidebar()
navigation.run()
