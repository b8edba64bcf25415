"""Layers and the map with a late-interaction model: the transformer's token states layer by layer (the tabs that
need a sentence vector say why they do not apply), the corpus as one point a text (its token vectors averaged), and a
token map of a few texts on the same canvas, every kept token a point coloured by its text."""

import numpy as np

from core.data.stsb import stsb_sample
from tests.canvases import canvas
from tests.conftest import app_test_on_model
from tests.figures import figure
from tests.views.test_layers import open_tab


def test_layers_show_token_states_and_say_why_sentence_views_do_not_apply(late_folders):
    at = app_test_on_model(str(late_folders["colbert"]), "views/layers.py")
    assert not at.exception and not at.error
    assert not any("does not show" in info.value for info in at.info)
    drift = figure(at, "layers_token_drift")
    assert [trace.name for trace in drift.data if trace.name and trace.name.startswith("S")] == [
        "S1 · S2", "S1 · S3", "S2 · S3"]
    said = " ".join(info.value for info in at.info)
    assert "keeps no sentence vector" in said and "Layer agreement ranks" in said
    assert figure(open_tab(at, "Token alignment"), "layers_alignment").data
    assert figure(open_tab(at, "Attention"), "layers_att_head_fig").data


def test_the_map_shows_the_corpus_as_mean_token_vectors_and_a_token_map(late_folders):
    folder = str(late_folders["colbert"])
    at = app_test_on_model(folder, "views/map.py")
    at.number_input(key="map_size").set_value(200).run()  # embedded at once, not in the background
    assert not at.exception and not at.error
    drawn = canvas(at)
    assert len(drawn.positions) == 200 and set(drawn.legend()) <= {"captions", "forums", "news"}
    assert any("the mean of its 16-dimension token vectors" in caption.value for caption in at.caption)
    # PCA of the means: the canvas's first axis follows the means' first principal component
    from sentence_transformers import MultiVectorEncoder

    documents = MultiVectorEncoder(folder, device="cpu").encode_document(stsb_sample(200)["text"].tolist())
    means = np.stack([np.asarray(vectors, dtype=np.float64).mean(axis=0) for vectors in documents])
    centred = means - means.mean(axis=0)
    first = np.linalg.svd(centred, full_matrices=False)[2][0]
    assert abs(np.corrcoef(centred @ first, drawn.positions[:, 0])[0, 1]) > 0.999
    at.toggle(key="map_compare").set_value(True).run()
    assert not at.exception and any("drawn alone" in info.value for info in at.info)
    assert len(canvas(at).positions) == 200
    at.radio(key="map_late_points").set_value("tokens").run()
    assert not at.exception and not at.error
    tokens = canvas(at, "map_tokens_canvas")
    texts = at.text_area(key="map_token_texts").value.splitlines()
    legend = tokens.legend()
    assert len(legend) == len(texts) and sum(legend.values()) == len(tokens.positions)
    assert any(label["level"] == 0 and label["size"] == len(texts) for label in tokens.view["labels"])  # [CLS]
