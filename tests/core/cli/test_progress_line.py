"""The embed command's progress line: in place on a terminal, a line now and then in a log."""

import io

from core.cli.progress_line import CLEAR, ProgressLine
from core.progress import progress_text


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_on_a_terminal_one_line_is_rewritten_and_other_lines_go_above_it():
    screen = Terminal()
    line = ProgressLine(screen)
    line.update(100, 400)
    line.update(200, 400)
    line.say("[1/2] a.txt: 200 texts → out/a")
    line.update(400, 400)
    line.close()
    written = screen.getvalue()
    assert written.count("\n") == 2  # the file's line and the last progress line's end
    assert written.startswith(CLEAR + "100 / 400 texts") and CLEAR + "200 / 400 texts" in written
    assert CLEAR + "[1/2] a.txt: 200 texts → out/a\n" + CLEAR + "400 / 400 texts" in written
    assert written.endswith("\n")


def test_in_a_log_a_line_at_most_every_period_and_the_last_one():
    log = io.StringIO()
    line = ProgressLine(log, every=3600)
    for done in (100, 200, 300, 400):
        line.update(done, 400)
    line.close()
    lines = log.getvalue().splitlines()
    assert [text.split(" · ")[0] for text in lines] == ["100 / 400 texts", "400 / 400 texts"]
    assert "\r" not in log.getvalue()


def test_the_line_says_the_rate_and_time_left_as_the_app_does():
    log = io.StringIO()
    line = ProgressLine(log)
    line.start -= 10  # ten seconds ago
    line.update(1000, 4000)
    assert log.getvalue().strip() == progress_text(1000, 4000, 10.0)
    assert log.getvalue().strip().endswith("about 30 s left")
