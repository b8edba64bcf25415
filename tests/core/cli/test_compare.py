"""`python -m core compare`: its JSON against vectors sentence-transformers encodes and measures computed in the test
(NumPy, scipy, scikit-learn), each side's embed options, and one sentence for each input it refuses."""

import json

import numpy as np
import pytest
from sentence_transformers import SentenceTransformer

from core.cli import main
from core.models.packages import packaged_minilm_folder
from tests.core.analysis.test_agreement import numpy_cka, scipy_procrustes, sklearn_neighbours

TEXTS = ["A man is playing a guitar.", "A man plays the guitar on stage.", "A woman slices an onion.",
         "Someone is chopping vegetables.", "The cat sleeps on the sofa.", "A kitten naps on the couch.",
         "Stocks fell sharply on Monday.", "Markets dropped at the start of the week.", "A child rides a bicycle.",
         "A boy is cycling down the road.", "Rain is expected tomorrow.", "The forecast says it will rain.",
         "He plays the violin.", "Two dogs run in a field."]


@pytest.fixture
def texts_file(tmp_path):
    path = tmp_path / "texts.txt"
    path.write_text("\n".join(TEXTS) + "\n", encoding="utf-8")
    return path


def compared(capsys, *argv) -> dict:
    assert main(["compare", *map(str, argv), "--json"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 1
    return json.loads(out[0])


def cosine_rsa(x: np.ndarray, y: np.ndarray) -> float:
    from scipy.stats import spearmanr

    def upper(m):
        unit = m / np.linalg.norm(m, axis=1, keepdims=True)
        return (unit @ unit.T)[np.triu_indices(len(m), k=1)]

    return spearmanr(upper(x), upper(y)).statistic


def test_compare_prints_the_four_measures_of_sentence_transformers_vectors(capsys, texts_file,
                                                                           tiny_sentence_transformer_folder):
    found = compared(capsys, "--model-a", "all-MiniLM-L6-v2", "--model-b", tiny_sentence_transformer_folder,
                     "--input", texts_file, "--k", 5)
    a = SentenceTransformer(str(packaged_minilm_folder()), device="cpu").encode(TEXTS)
    b = SentenceTransformer(str(tiny_sentence_transformer_folder), device="cpu").encode(TEXTS)
    near_a, near_b = sklearn_neighbours(a, 5), sklearn_neighbours(b, 5)
    assert set(found) == {"cka", "neighbour_overlap@5", "rsa_spearman", "procrustes", "texts"}
    assert found["texts"] == len(TEXTS)
    assert found["cka"] == pytest.approx(numpy_cka(a, b), abs=1e-4)
    assert found["neighbour_overlap@5"] == pytest.approx(np.mean([len(set(x) & set(y)) / 5
                                                                  for x, y in zip(near_a, near_b)]))
    assert found["rsa_spearman"] == pytest.approx(cosine_rsa(a, b), abs=1e-4)
    assert found["procrustes"] == pytest.approx(scipy_procrustes(a, b), abs=1e-4)


def test_each_side_takes_embeds_options_and_layers_gives_as_layers_as_rows(capsys, texts_file, tmp_path):
    found = compared(capsys, "--model-a", "all-MiniLM-L6-v2", "--model-b", "all-MiniLM-L6-v2", "--pooling-b", "cls",
                     "--layer-b", 2, "--input", texts_file, "--layers")
    assert main(["embed", "--model", "all-MiniLM-L6-v2", "--pooling", "cls", "--layer", "2", "--input",
                 str(texts_file), "--output", str(tmp_path / "b.npy")]) == 0
    a = SentenceTransformer(str(packaged_minilm_folder()), device="cpu").encode(TEXTS)
    assert found["cka"] == pytest.approx(numpy_cka(a, np.load(tmp_path / "b.npy")), abs=1e-4)
    layers = np.array(found["cka_layers"], dtype=float)
    assert layers.shape == (7, 7)
    assert layers[-1, 2] == pytest.approx(found["cka"])  # A's last layer against B's layer 2, pooled by its cls
    assert layers[-1, -1] < 0.99  # B's last layer pooled by cls, not by the model's mean


def test_input_b_pairs_line_i_with_line_i(capsys, texts_file, tmp_path):
    shifted = tmp_path / "other.txt"
    shifted.write_text("\n".join(TEXTS[1:] + TEXTS[:1]) + "\n", encoding="utf-8")
    same = compared(capsys, "--model-a", "all-MiniLM-L6-v2", "--model-b", "all-MiniLM-L6-v2", "--input", texts_file)
    moved = compared(capsys, "--model-a", "all-MiniLM-L6-v2", "--model-b", "all-MiniLM-L6-v2", "--input", texts_file,
                     "--input-b", shifted)
    assert same["cka"] == pytest.approx(1.0) and same["neighbour_overlap@10"] == 1.0
    assert moved["cka"] < 0.9


def refusal(capsys, argv, status: int) -> str:
    try:
        returned = main(["compare", *map(str, argv)])
    except SystemExit as stop:  # argparse's own errors
        returned = stop.code
    assert returned == status
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1, captured.err
    return lines[0]


def test_too_few_texts_for_k_are_refused_before_any_model_loads(capsys, texts_file):
    said = refusal(capsys, ["--model-a", "no-such-model", "--model-b", "all-MiniLM-L6-v2", "--input", texts_file,
                            "--k", 14], 1)
    assert said == (f"error: {texts_file} holds 14 text(s), and overlap@14 needs at least 15 (each text's 14 nearest "
                    "others); add texts or give a smaller --k.")


def test_files_of_different_lengths_are_refused(capsys, texts_file, tmp_path):
    shorter = tmp_path / "shorter.txt"
    shorter.write_text("\n".join(TEXTS[:-1]), encoding="utf-8")
    said = refusal(capsys, ["--model-a", "all-MiniLM-L6-v2", "--model-b", "all-MiniLM-L6-v2", "--input", texts_file,
                            "--input-b", shorter], 1)
    assert said.startswith(f"error: {texts_file} holds 14 texts and {shorter} 13;")


def test_a_reranker_a_sparse_model_and_a_missing_side_are_refused_in_one_sentence(capsys, texts_file,
                                                                                  reranker_folder):
    said = refusal(capsys, ["--model-a", "all-MiniLM-L6-v2", "--model-b", reranker_folder, "--input", texts_file], 1)
    assert "is a reranker (a CrossEncoder): it scores a query and a text read together" in said
    said = refusal(capsys, ["--model-a", "splade-tiny", "--model-b", "all-MiniLM-L6-v2", "--input", texts_file], 1)
    assert said.startswith("error: splade-tiny is a sparse model:") and "compare two dense models" in said
    said = refusal(capsys, ["--model-a", "all-MiniLM-L6-v2", "--input", texts_file], 2)
    assert said.startswith("error: give --model-b or --vectors-b (one of them): configuration B to compare")


def test_without_json_each_measure_is_a_line(capsys, texts_file):
    assert main(["compare", "--model-a", "all-MiniLM-L6-v2", "--model-b", "all-MiniLM-L6-v2", "--layer-b", "0",
                 "--input", str(texts_file), "--k", "3", "--layers"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in out[:5]] == ["cka", "neighbour_overlap@3", "rsa_spearman", "procrustes",
                                                     "texts"]
    assert out[5].startswith("cka_layers (A's layers as rows") and len(out) == 6 + 7
    assert [float(v) for v in out[-1].split()][-1] == pytest.approx(1.0, abs=1e-3)


def test_vectors_made_elsewhere_compare_row_by_row_with_each_other_or_with_a_model(capsys, tmp_path, texts_file):
    from tests.core.analysis.test_agreement import related, space

    a = space(40, 12)
    b = related(a, 20, noise=3.0)
    np.save(tmp_path / "a.npy", a)
    np.save(tmp_path / "b.npy", b)
    found = compared(capsys, "--vectors-a", tmp_path / "a.npy", "--vectors-b", tmp_path / "b.npy", "--k", 5)
    assert found["cka"] == pytest.approx(numpy_cka(a, b)) and found["texts"] == 40
    assert found["neighbour_overlap@5"] == pytest.approx(np.mean([len(set(x) & set(y)) / 5 for x, y in zip(
        sklearn_neighbours(a, 5), sklearn_neighbours(b, 5))]))
    own = SentenceTransformer(str(packaged_minilm_folder()), device="cpu").encode(TEXTS)
    np.save(tmp_path / "minilm.npy", own * 3)
    mixed = compared(capsys, "--model-a", "all-MiniLM-L6-v2", "--vectors-b", tmp_path / "minilm.npy", "--input",
                     texts_file)
    assert mixed["cka"] == pytest.approx(1.0) and mixed["neighbour_overlap@10"] == 1.0
    said = refusal(capsys, ["--model-a", "all-MiniLM-L6-v2", "--vectors-b", tmp_path / "a.npy", "--input", texts_file],
                   1)
    assert said.startswith("error: A has 14 rows and B 40;")
    said = refusal(capsys, ["--vectors-a", tmp_path / "a.npy", "--vectors-b", tmp_path / "b.npy", "--layers"], 2)
    assert "--layers reads every layer of two models" in said
    said = refusal(capsys, ["--model-a", "all-MiniLM-L6-v2", "--vectors-a", tmp_path / "a.npy",
                            "--vectors-b", tmp_path / "b.npy"], 2)
    assert "give --model-a or --vectors-a (not both)" in said


def test_two_dataset_folders_line_up_by_their_texts(capsys, tmp_path):
    from core.data.datasets import Manifest, write_manifest
    from core.scale.inputs import filesystem
    from core.settings import Settings
    from tests.core.analysis.test_agreement import related, space
    from tests.core.data.test_datasets import write_part

    texts = [f"text {i}" for i in range(30)] + ["text 3"]  # a repeated text has the same vector in each space
    a = space(31, 8)
    a[30] = a[3]
    b = related(a, 10, noise=2.0)
    b[30] = b[3]
    order = np.random.default_rng(0).permutation(31)  # B's run wrote its rows in another order, over two files
    write_part(tmp_path / "a", "part-0", texts, a)
    write_part(tmp_path / "b" / "x", "part-0", [texts[i] for i in order[:20]], b[order[:20]])
    write_part(tmp_path / "b" / "y", "part-0", [texts[i] for i in order[20:]], b[order[20:]])
    for folder in ("a", "b"):
        write_manifest(*filesystem(str(tmp_path / folder)), Manifest(Settings()))
    found = compared(capsys, "--vectors-a", tmp_path / "a", "--vectors-b", tmp_path / "b", "--k", 5)
    assert found["cka"] == pytest.approx(numpy_cka(a, b), abs=1e-6)
    assert found["procrustes"] == pytest.approx(scipy_procrustes(a, b), abs=1e-6)
    write_part(tmp_path / "c", "part-0", [*texts[:-1], "another text"], b)
    said = refusal(capsys, ["--vectors-a", tmp_path / "a", "--vectors-b", tmp_path / "c"], 1)
    assert said == "error: a and c hold different texts; compare two datasets of the same texts (embedded from the " \
                   "same inputs)."
    np.save(tmp_path / "b.npy", b)
    said = refusal(capsys, ["--vectors-a", tmp_path / "a", "--vectors-b", tmp_path / "b.npy"], 1)
    assert "is a dataset folder: compare it with another dataset folder" in said
