"""The catalog's models from the Hugging Face hub: each says its kind, size and licence, and its kind decides how it
loads (SentenceTransformer, SparseEncoder, CrossEncoder or MultiVectorEncoder), whatever its folder says, and a static
model in model2vec's format (as potion-base-8M ships) embeds as model2vec does. Nothing is downloaded here: the hub's
folder is a local one (the download itself is tested against a hub server in test_hub.py)."""

import re

import numpy as np
import pytest
from sentence_transformers import CrossEncoder, SparseEncoder

from core.analysis.rerank import pair_scores
from core.encoding.sparse import encode_sparse
from core.models.catalog import IMAGE_TEXT_ENTRIES, LATE, Availability, catalog, find_entry
from core.models.loading import NotAnEmbedder, load_model
from core.models.reranker import load_reranker
from core.models.sources import folder_kind
from tests.conftest import CATALOG_LATE, CATALOG_PYLATE, CATALOG_RERANKER, CATALOG_SPARSE

HUB_ID = re.compile(r"^[A-Za-z0-9][\w.-]*/[A-Za-z0-9][\w.-]*$")
SPARSE, RERANKER = CATALOG_SPARSE, CATALOG_RERANKER
TEXTS = ["The bank by the river was flooded.", "She deposited her salary at the bank.", "A man plays the guitar."]


def hub_entries():
    """The sidebar's hub models and those of images and texts (the page "Pictures and words" offers them)."""
    return [entry for entry in (*catalog(), *IMAGE_TEXT_ENTRIES) if entry.source == "hub"]


def test_every_hub_model_says_its_kind_size_and_licence():
    assert hub_entries()
    for entry in hub_entries():
        assert entry.kind in ("dense", "sparse", "reranker", LATE), entry.id
        assert entry.repo is not None and HUB_ID.match(entry.repo), entry.id
        assert entry.facts is not None, entry.id
        assert entry.facts.parameters_m > 0 and entry.facts.download_bytes > 0 and entry.facts.licence, entry.id
        assert entry.listed().endswith(entry.facts.brief) and entry.repo in entry.description, entry.id


def test_ids_and_repos_are_unique_and_each_kind_has_a_model_from_the_hub():
    ids = [entry.id for entry in (*catalog(), *IMAGE_TEXT_ENTRIES)]
    repos = [entry.repo for entry in hub_entries()]
    assert len(ids) == len(set(ids)) and len(repos) == len(set(repos))
    # a fresh machine has a reranker, and a late-interaction model besides the one it can train
    assert {entry.kind for entry in hub_entries()} == {"dense", "sparse", "reranker", LATE}


def test_a_typed_hub_id_of_a_catalog_model_is_the_catalog_entry():
    for repo, kind in ((SPARSE, "sparse"), (RERANKER, "reranker"), (CATALOG_LATE, LATE), (CATALOG_PYLATE, LATE)):
        # the ids test_hub.py serves stand-ins under
        entry = find_entry(repo)
        assert entry.source == "hub" and entry.kind == kind and entry.repo == repo


@pytest.fixture
def served(monkeypatch):
    """The hub's folder of each model id is the local folder given (no network, no cache)."""
    folders = {}
    monkeypatch.setattr("core.models.sources.hub_availability", lambda repo, revision=None: Availability(True, "here"))
    monkeypatch.setattr("core.models.sources.hub_folder", lambda repo, revision=None: folders[repo])
    return folders


def test_a_sparse_catalog_model_loads_as_a_sparse_encoder_even_from_a_plain_masked_lm(served, sparse_folders):
    plain = sparse_folders["inference-free"] / "mlm"  # a BertForMaskedLM, no sentence-transformers config
    assert folder_kind(plain) == "dense"  # so only the catalog's kind makes it sparse
    served[SPARSE] = plain
    model = load_model(SPARSE, "cpu")
    assert model.kind == "sparse" and type(model.sparse).__name__ == "SparseEncoder"
    reference = SparseEncoder(str(plain), device="cpu")
    np.testing.assert_allclose(encode_sparse(model, TEXTS).matrix.toarray(),
                               reference.encode_document(TEXTS).to_dense().numpy(), atol=1e-5)


def test_a_reranker_catalog_model_loads_as_a_cross_encoder_even_from_a_plain_checkpoint(served, reranker_folder):
    plain = reranker_folder / "bert"  # a BertForSequenceClassification, no sentence-transformers config
    assert folder_kind(plain) == "dense"
    served[RERANKER] = plain
    reranker = load_reranker(RERANKER, "cpu")
    assert type(reranker.cross).__name__ == "CrossEncoder"
    pairs = [("Where is the bank?", text) for text in TEXTS]
    np.testing.assert_allclose(pair_scores(reranker, pairs), CrossEncoder(str(plain), device="cpu").predict(pairs),
                               atol=1e-5)
    with pytest.raises(NotAnEmbedder, match=f"'{RERANKER}' is a reranker"):
        load_model(RERANKER, "cpu")


def potion_like(folder):
    """A static model in model2vec's own format, as minishlab/potion-base-8M ships it: an "embeddings" tensor,
    model2vec's config.json, and a modules.json that reads the folder as a StaticEmbedding, then normalises."""
    import json
    import shutil

    from safetensors.numpy import save_file

    from core.models.packages import packaged_minilm_folder

    folder.mkdir()
    shutil.copy(packaged_minilm_folder() / "tokenizer.json", folder / "tokenizer.json")
    vocabulary = len(json.loads((folder / "tokenizer.json").read_text())["model"]["vocab"])
    save_file({"embeddings": np.random.default_rng(0).normal(size=(vocabulary, 16)).astype(np.float32)},
              str(folder / "model.safetensors"))
    (folder / "config.json").write_text(json.dumps({"model_type": "model2vec", "architectures": ["StaticModel"],
                                                    "normalize": True, "hidden_dim": 16}))
    (folder / "1_Normalize").mkdir()
    (folder / "modules.json").write_text(json.dumps([
        {"idx": 0, "name": "0", "path": ".", "type": "sentence_transformers.models.StaticEmbedding"},
        {"idx": 1, "name": "1", "path": "1_Normalize", "type": "sentence_transformers.models.Normalize"}]))
    return folder


def test_a_static_model_in_model2vecs_format_loads_and_embeds_as_model2vec_does(served, tmp_path):
    from model2vec import StaticModel

    from core.encoding.encoder import encode

    served["minishlab/potion-base-8M"] = potion_like(tmp_path / "potion")
    model = load_model("minishlab/potion-base-8M", "cpu")
    assert model.static and model.kind == "dense"
    np.testing.assert_allclose(encode(model, TEXTS).vectors, StaticModel.from_pretrained(str(tmp_path / "potion"))
                               .encode(TEXTS), atol=1e-6)


@pytest.mark.parametrize("repo, fixture", [(CATALOG_LATE, "stanford"), (CATALOG_PYLATE, "pylate")])
def test_a_late_interaction_catalog_model_loads_as_a_multi_vector_encoder(served, late_folders, repo, fixture):
    from sentence_transformers import MultiVectorEncoder

    from core.encoding.late.tokens import encode_multivector

    served[repo] = late_folders[fixture]
    model = load_model(repo, "cpu")
    assert model.kind == LATE and type(model.multivector).__name__ == "MultiVectorEncoder"
    reference = MultiVectorEncoder(str(late_folders[fixture]), device="cpu", local_files_only=True)
    for ours, theirs in zip(encode_multivector(model, TEXTS, role="query"), reference.encode_query(TEXTS), strict=True):
        np.testing.assert_allclose(ours.vectors, theirs.numpy(), atol=1e-6)
