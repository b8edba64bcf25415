"""Hostile input through the core: encoder, tokenizer, model ids, pickle checkpoints, uploads, CSV export, CLI."""

from __future__ import annotations

import os
import re
import shutil
import tomllib
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import torch

from core.cli import main
from core.data.corpus import CorpusError, corpus_texts
from core.data.export import spreadsheet_safe
from core.data.uploads import read_upload
from core.deployment import load_config
from core.encoding.encoder import encode, encode_tokens
from core.models.catalog import ModelUnavailable
from core.models.loading import load_model
from core.models.packages import packaged_minilm_folder
from core.models.sources import availability
from tests.conftest import ROOT

HOSTILE = {
    "empty": "",
    "whitespace": " \t \u00a0\u2003 ",
    "control and NUL": "tab\there\x00nul\x01\x07bell\x1b[31mred\x7f",
    "right-to-left": "שלום עולם — مرحبا بالعالم \u202eevil\u202c",
    "emoji ZWJ": "family 👩\u200d👩\u200d👧\u200d👦 flag 🏳️\u200d🌈 skin 👍🏽",
    "mixed scripts": "Hello мир 世界 κόσμος नमस्ते こんにちは",
    "html script": "<script>alert('x')</script><img src=x onerror=alert(1)><b>bold</b>",
    "csv formula": "=cmd|' /C calc'!A0",
    "one long word": "a" * 1_000_000,
}


@pytest.fixture(scope="module")
def reference():
    from sentence_transformers import SentenceTransformer

    return SentenceTransformer(str(packaged_minilm_folder()), device="cpu")


@pytest.mark.parametrize("name", HOSTILE)
def test_hostile_text_embeds_exactly_like_sentence_transformers(minilm, reference, name):
    text = HOSTILE[name]
    ours = encode(minilm, [text]).vectors
    expected = reference.encode([text])
    assert ours.shape == (1, 384) and np.isfinite(ours).all()
    np.testing.assert_allclose(ours, expected, atol=1e-5)


def test_one_megabyte_of_one_word_is_cut_at_the_token_limit_and_says_so(minilm, reference):
    text = "word " * 200_000
    result = encode(minilm, [text, "word"])
    assert result.truncated == [0]
    assert result.truncation_notice == "1 text(s) were longer than 256 tokens and were cut at that limit."
    assert not result.notices  # one message about the cut, not two
    np.testing.assert_allclose(result.vectors, reference.encode([text, "word"]), atol=1e-5)
    tokens = encode_tokens(minilm, [text])[0]
    assert tokens.truncated and len(tokens.tokens) == 256 and tokens.states.shape == (7, 256, 384)


@pytest.mark.parametrize("name", ["control and NUL", "right-to-left", "emoji ZWJ", "mixed scripts", "html script"])
def test_token_offsets_point_into_the_original_text(minilm, name):
    text = HOSTILE[name]
    states = encode_tokens(minilm, [text])[0]
    pieces = [text[a:b] for (a, b), special in zip(states.offsets, states.special) if not special]
    assert pieces and all(pieces)
    starts = [a for (a, _), special in zip(states.offsets, states.special) if not special]
    assert starts == sorted(starts) and max(b for _, b in states.offsets) <= len(text)


def test_whitespace_and_empty_texts_are_two_special_tokens(minilm):
    for text in ("", HOSTILE["whitespace"]):
        assert encode_tokens(minilm, [text])[0].tokens == ["[CLS]", "[SEP]"]


@pytest.mark.parametrize("model_id, says", [
    ("../../etc", "not a model folder"),  # a real folder, but not a model's
    ("owner/../../../etc/passwd", "neither a model folder"),
    ("https://evil.example/model.bin", "is a URL"),
    ("file:///etc/passwd", "is a URL"),
    ("/etc", "holds neither config.json nor modules.json"),
    ("name\x00with-nul", "neither a model folder"),
    ("<script>alert(1)</script>", "neither a model folder"),
    ("a" * 500 + "/b c", "neither a model folder"),
])
@pytest.mark.usefixtures("two_levels_below_a_plain_folder")
def test_hostile_model_ids_are_refused_with_a_reason(model_id, says):
    status = availability(model_id)
    assert not status.available and says in status.reason
    with pytest.raises(ModelUnavailable, match=re.escape(says)):
        load_model(model_id, "cpu")


def test_custom_ids_are_refused_outright_when_the_deployment_allows_only_the_catalog(monkeypatch, tiny_bert_folder):
    monkeypatch.setenv("EXPLORER_ALLOW_CUSTOM_MODELS", "0")
    load_config.cache_clear()
    try:
        status = availability(str(tiny_bert_folder))
        assert not status.available and "allows only catalog models" in status.reason
    finally:
        monkeypatch.delenv("EXPLORER_ALLOW_CUSTOM_MODELS")
        load_config.cache_clear()


