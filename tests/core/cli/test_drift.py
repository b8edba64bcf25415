"""`python -m core drift`: STS-B's captions split in two at random cannot be told apart (a large p, an AUC near 0.5)
and its news against its forum texts can (p < 0.01); MMD² equals the unbiased estimator computed apart on the vectors
`core embed` writes; --json has the issue's keys; two sets of one distribution where one line is 80% of each (a log
one message dominates: ../shared/data/messy/) give a finite MMD² and a p that is neither small nor 0; a p under 0.001
is printed so, never "p = 0.000"; every bad input is one line on stderr with exit status 2; a sparse model is
compared with a linear kernel and a late-interaction model on its mean token vectors, each saying so."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from scipy.spatial.distance import cdist, pdist

from core.cli import main
from core.data.stsb import stsb_genres
from tests.messy import messy

SIZE = 240
KEYS = {"auc", "auc_low", "auc_high", "mmd2", "p_value", "permutations", "sampled", "centroid_cosine", "clusters",
        "new_topics", "gone"}


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("drift")
    genres = stsb_genres()
    rng = np.random.default_rng(0)
    picked = {genre: genres.loc[genres["genre"] == genre, "text"].to_numpy() for genre in ("captions", "news",
                                                                                           "forums")}
    captions = rng.permutation(picked["captions"])[:2 * SIZE]
    sets = {"captions_a.txt": captions[:SIZE], "captions_b.txt": captions[SIZE:],
            "news.txt": rng.permutation(picked["news"])[:SIZE], "forums.csv": rng.permutation(picked["forums"])[:SIZE],
            "few.txt": picked["news"][:19], "news_30.txt": picked["news"][:30], "captions_30.txt": captions[:30]}
    for name, texts in sets.items():
        if name.endswith(".csv"):
            pd.DataFrame({"sentence": texts}).to_csv(folder / name, index=False)
        else:
            (folder / name).write_text("\n".join(texts) + "\n", encoding="utf-8")
    (folder / "empty.txt").write_text("", encoding="utf-8")
    (folder / "photo.txt").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\xff\xfe")
    return folder


def drift(capsys, *args: str) -> dict:
    assert main(["drift", "--model", "all-MiniLM-L6-v2", "--device", "cpu", *args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_two_random_halves_of_the_captions_cannot_be_told_apart(files, capsys):
    found = drift(capsys, "--reference", str(files / "captions_a.txt"), "--current", str(files / "captions_b.txt"))
    assert set(found) == KEYS
    assert found["p_value"] > 0.05 and 0.45 <= found["auc"] <= 0.55 and found["permutations"] == 1000
    assert found["auc_low"] <= found["auc"] <= found["auc_high"] and not found["sampled"]
    assert set(found["clusters"][0]) == {"cluster", "keywords", "reference_share", "current_share", "p_adjusted"}
    assert len(found["new_topics"]) == len(found["gone"]) == 20


def test_news_against_forum_texts_has_drifted_and_its_mmd2_is_the_estimator_on_embeds_vectors(files, capsys,
                                                                                              tmp_path):
    found = drift(capsys, "--reference", str(files / "news.txt"), "--current", str(files / "forums.csv"),
                  "--text-column", "sentence")
    assert found["p_value"] < 0.01 and found["auc"] > 0.8
    forums = pd.read_csv(files / "forums.csv")["sentence"]
    (tmp_path / "forums.txt").write_text("\n".join(forums) + "\n", encoding="utf-8")
    vectors = []
    for name, source in (("news.npy", files / "news.txt"), ("forums.npy", tmp_path / "forums.txt")):
        assert main(["embed", "--model", "all-MiniLM-L6-v2", "--device", "cpu", "--input", str(source),
                     "--output", str(tmp_path / name)]) == 0
        vectors.append(np.load(tmp_path / name).astype(np.float64))
    x, y = vectors
    sigma = np.median(pdist(np.vstack([x, y])))
    kernel = lambda u, v: np.exp(-cdist(u, v, "sqeuclidean") / (2 * sigma**2))  # noqa: E731
    m, n = len(x), len(y)
    expected = ((kernel(x, x).sum() - m) / (m * (m - 1)) + (kernel(y, y).sum() - n) / (n * (n - 1))
                - 2 * kernel(x, y).mean())
    assert found["mmd2"] == pytest.approx(expected, rel=1e-4)
    news = set((files / "news.txt").read_text(encoding="utf-8").split("\n"))
    assert all(row["text"] in set(forums) for row in found["new_topics"])
    assert all(row["text"] in news for row in found["gone"])
    assert main(["drift", "--model", "all-MiniLM-L6-v2", "--device", "cpu", "--reference", str(files / "news.txt"),
                 "--current", str(files / "forums.csv"), "--text-column", "sentence"]) == 0
    printed = capsys.readouterr().out
    assert "p < 0.001 (1,000 permutations)" in printed and "p = 0.000" not in printed


def test_two_sets_one_line_dominates_hold_the_null_with_a_finite_statistic(capsys):
    reference, current = messy("reference.txt"), messy("current.txt")
    lines = [path.read_text(encoding="utf-8").splitlines() for path in (reference, current)]
    top = pd.Series(lines[0] + lines[1]).value_counts()
    assert top.iloc[0] > 0.5 * (len(lines[0]) + len(lines[1]))  # most pairs are of one text: a median distance of 0
    found = drift(capsys, "--reference", str(reference), "--current", str(current))
    assert np.isfinite(found["mmd2"]) and 0.01 < found["p_value"] <= 1
    assert np.isfinite(found["auc"]) and found["auc"] < 0.75


@pytest.mark.parametrize("reference, current, said", [
    ("few.txt", "news.txt", "The reference set has 19 texts; comparing two sets needs at least 20 in each."),
    ("news.txt", "news.txt", "--reference and --current are the same file"),
    ("news.txt", "empty.txt", "holds no texts"),
    ("news.txt", "photo.txt", "photo.txt is not UTF-8 text (invalid start byte at byte 0)."),
])
def test_sets_that_cannot_be_compared_are_one_sentence(files, capsys, reference, current, said):
    assert main(["drift", "--model", "all-MiniLM-L6-v2", "--device", "cpu", "--reference", str(files / reference),
                 "--current", str(files / current)]) == 2
    err = capsys.readouterr().err
    assert said in err and err.startswith("error: ") and err.count("\n") == 1


def test_a_reranker_is_refused_and_sparse_and_late_interaction_models_say_what_they_compare(
        files, capsys, reranker_folder, sparse_folders, late_folders):
    args = ["--reference", str(files / "captions_30.txt"), "--current", str(files / "news_30.txt")]
    assert main(["drift", "--model", str(reranker_folder), *args]) == 2
    assert "reranker" in capsys.readouterr().err
    assert main(["drift", "--model", str(sparse_folders["splade"]), *args, "--json"]) == 0
    captured = capsys.readouterr()
    assert "MMD uses a linear kernel" in captured.err and set(json.loads(captured.out)) == KEYS
    assert main(["drift", "--model", str(late_folders["colbert"]), *args, "--json"]) == 0
    captured = capsys.readouterr()
    assert "the mean of each text's token vectors" in captured.err and set(json.loads(captured.out)) == KEYS
