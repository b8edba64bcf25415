from bench.gpu import compare, unique_texts
from core.models.packages import packaged_minilm_folder


def test_unique_texts_cycle_the_texts_and_number_each_repeat():
    texts = unique_texts(["a", "b"], 5)
    assert texts == ["a", "b", "a (1)", "b (1)", "a (2)"] and len(set(texts)) == 5


def test_the_gpu_comparison_runs_small_on_the_cpu_with_the_vectors_of_sentence_transformers():
    rows = compare("all-MiniLM-L6-v2", packaged_minilm_folder(), "cpu", 0.0001)
    assert len(rows) == 4  # sentences and passages, batch 32 and 128
    assert all(float(row.split("|")[-2]) < 1e-5 for row in rows)  # the largest difference of any vector's value
