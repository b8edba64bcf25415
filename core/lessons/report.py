"""A lesson sheet to hand in: each lesson's question, what was expected, and what the model showed."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date

from core.lessons.checks import Check
from core.lessons.lessons import LESSONS

VERDICT = {True: "holds", False: "does not hold on this model", None: "could not be checked"}


def lessons_markdown(checks: Mapping[int, Check], *, model_id: str, settings: str, day: date | None = None) -> str:
    """Markdown with one section per lesson; lessons not checked yet say so."""
    lines = [f"# Embedding Explorer lessons: {model_id}", "", f"{settings}; {(day or date.today()).isoformat()}.", ""]
    for lesson in LESSONS:
        lines += [f"## {lesson.number}. {lesson.title}", "", f"**Question.** {lesson.question}", "",
                  f"**Expected.** {lesson.expect}", ""]
        check = checks.get(lesson.number)
        if check is None:
            lines += ["**Observed.** Not checked in this session.", ""]
            continue
        lines += [f"**Observed ({VERDICT[check.holds]}).** {check.finding}", ""]
        if check.numbers:
            lines += ["| number | value |", "|---|---|", *(f"| {k} | {v} |" for k, v in check.numbers.items()), ""]
    return "\n".join(lines)