class _RunsCode:
    """Unpickling this calls os.system: a stand-in for a malicious checkpoint (it only touches a file)."""

    def __init__(self, marker: Path):
        self.marker = marker

    def __reduce__(self):
        return os.system, (f"touch {self.marker}",)


def _pickle_folder(tiny_bert_folder: Path, target: Path, weights: object) -> Path:
    shutil.copytree(tiny_bert_folder, target)
    for file in target.glob("*.safetensors"):
        file.unlink()
    torch.save(weights, target / "pytorch_model.bin")
    return target


def test_a_pickle_checkpoint_that_would_run_code_is_refused_and_nothing_runs(tiny_bert_folder, tmp_path):
    marker = tmp_path / "ran"
    folder = _pickle_folder(tiny_bert_folder, tmp_path / "evil", {"weight": _RunsCode(marker)})
    with pytest.raises(ModelUnavailable, match="pickle checkpoint that would run code"):
        load_model(str(folder), "cpu")
    assert not marker.exists()


def test_a_plain_tensor_pickle_checkpoint_loads_with_weights_only(tiny_bert, tiny_bert_folder, tmp_path):
    state = dict(tiny_bert.network.state_dict())
    folder = _pickle_folder(tiny_bert_folder, tmp_path / "plain", state)
    loaded = load_model(str(folder), "cpu")
    texts = ["a plain checkpoint", "<b>still text</b>"]
    np.testing.assert_allclose(encode(loaded, texts).vectors, encode(tiny_bert, texts).vectors, atol=1e-6)


@dataclass
class _Upload:
    name: str
    data: bytes

    @property
    def size(self) -> int:
        return len(self.data)

    def getvalue(self) -> bytes:
        return self.data


def test_a_binary_file_renamed_txt_is_refused():
    png = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256))
    with pytest.raises(CorpusError, match="looks like a binary file"):
        read_upload(_Upload("notes.txt", png))


def test_csv_formulas_are_read_as_plain_text_and_defused_on_export():
    csv = 'text,label\n"=cmd|\' /C calc\'!A0",a\n"+1+1",b\n@SUM(A1),c\n-2,d\nplain,e\n'
    frame = read_upload(_Upload("evil.csv", csv.encode()))
    texts = corpus_texts(list(frame["text"]))
    assert texts == ["=cmd|' /C calc'!A0", "+1+1", "@SUM(A1)", "-2", "plain"]
    exported = spreadsheet_safe(pd.DataFrame({"score": [0.5, -0.25]}, index=["=HYPERLINK(\"x\")", "plain"]))
    assert list(exported.index) == ["'=HYPERLINK(\"x\")", "plain"]
    assert list(exported["score"]) == [0.5, -0.25]
    assert list(spreadsheet_safe(frame)["text"]) == ["'=cmd|' /C calc'!A0", "'+1+1", "'@SUM(A1)", "'-2", "plain"]
    tokens = spreadsheet_safe(pd.DataFrame([[0.1, 0.2], [0.3, 0.4]], index=["=", "a"], columns=["-", "-"]))
    assert list(tokens.columns) == ["'-", "'-"] and list(tokens.index) == ["'=", "a"]
    assert tokens.to_numpy().tolist() == [[0.1, 0.2], [0.3, 0.4]]


def test_the_upload_limit_is_the_same_in_explorer_toml_and_streamlit_config():
    streamlit = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())
    explorer = tomllib.loads((ROOT / "explorer.toml").read_text())
    assert explorer["explorer"]["max_upload_mb"] == streamlit["server"]["maxUploadSize"]


def test_cli_embed_keeps_one_row_per_hostile_line(tmp_path, capsys):
    lines = [HOSTILE[k] for k in ("empty", "whitespace", "right-to-left", "emoji ZWJ", "html script", "csv formula")]
    source = tmp_path / "in.txt"
    source.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["embed", "--model", "all-MiniLM-L6-v2", "--pooling", "mean", "--input", str(source),
                 "--output", str(tmp_path / "out.npy")]) == 0
    assert np.load(tmp_path / "out.npy").shape == (len(lines), 384)


@pytest.mark.parametrize("model_id", ["../../etc", "https://example.com/x"])
def test_cli_refuses_hostile_model_ids_in_one_line(tmp_path, capsys, model_id):
    source = tmp_path / "in.txt"
    source.write_text("hello\n", encoding="utf-8")
    assert main(["embed", "--model", model_id, "--pooling", "mean", "--input", str(source),
                 "--output", str(tmp_path / "out.npy")]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1 and "Traceback" not in err
    assert not (tmp_path / "out.npy").exists()


def test_cli_refuses_a_binary_file_renamed_txt(tmp_path, capsys):
    source = tmp_path / "photo.txt"
    source.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\xff\xfe")
    assert main(["embed", "--model", "all-MiniLM-L6-v2", "--pooling", "mean", "--input", str(source),
                 "--output", str(tmp_path / "out.npy")]) == 1
    assert "is not UTF-8 text" in capsys.readouterr().err
