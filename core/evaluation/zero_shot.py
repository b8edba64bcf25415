"""Zero-shot classification of labelled images by a model of images and texts: each class named in a prompt ("a photo
of a {label}"), each image given the class whose prompt's vector is nearest by cosine. Beside it, the same with the
modality gap closed (core.analysis.modality_gap), and a linear probe of the image vectors (core.analysis.probes,
folds that keep equal images together): what the vectors hold, against what the prompts find of it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from sklearn.metrics import accuracy_score, confusion_matrix

from core.analysis.modality_gap import ModalityGap, closed, modality_gap
from core.analysis.probes import Labels, checked_labels, cross_validate
from core.analysis.search import unit_rows

TEMPLATE = "a photo of a {label}"
LABEL = "{label}"


def prompts_of(classes: list[str], template: str = TEMPLATE) -> list[str]:
    """Each class's prompt; ValueError in one sentence where the template does not name the label."""
    if LABEL not in template:
        raise ValueError(f"The prompt template '{template}' has no {LABEL} to put each class's name in; write it "
                         f"like '{TEMPLATE}'.")
    return [template.replace(LABEL, name) for name in classes]


def nearest(images: np.ndarray, prompts: np.ndarray) -> np.ndarray:
    """Each image's class: the prompt of highest cosine (the first on a tie)."""
    return np.argmax(unit_rows(images) @ unit_rows(prompts).T, axis=1)


@dataclass(frozen=True)
class ZeroShot:
    classes: list[str]
    prompts: list[str]
    labels: Labels  # the images classified (blank labels and too-small classes left out), their classes as codes
    predicted: np.ndarray  # each classified image's class, as a code
    accuracy: float
    confusion: np.ndarray  # rows: the true class, columns: the predicted one
    closed_accuracy: float  # with each modality centred on its own centroid
    probe_accuracy: float  # a linear probe of the image vectors, cross-validated
    gap: ModalityGap  # between the classified images and the prompts

    def summary(self) -> dict[str, Any]:
        return {"images": len(self.predicted), "classes": self.classes, "prompts": self.prompts,
                "accuracy": self.accuracy, "accuracy_gap_closed": self.closed_accuracy,
                "probe_accuracy": self.probe_accuracy, "majority": self.labels.majority,
                "modality_gap": self.gap.distance, "gap_variance_share": self.gap.variance_share,
                "confusion": self.confusion.tolist(), "unlabelled": self.labels.unlabelled,
                "left_out": self.labels.left_out}


def zero_shot(images: np.ndarray, labels: list[str], groups: list[str], prompt_vectors: Any,
              template: str = TEMPLATE) -> ZeroShot:
    """`images`' vectors classified by the prompts of their labels' classes; `groups` names equal images alike (the
    digests of their bytes) so the probe's folds keep them together; `prompt_vectors(prompts)` embeds the prompts."""
    checked = checked_labels(labels, groups)
    prompts = prompts_of(checked.names, template)
    vectors, texts = np.asarray(images)[checked.rows], prompt_vectors(prompts)
    predicted = nearest(vectors, texts)
    shut = nearest(closed(vectors), closed(texts))
    probe = cross_validate(vectors, checked.codes, checked.groups, checked.count)
    return ZeroShot(checked.names, prompts, checked, predicted, float(accuracy_score(checked.codes, predicted)),
                    confusion_matrix(checked.codes, predicted, labels=np.arange(checked.count)),
                    float(accuracy_score(checked.codes, shut)), float(probe.accuracy.mean()),
                    modality_gap(vectors, texts))
