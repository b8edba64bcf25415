"""Ctrl-C that a command reads at its own safe points (core.cli.ctrl_c), the signal raised in this process."""

import signal

import pytest

from core.cli.ctrl_c import ASKED, CtrlC


@pytest.fixture(autouse=True)
def pythons_own_handler():
    """Python's own SIGINT handler while each test runs, whatever this process started with (a shell that is not
    interactive starts a background job with SIGINT ignored, and Python then leaves it ignored), and that one back
    after."""
    left = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, left)


def test_the_first_ctrl_c_is_noted_and_said_and_the_second_ends_the_block(capfd):
    before = signal.getsignal(signal.SIGINT)
    with CtrlC() as ctrl_c:
        signal.raise_signal(signal.SIGINT)  # what Ctrl-C sends; Python runs the handler before this returns
        assert ctrl_c.asked
        assert capfd.readouterr().err == ASKED
        signal.raise_signal(signal.SIGINT)
        pytest.fail("the second Ctrl-C did not stop the block at once")
    assert ctrl_c.asked
    assert signal.getsignal(signal.SIGINT) is before


def test_without_ctrl_c_nothing_is_asked_and_the_handler_is_put_back():
    before = signal.getsignal(signal.SIGINT)
    with CtrlC() as ctrl_c:
        assert signal.getsignal(signal.SIGINT) is not before
    assert not ctrl_c.asked and signal.getsignal(signal.SIGINT) is before is signal.default_int_handler
    with pytest.raises(KeyboardInterrupt):  # Python's own handler again
        signal.raise_signal(signal.SIGINT)
