import math

import numpy as np
import pytest
from sentence_transformers import util

from core.analysis.similarity import (
    cluster_order,
    duplicate_groups,
    limit_problems,
    matrix_frame,
    mean_off_diagonal,
    moved_pairs,
    paired_cosine,
    similarity_matrix,
)
from core.data.corpus import lines
from core.data.examples import EXAMPLES, PARAPHRASE_CLUSTERS
from core.deployment import DeploymentConfig
from core.encoding.encoder import encode

HAND = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
R = 1 / math.sqrt(2)


@pytest.mark.parametrize("metric, expected", [
    ("cosine", [[1, 0, R], [0, 1, R], [R, R, 1]]),
    ("dot", [[1, 0, 1], [0, 1, 1], [1, 1, 2]]),
    ("euclidean", [[0, math.sqrt(2), 1], [math.sqrt(2), 0, 1], [1, 1, 0]]),
])
def test_hand_computed_three_by_three(metric, expected):
    np.testing.assert_allclose(similarity_matrix(HAND, metric), expected, atol=1e-12)


def test_unknown_metric_is_refused():
    with pytest.raises(ValueError, match="Unknown metric 'manhattan'"):
        similarity_matrix(HAND, "manhattan")


def test_paired_cosine_known_values():
    a = np.array([[1.0, 0.0], [1.0, 1.0], [0.0, 2.0]])
    b = np.array([[0.0, 3.0], [2.0, 2.0], [0.0, -1.0]])
    np.testing.assert_allclose(paired_cosine(a, b), [0.0, 1.0, -1.0])


def test_identical_texts_give_cosine_one_and_match_sentence_transformers(minilm):
    texts = ["A man is playing a guitar.", "A man is playing a guitar.", "The stock market fell today."]
    vectors = encode(minilm, texts).vectors
    matrix = similarity_matrix(vectors)
    assert matrix[0, 1] == pytest.approx(1.0, abs=1e-6)
    np.testing.assert_allclose(matrix, util.cos_sim(vectors, vectors).numpy(), atol=1e-6)
    assert duplicate_groups(texts) == [[0, 1]]


def test_cluster_order_puts_each_paraphrase_cluster_in_one_block(minilm):
    vectors = encode(minilm, EXAMPLES[PARAPHRASE_CLUSTERS]).vectors
    order = cluster_order(vectors)
    assert sorted(order) == list(range(9))
    blocks = [{i // 3 for i in order[start:start + 3]} for start in (0, 3, 6)]
    assert all(len(block) == 1 for block in blocks), order
    matrix = similarity_matrix(vectors)
    within = np.mean([matrix[i, j] for i in range(9) for j in range(9) if i != j and i // 3 == j // 3])
    across = np.mean([matrix[i, j] for i in range(9) for j in range(9) if i // 3 != j // 3])
    assert within > across + 0.3


def test_cluster_order_of_tiny_inputs_is_the_input_order():
    assert cluster_order(np.ones((1, 4))) == [0]
    assert cluster_order(np.ones((2, 4))) == [0, 1]


def test_mean_off_diagonal_counts_each_pair_once():
    matrix = np.array([[1.0, 0.2, 0.4], [0.2, 1.0, 0.6], [0.4, 0.6, 1.0]])
    assert mean_off_diagonal(matrix) == pytest.approx(0.4)
    assert mean_off_diagonal(np.ones((1, 1))) is None


def test_moved_pairs_sorts_by_absolute_change():
    a = np.array([[1.0, 0.5, 0.5], [0.5, 1.0, 0.5], [0.5, 0.5, 1.0]])
    b = np.array([[1.0, 0.6, 0.1], [0.6, 1.0, 0.7], [0.1, 0.7, 1.0]])
    table = moved_pairs(["x", "y", "z"], a, b, top=2)
    assert table[["text 1", "text 2"]].values.tolist() == [["x", "z"], ["y", "z"]]
    np.testing.assert_allclose(table["change (B − A)"], [-0.4, 0.2])
    np.testing.assert_allclose(table["B"], [0.1, 0.7])


def test_matrix_frame_keeps_duplicates_apart_and_follows_the_order():
    frame = matrix_frame(np.array([[1.0, 0.3], [0.3, 1.0]]), ["same", "same"], order=[1, 0])
    assert frame.index.tolist() == ["2. same", "1. same"]
    assert frame.iloc[0, 1] == 0.3


def test_lines_and_limits():
    assert lines(" a \n\n b\n   \n") == ["a", "b"]
    config = DeploymentConfig(max_texts=3, max_chars_per_text=5)
    kept, problems = limit_problems(["one", "two", "three", "four!"], config)
    assert kept == ["one", "two", "three"]
    assert "limit (max_texts) is 3" in problems[0]
    kept, problems = limit_problems(["short", "far too long"], config)
    assert kept == ["short", "far t"]
    assert problems == ["Text(s) 2 exceed the limit (max_chars_per_text) of 5 characters and were cut there. "
                        "Shorten them, or raise max_chars_per_text in explorer.toml."]
    assert limit_problems(["ok"], config) == (["ok"], [])


def test_untrained_model_finds_everything_similar(minilm):
    from core.models.loading import load_model

    untrained = load_model("untrained-bert", "cpu")
    texts = EXAMPLES["Unrelated sentences"]
    trained = mean_off_diagonal(similarity_matrix(encode(minilm, texts).vectors))
    random = mean_off_diagonal(similarity_matrix(encode(untrained, texts).vectors))
    assert trained < 0.2 < 0.8 < random


def test_closest_pair_is_the_highest_similarity_or_the_lowest_distance():
    from core.analysis.similarity import closest_pair

    matrix = np.array([[1.0, 0.2, 0.9], [0.2, 1.0, 0.1], [0.9, 0.1, 1.0]])
    assert closest_pair(matrix) == (0, 2)
    assert closest_pair(1 - matrix, "euclidean") == (0, 2)
    assert closest_pair(np.ones((1, 1))) == (0, 0)
