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
from sklearn.preprocessing import normalize
from threadpoolctl import threadpool_limits

from core.analysis.concepts import Direction, label_direction, mislabelled
from core.analysis.probes import (
    OUTER_FOLDS,
    SEED,
    CrossValidated,
    Labels,
    LayerProbe,
    Matrix,
    checked_labels,
    probe_layer,
    words_probe,
)
from core.analysis.search import top_k
from core.data.rows import distinct
from core.encoding.encoder import Progress
from core.encoding.prompts import with_role
from core.kinds import kind_of
from core.models.loading import LoadedModel
from core.settings import Settings

COLUMNS = ["layer", "accuracy", "accuracy_low", "accuracy_high", "macro_f1", "control_accuracy", "selectivity",
           "tfidf_accuracy", "mdl_bits", "uniform_bits", "compression"]
WORKERS = 2  # threads the layers' probes share out (this machine's cores)
WRONG = 10  # texts the probe gets wrong, listed
NEIGHBOURS = 3  # nearest texts listed beside a possible mislabel


@dataclass(frozen=True)
class ProbeReport:
    """Every layer's probe of the labels, the words' baseline, and what the model's kind says it probed."""

    texts: list[str]
    labels: Labels
    layers: list[LayerProbe]
    words: CrossValidated
    note: str  # where the kind probes its output alone, why ("" for a model probed at every layer)
    vectors: dict[int, Matrix]  # each layer's vector of each text
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


    def mislabels(self, number: int, neighbours: int = NEIGHBOURS) -> pd.DataFrame:
        """The texts cleanlab's confident learning finds mislabelled from the layer's out-of-fold probabilities, least
        self-confident first: the text, its label, the class the probe gives it, the probability of its own label, and
        its nearest texts in the layer's space with their labels."""
        found = self.layer(number).probe
        rows = mislabelled(self.labels.codes, found.probabilities)
        names = np.asarray(self.labels.names, dtype=object)
        unit = normalize(self.vectors[number])
        near = top_k(unit[rows], unit, neighbours, exclude=[{int(i)} for i in rows]).indices if len(rows) else \
            np.zeros((0, neighbours), dtype=np.int64)
        return pd.DataFrame({
            "row": rows, "text": [self.texts[i] for i in rows], "label": names[self.labels.codes[rows]],
            "probe says": names[found.predicted[rows]],
            "probability of its label": found.probabilities[rows, self.labels.codes[rows]],
            "nearest texts": [" | ".join(f"{self.texts[j]} ({names[self.labels.codes[j]]})" for j in row if j >= 0)
                              for row in near]})

    def direction(self, number: int, first: str, second: str | None = None) -> Direction:
        """The direction of the texts labelled `first` against those labelled `second` (None: every other text) in
        the layer's space (`label_direction`)."""
        names = np.asarray(self.labels.names, dtype=object)[self.labels.codes].tolist()
        return label_direction(self.vectors[number], names, first, second, seed=self.seed)


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
    return label_direction(found[chosen][unique.rows], [str(label) for label in labels], first, second)


def shared_out(tasks: list, workers: int = WORKERS) -> list:
    """joblib's delayed calls run on `workers` threads, each thread's BLAS on one.

    Threads, not processes: scikit-learn's fits spend their time in compiled code that lets go of the GIL (7 layers of
    2,000 texts: 6.1 s on two threads, 6.6 s on two processes, 9.9 s on one), and a server starts no processes of its
    own. BLAS on one thread: two threads each running OpenBLAS on two threads spin and wait for each other (the whole
    probe view of 2,000 texts took 164 s, against 11.3 s so; a server's BLAS is on one thread already, core.threads)."""
    with threadpool_limits(1, user_api="blas"):
        return Parallel(n_jobs=min(workers, len(tasks)), backend="threading")(tasks)


def probe_texts(model: LoadedModel, texts: Sequence[str], labels: Sequence[object], settings: Settings, *,
                layers: Sequence[int] | None = None, seed: int = SEED, workers: int = WORKERS,
                progress: Progress | None = None) -> ProbeReport:
    """What each layer knows about `labels`: the texts encoded as documents once (each distinct text once), every
    layer's probe, control and online code, shared out among `workers` threads, and the words' baseline. ValueError
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
    vectors = {layer: rows[unique.rows] for layer, rows in found.items()}
    tasks = [delayed(probe_layer)(layer, rows, checked, seed=seed) for layer, rows in vectors.items()]
    tasks.append(delayed(words_probe)(listed, checked, seed=seed))
    done = shared_out(tasks, workers)
    probes = [result for result in done if isinstance(result, LayerProbe)]
    return ProbeReport(listed, checked, probes, done[-1], kind.layered_note, vectors, seed)
