"""Lessons: the classic sentence-embedding lab exercises, one click each, checked on the current model."""

from __future__ import annotations

import streamlit as st

from core.lessons.lessons import LESSONS
from core.lessons.report import lessons_markdown
from core.settings import layer_used
from ui.components.downloads import file_download
from ui.components.sidebar import page
from ui.pages.lessons import checked_here, lesson_section


def main() -> None:
    settings, model = page("Lessons")
    st.caption(f"{len(LESSONS)} short lessons from the classic sentence-embedding labs and today's model choices. "
               f"Each opens the right page with its texts filled in and checks what it expects on the sidebar's model "
               f"({model.model_id}; a lesson about sparse models uses SPLADE-tiny where the sidebar's is dense); "
               "where the model does not show it, the lesson says so. Work through them in order; the sheet below "
               "collects what you found.")
    for lesson in LESSONS:
        with st.expander(f"{lesson.number}. {lesson.title}", expanded=lesson.number == 1):
            lesson_section(lesson, settings, model)
    described = (f"{model.model_id}, {settings.pooling} pooling, layer "
                 f"{layer_used(settings.layer, model.num_layers)}")
    sheet = lessons_markdown(checked_here(settings, model), model_id=model.model_id, settings=described)
    file_download("Download the lesson sheet (Markdown)", sheet, "lessons.md", mime="text/markdown", key="les_sheet")
    st.caption("The sheet lists every lesson's question, what was expected and what this model showed, with the "
               "numbers: ready to hand in.")


main()
