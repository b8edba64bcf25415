"""Search over a corpus stored at lower precision, quantised by sentence-transformers' `quantize_embeddings`: int8
codes calibrated on the corpus (queries quantised with the corpus's ranges, scored by the inner product of codes, as
its usearch search does), binary codes (one bit per dimension, ranked by Hamming distance), and binary search whose
top candidates are rescored with the float query against the unpacked bits (its `semantic_search_faiss` with
`rescore=True`). Ties rank the lower corpus index first, as every search here does."""

from __future__ import annotations

import time
from collections.abc import Collection, Sequence
from dataclasses import dataclass

import numpy as np
from sentence_transformers.util import quantize_embeddings

from core.analysis.search import DEFAULT_BUDGET, Hits, top_k, unit_rows
from core.evaluation.precisions import RESCORE_MULTIPLIER, Precision

MIN_CALIBRATION = 10  # corpus texts: int8 takes each dimension's range from them


class CalibrationError(ValueError):
    """A corpus too small to calibrate int8 ranges on."""


@dataclass(frozen=True)
class QuantizedSearch:
    hits: Hits
    seconds: float  # quantising the queries and searching the whole corpus for all of them (the fastest run)
    bytes_per_vector: int


def bytes_per_vector(dimensions: int, precision: Precision) -> int:
    if precision == "float32":
        return 4 * dimensions
    return dimensions if precision == "int8" else -(-dimensions // 8)


def _words(bits: np.ndarray) -> np.ndarray:
    """Packed bits (rows of uint8) as rows of uint64, zero-padded: eight bytes per XOR and bit count."""
    padded = np.zeros((len(bits), -(-bits.shape[1] // 8) * 8), np.uint8)
    padded[:, :bits.shape[1]] = bits
    return padded.view(np.uint64)


def hamming_scores(queries: np.ndarray, corpus: np.ndarray) -> np.ndarray:
    """Minus the Hamming distance between rows of packed words: the nearest first."""
    distance = np.bitwise_count(queries[:, None, :] ^ corpus[None, :, :]).sum(axis=-1, dtype=np.int32)
    return -distance.astype(np.float32)


def _binary_hits(queries: np.ndarray, corpus_bits: np.ndarray, k: int,
                 exclude: Sequence[Collection[int]] | None) -> Hits:
    query_words = _words(np.asarray(quantize_embeddings(queries, precision="ubinary")))
    corpus_words = _words(corpus_bits)
    budget = DEFAULT_BUDGET // (2 * corpus_words.shape[1])  # the XOR block holds a word per cell
    return top_k(query_words, corpus_words, k, exclude=exclude, budget=budget, score=hamming_scores)


def _rescored(queries: np.ndarray, corpus_bits: np.ndarray, candidates: Hits, k: int) -> Hits:
    """The float query against each candidate's unpacked bits (0 or 1); the best `k` of them, ties in binary order."""
    bits = np.unpackbits(corpus_bits[candidates.indices], axis=-1)[..., :queries.shape[1]].astype(np.float32)
    scores = np.einsum("qd,qcd->qc", queries, bits)
    order = np.argsort(-scores, axis=1, kind="stable")[:, :k]
    return Hits(np.take_along_axis(candidates.indices, order, axis=1), np.take_along_axis(scores, order, axis=1))


def _search(queries: np.ndarray, corpus: np.ndarray, stored: np.ndarray, precision: Precision, k: int,
            exclude: Sequence[Collection[int]] | None) -> Hits:
    """One search of the `stored` corpus (codes, bits or floats); float `queries`, quantised here as a query is."""
    if precision == "float32":
        return top_k(queries, stored, k, exclude=exclude)
    if precision == "int8":
        codes = np.asarray(quantize_embeddings(queries, precision="int8", calibration_embeddings=corpus))
        return top_k(codes.astype(np.float32), stored, k, exclude=exclude)
    if precision == "binary":
        return _binary_hits(queries, stored, k, exclude)
    return _rescored(queries, stored, _binary_hits(queries, stored, k * RESCORE_MULTIPLIER, exclude), k)


def quantized_search(queries: np.ndarray, corpus: np.ndarray, precision: Precision, k: int, *,
                     exclude: Sequence[Collection[int]] | None = None, repeat: int = 1) -> QuantizedSearch:
    """The k best corpus rows per query with the corpus stored at `precision` (float vectors in, at unit length)."""
    queries, corpus = unit_rows(queries), unit_rows(corpus)
    if precision == "int8" and len(corpus) < MIN_CALIBRATION:
        raise CalibrationError(f"int8 takes each dimension's range from the corpus: {len(corpus)} text(s) are too "
                               f"few to calibrate it; use a corpus of {MIN_CALIBRATION} texts or more.")
    if precision == "int8":  # codes held as float32, whose integer inner products are exact up to 1,024 dimensions
        stored = np.asarray(quantize_embeddings(corpus, precision="int8")).astype(np.float32)
    else:
        stored = corpus if precision == "float32" else np.asarray(quantize_embeddings(corpus, precision="ubinary"))
    seconds = []
    for _ in range(repeat):  # the fastest of `repeat` runs, as timeit reports: the others met a busy machine
        start = time.perf_counter()
        hits = _search(queries, corpus, stored, precision, k, exclude)
        seconds.append(time.perf_counter() - start)
    return QuantizedSearch(hits, min(seconds), bytes_per_vector(corpus.shape[1], precision))
