"""Embedding Explorer: navigation and the shared sidebar; each page lives in views/."""

from pathlib import Path

import streamlit as st

from core.jobs import JOBS
from ui.components.icon import app_icon
from ui.components.sidebar import render_sidebar
from ui.state.page_registry import PAGES as PAGE_REGISTRY
from ui.state.persist import forget_other_pages
from ui.work.background import serve_many_sessions, warm_up

st.set_page_config(page_title="Embedding Explorer", page_icon=app_icon(), layout="wide")
st.html(Path(__file__).parent / "ui" / "app.css")  # a style element only: it takes no space on the page

PAGES = [st.Page(page.file, title=page.title, icon=page.icon, default=page.default,
                 **({} if page.default else {"url_path": page.url_path})) for page in PAGE_REGISTRY]

serve_many_sessions()
navigation = st.navigation(PAGES)
forget_other_pages(navigation.url_path)
with JOBS.interactive():  # background jobs wait while a page runs
    render_sidebar()
    warm_up()
    navigation.run()
