import pytest

from ui.state.url_codec import LIMIT, decode, encode


@pytest.mark.parametrize("value", [True, False, 7, 0.35, "A man is playing a guitar.", "",
                                   "line one\nline two\n" * 20, "~starts like a compressed value", [1, "x"]])
def test_values_round_trip(value):
    assert decode(encode(value), value) == value


def test_short_text_stays_readable_and_long_text_is_compressed():
    assert encode("How do I bake bread?") == "How do I bake bread?"
    nine_questions = "\n".join(f"How do I reset my password, variant {i}?" for i in range(9))
    encoded = encode(nine_questions)
    assert encoded.startswith("~") and len(encoded) < len(nine_questions)


def test_a_value_too_long_for_a_link_is_left_out():
    import random

    rng = random.Random(0)
    noise = "".join(rng.choice("abcdefghijklmnopqrstuvwxyz ") for _ in range(20_000))
    assert encode(noise) is None and len(noise) > LIMIT


@pytest.mark.parametrize("text, like", [("yes", True), ("x", 3), ("~!!", "")])
def test_a_value_that_does_not_parse_is_an_error(text, like):
    with pytest.raises(ValueError):
        decode(text, like)
