"""Embedding Explorer: navigation and the shared sidebar; each page lives in pages/."""

import streamlit as st

from ui.sidebar import render_sidebar

st.set_page_config(page_title="Embedding Explorer", page_icon="🔎", layout="wide")

PAGES = [
    st.Page("views/home.py", title="Home", icon="🏠", default=True),
    st.Page("views/similarity.py", title="Similarity", icon="🟥", url_path="similarity"),
    st.Page("views/layers.py", title="Layers", icon="🧅", url_path="layers"),
    st.Page("views/model.py", title="Model", icon="🧩", url_path="model"),
    st.Page("views/map.py", title="Embedding map", icon="🗺️", url_path="map"),
]

navigation = st.navigation(PAGES)
render_sidebar()
navigation.run()
