import pytest

from core.data.pairs import POSITIVE_MIN, PairsError, PairSet, read_pairs, stsb_train
from tests import stsb_counts


def csv(*rows: str) -> bytes:
    return "\n".join(rows).encode()


def test_stsb_train_has_every_pair_scaled_to_0_1_and_ranking_keeps_pairs_scored_4_or_more():
    pairs = stsb_train()
    assert len(pairs) == stsb_counts.PUBLISHED_PAIRS["train"]
    assert min(pairs.scores) == 0.0 and max(pairs.scores) == 1.0
    positives = pairs.for_objective("mnrl")
    assert positives.scores is None
    assert len(positives) == sum(s >= POSITIVE_MIN for s in pairs.scores) == stsb_counts.pairs_scored_4_or_more("train")


def test_a_scored_csv_in_sts_range_is_scaled_by_a_fifth():
    pairs = read_pairs("mine.csv", csv("a,b,score", "one,uno,5", "two,dos,2.5", "three,tres,0"))
    assert pairs.first == ("one", "two", "three") and pairs.second == ("uno", "dos", "tres")
    assert pairs.scores == (1.0, 0.5, 0.0)


def test_scores_already_in_0_1_are_kept_and_jsonl_works_too():
    data = b'{"q": "hi", "d": "hello", "s": 0.9}\n{"q": "bye", "d": "so long", "s": 0.2}\n'
    pairs = read_pairs("mine.jsonl", data)
    assert pairs.scores == (0.9, 0.2)
    assert pairs.for_objective("mnrl").first == ("hi",)


def test_missing_values_are_named_by_row_and_column():
    with pytest.raises(PairsError, match=r"no value in column 'b' \(row 3\)"):
        read_pairs("gaps.csv", csv("a,b", "one,uno", "two,", "three,tres"))


@pytest.mark.parametrize("score", ["7", "-0.5", "inf"])
def test_scores_outside_the_range_are_refused(score):
    with pytest.raises(PairsError, match=r"outside 0–1 \(or 0–5"):
        read_pairs("scores.csv", csv("a,b,s", "one,uno,1", f"two,dos,{score}"))


def test_a_score_that_is_not_a_number_is_refused():
    with pytest.raises(PairsError, match="'high' .* not a number"):
        read_pairs("scores.csv", csv("a,b,s", "one,uno,high"))


def test_fewer_pairs_than_one_batch_are_refused():
    pairs = read_pairs("small.csv", csv("a,b", "one,uno", "two,dos"))
    with pytest.raises(PairsError, match="2 usable pair.*fewer than one batch of 16"):
        pairs.check_batch(16)


def test_cosine_needs_scores_and_one_column_is_not_pairs():
    unscored = PairSet("mine.csv", ("a",), ("b",))
    with pytest.raises(PairsError, match="no score column"):
        unscored.for_objective("cosine")
    with pytest.raises(PairsError, match="needs two text columns"):
        read_pairs("lines.txt", b"just one text\nanother\n")
