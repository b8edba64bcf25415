import numpy as np

from core.analysis.ranking import Ranker, rank_query
from core.plots.retrieval import hits_figure, overlap_label


def test_overlap_labels():
    assert overlap_label(["TF-IDF", "bag of words"]) == "also TF-IDF and BoW"
    assert overlap_label(["TF-IDF"]) == "also TF-IDF"
    assert overlap_label(["bag of words"]) == "also BoW"
    assert overlap_label([]) == "only this ranker"


def test_hits_figure_keeps_rank_order_escapes_text_and_marks_the_threshold():
    corpus = ["<script>x</script>", "second", "third"]
    rankers = {"model": Ranker.dense(np.array([[1.0, 0.2]]), np.array([[1.0, 0.0], [0.3, 1.0], [-1.0, 0.1]])),
               "TF-IDF": Ranker(np.array([[0.0, 1.0, 0.0]]), np.eye(3), lexical=True)}
    figure = hits_figure(rank_query(corpus, rankers, k=3, primary="model"), threshold=0.3)
    assert list(figure.layout.yaxis.categoryarray) == ["2. second", "1. &lt;script&gt;x&lt;/script&gt;"]
    by_name = {trace.name: trace for trace in figure.data}
    assert list(by_name["also TF-IDF"].y) == ["2. second"]
    assert list(by_name["only this ranker"].y) == ["1. &lt;script&gt;x&lt;/script&gt;"]
    assert figure.layout.shapes[0].x0 == 0.3


def test_a_ranker_alone_draws_every_hit_in_one_colour_without_a_legend():
    from core.analysis.ranking import hits_ranking
    from core.analysis.search import Hits

    ranking = hits_ranking("index", Hits(np.array([[2, 0]]), np.array([[0.9, 0.5]], np.float32)), ["b", "a"])
    bars = [trace for trace in hits_figure(ranking).data if len(trace.y)]
    assert [list(trace.y) for trace in bars] == [["1. b", "2. a"]]
    assert bars[0].marker.color == "#1c7ed6" and not any(trace.showlegend for trace in hits_figure(ranking).data)
