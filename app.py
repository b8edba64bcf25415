"""Embedding Explorer: navigation and the shared sidebar; each page lives in views/."""

import streamlit as st

from core.jobs import JOBS
from ui.background import warm_up
from ui.icon import app_icon
from ui.persist import forget_other_pages
from ui.sidebar import render_sidebar

st.set_page_config(page_title="Embedding Explorer", page_icon=app_icon(), layout="wide")

PAGES = [
    st.Page("views/home.py", title="Home", icon=":material/home:", default=True),
    st.Page("views/lessons.py", title="Lessons", icon=":material/school:", url_path="lessons"),
    st.Page("views/similarity.py", title="Similarity", icon=":material/grid_on:", url_path="similarity"),
    st.Page("views/layers.py", title="Layers", icon=":material/stacked_line_chart:", url_path="layers"),
    st.Page("views/model.py", title="Model", icon=":material/memory:", url_path="model"),
    st.Page("views/retrieval.py", title="Retrieval", icon=":material/search:", url_path="retrieval"),
    st.Page("views/evaluation.py", title="Evaluation", icon=":material/fact_check:", url_path="evaluation"),
    st.Page("views/map.py", title="Embedding map", icon=":material/scatter_plot:", url_path="map"),
    st.Page("views/finetune.py", title="Fine-tune", icon=":material/model_training:", url_path="finetune"),
]

navigation = st.navigation(PAGES)
forget_other_pages(navigation.url_path)
with JOBS.interactive():  # background jobs wait while a page runs
    render_sidebar()
    warm_up()
    navigation.run()
