"""One lesson on the Lessons page: the question, what to do, a button that opens the right page with the lesson's
inputs (and a link that does the same), the expected observation checked on the current model, questions and a
next step."""

from __future__ import annotations

from urllib.parse import urlencode, urlsplit

import streamlit as st

from core.lessons.checks import CHECKS, Check, Context, stand_in
from core.lessons.lessons import LESSONS, Lesson
from core.models.catalog import ModelUnavailable
from core.models.loading import LoadedModel
from core.settings import Settings
from ui.components.rerank import reranker_choice
from ui.components.rerank_explain import rerank_explanation
from ui.state.page_registry import BY_PATH
from ui.state.persist import set_kept
from ui.state.url_codec import encode
from ui.state.url_state import settings_to_query
from ui.work.cache import cached_model
from ui.work.progress import progress_bar

CHECKED = "les_checks"  # session key: (weights, settings) -> {lesson number: Check}, for the sheet


def lesson_query(lesson: Lesson, settings: Settings, instead: str | None = None) -> dict[str, str]:
    """The query string that opens the lesson's page with its inputs under these sidebar settings (on the lesson's
    own model where it names one, else on the model `instead` of the sidebar's where one is given)."""
    inputs = {key: encode(value) for key, value in lesson.inputs.items()}
    model_id = lesson.model or instead
    opened = settings if model_id is None else Settings(model_id=model_id, device=settings.device)
    return {**settings_to_query(opened), **{key: value for key, value in inputs.items() if value is not None}}


def _link(lesson: Lesson, settings: Settings, instead: str | None) -> str:
    parts = urlsplit(st.context.url or "")
    base = f"{parts.scheme}://{parts.netloc}" if parts.netloc else ""
    return f"{base}/{lesson.page}?{urlencode(lesson_query(lesson, settings, instead))}"


def _open(lesson: Lesson, settings: Settings, instead: str | None) -> None:
    for key, value in lesson.inputs.items():
        set_kept(key, value)  # the page may have been visited already: its inputs become the lesson's
    if lesson.model or instead:
        st.session_state._reset_model = lesson.model or instead  # the sidebar picks it before it draws the list
    st.switch_page(BY_PATH[lesson.page].file, query_params=lesson_query(lesson, settings, instead))


@st.cache_data(show_spinner=False, max_entries=64)
def _checked(number: int, check: str, fingerprint: str, settings: Settings, _model: LoadedModel,
             _progress=None) -> Check:
    context = Context(_model, settings, lambda model_id: cached_model(model_id, settings.device), _progress,
                      inputs=next(lesson for lesson in LESSONS if lesson.number == number).inputs)
    try:
        return CHECKS[check](context)
    except ModelUnavailable as err:
        return Check(None, f"This lesson needs a model that is not available here: {err}")


def checked_here(settings: Settings, model: LoadedModel) -> dict[int, Check]:
    """The lessons checked in this session on this model with these settings."""
    return st.session_state.setdefault(CHECKED, {}).setdefault((model.fingerprint, settings), {})


def _verdict(check: Check, on: str = "this model") -> None:
    if check.holds is None:
        st.info(check.finding)
    elif check.holds:
        st.success(f"Holds on {on}. {check.finding}")
    else:
        st.warning(f"Does not hold on {on}. {check.finding}")


def lesson_section(lesson: Lesson, settings: Settings, model: LoadedModel) -> None:
    st.markdown(f"**{lesson.question}**")
    st.write(lesson.steps)
    instead = stand_in(lesson.check, model)
    left, right = st.columns([1, 3])
    if left.button(f"Open {BY_PATH[lesson.page].title}", key=f"les_open_{lesson.number}", type="primary"):
        _open(lesson, settings, instead)
    right.caption(f"Or share this view: {_link(lesson, settings, instead)}")
    st.markdown(f"**Expected.** {lesson.expect}")
    checks = checked_here(settings, model)  # the sheet lists every lesson under the sidebar's model
    if instead is not None:
        st.caption(f"This lesson reads one vector per text and {model.model_id} keeps one per token, so it opens and "
                   f"is checked on {instead}.")
        settings, model = Settings(model_id=instead, device=settings.device), cached_model(instead, settings.device)
    if lesson.heavy and lesson.number not in checks:
        if st.button(f"Check it on {model.model_id}", key=f"les_check_{lesson.number}",
                     help="Encodes benchmark data: up to a few minutes the first time on a laptop CPU, then "
                          "cached."):
            with progress_bar(f"Lesson {lesson.number}: encoding") as progress:
                checks[lesson.number] = _checked(lesson.number, lesson.check, model.fingerprint, settings, model,
                                                 _progress=progress)
    elif not lesson.heavy:
        checks[lesson.number] = _checked(lesson.number, lesson.check, model.fingerprint, settings, model)
    if lesson.number in checks:
        _verdict(checks[lesson.number], "this model" if instead is None else instead)
    st.markdown("**To discuss.** " + " ".join(lesson.discussion))
    st.markdown(f"**What if…** {lesson.what_if}")
    if lesson.rerank_pair is not None:
        rerank_closing(lesson.number, lesson.rerank_pair, settings)


def rerank_closing(number: int, pair: tuple[str, str, str], settings: Settings) -> None:
    """The lesson's last step, asked for (it loads a reranker): why the reranker scores the query's first text so, and
    why one of the two texts scores above the other."""
    query, text, other = pair
    if not st.toggle("Last: why does the reranker score them so?", key=f"les_{number}_why",
                     help=f"“{query}” with “{text}”, against “{other}”: each token's share of the reranker's score."):
        return
    reranker = reranker_choice(key=f"les_{number}_reranker", device=settings.device)
    if reranker is not None:
        rerank_explanation(reranker, query, text, key=f"les_{number}_why", versus=other,
                           names=("the first text", "the second text"))
