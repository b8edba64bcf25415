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
from core.analysis.probes import MIN_PER_CLASS, OUTER_FOLDS, checked_labels, cross_validate, is_blank
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
    truth: np.ndarray  # each classified image's class, as a code
    predicted: np.ndarray
    accuracy: float
    confusion: np.ndarray  # rows: the true class, columns: the predicted one
    closed_accuracy: float  # with each modality centred on its own centroid
    gap: ModalityGap  # between the classified images and the prompts
    unlabelled: int  # images left out for a blank label
    probe_accuracy: float | None  # a linear probe of the image vectors, cross-validated, where the classes allow one
    probe_note: str  # why there is no probe, or what it left out ("" where nothing)

    @property
    def majority(self) -> float:
        return float(np.bincount(self.truth).max() / len(self.truth))

    def summary(self) -> dict[str, Any]:
        return {"images": len(self.predicted), "classes": self.classes, "prompts": self.prompts,
                "accuracy": self.accuracy, "accuracy_gap_closed": self.closed_accuracy,
                "probe_accuracy": self.probe_accuracy, "majority": self.majority,
                "modality_gap": self.gap.distance, "gap_variance_share": self.gap.variance_share,
                "confusion": self.confusion.tolist(), "unlabelled": self.unlabelled}


def _probe(vectors: np.ndarray, labels: list[str], groups: list[str]) -> tuple[float | None, str]:
    """The probe's mean accuracy over its folds (core.analysis.probes: classes of fewer than MIN_PER_CLASS different
    images left out), or None; and the sentence saying what it left out, or why there is none."""
    need = (f"a class needs {MIN_PER_CLASS} different images for the linear probe, one in each of its "
            f"{OUTER_FOLDS} folds")
    try:
        checked = checked_labels(labels, groups)
    except ValueError:
        return None, f"No linear probe beside it: {need}, and fewer than 2 classes have them."
    found = cross_validate(vectors[checked.rows], checked.codes, checked.groups, checked.count)
    small = ", ".join(f"“{name}”" for name in checked.left_out)
    return float(found.accuracy.mean()), f"The probe left out {small}: {need}." if small else ""


def zero_shot(images: np.ndarray, labels: list[str], groups: list[str], prompt_vectors: Any,
              template: str = TEMPLATE) -> ZeroShot:
    """`images`' vectors classified by the prompts of their labels' classes (blank labels left out); `groups` names
    equal images alike (the digests of their bytes) so the probe's folds keep them together; `prompt_vectors(prompts)`
    embeds the prompts. ValueError in one sentence where fewer than 2 classes are labelled."""
    rows = [i for i, label in enumerate(labels) if not is_blank(label)]
    named = [str(labels[i]).strip() for i in rows]
    classes = list(dict.fromkeys(named))
    if len(classes) < 2:
        raise ValueError(f"Zero-shot classification chooses between classes, and the images have "
                         f"{'one label' if classes else 'no label'}: put them in at least 2 subfolders (or give a "
                         "label column) named by their classes.")
    prompts = prompts_of(classes, template)
    vectors, texts = np.asarray(images)[rows], prompt_vectors(prompts)
    truth = np.array([classes.index(name) for name in named])
    predicted = nearest(vectors, texts)
    shut = nearest(closed(vectors), closed(texts))
    probe, note = _probe(vectors, named, [groups[i] for i in rows])
    return ZeroShot(classes, prompts, truth, predicted, float(accuracy_score(truth, predicted)),
                    confusion_matrix(truth, predicted, labels=np.arange(len(classes))),
                    float(accuracy_score(truth, shut)), modality_gap(vectors, texts), len(labels) - len(rows), probe,
                    note)
