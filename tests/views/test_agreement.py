"""How far A and B agree, where compare mode shows it: the numbers on Similarity and Map against vectors encoded and
measured in the test, the map coloured by each text's neighbours kept in B, and both neighbour lists."""

import numpy as np
import pytest
from sentence_transformers import SentenceTransformer

from core.data.examples import EXAMPLES, PARAPHRASE_CLUSTERS
from core.data.stsb import stsb_sample
from core.encoding.encoder import encode
from core.models.loading import load_model
from tests.canvases import canvas
from tests.conftest import app_test
from tests.core.analysis.test_agreement import numpy_cka, scipy_procrustes, sklearn_neighbours
from tests.core.cli.test_compare import cosine_rsa


def metrics(at) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def overlap(a: np.ndarray, b: np.ndarray, k: int) -> float:
    return float(np.mean([len(set(x) & set(y)) / k for x, y in zip(sklearn_neighbours(a, k),
                                                                     sklearn_neighbours(b, k))]))


def test_similarity_compare_mode_shows_the_four_numbers_of_both_models_vectors():
    at = app_test("views/similarity.py")
    at.toggle(key="sim_compare").set_value(True).run()
    assert not at.exception and not at.error
    texts = EXAMPLES[PARAPHRASE_CLUSTERS]
    a, b = (SentenceTransformer(str(load_model(name, "cpu").folder), device="cpu").encode(texts)
            for name in ("all-MiniLM-L6-v2", "paraphrase-MiniLM-L3-v2"))
    shown = metrics(at)
    assert shown["CKA (linear)"] == f"{numpy_cka(a, b):.3f}"
    assert shown["Kept in B (overlap@4)"] == f"{overlap(a, b, 4):.0%}"  # 9 texts: half of 8 others
    assert shown["RSA (Spearman)"] == f"{cosine_rsa(a, b):.3f}"
    assert shown["Procrustes residual"] == f"{scipy_procrustes(a, b):.3f}"
    assert any("CKA runs high" in c.value for c in at.caption)  # 9 texts in 384 dimensions


def test_map_compare_mode_shows_the_numbers_colours_by_neighbours_kept_and_lists_both_neighbourhoods():
    at = app_test("views/map.py", map_source="stsb", map_method="PCA", map_size="300")
    at.toggle(key="map_compare").set_value(True).run()
    assert not at.exception and not at.error
    model = load_model("all-MiniLM-L6-v2", "cpu")
    texts = stsb_sample(300)["text"].tolist()
    a = SentenceTransformer(str(model.folder), device="cpu").encode(texts)
    b = encode(model, texts, layer=3).vectors  # B: the same model's middle layer, its own pooling
    shown = metrics(at)
    assert shown["CKA (linear)"] == f"{numpy_cka(a, b):.3f}"
    assert shown["Kept in B (overlap@10)"] == f"{overlap(a, b, 10):.0%}"
    assert shown["Procrustes residual"] == f"{scipy_procrustes(a, b):.3f}"
    before = canvas(at, "map_compare_a").view
    at.toggle(key="map_compare_kept").set_value(True).run()
    assert not at.exception
    coloured = canvas(at, "map_compare_b")
    assert coloured.view != before and "share of its 10 neighbours kept in B" in str(coloured.view)
    movers = next(f.value for f in at.dataframe if "neighbours in B" in f.value.columns)
    first = movers["#"].iloc[0]
    near_a, near_b = sklearn_neighbours(a, 10)[first], sklearn_neighbours(b, 10)[first]
    assert movers["neighbours changed"].iloc[0] == pytest.approx(1 - len(set(near_a) & set(near_b)) / 10)
    assert at.selectbox(key="map_movers_changed_row").value == first
    lists = next(f.value for f in at.dataframe if "A: also in B" in f.value.columns)
    assert sorted(lists["A: #"]) == sorted(near_a) and sorted(lists["B: #"]) == sorted(near_b)


def test_layers_shows_each_layers_cka_with_the_last_from_transformers_hidden_states():
    import torch
    from transformers import AutoModel, AutoTokenizer

    from core.data.stsb import stsb_sentences
    from tests.figures import figure
    from tests.views.test_layers import open_tab

    at = open_tab(app_test("views/layers.py"), "Layer agreement")
    assert not at.error
    bars = figure(at, "layers_cka").data[0]
    folder = str(load_model("all-MiniLM-L6-v2", "cpu").folder)
    tokenizer, network = AutoTokenizer.from_pretrained(folder), AutoModel.from_pretrained(folder)
    batch = tokenizer(stsb_sentences("dev")[:100], padding=True, truncation=True, max_length=256, return_tensors="pt")
    with torch.no_grad():
        states = network(**batch, output_hidden_states=True).hidden_states
    mask = batch["attention_mask"][..., None].float()
    pooled = [((layer * mask).sum(1) / mask.sum(1)).numpy() for layer in states]
    pooled = [x / np.linalg.norm(x, axis=1, keepdims=True) for x in pooled]  # the model's Normalize module
    np.testing.assert_allclose(np.asarray(bars.y, dtype=float), [numpy_cka(x, pooled[-1]) for x in pooled], atol=1e-4)
    assert list(bars.x) == list(range(7)) and float(bars.y[-1]) == pytest.approx(1.0)
    matrix = np.asarray(figure(at, "layers_cka_matrix").data[0].z, dtype=float)
    np.testing.assert_allclose(matrix[:, -1], np.asarray(bars.y, dtype=float))


