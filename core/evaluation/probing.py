"""What each layer of a model knows about your labels: every layer's sentence vector of the texts (one encoding pass,
as the model's kind gives them: core.kinds, `layered_vectors`) probed as core.analysis.probes probes, beside the
control task and the words' own baseline; then the layer's confusion matrix and the texts its probe gets wrong with
the most confidence."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
from joblib import Parallel, delayed

from core.analysis.probes import (
    OUTER_FOLDS,
    SEED,
    CrossValidated,
    Labels,
    LayerProbe,
    checked_labels,
    probe_layer,
    words_probe,
)
from core.data.rows import distinct
from core.encoding.encoder import Progress
from core.encoding.prompts import with_role
from core.kinds import kind_of
from core.models.loading import LoadedModel
from core.settings import Settings

COLUMNS = ["layer", "accuracy", "accuracy_low", "accuracy_high", "macro_f1", "control_accuracy", "selectivity",
           "tfidf_accuracy", "mdl_bits", "uniform_bits", "compression"]
WORKERS = 2  # processes the layers' probes share out (this machine's cores)
WRONG = 10  # texts the probe gets wrong, listed


@dataclass(frozen=True)
class ProbeReport:
    """Every layer's probe of the labels, the words' baseline, and what the model's kind says it probed."""

    texts: list[str]
    labels: Labels
    layers: list[LayerProbe]
    words: CrossValidated
    note: str  # where the kind probes its output alone, why ("" for a model probed at every layer)
    seed: int = SEED

    def frame(self) -> pd.DataFrame:
        """One row per layer: the command line's columns."""
        words = float(self.words.accuracy.mean())
        return pd.DataFrame([{**layer.record(), "tfidf_accuracy": words} for layer in self.layers], columns=COLUMNS)

    def record(self) -> dict[str, object]:
        """`python -m core probe --json`'s object: the rows under `layers`, and what they were measured on."""
        return {"layers": self.frame().to_dict(orient="records"), "majority": self.labels.majority,
                "classes": self.labels.names, "n": len(self.texts), "folds": OUTER_FOLDS, "seed": self.seed}

    def layer(self, number: int) -> LayerProbe:
        return next(found for found in self.layers if found.layer == number)

    def first_beyond_words(self) -> int | None:
        """The first layer whose probe's interval lies above the words' mean accuracy (None: none does)."""
        words = float(self.words.accuracy.mean())
        return next((found.layer for found in self.layers if found.probe.interval()[0] > words), None)

    def confusion(self, number: int) -> pd.DataFrame:
        """The layer's out-of-fold predictions against the labels: rows the given class, columns the predicted."""
        from sklearn.metrics import confusion_matrix

        names = self.labels.names
        counts = confusion_matrix(self.labels.codes, self.layer(number).probe.predicted, labels=range(len(names)))
        return pd.DataFrame(counts, index=pd.Index(names, name="label"), columns=names)

    def wrong(self, number: int, top: int = WRONG) -> pd.DataFrame:
        """The texts the layer's probe gets wrong with the most confidence (out of fold): the text, its label, the
        class the probe gave it and the probability it gave that class."""
        found = self.layer(number).probe
        predicted = found.predicted
        confidence = found.probabilities[np.arange(len(predicted)), predicted]
        rows = np.flatnonzero(predicted != self.labels.codes)
        rows = rows[np.argsort(-confidence[rows], kind="stable")][:top]
        names = np.asarray(self.labels.names, dtype=object)
        return pd.DataFrame({"text": [self.texts[i] for i in rows], "label": names[self.labels.codes[rows]],
                             "probe says": names[predicted[rows]], "probability": confidence[rows]})


def probe_texts(model: LoadedModel, texts: Sequence[str], labels: Sequence[object], settings: Settings, *,
                layers: Sequence[int] | None = None, seed: int = SEED, workers: int = WORKERS,
                progress: Progress | None = None) -> ProbeReport:
    """What each layer knows about `labels`: the texts encoded as documents once (each distinct text once), every
    layer's probe, control and online code, shared out among `workers` processes, and the words' baseline. ValueError
    with one sentence for labels that cannot be probed (core.analysis.probes.checked_labels) or a reranker."""
    listed = list(texts)
    if len(labels) != len(listed):
        raise ValueError(f"There are {len(labels):,} labels and {len(listed):,} texts: give one label per text.")
    checked = checked_labels(labels)
    kind = kind_of(model)
    kind.check_embeds(model)
    unique = distinct(listed)
    found = kind.layered_vectors(model, unique.texts, with_role(settings, model.pipeline, "document"), layers,
                                 progress=progress)
    tasks = [delayed(probe_layer)(layer, vectors[unique.rows], checked, seed=seed) for layer, vectors in found.items()]
    tasks.append(delayed(words_probe)(listed, checked, seed=seed))
    done = Parallel(n_jobs=min(workers, len(tasks)))(tasks)
    probes = [result for result in done if isinstance(result, LayerProbe)]
    return ProbeReport(listed, checked, probes, done[-1], kind.layered_note, seed)
