"""What each layer of a model knows about your labels: every layer's sentence vector of the labelled texts (one
encoding pass, as the model's kind gives them: core.kinds, `layered_vectors`) probed as core.analysis.probes probes,
beside the labels shuffled (the chance line), the same architecture untrained and the words' own baseline; then the
layer's confusion matrix and the texts its probe gets wrong with the most confidence. Rows with a blank label are
left out and counted."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
from joblib import delayed
from sklearn.preprocessing import normalize

from core.analysis.concepts import Direction, label_direction, mislabelled
from core.analysis.probes import (
    OUTER_FOLDS,
    CrossValidated,
    Labels,
    LayerProbe,
    Matrix,
    checked_labels,
    outer_folds,
    probe_layer,
    words_probe,
)
from core.analysis.search import top_k
from core.analysis.statistics import SEED, corrected_resampled_t
from core.data.rows import distinct
from core.encoding.encoder import Progress
from core.encoding.prompts import with_role
from core.kinds import kind_of
from core.models.loading import LoadedModel
from core.settings import Settings
from core.threads import WORKERS, shared_out

COLUMNS = ["layer", "accuracy", "accuracy_low", "accuracy_high", "macro_f1", "shuffled_accuracy",
           "untrained_accuracy", "tfidf_accuracy", "mdl_bits", "uniform_bits", "compression"]
BEYOND_P = 0.05  # a layer is beyond the words where the corrected resampled t-test's p is under this
WRONG = 10  # texts the probe gets wrong, listed
NEIGHBOURS = 3  # nearest texts listed beside a possible mislabel


@dataclass(frozen=True)
class ProbeReport:
    """Every layer's probe of the labelled rows (`texts`: theirs), the words' baseline, and what the model's kind says
    it probed."""

    texts: list[str]
    labels: Labels
    layers: list[LayerProbe]
    words: CrossValidated
    note: str  # where the kind probes its output alone, why ("" for a model probed at every layer)
    untrained_note: str  # why there is no untrained baseline ("" where there is one)
    vectors: dict[int, Matrix]  # each layer's vector of each labelled row
    seed: int = SEED

    def frame(self) -> pd.DataFrame:
        """One row per layer: the command line's columns."""
        words = float(self.words.accuracy.mean())
        return pd.DataFrame([{**layer.record(), "tfidf_accuracy": words} for layer in self.layers], columns=COLUMNS)

    def record(self) -> dict[str, object]:
        """`python -m core probe --json`'s object: the rows under `layers`, and what they were measured on (`n`: the
        rows probed; `unlabelled`: those left out for a blank label; `left_out`: each class left out for too few
        different texts, with how many it has)."""
        return {"layers": self.frame().to_dict(orient="records"), "majority": self.labels.majority,
                "classes": self.labels.names, "n": len(self.texts), "unlabelled": self.labels.unlabelled,
                "left_out": self.labels.left_out,
                "folds": OUTER_FOLDS, "seed": self.seed, "untrained_note": self.untrained_note,
                "first_beyond_words": self.first_beyond_words()}

    def layer(self, number: int) -> LayerProbe:
        return next(found for found in self.layers if found.layer == number)

    def beyond_words(self, number: int) -> float:
        """The one-sided p-value that the layer's probe is more accurate than the words' on the same folds (the
        corrected resampled t-test)."""
        held_out = np.mean([len(test) for _, test in outer_folds(self.labels.codes, self.labels.groups, self.seed)])
        return corrected_resampled_t(self.layer(number).probe.accuracy, self.words.accuracy,
                                     float(held_out / len(self.texts)))

    def first_beyond_words(self) -> int | None:
        """The first layer whose probe beats the words' on the same folds, p under BEYOND_P (None: none does)."""
        return next((found.layer for found in self.layers if self.beyond_words(found.layer) < BEYOND_P), None)

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

    def mislabels(self, number: int, neighbours: int = NEIGHBOURS) -> pd.DataFrame:
        """The texts cleanlab's confident learning finds mislabelled from the layer's out-of-fold probabilities, least
        self-confident first: the row (its place among the rows given, blank labels included), the text, its label,
        the class the probe gives it, the probability of its own label, and its nearest other texts in the layer's
        space with their labels."""
        found = self.layer(number).probe
        rows = mislabelled(self.labels.codes, found.probabilities)
        names = np.asarray(self.labels.names, dtype=object)
        unit = normalize(self.vectors[number])
        groups = self.labels.groups
        # a text's own copies are not its neighbours
        exclude = [set(np.flatnonzero(groups == groups[i]).tolist()) for i in rows]
        near = top_k(unit[rows], unit, neighbours, exclude=exclude).indices if len(rows) else \
            np.zeros((0, neighbours), dtype=np.int64)
        return pd.DataFrame({
            "row": self.labels.rows[rows], "text": [self.texts[i] for i in rows],
            "label": names[self.labels.codes[rows]], "probe says": names[found.predicted[rows]],
            "probability of its label": found.probabilities[rows, self.labels.codes[rows]],
            "nearest texts": [" | ".join(f"{self.texts[j]} ({names[self.labels.codes[j]]})" for j in row if j >= 0)
                              for row in near]})

    def direction(self, number: int, first: str, second: str | None = None) -> Direction:
        """The direction of the texts labelled `first` against those labelled `second` (None: every other text) in
        the layer's space (`label_direction`)."""
        names = np.asarray(self.labels.names, dtype=object)[self.labels.codes].tolist()
        return label_direction(self.vectors[number], names, self.texts, first, second, seed=self.seed)