def test_finetune_shows_the_runs_drift_its_layers_before_against_after_and_the_sentences_that_moved(
        tiny_bert_folder, monkeypatch):
    from core.analysis.agreement import Overlap
    from core.data.pairs import PairSet
    from core.data.stsb import load_stsb
    from core.training import drift
    from core.training.finetune import RunRequest, TrainOptions, delete_model, read_card, run
    from tests.figures import figure

    monkeypatch.setattr("core.evaluation.sts.load_stsb", lambda split: load_stsb(split)[:32])
    monkeypatch.setattr(drift, "PROBE_PAIRS", 40)
    pairs = PairSet("toy pairs", tuple(f"sentence {i}" for i in range(8)), tuple(f"line {i}" for i in range(8)),
                    tuple(i / 7 for i in range(8)))
    run(RunRequest(str(tiny_bert_folder), pairs, "cosine", TrainOptions(batch_size=4, max_steps=4,
                                                                         learning_rate=1e-3), "tiny-moved"))
    try:
        card = read_card("tiny-moved")
        at = app_test("views/finetune.py")
        assert not at.exception and not at.error
        lines = {trace.name: trace for trace in figure(at, "ft_drift").data}
        assert list(lines["CKA with the start"].x) == [point["step"] for point in card["drift"]] == [0, 1, 2, 3, 4]
        np.testing.assert_allclose(lines["STS-B Spearman (probe pairs)"].y,
                                   [point["spearman"] for point in card["drift"]])
        np.testing.assert_allclose(figure(at, "ft_cka_layers").data[0].z, card["agreement"]["cka_layers"])
        overlap = Overlap.from_json(card["agreement"]["overlap"])
        assert metrics(at)["Neighbours kept after training (overlap@10)"] == f"{overlap.mean:.0%}"
        changed = next(f.value for f in at.dataframe if "neighbours in B" in f.value.columns)
        assert changed["neighbours changed"].iloc[0] == pytest.approx(1 - overlap.per_text.min())
    finally:
        delete_model("tiny-moved")


@pytest.mark.parametrize("page, prefix", [("views/map.py", "map"), ("views/similarity.py", "sim")])
def test_a_link_opens_compare_mode_on_its_model_b_and_layer_b(page, prefix):
    at = app_test(page, **{f"{prefix}_compare": "1", f"{prefix}_b_model": "paraphrase-MiniLM-L3-v2",
                           f"{prefix}_b_layer": "2", "map_size": "300"})
    assert not at.exception
    assert at.selectbox(key=f"{prefix}_b_model").value == "paraphrase-MiniLM-L3-v2"
    assert at.slider(key=f"{prefix}_b_layer").value == 2


def test_map_compare_mode_gives_cka_of_every_layer_of_a_against_every_layer_of_b_from_transformers_states():
    """A all-MiniLM-L6-v2, B paraphrase-MiniLM-L3-v2, both mean pooling: the heatmap equals numpy CKA of each layer's
    mask-weighted token mean as transformers returns the states, scaled to unit length where the model's pipeline
    ends in Normalize, as the Layers test reads a layer."""
    import torch
    from transformers import AutoModel, AutoTokenizer

    from core.jobs import JOBS
    from tests.figures import figure

    at = app_test("views/map.py", map_source="stsb", map_method="PCA", map_size="300")
    at.toggle(key="map_compare").set_value(True).run()
    at.selectbox(key="map_b_model").set_value("paraphrase-MiniLM-L3-v2").run()
    at.toggle(key="map_layer_cka").set_value(True).run()
    assert not at.exception
    JOBS.wait_idle(600)
    at.run()
    assert not at.exception and not at.error
    texts = stsb_sample(300)["text"].tolist()
    pooled = []
    for name in ("all-MiniLM-L6-v2", "paraphrase-MiniLM-L3-v2"):
        model = load_model(name, "cpu")
        folder = str(model.folder)
        tokenizer, network = AutoTokenizer.from_pretrained(folder), AutoModel.from_pretrained(folder)
        batch = tokenizer(texts, padding=True, truncation=True, max_length=model.max_length, return_tensors="pt")
        with torch.no_grad():
            states = network(**batch, output_hidden_states=True).hidden_states
        mask = batch["attention_mask"][..., None].float()
        layers = [((layer * mask).sum(1) / mask.sum(1)).numpy() for layer in states]
        pooled.append([x / np.linalg.norm(x, axis=1, keepdims=True) for x in layers] if model.normalizes else layers)
    matrix = np.asarray(figure(at, "map_layer_cka_heatmap").data[0].z, dtype=float)
    assert matrix.shape == (7, 4)
    np.testing.assert_allclose(matrix, [[numpy_cka(x, y) for y in pooled[1]] for x in pooled[0]], atol=1e-3)
