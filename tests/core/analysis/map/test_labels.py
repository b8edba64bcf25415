import numpy as np

from core.analysis.map.clusters import cluster_keywords
from core.analysis.map.labels import COARSE, FINER, MIN_POINTS, zoom_labels

TOPICS = ["guitar music concert", "stock market shares", "football match goal", "rain weather storm"]


def corpus(per_topic: int, seed: int = 0) -> tuple[np.ndarray, list[str], np.ndarray]:
    rng = np.random.default_rng(seed)
    centres = np.array([[0, 0], [10, 0], [0, 10], [10, 10]], dtype=float)
    topic = np.repeat(np.arange(4), per_topic)
    coords = centres[topic] + rng.normal(scale=0.5, size=(len(topic), 2))
    texts = [f"{TOPICS[t]} number {i}" for i, t in enumerate(topic)]
    return coords, texts, topic


def test_level_0_is_the_colourings_clusters_labelled_by_their_keywords_at_their_median():
    coords, texts, topic = corpus(100)
    labels = zoom_labels(coords, texts, topic.astype(str))
    coarse = [label for label in labels if label.level == 0]
    table = cluster_keywords(texts, topic.astype(str))
    assert len(coarse) == 4
    for label in coarse:
        cluster = next(row for row in table.itertuples() if ", ".join(row.keywords.split(", ")[:2]) == label.text)
        members = topic.astype(str) == cluster.cluster
        assert (label.x, label.y) == tuple(np.median(coords[members], axis=0))
        assert label.size == members.sum() == 100


def test_finer_levels_have_three_times_the_clusters_while_there_are_points_enough():
    coords, texts, _ = corpus(100)
    labels = zoom_labels(coords, texts)
    counts = [sum(label.level == level for label in labels) for level in range(3)]
    assert counts[0] == COARSE and counts[1] == COARSE * FINER  # 400 points: enough for 24 clusters of 12
    assert counts[2] == 0  # 72 clusters would average fewer than MIN_POINTS points
    assert len(coords) < COARSE * FINER ** 2 * MIN_POINTS


def test_noise_gets_no_label():
    coords, texts, topic = corpus(30)
    clusters = np.where(topic == 3, "noise", topic.astype(str))
    assert all(label.size == 30 for label in zoom_labels(coords, texts, clusters) if label.level == 0)
    assert sum(label.level == 0 for label in zoom_labels(coords, texts, clusters)) == 3


def test_above_keyword_texts_each_levels_k_means_is_fitted_on_a_sample_and_places_every_point():
    coords, texts, _ = corpus(6_000)  # 24,000 points: more than KEYWORD_TEXTS
    labels = zoom_labels(coords, texts)
    for level in range(3):
        placed = [label for label in labels if label.level == level]
        assert sum(label.size for label in placed) == len(coords)  # every point in one cluster of the level
    centres = np.array([[0, 0], [10, 0], [0, 10], [10, 10]])
    for label in labels:  # each at the median of points of one topic: within a few spreads of its centre
        assert np.linalg.norm(centres - [label.x, label.y], axis=1).min() < 2


def alike_corpus(tails: tuple[str, str]) -> tuple[np.ndarray, list[str], np.ndarray]:
    """Three clusters of 40: two whose texts share their top words ("guitar playing"), each with its own `tails`
    word in a few texts, and one about the weather."""
    rng = np.random.default_rng(3)
    clusters = np.repeat(["a", "b", "c"], 40)
    texts = [("rain weather storm today" if c == "c" else f"guitar playing {tails[c == 'b'] if i % 10 == 0 else ''}")
             for i, c in enumerate(clusters)]
    coords = np.array([[0, 0], [20, 0], [10, 10]])[np.repeat([0, 1, 2], 40)] + rng.normal(size=(120, 2))
    return coords, texts, clusters


def test_two_clusters_with_the_same_top_keywords_are_told_apart_by_a_keyword_of_their_own():
    coords, texts, clusters = alike_corpus(("banjo", "cello"))
    coarse = sorted(label.text for label in zoom_labels(coords, texts, clusters) if label.level == 0)
    assert coarse == ["guitar, banjo", "guitar, cello", "rain, storm"]


def test_two_clusters_with_nothing_of_their_own_are_one_label_at_their_mean_place():
    coords, texts, clusters = alike_corpus(("banjo", "banjo"))
    coarse = [label for label in zoom_labels(coords, texts, clusters) if label.level == 0]
    assert sorted(label.text for label in coarse) == ["guitar, playing", "rain, storm"]
    (merged,) = [label for label in coarse if label.text == "guitar, playing"]
    medians = [np.median(coords[clusters == c], axis=0) for c in ("a", "b")]
    assert merged.size == 80
    np.testing.assert_allclose([merged.x, merged.y], np.mean(medians, axis=0))
