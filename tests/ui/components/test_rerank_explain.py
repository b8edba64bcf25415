"""What the reranker's explanation says beside its numbers: where the gap is still over the wanted share at the cap
(read the colours as approximate), and where the logit does not move from the baseline's (nothing to split)."""

import pytest
from streamlit.testing.v1 import AppTest


def _pair(logit: float, baseline: float, gap: float, steps: int) -> None:
    import numpy as np

    from core.analysis.rerank_attribution import RerankAttribution
    from ui.components.rerank_explain import _pair as pair

    tokens, parts = ["[CLS]", "a", "[SEP]", "b", "[SEP]"], ["special", "query", "special", "text", "special"]
    shares = np.array([0.0, 0.6, 0.0, 0.4, 0.0])
    found = RerankAttribution("a", "b", tokens, parts, [101, 1, 102, 2, 102], shares * (logit - baseline), 0.5, logit,
                              baseline, gap, steps, False)
    pair(None, found, text_name="hit 1", key="why")


@pytest.mark.parametrize("logit, baseline, gap, steps, said", [
    (1.0, 0.0, 0.05, 256, "After 256 steps (the cap) the gap is still 5.0% of the logit's change from the baseline: "
                          "read the colours as approximate."),
    (0.3, 0.3, 0.0, 16, "The logit does not move from the baseline's, so there is no change to split among the "
                        "tokens."),
])
def test_the_panel_says_when_the_colours_are_approximate_or_there_is_nothing_to_split(logit, baseline, gap, steps,
                                                                                        said):
    at = AppTest.from_function(_pair, args=(logit, baseline, gap, steps), default_timeout=60).run()
    assert not at.exception and [box.value for box in at.warning] == [said]


def test_a_converged_split_says_nothing_more():
    at = AppTest.from_function(_pair, args=(1.0, 0.0, 0.001, 32), default_timeout=60).run()
    assert not at.exception and not at.warning
