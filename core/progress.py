"""Words for a progress bar: counts done, rate and time left."""

from __future__ import annotations


def time_left(seconds: float | None) -> str:
    """"about 28 s left", "about 2 min 05 s left", or "estimating time left" before there is a rate."""
    if seconds is None:
        return "estimating time left"
    minutes, secs = divmod(round(seconds), 60)
    return f"about {minutes} min {secs:02d} s left" if minutes else f"about {secs} s left"


def progress_text(done: int, total: int, elapsed: float, *, unit: str = "texts") -> str:
    """E.g. "1,024 / 7,977 texts · 250 texts/s · about 28 s left" (rate and time once something is done)."""
    text = f"{done:,} / {total:,} {unit}"
    if done <= 0 or elapsed <= 0:
        return text
    rate = done / elapsed
    if done >= total:
        return f"{text} · {rate:,.0f} {unit}/s"
    return f"{text} · {rate:,.0f} {unit}/s · {time_left((total - done) / rate)}"
