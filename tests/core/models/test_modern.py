"""The models people check today, embedded exactly as sentence-transformers embeds them: tiny random-weight folders
in its own format (tests/modern.py), compared with `encode_query` and `encode_document` on the same folder, through
the encoder, the command line, every layer, the explanation and the pages."""

import json

import numpy as np
import pytest

from core.analysis.explanation import NoExactSplit, explain_pair
from core.analysis.layers import sentence_vectors_by_layer
from core.cli import main
from core.encoding.encoder import encode, pooled_layers
from core.encoding.prompts import UnknownPrompt, prompt_length, resolve_prompt
from core.models.catalog import ModelUnavailable
from core.models.loading import load_model
from tests.conftest import app_test_on_model
from tests.modern import FIXTURES, QWEN_PROMPTS, router_model, static_model

TEXTS = ["A cat.", "The bank by the river is wide and slow today, they said.", "She deposited her salary at the bank.",
         "", "A man plays the guitar on stage."]


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    root = tmp_path_factory.mktemp("modern")
    return {name: build(root / name) for name, build in FIXTURES.items()}


@pytest.fixture(scope="module")
def references(folders):
    from sentence_transformers import SentenceTransformer

    return {name: SentenceTransformer(str(folder), device="cpu") for name, folder in folders.items()}


def _embed(folder, tmp_path, *options: str) -> np.ndarray:
    (tmp_path / "in.txt").write_text("\n".join(TEXTS) + "\n", encoding="utf-8")
    out = tmp_path / "out.npy"
    assert main(["embed", "--model", str(folder), "--pooling", "default", "--input", str(tmp_path / "in.txt"),
                 "--output", str(out), *options]) == 0
    return np.load(out)


@pytest.mark.parametrize("name", FIXTURES)
@pytest.mark.parametrize("dims", [None, 8])
def test_core_embed_equals_encode_document_and_with_the_query_prompt_encode_query(folders, references, tmp_path,
                                                                                   name, dims):
    reference = references[name]
    extra = [] if dims is None else ["--truncate-dim", str(dims)]
    np.testing.assert_allclose(_embed(folders[name], tmp_path, *extra),
                               reference.encode_document(TEXTS, truncate_dim=dims), atol=1e-5)
    if "query" in reference.prompts:
        np.testing.assert_allclose(_embed(folders[name], tmp_path, "--prompt-name", "query", *extra),
                                   reference.encode_query(TEXTS, truncate_dim=dims), atol=1e-5)


@pytest.mark.parametrize("name", FIXTURES)
def test_each_role_gets_the_prompt_sentence_transformers_gives_it(folders, references, name):
    model, reference = load_model(str(folders[name]), "cpu"), references[name]
    for role, theirs in (("query", reference.encode_query), ("document", reference.encode_document),
                         ("text", reference.encode)):
        ours = encode(model, TEXTS, prompt=resolve_prompt(model.pipeline, role)).vectors
        np.testing.assert_allclose(ours, theirs(TEXTS), atol=1e-5, err_msg=role)


@pytest.mark.parametrize("name", FIXTURES)
def test_every_layer_pools_the_states_the_final_vector_comes_from(folders, references, name):
    """The last layer of the every-layer pass equals sentence-transformers' own Pooling module applied to the token
    states its encode_query passes on (before any Dense or Normalize module)."""
    import torch
    from sentence_transformers.sentence_transformer.modules import Pooling

    model, reference = load_model(str(folders[name]), "cpu"), references[name]
    prompt = resolve_prompt(model.pipeline, "query")
    pooled = pooled_layers(model, TEXTS, prompt=prompt).vectors
    assert pooled.shape[:2] == (model.num_layers + 1, len(TEXTS))
    pooling = next(module for module in reference if isinstance(module, Pooling))
    for i, features in enumerate(reference.encode_query(TEXTS, output_value=None)):
        extra = {"prompt_length": features["prompt_length"]} if "prompt_length" in features else {}
        expected = pooling({"token_embeddings": features["token_embeddings"].unsqueeze(0),
                            "attention_mask": features["attention_mask"].unsqueeze(0), **extra})
        np.testing.assert_allclose(pooled[-1][i], expected["sentence_embedding"][0].numpy(), atol=1e-5)
    by_layer = sentence_vectors_by_layer(model, TEXTS, pooling="default", prompt=prompt)
    if model.head is None:  # without a Dense head the last layer's vectors are the final ones
        np.testing.assert_allclose(by_layer[-1], reference.encode_query(TEXTS), atol=1e-5)
    assert not torch.isnan(torch.from_numpy(by_layer)).any()


