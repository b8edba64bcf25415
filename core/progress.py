"""Words for a progress bar: counts done, rate and time left."""

from __future__ import annotations

from collections.abc import Callable


def time_left(seconds: float | None) -> str:
    """"about 28 s left", "about 2 min 05 s left", or "estimating time left" before there is a rate."""
    if seconds is None:
        return "estimating time left"
    minutes, secs = divmod(round(seconds), 60)
    return f"about {minutes} min {secs:02d} s left" if minutes else f"about {secs} s left"


def progress_text(done: int, total: int, elapsed: float, *, unit: str = "texts") -> str:
    """E.g. "1,024 / 7,977 texts · 250 texts/s · about 28 s left" (rate and time once something is done)."""
    return f"{done:,} / {total:,} {unit}" + _pace(done, total, elapsed, lambda rate: f"{rate:,.0f} {unit}/s")


def _pace(done: int, total: int, elapsed: float, rate_text: Callable[[float], str]) -> str:
    """" · <rate> · about 28 s left" ("· <rate>" alone once all is done; nothing before there is a rate)."""
    if done <= 0 or elapsed <= 0:
        return ""
    rate = done / elapsed
    if done >= total:
        return f" · {rate_text(rate)}"
    return f" · {rate_text(rate)} · {time_left((total - done) / rate)}"


def byte_size(count: float) -> str:
    """E.g. "512 B", "90.9 MB", "1.34 GB": powers of 1,000, as the Hugging Face hub shows sizes."""
    for unit in ("B", "kB", "MB", "GB"):
        if abs(count) < 999.5:  # else it would round to 1000
            return f"{count:.0f} {unit}" if unit == "B" else f"{count:.3g} {unit}"
        count /= 1000
    return f"{count:,.3g} TB"


def bytes_progress_text(done: int, total: int, elapsed: float) -> str:
    """E.g. "12.3 MB / 90.9 MB · 8.1 MB/s · about 10 s left" (rate and time once something is done)."""
    return f"{byte_size(done)} / {byte_size(total)}" + _pace(done, total, elapsed, lambda rate: f"{byte_size(rate)}/s")
