from core.plots.retrieval import hits_figure, overlap_label


def test_overlap_labels():
    assert overlap_label(True, True) == "also TF-IDF and BoW"
    assert overlap_label(True, False) == "also TF-IDF"
    assert overlap_label(False, True) == "also BoW"
    assert overlap_label(False, False) == "model only"


def test_hits_figure_keeps_rank_order_escapes_text_and_marks_the_threshold():
    figure = hits_figure(["<script>x</script>", "second"], [0.9, 0.4], ["model only", "also TF-IDF"], threshold=0.3)
    assert list(figure.layout.yaxis.categoryarray) == ["2. second", "1. &lt;script&gt;x&lt;/script&gt;"]
    by_name = {trace.name: trace for trace in figure.data}
    assert list(by_name["model only"].x) == [0.9] and list(by_name["also TF-IDF"].x) == [0.4]
    assert figure.layout.shapes[0].x0 == 0.3
