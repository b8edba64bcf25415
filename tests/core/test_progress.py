from core.progress import progress_text, time_left


def test_progress_text_gives_counts_rate_and_time_left():
    assert progress_text(0, 7977, 0.0) == "0 / 7,977 texts"
    assert progress_text(1000, 7977, 4.0) == "1,000 / 7,977 texts · 250 texts/s · about 28 s left"
    assert progress_text(50, 50, 2.0, unit="queries") == "50 / 50 queries · 25 queries/s"


def test_time_left_in_seconds_then_minutes():
    assert time_left(None) == "estimating time left"
    assert time_left(28.4) == "about 28 s left"
    assert time_left(125) == "about 2 min 05 s left"
