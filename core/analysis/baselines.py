"""The lexical baselines by name, with their labels: what core.analysis.lexical fits and the command line's
--baseline offers. It imports nothing, so that building the command line's parser loads no scikit-learn."""

from __future__ import annotations

from typing import Literal

Baseline = Literal["tfidf", "bow", "bm25"]
BASELINES: dict[Baseline, str] = {"tfidf": "TF-IDF", "bow": "bag of words", "bm25": "BM25"}
