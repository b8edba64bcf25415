import numpy as np

from core.analysis.ranking import Ranker, rank_query
from core.plots.retrieval import agreement_label, hits_figure


def test_agreement_labels():
    assert agreement_label(3, 3) == "also all 3 others"
    assert agreement_label(1, 3) == "also 1 other" and agreement_label(2, 4) == "also 2 others"
    assert agreement_label(1, 1) == "also 1 other"
    assert agreement_label(0, 2) == "only this ranker"


def test_hits_figure_keeps_rank_order_escapes_text_and_marks_the_threshold():
    corpus = ["<script>x</script>", "second", "third"]
    rankers = {"model": Ranker.dense(np.array([[1.0, 0.2]]), np.array([[1.0, 0.0], [0.3, 1.0], [-1.0, 0.1]])),
               "TF-IDF": Ranker(np.array([[0.0, 1.0, 0.0]]), np.eye(3), lexical=True)}
    figure = hits_figure(rank_query(corpus, rankers, k=3, primary="model"), threshold=0.3)
    assert list(figure.layout.yaxis.categoryarray) == ["2. second", "1. &lt;script&gt;x&lt;/script&gt;"]
    by_name = {trace.name: trace for trace in figure.data}
    assert list(by_name["also 1 other"].y) == ["2. second"]
    assert list(by_name["only this ranker"].y) == ["1. &lt;script&gt;x&lt;/script&gt;"]
    assert by_name["also 1 other"].customdata[0][1] == "TF-IDF"
    assert figure.layout.shapes[0].x0 == 0.3 and figure.layout.xaxis.title.text == "cosine similarity"


def test_a_sparse_rankers_bars_are_scaled_to_its_scores():
    import scipy.sparse as sp

    corpus = ["a", "b"]
    rankers = {"splade": Ranker(sp.csr_matrix([[2.0, 1.0]]), sp.csr_matrix([[3.0, 0.0], [0.0, 1.0]]), lexical=True,
                                score="dot")}
    figure = hits_figure(rank_query(corpus, rankers, k=2, primary="splade"))
    assert figure.layout.xaxis.title.text == "dot product" and figure.layout.xaxis.range[1] == 6.0 * 1.05


def test_a_ranker_alone_draws_every_hit_in_one_colour_without_a_legend():
    from core.analysis.ranking import hits_ranking
    from core.analysis.search import Hits

    ranking = hits_ranking("index", Hits(np.array([[2, 0]]), np.array([[0.9, 0.5]], np.float32)), ["b", "a"])
    bars = [trace for trace in hits_figure(ranking).data if len(trace.y)]
    assert [list(trace.y) for trace in bars] == [["1. b", "2. a"]]
    assert bars[0].marker.color == "#1c7ed6" and not any(trace.showlegend for trace in hits_figure(ranking).data)
