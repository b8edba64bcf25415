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
