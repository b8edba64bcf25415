"""Model checks against sentence-transformers: truncation as its `encode(truncate_dim=…)`, each variant's metrics as
its InformationRetrievalEvaluator and EmbeddingSimilarityEvaluator give them on the same vectors."""

import numpy as np
import pytest
from sentence_transformers import SentenceTransformer

from core.encoding.encoder import encode
from core.evaluation.metrics import shown_name
from core.evaluation.retrieval import build_task
from core.evaluation.sts import pair_rows
from core.evaluation.variants import (
    CHECK_KS,
    Embedded,
    default_dimensions,
    dimension_check,
    parse_dimensions,
    prompt_check,
)
from tests.references import embedding_similarity, information_retrieval


def _retrieval(task, queries, corpus):
    return {shown_name(k): v for k, v in information_retrieval(task, queries, corpus, CHECK_KS).items()
            if "accuracy" not in k}


@pytest.fixture(scope="module")
def space():
    """Seeded vectors for a small task and for STS-B dev's sentences, as a model would give them."""
    rng = np.random.default_rng(7)
    sts = pair_rows("dev")
    corpus = rng.standard_normal((300, 64)).astype(np.float32)
    pairs = {f"q{q}": {f"c{(q * 7) % 300}"} for q in range(60)}
    queries = np.stack([corpus[(q * 7) % 300] + rng.standard_normal(64).astype(np.float32) for q in range(60)])
    sentences = rng.standard_normal((len(sts.sentences), 64)).astype(np.float32)
    sentences[sts.second] = sentences[sts.first] + (5 - sts.gold[:, None]) * rng.standard_normal((len(sts.gold), 64))
    for shared in (queries, corpus, sentences):
        shared.flags.writeable = False  # shared by the module's tests: never changed
    return build_task("synthetic", pairs, [f"c{i}" for i in range(300)]), Embedded(queries, corpus, sentences), sts


def test_truncating_stored_vectors_is_sentence_transformers_truncate_dim(minilm):
    texts = ["A man is playing a guitar.", "Someone performs music.", "The cat sleeps."]
    full = encode(minilm, texts).vectors
    reference = SentenceTransformer(str(minilm.folder), device="cpu").encode(texts, truncate_dim=64)
    np.testing.assert_allclose(full[:, :64], reference, atol=1e-5)


def test_each_dimension_equals_the_evaluators_on_the_truncated_vectors(space):
    task, vectors, sts = space
    frame = dimension_check(task, vectors, [8, 32, 64], sts).set_index("dimensions")
    assert list(frame.index) == [8, 32, 64]
    for d in (8, 32, 64):
        expected = _retrieval(task, vectors.queries[:, :d], vectors.corpus[:, :d])
        assert frame.loc[d, list(expected)].to_dict() == pytest.approx(expected, abs=1e-9), d
        spearman = embedding_similarity(vectors.sentences[sts.first, :d], vectors.sentences[sts.second, :d],
                                        sts.gold)["spearman_cosine"]
        assert frame.loc[d, "STS-B spearman"] == pytest.approx(spearman, abs=1e-5)  # the evaluator: float32 cosines
    assert frame.loc[8, "ndcg@10"] < frame.loc[64, "ndcg@10"]


def test_prompt_variants_are_scored_on_their_own_vectors(space):
    task, vectors, sts = space
    shuffled = Embedded(vectors.queries[::-1].copy(), vectors.corpus, vectors.sentences[::-1].copy())
    frame = prompt_check(task, {"without prompts": vectors, "typed": shuffled}, sts).set_index("prompts")
    for name, v in (("without prompts", vectors), ("typed", shuffled)):
        expected = _retrieval(task, v.queries, v.corpus)
        assert frame.loc[name, list(expected)].to_dict() == pytest.approx(expected, abs=1e-9)
    assert frame.loc["typed", "recall@10"] < frame.loc["without prompts", "recall@10"]


def test_dimension_lists_are_read_sorted_and_bad_ones_refused_with_what_to_type():
    assert default_dimensions(384) == [32, 64, 128, 256, 384]
    assert default_dimensions(1024) == [32, 64, 128, 256, 512, 768, 1024]
    assert parse_dimensions("256; 32, 384", 384) == [32, 256, 384]
    with pytest.raises(ValueError, match="384 dimensions: 512, 0 cannot be kept.*from 1 to 384"):
        parse_dimensions("32, 512, 0", 384)
    with pytest.raises(ValueError, match="64 is given more than once"):
        parse_dimensions("64, 128, 64", 384)
    with pytest.raises(ValueError, match="whole numbers.*like 32, 64, 128, 256, 384"):
        parse_dimensions("half", 384)
    with pytest.raises(ValueError, match="at least one"):
        parse_dimensions(" , ", 384)
