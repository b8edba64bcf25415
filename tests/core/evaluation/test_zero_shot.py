"""Zero-shot classification on vectors whose answer is known: prompts along each class's direction, blank labels
left out, a probe only where the classes allow one, and one sentence where there is nothing to choose between."""

import numpy as np
import pytest

from core.evaluation.zero_shot import prompts_of, zero_shot


def _case(rng, per_class):
    directions = np.eye(6)[:3] * 4
    labels = [name for name in ("red", "green", "blue") for _ in range(per_class)]
    images = np.repeat(directions, per_class, axis=0) + rng.normal(size=(3 * per_class, 6)) + 5  # a shared offset
    return images, labels, directions


def test_prompts_along_each_class_classify_every_image_and_blank_labels_are_left_out():
    rng = np.random.default_rng(0)
    images, labels, directions = _case(rng, 6)
    labels[0] = " "
    found = zero_shot(images, labels, [str(i) for i in range(len(labels))],
                      lambda prompts: np.array([directions[["red", "green", "blue"].index(p.split()[-1])]
                                                for p in prompts]))
    assert found.unlabelled == 1 and len(found.predicted) == 17 and found.classes == ["red", "green", "blue"]
    assert found.prompts == ["a photo of a red", "a photo of a green", "a photo of a blue"]
    assert found.closed_accuracy == 1.0  # the shared offset removed, each image is nearest its class
    assert found.confusion.sum() == 17 and found.probe_accuracy is not None and found.probe_note == ""


def test_small_classes_get_no_probe_and_one_class_is_refused():
    rng = np.random.default_rng(1)
    images, labels, directions = _case(rng, 2)
    found = zero_shot(images, labels, [str(i) for i in range(6)], lambda prompts: directions)
    assert found.probe_accuracy is None and "needs 5 different images" in found.probe_note
    with pytest.raises(ValueError, match="at least 2 subfolders"):
        zero_shot(images, ["red"] * 6, [str(i) for i in range(6)], lambda prompts: directions[:1])
    with pytest.raises(ValueError, match="has no {label}"):
        prompts_of(["a"], "a photo")
