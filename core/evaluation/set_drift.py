"""Two sets of texts in one model's space (core.analysis.set_drift): the sets checked, each distinct text encoded
once as a document (the kind's one vector a text: a sparse model's CSR rows, a late-interaction model's mean token
vector), a set above MAX_TEXTS sampled to a seeded MAX_TEXTS, and every figure of "Compare two sets" and
`python -m core drift` worked out."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
import scipy.sparse as sp
from joblib import delayed

from core.analysis.map.projection import kmeans_clusters
from core.analysis.map.sparse_space import reduce_sparse
from core.analysis.set_drift import (
    MAX_TEXTS,
    MIN_TEXTS,
    PERMUTATIONS,
    Matrix,
    Mmd,
    Nearest,
    Separability,
    centroid_cosine,
    cluster_shares,
    farthest,
    mmd_test,
    nearest,
    separability,
    set_codes,
)
from core.analysis.statistics import SEED, p_text
from core.data.rows import distinct
from core.data.sampling import sample_indices
from core.encoding.prompts import with_role
from core.jobs import Progress
from core.kinds import kind_of
from core.models.loading import LoadedModel
from core.settings import Settings
from core.threads import shared_out

CLUSTERS = 8  # clusters of both sets together
ALPHA = 0.05  # the p-value under which the sets are said to differ


def check_sets(reference: Sequence[str], current: Sequence[str]) -> None:
    """ValueError in one sentence for an empty set, a set of fewer than MIN_TEXTS texts, or the same set twice."""
    for name, texts in (("reference", reference), ("new", current)):
        if not texts:
            raise ValueError(f"The {name} set is empty: give it a file with one text a line (or a text column).")
        if len(texts) < MIN_TEXTS:
            raise ValueError(f"The {name} set has {len(texts)} texts; comparing two sets needs at least {MIN_TEXTS} "
                             "in each.")
    if sorted(reference) == sorted(current):
        raise ValueError("The two sets hold the same texts: give a new set to compare with the reference.")


@dataclass(frozen=True)
class SetDrift:
    """How far the new set (`current`) has drifted from `reference`, on the texts compared (each set sampled to
    MAX_TEXTS above it)."""

    reference: list[str]
    current: list[str]
    mmd: Mmd
    separability: Separability
    centroid_cosine: float
    nearest: Nearest
    clusters: pd.DataFrame
    note: str  # what the model's kind compares, where not its pooled vectors
    sampled: bool  # a set was larger than MAX_TEXTS, and these are a seeded MAX_TEXTS of it
    seed: int

    def summary(self) -> str:
        """The answer in one or two sentences."""
        low, high = self.separability.interval()
        auc = (f"a classifier tells a text's set with ROC AUC {self.separability.auc:.2f} (95% {low:.2f}–{high:.2f}; "
               "0.5 is chance)")
        mmd = f"MMD² {self.mmd.mmd2:.4f}, {p_text(self.mmd.p_value)} over {self.mmd.permutations:,} permutations"
        if self.mmd.p_value < ALPHA:
            return f"The new set has drifted: {mmd}, and {auc}."
        return (f"No drift found: {mmd} (two samples of one distribution differ this much often), and {auc}.")

    def represented(self, *, more: bool) -> pd.DataFrame:
        """The clusters the new set holds a larger (`more`) or smaller share of than the reference, where the
        adjusted p-value is under ALPHA."""
        shares = self.clusters
        differs = (shares["current_share"] > shares["reference_share"]) == more
        return shares[differs & (shares["p_adjusted"] < ALPHA)].reset_index(drop=True)

    def new_topics(self) -> pd.DataFrame:
        """The new texts farthest from every reference text."""
        return farthest(self.nearest.current_to_reference, self.current)

    def gone(self) -> pd.DataFrame:
        """The reference texts farthest from every new text."""
        return farthest(self.nearest.reference_to_current, self.reference)

    def record(self) -> dict[str, object]:
        low, high = self.separability.interval()
        clusters = self.clusters[["cluster", "keywords", "reference_share", "current_share", "p_adjusted"]]
        return {"auc": self.separability.auc, "auc_low": low, "auc_high": high, "mmd2": self.mmd.mmd2,
                "p_value": self.mmd.p_value, "permutations": self.mmd.permutations, "sampled": self.sampled,
                "centroid_cosine": self.centroid_cosine, "clusters": clusters.to_dict(orient="records"),
                "new_topics": self.new_topics().to_dict(orient="records"),
                "gone": self.gone().to_dict(orient="records")}


def _sampled(texts: Sequence[str], seed: int) -> list[str]:
    return [texts[i] for i in sample_indices(len(texts), limit=MAX_TEXTS, seed=seed)]


def set_vectors(model: LoadedModel, texts: Sequence[str], settings: Settings) -> Matrix:
    """One vector a text, as documents, each distinct text encoded once."""
    kind, unique = kind_of(model), distinct(texts)
    kind.check_embeds(model)
    return kind.text_vectors(model, unique.texts, with_role(settings, model.pipeline, "document"))[unique.rows]


def compare_vectors(reference: list[str], current: list[str], a: Matrix, b: Matrix, *, note: str = "",
                    k: int = CLUSTERS, seed: int = SEED, permutations: int = PERMUTATIONS,
                    sampled: bool = False) -> SetDrift:
    """Every figure of two sets given their vectors (`a` of `reference`, `b` of `current`)."""
    pooled = sp.vstack([a, b]).tocsr() if sp.issparse(a) else np.vstack([a, b])
    codes = set_codes(len(reference), len(current))
    texts = reference + current
    space = reduce_sparse(pooled).vectors if sp.issparse(pooled) else pooled  # a sparse model's, reduced as a map's
    clusters = kmeans_clusters(space, k=min(k, len(texts)), seed=seed)
    return SetDrift(reference, current, mmd_test(a, b, permutations=permutations, seed=seed),
                    separability(pooled, codes, distinct(texts).rows, seed=seed), centroid_cosine(a, b), nearest(a, b),
                    cluster_shares(texts, clusters, codes), note, sampled, seed)


def drift_sets(model: LoadedModel, reference: Sequence[str], current: Sequence[str], settings: Settings, *,
               k: int = CLUSTERS, seed: int = SEED, permutations: int = PERMUTATIONS) -> SetDrift:
    """How far `current` has drifted from `reference` in the model's space. ValueError in one sentence for sets that
    cannot be compared (check_sets) or a reranker."""
    check_sets(reference, current)
    a_texts, b_texts = _sampled(reference, seed), _sampled(current, seed)
    vectors = set_vectors(model, a_texts + b_texts, settings)
    a, b = vectors[:len(a_texts)], vectors[len(a_texts):]
    sampled = len(a_texts) < len(reference) or len(b_texts) < len(current)
    return compare_vectors(a_texts, b_texts, a, b, note=kind_of(model).sets_note, k=k, seed=seed,
                           permutations=permutations, sampled=sampled)


def layer_separability(model: LoadedModel, reference: Sequence[str], current: Sequence[str], settings: Settings, *,
                       seed: int = SEED, progress: Progress | None = None) -> dict[int, Separability]:
    """The domain classifier's AUC at every layer that has one vector a text (one encoding pass, as the probes of
    what each layer knows read them; a sparse or late-interaction model its output alone), each set sampled as
    drift_sets samples it, the layers' classifiers shared out among threads."""
    check_sets(reference, current)
    a_texts, b_texts = _sampled(reference, seed), _sampled(current, seed)
    kind, unique = kind_of(model), distinct(a_texts + b_texts)
    kind.check_embeds(model)
    found = kind.layered_vectors(model, unique.texts, with_role(settings, model.pipeline, "document"),
                                 progress=progress)
    codes = set_codes(len(a_texts), len(b_texts))
    layers = sorted(found)
    scored = shared_out([delayed(separability)(found[layer][unique.rows], codes, unique.rows, seed=seed)
                         for layer in layers])
    return dict(zip(layers, scored))
