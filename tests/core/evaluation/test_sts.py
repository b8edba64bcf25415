import warnings

import numpy as np
import pytest

from core.data.stsb import load_stsb
from core.evaluation.sts import by_genre, correlation, layer_sweep, sts_frame
from tests.references import embedding_similarity


@pytest.fixture
def few_pairs(monkeypatch):
    """The first 60 STS-B dev pairs, so the sweep stays quick."""
    pairs = load_stsb("dev")[:60]
    sentences = list(dict.fromkeys(s for p in pairs for s in (p.sentence1, p.sentence2)))
    monkeypatch.setattr("core.evaluation.sts.load_stsb", lambda split: pairs)
    monkeypatch.setattr("core.evaluation.sts.stsb_sentences", lambda split: sentences)
    return pairs


def test_the_correlations_equal_the_evaluator_overall_and_per_genre(minilm, few_pairs):
    frame = sts_frame(minilm, "dev")
    first = minilm_vectors(minilm, [p.sentence1 for p in few_pairs])
    second = minilm_vectors(minilm, [p.sentence2 for p in few_pairs])
    assert correlation(frame) == pytest.approx(embedding_similarity(first, second, [p.score for p in few_pairs]),
                                               abs=1e-6)
    genres = by_genre(frame)
    assert genres["pairs"].iloc[-1] == len(few_pairs) == genres["pairs"].iloc[:-1].sum()


def minilm_vectors(model, texts):
    from core.encoding.encoder import encode

    return encode(model, texts).vectors


def test_cls_at_the_embedding_layer_has_no_correlation_and_no_warning(minilm, few_pairs):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # scipy's ConstantInputWarning would fail the test
        sweep = layer_sweep(minilm, "dev", ["cls", "mean"])
    cls = sweep[sweep["pooling"] == "cls"].set_index("layer")
    assert np.isnan(cls.loc[0, "spearman"])  # every text's [CLS] vector is the same embedding at layer 0
    assert not cls.loc[1:, "spearman"].isna().any()
    assert not sweep[sweep["pooling"] == "mean"]["spearman"].isna().any()
