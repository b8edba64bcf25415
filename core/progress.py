"""Words for a progress bar: counts done, rate and time left."""

from __future__ import annotations


def progress_text(done: int, total: int, elapsed: float, *, unit: str = "texts") -> str:
    """E.g. "1,024 / 7,977 texts · 250 texts/s · about 28 s left" (rate and time once something is done)."""
    text = f"{done:,} / {total:,} {unit}"
    if done <= 0 or elapsed <= 0:
        return text
    rate = done / elapsed
    left = (total - done) / rate
    return f"{text} · {rate:,.0f} {unit}/s · about {left:,.0f} s left" if done < total else f"{text} · {rate:,.0f} {unit}/s"
