"""Images and texts in one space: the heatmap's matrix, the blocks' means and captioned retrieval both ways
(core.evaluation.captioned), each against a computation written here."""

import numpy as np
import pytest

from core.analysis.image_space import image_text_space
from core.evaluation.captioned import captioned_retrieval, captions_pair


def _unit(x):
    return x / np.linalg.norm(x, axis=1, keepdims=True)


def _by_hand(queries, corpus):
    scores = _unit(queries) @ _unit(corpus).T
    ranks = np.array([int(np.sum(row > row[i])) for i, row in enumerate(scores)])  # the caption's own place
    return {"recall@1": np.mean(ranks < 1), "recall@5": np.mean(ranks < 5),
            "mrr@10": np.mean(np.where(ranks < 10, 1 / (ranks + 1), 0))}


def test_captioned_retrieval_both_ways_equals_ranks_computed_here():
    rng = np.random.default_rng(3)
    images = rng.normal(size=(30, 12)) + 1.5
    captions = images + rng.normal(scale=1.5, size=images.shape) - 3.0  # near their pictures, across a gap
    table = captioned_retrieval(images, captions).set_index(["direction", "gap"])
    for direction, (queries, corpus) in {"caption → image": (captions, images),
                                         "image → caption": (images, captions)}.items():
        expected = _by_hand(queries, corpus)
        for name, value in expected.items():
            assert table.loc[(direction, "as embedded"), name] == pytest.approx(value)
    centred = [_unit(_unit(x) - _unit(x).mean(0)) for x in (images, captions)]
    expected = _by_hand(centred[1], centred[0])
    assert table.loc[("caption → image", "gap closed"), "recall@1"] == pytest.approx(expected["recall@1"])


def test_the_matrix_and_its_blocks():
    rng = np.random.default_rng(4)
    images, texts = rng.normal(size=(4, 6)), rng.normal(size=(3, 6))
    space = image_text_space(images, texts)
    both = _unit(np.vstack([images, texts]))
    np.testing.assert_allclose(space.matrix, both @ both.T, atol=1e-6)
    upper = both[:4] @ both[:4].T
    assert space.blocks["image–image"] == pytest.approx(upper[np.triu_indices(4, 1)].mean(), abs=1e-6)
    assert space.blocks["image–text"] == pytest.approx((both[:4] @ both[4:].T).mean(), abs=1e-6)
    assert not captions_pair(images, texts)  # 3 texts for 4 pictures: not their captions
