import pandas as pd

from core.plots.evaluation import rank_buckets, rank_figure, recall_figure, sts_scatter, sweep_figure


def test_rank_buckets_count_each_range_and_missing():
    ranks = pd.Series([1, 1, 2, 5, 6, 10, 11, 50, 51, 4000, pd.NA], dtype="Int64")
    buckets = rank_buckets(ranks)
    assert buckets["queries"].tolist() == [2, 2, 2, 2, 2, 1]
    assert rank_figure(buckets).data[0].y.tolist() == [2, 2, 2, 2, 2, 1]


def test_recall_curves_draw_one_line_per_configuration_on_the_chosen_ks():
    frame = pd.DataFrame({"configuration": ["a", "a", "b", "b"], "k": [1, 10, 1, 10], "recall": [0.5, 0.9, 0.4, 0.8]})
    figure = recall_figure(frame)
    assert [trace.name for trace in figure.data] == ["a", "b"]
    assert list(figure.data[0].y) == [0.5, 0.9]
    assert figure.layout.xaxis.type == "log" and list(figure.layout.xaxis.tickvals) == [1, 10]


def test_sts_scatter_escapes_sentences_and_colours_by_genre():
    frame = pd.DataFrame({"gold": [1.0, 4.0], "cosine": [0.2, 0.9], "genre": ["news", "forums"],
                          "sentence 1": ["<b>bold</b>", "x"], "sentence 2": ["y", "z"]})
    figure = sts_scatter(frame)
    assert {trace.name for trace in figure.data} == {"news", "forums"}
    assert "&lt;b&gt;bold&lt;/b&gt;" in figure.data[0].customdata[0][0]


def test_sweep_has_one_curve_per_pooling():
    frame = pd.DataFrame({"pooling": ["mean", "mean", "cls", "cls"], "layer": [0, 1, 0, 1],
                          "spearman": [0.5, 0.8, 0.3, 0.6]})
    assert [trace.name for trace in sweep_figure(frame).data] == ["mean", "cls"]
