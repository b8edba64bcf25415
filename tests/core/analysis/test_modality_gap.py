"""The modality gap on vectors whose gap is known by construction, and against an independent computation."""

import numpy as np
import pytest

from core.analysis.modality_gap import closed, modality_gap


def _cone(rng, centre, n, spread=0.1):
    vectors = centre + spread * rng.standard_normal((n, len(centre)))
    return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def test_two_cones_apart_have_a_gap_that_dominates_the_variance_and_closing_it_leaves_none():
    rng = np.random.default_rng(0)
    axis = np.eye(8)
    images, texts = _cone(rng, axis[0] + axis[2], 300), _cone(rng, axis[1] + axis[2], 200)
    gap = modality_gap(images, texts)
    assert gap.distance == pytest.approx(np.linalg.norm(images.mean(0) - texts.mean(0)), rel=1e-5)
    assert gap.variance_share > 0.8
    both = np.vstack([images, texts]) - np.vstack([images, texts]).mean(0)
    assert gap.variance_share == pytest.approx(np.var(both @ gap.direction) / np.var(both, axis=0).sum(), rel=1e-4)
    shut = modality_gap(closed(images), closed(texts))
    assert shut.distance < 0.05 * gap.distance


def test_one_distribution_split_in_two_has_almost_no_gap_and_scale_does_not_matter():
    rng = np.random.default_rng(1)
    vectors = _cone(rng, np.ones(8), 2000, spread=0.5)
    gap = modality_gap(vectors[:1000] * 3.0, vectors[1000:])  # lengths do not count: unit vectors are compared
    assert gap.distance < 0.05 and gap.variance_share < 2 / 8  # about a dimension's share of it, as any line has


def test_an_empty_side_is_one_sentence():
    with pytest.raises(ValueError, match="needs at least one image and one text"):
        modality_gap(np.zeros((0, 4)), np.ones((2, 4)))