@pytest.mark.parametrize("name", FIXTURES)
def test_the_explanation_sums_to_the_cosine_wherever_the_pooling_splits_exactly(folders, name):
    model = load_model(str(folders[name]), "cpu")
    prompt = resolve_prompt(model.pipeline, "query")
    vectors = encode(model, TEXTS[1:3], prompt=prompt, pooling="mean", layer=1).vectors
    cosine = float(vectors[0] @ vectors[1] / np.linalg.norm(vectors[0]) / np.linalg.norm(vectors[1]))
    explanation = explain_pair(model, *TEXTS[1:3], pooling="mean", layer=1, prompt=prompt)
    assert explanation.total == pytest.approx(explanation.score, abs=1e-6)
    assert explanation.score == pytest.approx(cosine, abs=1e-5)
    if not model.pipeline.include_prompt and prompt:  # prompt tokens left out of pooling contribute nothing
        prompt_tokens = prompt_length(model.tokenizer, prompt)
        assert not explanation.matrix[:prompt_tokens].any() and not explanation.matrix[:, :prompt_tokens].any()
    if model.pipeline.pooling not in (("mean",), ("max",)) or model.head is not None:
        with pytest.raises(NoExactSplit, match="integrated gradients"):
            explain_pair(model, *TEXTS[1:3], prompt=prompt)


def test_a_prompt_name_the_model_lacks_and_a_prompt_that_leaves_no_text_are_refused(folders):
    model = load_model(str(folders["e5-bert"]), "cpu")
    with pytest.raises(UnknownPrompt, match="no prompt named 'search'.*query, passage"):
        resolve_prompt(model.pipeline, name="search")
    with pytest.raises(ValueError, match="The prompt takes .* nothing of the text"):
        encode(model, TEXTS, prompt="word " * 200)
    with pytest.raises(ValueError, match="Keep between 1 and 32 dimensions"):
        encode(model, TEXTS, truncate_dim=33)


def test_a_router_model_is_refused_with_one_sentence(tmp_path):
    with pytest.raises(ModelUnavailable, match="Router.*does not load such models yet"):
        load_model(str(router_model(tmp_path / "model")), "cpu")


@pytest.fixture(scope="module")
def static_folder(tmp_path_factory):
    return static_model(tmp_path_factory.mktemp("static") / "model")


def test_a_static_model_embeds_as_sentence_transformers_does_and_its_mean_splits_exactly(static_folder):
    from sentence_transformers import SentenceTransformer

    model, reference = load_model(str(static_folder), "cpu"), SentenceTransformer(str(static_folder), device="cpu")
    assert model.static and model.num_layers == 0
    np.testing.assert_allclose(encode(model, TEXTS).vectors, reference.encode_document(TEXTS), atol=1e-6)
    np.testing.assert_allclose(encode(model, TEXTS, truncate_dim=5).vectors,
                               reference.encode_document(TEXTS, truncate_dim=5), atol=1e-6)
    explanation = explain_pair(model, TEXTS[1], TEXTS[2])
    assert explanation.total == pytest.approx(explanation.score, abs=1e-9)


@pytest.mark.parametrize("page", ["views/similarity.py", "views/retrieval.py", "views/evaluation.py",
                                  "views/map.py", "views/model.py"])
