import json
import subprocess
import sys

import numpy as np
import pytest

from core.cli import main
from core.models.catalog import catalog
from tests.conftest import ROOT
from tests.row_ids import digest_id


def test_models_json_lists_every_entry_with_availability_and_reason(capsys):
    assert main(["models", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    by_id = {row["id"]: row for row in rows}
    assert by_id["all-MiniLM-L6-v2"] == {"id": "all-MiniLM-L6-v2", "available": True,
                                         "reason": "Packaged with the app."}
    assert by_id["bert-base-uncased"]["available"] is False
    for entry in catalog():  # a hub model adds what the catalog says of it
        facts = entry.facts
        assert (facts is None) == ("licence" not in by_id[entry.id])
        if facts is not None:
            assert [by_id[entry.id][key] for key in ("repo", "kind", "parameters_m", "download_bytes", "licence")] == \
                [entry.repo, entry.kind, facts.parameters_m, facts.download_bytes, facts.licence]


def test_models_plain_prints_one_line_per_entry(capsys):
    main(["models"])
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[:2] == ["all-MiniLM-L6-v2", "yes"]
    assert len(lines) >= 8


def test_embed_keeps_every_line_including_empty_ones(tmp_path, minilm):
    from core.encoding.encoder import encode

    source = tmp_path / "in.txt"
    source.write_text("first line\n\nthird line\n", encoding="utf-8")
    out = tmp_path / "out.npy"
    assert main(["embed", "--model", "all-MiniLM-L6-v2", "--pooling", "default", "--input", str(source),
                 "--output", str(out)]) == 0
    vectors = np.load(out)
    assert vectors.shape == (3, 384) and vectors.dtype == np.float32
    np.testing.assert_allclose(vectors, encode(minilm, ["first line", "", "third line"]).vectors, atol=1e-6)


def test_embed_layer_and_normalize_options(tmp_path):
    source = tmp_path / "in.txt"
    source.write_text("no final newline", encoding="utf-8")
    out = tmp_path / "out.npy"
    main(["embed", "--model", "all-MiniLM-L6-v2", "--pooling", "cls", "--layer", "0", "--normalize",
          "--input", str(source), "--output", str(out)])
    vectors = np.load(out)
    assert vectors.shape == (1, 384) and abs(np.linalg.norm(vectors[0]) - 1) < 1e-5


@pytest.mark.parametrize("args, status, message", [
    (["embed", "--model", "all-MiniLM-L6-v2", "--pooling", "median", "--input", "a", "--output", "b"], 2,
     "invalid choice: 'median'"),
    (["embed", "--model", "bert-base-uncased", "--pooling", "mean", "--input", "IN", "--output", "b.npy"], 1,
     "'google-bert/bert-base-uncased' is not in the local Hugging Face cache, and HF_HUB_OFFLINE=1 turns downloads "
     "off"),
    (["evaluate", "retrieval", "--model", "all-MiniLM-L6-v2", "--pooling", "default", "--split", "dev", "--hybrid",
      "nonsense-model"], 1, "'nonsense-model' is not in the local Hugging Face cache"),
    (["embed", "--model", "all-MiniLM-L6-v2", "--pooling", "mean", "--input", "missing.txt", "--output", "b"], 1,
     "No such file"),
])
def test_errors_are_one_line_on_stderr_with_the_contract_exit_status(tmp_path, monkeypatch, capsys, args, status,
                                                                      message):
    (tmp_path / "IN").write_text("x\n")
    monkeypatch.chdir(tmp_path)
    try:
        returned = main(args)
    except SystemExit as stop:
        returned = stop.code
    err = capsys.readouterr().err
    assert returned == status
    assert message in err and len(err.strip().splitlines()) == 1


@pytest.mark.slow
def test_python_dash_m_core_is_the_command_line():
    result = subprocess.run([sys.executable, "-m", "core", "embed", "--model", "m", "--pooling", "median",
                             "--input", "a", "--output", "b"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 2 and "invalid choice: 'median'" in result.stderr
    assert "Traceback" not in result.stderr


def test_help_lists_every_command(capsys):
    from core.cli import COMMANDS

    with pytest.raises(SystemExit):
        main(["--help"])
    listed = capsys.readouterr().out
    assert all(f"\n    {name} " in listed for name in COMMANDS)


def test_embed_to_parquet_round_trips_through_the_import_with_identical_vectors(tmp_path, minilm):
    from core.data.vectors import from_parquet
    from core.encoding.encoder import encode

    source = tmp_path / "in.txt"
    source.write_text("first line\n\nthird line\n", encoding="utf-8")
    for name in ("out.parquet", "out.npy"):
        assert main(["embed", "--model", "all-MiniLM-L6-v2", "--pooling", "default", "--input", str(source),
                     "--output", str(tmp_path / name)]) == 0
    back = from_parquet("out.parquet", (tmp_path / "out.parquet").read_bytes())
    assert back.texts == ["first line", "", "third line"]
    np.testing.assert_array_equal(back.vectors, np.load(tmp_path / "out.npy"))  # identical after the round trip
    np.testing.assert_allclose(back.vectors, encode(minilm, back.texts).vectors, atol=1e-6)


def test_project_writes_the_maps_coordinates_and_reads_a_projection_the_app_stored(tmp_path, monkeypatch, capsys):
    import pandas as pd
    from sklearn.decomposition import PCA

    from core.analysis.map import projection_cache
    from core.data.vectors import VectorCorpus, to_parquet

    vectors = np.random.default_rng(0).normal(size=(40, 6)).astype(np.float32)
    texts = [f"text {i}" for i in range(40)]
    source = tmp_path / "in.parquet"
    source.write_bytes(to_parquet(VectorCorpus(texts, vectors, pd.DataFrame({"side": ["a", "b"] * 20}))))
    assert main(["project", "--input", str(source), "--output", str(tmp_path / "pca.csv")]) == 0
    table = pd.read_csv(tmp_path / "pca.csv")
    assert table.columns.tolist() == ["row_id", "text", "projection_x", "projection_y", "side"]
    assert table["text"].tolist() == texts
    ids = [digest_id(t) for t in texts]
    assert table["row_id"].tolist() == ids
    expected = PCA(n_components=2, svd_solver="full").fit_transform(vectors.astype(np.float64))
    np.testing.assert_allclose(table[["projection_x", "projection_y"]].to_numpy(), expected, atol=1e-5)
    assert "neighbours kept" in capsys.readouterr().err
    stored = projection_cache.cached_project(vectors, method="t-SNE", perplexity=5.0, seed=2)  # as the map would
    monkeypatch.setattr(projection_cache, "project", lambda *a, **k: pytest.fail("computed again"))
    assert main(["project", "--input", str(source), "--output", str(tmp_path / "tsne.parquet"), "--method", "t-SNE",
                 "--perplexity", "5", "--seed", "2"]) == 0
    back = pd.read_parquet(tmp_path / "tsne.parquet")[["projection_x", "projection_y"]].to_numpy()
    np.testing.assert_array_equal(back, stored.coords)
    from core.data.labels import TEXTS, TagStore

    TagStore().tag(TEXTS, "picked", [ids[3], ids[7]])  # as the Map page tags these rows
    assert main(["project", "--input", str(source), "--output", str(tmp_path / "tagged.csv")]) == 0
    tagged = pd.read_csv(tmp_path / "tagged.csv")
    assert tagged["tag_picked"].tolist() == [i in (3, 7) for i in range(40)]


def test_project_maps_every_row_of_a_dataset_folder_as_the_map_does(tmp_path, capsys):
    import pandas as pd
    from sklearn.decomposition import PCA

    from core.data.datasets import open_dataset
    from core.data.vectors import VectorCorpus, to_parquet

    rng = np.random.default_rng(1)
    folder = tmp_path / "embedded"
    parts = []
    for name in ("a", "b"):
        vectors = rng.normal(size=(30, 5)).astype(np.float32)
        texts = [f"{name} {i}" for i in range(30)]
        (folder / name).mkdir(parents=True)
        (folder / name / "part.parquet").write_bytes(to_parquet(VectorCorpus(texts, vectors, pd.DataFrame(
            {"genre": [name] * 30}))))
        parts.append(vectors)
    assert main(["project", "--input", str(folder), "--output", str(tmp_path / "map.parquet")]) == 0
    table = pd.read_parquet(tmp_path / "map.parquet")
    stored = open_dataset(folder, [folder])
    assert table["text"].tolist() == stored.table.column("text").to_pylist() and len(table) == 60
    assert table["row_id"].tolist() == [str(i) for i in range(60)]  # a dataset's rows by their own numbers
    expected = PCA(n_components=2, svd_solver="covariance_eigh").fit_transform(stored.vectors.astype(np.float64))
    np.testing.assert_allclose(table[["projection_x", "projection_y"]].to_numpy(), expected, atol=1e-5)
    assert set(table["genre"]) == {"a", "b"} and "PCA of 60 points" in capsys.readouterr().err


def test_project_says_in_one_line_what_a_lone_npy_file_needs(tmp_path, capsys):
    np.save(tmp_path / "v.npy", np.ones((3, 2), np.float32))
    assert main(["project", "--input", str(tmp_path / "v.npy"), "--output", str(tmp_path / "o.csv")]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1


def test_project_refuses_a_suffix_it_does_not_write_naming_those_it_does(tmp_path, capsys):
    source = tmp_path / "v.npy"
    np.save(source, np.ones((3, 2), np.float32))
    with pytest.raises(SystemExit) as stop:
        main(["project", "--input", str(source), "--output", str(tmp_path / "map.xlsx")])
    assert stop.value.code == 2
    assert "project writes .csv, .parquet or .html, not .xlsx" in capsys.readouterr().err
    assert not (tmp_path / "map.xlsx").exists()


def test_project_saves_the_map_as_one_html_file_coloured_by_its_label_column(tmp_path, capsys):
    import base64
    import gzip
    import json
    import re

    import pandas as pd

    from core.data.vectors import VectorCorpus, to_parquet

    vectors = np.random.default_rng(0).normal(size=(40, 6)).astype(np.float32)
    texts = [f"text {i}" for i in range(40)]
    sides = ["a", "b"] * 20
    source = tmp_path / "in.parquet"
    source.write_bytes(to_parquet(VectorCorpus(texts, vectors, pd.DataFrame({"side": sides}))))
    assert main(["project", "--input", str(source), "--label-column", "side", "--output",
                 str(tmp_path / "map.html")]) == 0
    assert "saved as" in capsys.readouterr().err
    data = re.search(r'id="explorer-map-data">(.*?)</script>', (tmp_path / "map.html").read_text(encoding="utf-8"))
    payload = json.loads(data.group(1))
    assert json.loads(gzip.decompress(base64.b64decode(payload["texts"]))) == texts
    assert json.loads(gzip.decompress(base64.b64decode(payload["values"]))) == sides
    assert payload["valueTitle"] == "side" and payload["view"]["n"] == 40

    assert main(["project", "--input", str(source), "--query", "rain", "--output", str(tmp_path / "q.html")]) == 1
    assert "--query is embedded by the model that embeds the texts: give --model" in capsys.readouterr().err
    assert not (tmp_path / "q.html").exists()


@pytest.mark.parametrize("name", ["map.html", "points.csv"])
def test_project_interrupted_while_writing_leaves_the_file_that_stood_there_whole(tmp_path, monkeypatch, name):
    from pathlib import Path

    import pandas as pd

    from core.data.vectors import VectorCorpus, to_parquet

    vectors = np.random.default_rng(1).normal(size=(30, 6)).astype(np.float32)
    source = tmp_path / "in.parquet"
    source.write_bytes(to_parquet(VectorCorpus([f"text {i}" for i in range(30)], vectors, pd.DataFrame())))
    output = tmp_path / name
    output.write_text("the good file", encoding="utf-8")
    written = Path.write_text

    def halfway(self, data, *args, **kwargs):  # the process dies halfway through the file
        written(self, data[: len(data) // 2], *args, **kwargs)
        raise KeyboardInterrupt

    monkeypatch.setattr(Path, "write_text", halfway)
    monkeypatch.setattr(pd.DataFrame, "to_csv", lambda frame, path, **kwargs: halfway(Path(path), frame.to_json()))
    with pytest.raises(KeyboardInterrupt):
        main(["project", "--input", str(source), "--output", str(output)])
    assert output.read_text(encoding="utf-8") == "the good file"
    assert sorted(path.name for path in tmp_path.iterdir()) == sorted([name, "in.parquet"])
