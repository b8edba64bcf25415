from core.progress import byte_size, bytes_progress_text, progress_text, time_left


def test_progress_text_gives_counts_rate_and_time_left():
    assert progress_text(0, 7977, 0.0) == "0 / 7,977 texts"
    assert progress_text(1000, 7977, 4.0) == "1,000 / 7,977 texts · 250 texts/s · about 28 s left"
    assert progress_text(50, 50, 2.0, unit="queries") == "50 / 50 queries · 25 queries/s"


def test_time_left_in_seconds_then_minutes():
    assert time_left(None) == "estimating time left"
    assert time_left(28.4) == "about 28 s left"
    assert time_left(125) == "about 2 min 05 s left"


def test_sizes_in_powers_of_1000_as_the_hub_shows_them():
    assert [byte_size(n) for n in (0, 999, 1_234, 999_999, 90_868_376, 1_340_000_000)] == [
        "0 B", "999 B", "1.23 kB", "1 MB", "90.9 MB", "1.34 GB"]


def test_bytes_progress_text_gives_sizes_rate_and_time_left():
    assert bytes_progress_text(0, 90_900_000, 0.0) == "0 B / 90.9 MB"
    assert bytes_progress_text(12_000_000, 90_000_000, 1.5) == "12 MB / 90 MB · 8 MB/s · about 10 s left"
    assert bytes_progress_text(90_000_000, 90_000_000, 3.0) == "90 MB / 90 MB · 30 MB/s"