def texts_direction(model: LoadedModel, texts: Sequence[str], labels: Sequence[object], settings: Settings, first: str,
                    second: str | None = None, *, layer: int | None = None) -> Direction:
    """`label_direction` of the texts' vectors at `layer` (by default the last: its output, for a kind probed on it),
    encoded as documents."""
    listed = list(texts)
    if len(labels) != len(listed):
        raise ValueError(f"There are {len(labels):,} labels and {len(listed):,} texts: give one label per text.")
    kind = kind_of(model)
    kind.check_embeds(model)
    unique = distinct(listed)
    chosen = model.num_layers if layer is None else layer
    found = kind.layered_vectors(model, unique.texts, with_role(settings, model.pipeline, "document"), [chosen])
    return label_direction(found[chosen][unique.rows], [str(label) for label in labels], listed, first, second)


def probe_texts(model: LoadedModel, texts: Sequence[str], labels: Sequence[object], settings: Settings, *,
                layers: Sequence[int] | None = None, seed: int = SEED, workers: int = WORKERS,
                progress: Progress | None = None) -> ProbeReport:
    """What each layer knows about `labels`: the labelled texts encoded as documents once (each distinct text once),
    by the model and by its architecture untrained (where the kind rebuilds it), every layer's probes, chance line
    and online code, shared out among `workers` threads, and the words' baseline. ValueError with one sentence for
    labels that cannot be probed (core.analysis.probes.checked_labels) or a reranker."""
    checked = checked_labels(list(labels), list(texts))
    listed = [texts[i] for i in checked.rows]
    kind = kind_of(model)
    kind.check_embeds(model)
    unique = distinct(listed)
    as_documents = with_role(settings, model.pipeline, "document")
    try:
        untrained, untrained_note = kind.untrained(model), ""
    except ValueError as err:
        untrained, untrained_note = None, str(err)
    passes = 1 if untrained is None else 2

    def step(offset: int):  # each pass's progress, counted over both
        return None if progress is None else lambda done, total: progress(offset * total + done, passes * total)

    found = kind.layered_vectors(model, unique.texts, as_documents, layers, progress=step(0))
    vectors = {layer: rows[unique.rows] for layer, rows in found.items()}
    baseline = {} if untrained is None else {
        layer: rows[unique.rows]
        for layer, rows in kind.layered_vectors(untrained, unique.texts, as_documents, list(vectors),
                                                progress=step(1)).items()}
    tasks = [delayed(probe_layer)(layer, rows, checked, untrained=baseline.get(layer), seed=seed)
             for layer, rows in vectors.items()]
    tasks.append(delayed(words_probe)(listed, checked, seed=seed))
    done = shared_out(tasks, workers)
    return ProbeReport(listed, checked, done[:-1], done[-1], kind.layered_note, untrained_note, vectors, seed)