def test_the_pages_work_on_a_static_model(static_folder, page):
    at = app_test_on_model(str(static_folder), page)
    assert not at.exception, at.exception[0].value if at.exception else ""


def test_the_layers_page_says_in_one_sentence_why_a_static_model_has_nothing_to_show(static_folder):
    at = app_test_on_model(str(static_folder), "views/layers.py")
    assert not at.exception
    assert any("static model" in box.value and "no layers" in box.value for box in at.info)


def test_a_folder_whose_modules_need_their_own_code_is_refused(folders, tmp_path):
    import shutil

    folder = tmp_path / "remote"
    shutil.copytree(folders["e5-bert"], folder)
    modules = json.loads((folder / "modules.json").read_text())
    modules[1]["type"] = "custom_pooling.FancyPooling"
    (folder / "modules.json").write_text(json.dumps(modules))
    (folder / "custom_pooling.py").write_text("raise SystemExit('remote code ran')\n")
    with pytest.raises(ModelUnavailable, match="never runs a model's own code"):
        load_model(str(folder), "cpu")


@pytest.mark.parametrize("name", ["qwen3-lasttoken", "embeddinggemma"])
@pytest.mark.parametrize("page", ["views/similarity.py", "views/layers.py", "views/retrieval.py",
                                  "views/evaluation.py"])
def test_the_pages_open_on_it(folders, name, page):
    at = app_test_on_model(str(folders[name]), page)
    assert not at.exception, at.exception[0].value if at.exception else ""


def test_similarity_embeds_the_texts_after_the_chosen_prompt_and_marks_its_tokens(folders, references):
    """e5-style: "query: " before each text, left out of pooling; the heatmap equals sentence-transformers' cosine
    with that prompt, and the explanation marks the prompt's tokens, which add nothing."""
    from sentence_transformers.util import cos_sim

    from tests.figures import figures

    texts = ["A man plays the guitar.", "Someone performs music.", "Stocks fell sharply today."]
    at = app_test_on_model(str(folders["e5-bert"]), "views/similarity.py")
    at.text_area(key="sim_texts").set_value("\n".join(texts)).run()
    at.selectbox(key="sim_prompt").set_value("query").run()
    assert not at.exception
    expected = cos_sim(*(references["e5-bert"].encode(texts, prompt="query: "),) * 2).numpy()
    np.testing.assert_allclose(np.asarray(figures(at)[0].data[0].z, dtype=float), expected, atol=1e-4)
    matrix = next(f for f in figures(at) if "the cells sum to" in (f.layout.title.text or ""))
    assert "the first 3 tokens are the prompt, left out of pooling" in matrix.layout.title.text
    assert any(name.endswith("⟨p⟩") for name in matrix.data[0].y)


def test_retrieval_names_the_query_prompt_and_the_switch_embeds_without_it(folders):
    at = app_test_on_model(str(folders["qwen3-lasttoken"]), "views/retrieval.py")
    at.radio(key="ret_source").set_value("Paste texts").run()
    captions = " ".join(c.value for c in at.caption)
    assert f"query prompt {QWEN_PROMPTS['query']!r}" in captions and "documents get no prompt" in captions
    at.toggle(key="ret_no_prompts").set_value(True).run()
    assert not at.exception
    assert "Embedded without the model's prompts" in " ".join(c.value for c in at.caption)


def test_a_typed_prompt_that_leaves_no_room_for_the_text_is_said_and_not_applied(folders):
    at = app_test_on_model(str(folders["e5-bert"]), "views/similarity.py")
    at.selectbox(key="sim_prompt").set_value("A prompt I type").run()
    at.text_input(key="sim_prompt_text").set_value("word " * 300).run()
    assert not at.exception
    assert any("nothing of the text would be left" in w.value for w in at.warning)
    assert at.text_area(key="sim_texts").value  # the texts typed are kept
