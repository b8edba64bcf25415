import pytest

from bench.gpu import main, unique_texts


def test_unique_texts_cycle_the_texts_and_number_each_repeat():
    texts = unique_texts(["a", "b"], 5)
    assert texts == ["a", "b", "a (1)", "b (1)", "a (2)"] and len(set(texts)) == 5


@pytest.mark.slow  # a BERT-base of random weights is made and saved
def test_the_gpu_comparison_runs_small_on_the_cpu_with_the_vectors_of_sentence_transformers(capsys):
    assert main(["--device", "cpu", "--scale", "0.001"]) == 0
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith(("| all-", "| BERT"))]
    assert len(rows) == 8  # two models, sentences and passages, batch 32 and 128
    assert all(float(row.split("|")[-2]) < 1e-5 for row in rows)  # the largest difference of any vector's value
