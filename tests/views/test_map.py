
import numpy as np
import pytest
from sklearn.cluster import HDBSCAN

from core.data.stsb import MAP_SAMPLE_SIZE, stsb_sample
from core.plots.map import MAX_CATEGORIES
from tests.canvases import canvas
from tests.conftest import CATALOG_DENSE, app_test
from tests.figures import figure
from tests.row_ids import digest_id
from tests.views.download_asked import assert_download_offered

PAGE = "views/map.py"


def values(array) -> list:
    return np.asarray(array).tolist()


def query_table(at):
    """The query's nearest texts (the table with a full-space rank)."""
    return next(frame.value for frame in at.dataframe if "rank (full space)" in frame.value.columns)


def row_ids(at) -> list[str]:
    """The ids of the rows of the STS-B sample on the map, in its order: each text's digest (they are distinct)."""
    texts = stsb_sample(int(at.number_input(key="map_size").value))["text"]
    return [digest_id(text) for text in texts]


def metrics(at) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


@pytest.fixture
def opened():  # a fresh page per test: tests change its inputs
    at = app_test(PAGE)
    assert not at.exception
    return at


def upload(at, name: str, content: str):
    at.radio(key="map_source").set_value("upload").run()
    at.file_uploader(key="map_upload").upload(name, content.encode(), "text/plain").run()
    assert not at.exception
    return at


def test_the_page_opens_on_an_stsb_sample_coloured_by_genre_with_trust_and_the_query(opened):
    at = opened
    facts = metrics(at)
    assert facts["Points"] == "1,500"
    assert facts["Variance on the map (PCA)"].endswith("%")
    assert 0 < float(facts["Trustworthiness"]) <= 1
    assert facts["Neighbours kept"].endswith("%")
    drawn = canvas(at)
    assert set(drawn.legend()) == {"captions", "forums", "news"} and sum(drawn.legend().values()) == 1_500
    assert len(drawn.positions) == 1_500 and drawn.view["height"] >= 700
    assert np.abs(drawn.positions).max() <= 1 and drawn.highlight is None
    assert sum(values(figure(at, "map_trust_chart").data[0].y)) == 1_500
    table = query_table(at)
    query = drawn.view["query"]
    assert query["text"] == "A man is playing a guitar on stage." and len(query["neighbours"]) == 5
    # each line ends on a neighbour's point: the table's rows, in the canvas's units
    np.testing.assert_allclose(query["neighbours"], drawn.positions[table["#"].to_numpy()], atol=1e-6)
    assert list(table["rank (full space)"]) == [1, 2, 3, 4, 5]
    assert table["cosine"].is_monotonic_decreasing and table["cosine"].iloc[0] > 0.6
    assert "guitar" in table["text"].iloc[0]
    assert not at.error and not at.warning


def test_colour_by_clusters_and_a_new_query(opened):
    at = opened
    at.selectbox(key="map_colour").set_value("k-means clusters").run()
    at.number_input(key="map_k").set_value(4).run()
    assert not at.exception
    assert list(canvas(at).legend()) == ["0", "1", "2", "3"]
    at.text_input(key="map_query").input("Stocks fell sharply on Wall Street.").run()
    table = query_table(at)
    assert any(word in " ".join(table["text"]).lower() for word in ("stock", "market", "shares", "dow"))
    assert canvas(at).view["query"]["text"] == "Stocks fell sharply on Wall Street."


def test_too_few_points_for_tsne_fall_back_to_pca_with_a_message(opened):
    at = opened
    at.radio(key="map_source").set_value("similarity").run()
    at.radio(key="map_method").set_value("t-SNE").run()
    assert not at.exception
    assert "perplexity (30) can be at most a third of the other points (2.67 for 9 points)" in at.warning[0].value
    assert "Showing PCA instead" in at.warning[0].value
    assert metrics(at)["Points"] == "9"
    at.number_input(key="map_perplexity").set_value(2.5).run()
    assert not at.warning and metrics(at)["Method"] == "t-SNE"


def test_one_point_or_identical_texts_get_one_clear_sentence():
    at = upload(app_test(PAGE), "one.txt", "Only this sentence.\n")
    assert "A map needs at least 2 points; there is 1" in at.error[0].value
    at.file_uploader(key="map_upload").upload("same.txt", b"Same text.\nSame text.\nSame text.\n").run()
    assert not at.exception  # a repeated text keeps each of its rows: three points in one place
    assert at.error[0].value == ("All 3 points have the same vector (identical texts?), so there is nothing to "
                                 "spread out; use texts that differ.")
    assert at.text_input(key="map_query").value  # nothing the user typed is lost


def test_two_points_still_draw_a_pca_map_and_umap_falls_back():
    at = upload(app_test(PAGE), "two.txt", "A cat sleeps on the sofa.\nThe stock market fell today.\n")
    assert not at.error and metrics(at)["Points"] == "2"
    assert metrics(at)["Variance on the map (PCA)"] == "100.0%"
    at.radio(key="map_method").set_value("UMAP").run()
    assert at.warning[0].value == "UMAP needs at least 4 points; there are 2. Add more texts. Showing PCA instead."


def test_a_label_column_with_too_many_values_falls_back_to_clusters_with_a_note():
    rows = "\n".join(f"Sentence number {i} talks about topic {i % 7}.,label-{i}" for i in range(120))
    at = upload(app_test(PAGE), "labels.csv", "text,label\n" + rows + "\n")
    at.selectbox(key="map_label_col").set_value("label").run()
    assert not at.exception
    assert at.selectbox(key="map_colour").value == "label"
    assert "`label` has 120 distinct values" in at.info[0].value
    assert list(canvas(at).legend()) == [str(i) for i in range(8)]


def test_compare_mode_draws_both_configurations_with_the_same_point_numbers(opened):
    at = opened
    at.radio(key="map_source").set_value("stsb").run()
    at.radio(key="map_method").set_value("PCA").run()
    at.number_input(key="map_size").set_value(300).run()
    at.toggle(key="map_compare").set_value(True).run()
    assert not at.exception
    facts = metrics(at)
    assert {"Trustworthiness (A)", "Trustworthiness (B)"} <= set(facts)
    left, right = canvas(at, "map_compare_a"), canvas(at, "map_compare_b")
    assert left.view["query"] and right.view["query"]  # the caption speaks of the star: both maps draw it
    assert left.view["link"] == right.view["link"] != ""  # they pan, zoom and select together
    moved = next(f.value for f in at.dataframe if "neighbours changed" in f.value.columns)
    assert len(moved) == 15 and moved["neighbours changed"].between(0, 1).all()
    assert len(left.positions) == len(right.positions) == 300
    assert not np.allclose(left.positions, right.positions)
    assert {"Download A as HTML", "Download B as HTML"} <= {button.proto.label for button in at.get("download_button")}


def layer_means(model, texts: list[str], layer: int) -> np.ndarray:
    """A sentence-transformers model's mean-pooled hidden states at `layer` (0: the embedding layer), computed here
    with the network and tokenizer alone, in float64."""
    import torch

    tokenizer, network = model[0].tokenizer, model[0].auto_model
    features = tokenizer(texts, padding=True, truncation=True, max_length=model.max_seq_length, return_tensors="pt")
    with torch.no_grad():
        hidden = network(**features, output_hidden_states=True).hidden_states[layer].double()
    mask = features["attention_mask"].unsqueeze(-1).double()
    return ((hidden * mask).sum(dim=1) / mask.sum(dim=1)).numpy()


def cosine_top(vectors: np.ndarray, query: np.ndarray, k: int) -> np.ndarray:
    """The k rows nearest the query by cosine, best first, checked to be apart from each other and from the next
    by at least 1e-5 (an order a float32 rounding could turn is not one to compare)."""
    cosines = (vectors @ query) / (np.linalg.norm(vectors, axis=1) * np.linalg.norm(query))
    order = np.argsort(-cosines, kind="stable")[:k + 1]
    assert (-np.diff(cosines[order]) >= 1e-5).all(), cosines[order]
    return order[:k]


def test_compare_mode_places_bs_query_on_bs_map_even_where_b_is_wider(opened):
    """B (untrained BERT, 768 dimensions against A's 384) is mapped alone and aligned onto A: its star is the mean of
    its nearest texts on B's map, never A's PCA axes applied to B's query (which raised on the wider vector). B's
    nearest texts are computed here from B's network (its middle layer, mean-pooled, as compare mode's B starts) and
    A's with sentence-transformers, so a star placed with A's neighbours, or with the view's own wrong ones, fails."""
    from sentence_transformers import SentenceTransformer

    from core.data.stsb import stsb_sample
    from core.models.loading import sentence_transformer
    from core.models.packages import packaged_minilm_folder

    at = opened
    at.radio(key="map_source").set_value("stsb").run()
    at.radio(key="map_method").set_value("PCA").run()
    at.number_input(key="map_size").set_value(300).run()
    at.toggle(key="map_compare").set_value(True).run()
    at.selectbox(key="map_b_model").set_value("untrained-bert").run()
    assert not at.exception
    texts, query = stsb_sample(300)["text"].tolist(), at.text_input(key="map_query").value
    b = sentence_transformer("untrained-bert")  # its seeded random weights
    middle = b[0].auto_model.config.num_hidden_layers // 2
    assert at.slider(key="map_b_layer").value == middle and at.selectbox(key="map_b_pooling").value == "default"
    b_top = cosine_top(layer_means(b, texts, middle), layer_means(b, [query], middle)[0], 5)
    a = SentenceTransformer(str(packaged_minilm_folder()), device="cpu")
    a_top = cosine_top(a.encode(texts).astype(np.float64), a.encode([query])[0].astype(np.float64), 5)
    assert set(a_top) != set(b_top)  # else a star placed with A's neighbours could not be told apart
    left, right = canvas(at, "map_compare_a"), canvas(at, "map_compare_b")
    assert len(right.positions) == len(texts)
    for drawn, top in ((left, a_top), (right, b_top)):
        star = drawn.view["query"]
        np.testing.assert_allclose(star["neighbours"], drawn.positions[top], atol=1e-6)
    star = right.view["query"]
    np.testing.assert_allclose((star["x"], star["y"]), right.positions[b_top].mean(axis=0), atol=1e-4)


def test_compare_mode_with_umap_lays_both_maps_out_together_in_the_queue(opened):
    from core.jobs import JOBS

    at = opened
    at.number_input(key="map_size").set_value(300).run()
    at.toggle(key="map_compare").set_value(True).run()
    at.radio(key="map_method").set_value("UMAP").run()
    assert not at.exception
    JOBS.wait_idle(600)
    at.run()
    assert not at.exception and not at.error
    assert any("AlignedUMAP" in c.value for c in at.caption)
    assert len(canvas(at, "map_compare_a").positions) == len(canvas(at, "map_compare_b").positions) == 300


def test_selected_points_are_listed_and_survive_a_change_of_colouring(opened):
    at = opened
    at.radio(key="map_source").set_value("stsb").run()
    at.toggle(key="map_compare").set_value(False).run()
    ids = row_ids(at)
    at.session_state["map_selected"] = [ids[5], ids[3]]
    at.selectbox(key="map_colour").set_value("text length").run()
    assert not at.exception
    selection = next(f.value for f in at.dataframe if "nearest text" in f.value.columns)
    assert selection["#"].tolist() == [3, 5] and selection["row_id"].tolist() == [ids[3], ids[5]]
    assert any(m.value.startswith("**Keywords of the selection:** ") for m in at.markdown)
    at.session_state["map_selected"] = [ids[3]]
    at.selectbox(key="map_colour").set_value("genre").run()
    near = next(f.value for f in at.dataframe if "near on the map" in f.value.columns)
    assert len(near) == 10 and near["cosine"].is_monotonic_decreasing
    at.session_state["map_selected"] = []


def test_a_selection_of_more_points_than_are_listed_offers_all_of_them_for_download(opened):
    from ui.pages.map.tools import LISTED

    at = opened
    at.radio(key="map_source").set_value("stsb").run()
    at.number_input(key="map_size").set_value(MAP_SAMPLE_SIZE).run()
    at.session_state["map_selected"] = row_ids(at)[:LISTED + 20]
    at.run()
    assert not at.exception
    selection = next(f.value for f in at.dataframe if "nearest text" in f.value.columns)
    assert selection["#"].tolist() == list(range(LISTED))
    labels = [b.proto.label for b in at.get("download_button")]
    assert f"Download all {LISTED + 20:,} selected texts (CSV)" in labels
    assert any(f"the first {LISTED:,} are listed" in c.value for c in at.caption)
    at.session_state["map_selected"] = []


def test_clusters_are_labelled_with_their_keywords_and_search_greys_the_rest(opened):
    at = opened
    at.selectbox(key="map_colour").set_value("k-means clusters").run()
    legend = next(f.value for f in at.dataframe if "keywords" in f.value.columns)
    assert legend["size"].sum() == 1_500
    before = canvas(at)
    coarse = [label for label in before.view["labels"] if label["level"] == 0]
    assert sorted(label["size"] for label in coarse) == sorted(legend["size"])  # one label a cluster, far out
    assert {label["level"] for label in before.view["labels"]} == {0, 1, 2}  # finer ones closer in
    at.text_input(key="map_find").input("guitar").run()
    after = canvas(at)
    assert after.highlight is not None and 0 < after.highlight.sum() < 1_500
    assert after.view["highlighted"] == after.highlight.sum()
    # a highlight sends a bitmask: the positions and colours are the same blobs, so the browser keeps them
    assert after.blobs["positions"] == before.blobs["positions"] and after.blobs["codes"] == before.blobs["codes"]
    at.checkbox(key="map_regex").check().run()
    at.text_input(key="map_find").input("(unclosed").run()
    assert "not a regular expression" in at.error[0].value and not at.exception
    at.text_input(key="map_find").input("").run()


def test_hdbscan_colours_the_dense_areas_of_the_map_with_their_keywords_and_the_noise_grey(opened):
    at = opened
    at.radio(key="map_source").set_value("stsb").run()
    at.text_input(key="map_find").set_value("").run()
    at.selectbox(key="map_colour").set_value("HDBSCAN clusters of the map").run()
    assert not at.exception and not at.error
    drawn = canvas(at)
    expected = HDBSCAN(min_cluster_size=25, copy=True).fit_predict(drawn.positions.astype(np.float64))
    legend = next(f.value for f in at.dataframe if "keywords" in f.value.columns)
    sizes = dict(zip(legend["cluster"], legend["size"]))
    assert sizes == {("noise" if label < 0 else str(label)): int(n)
                     for label, n in zip(*np.unique(expected, return_counts=True))}
    assert drawn.legend() == sizes
    if "noise" in sizes:
        assert drawn.view["palette"][drawn.codes[drawn.members("noise")[0]]][0] == "#ced4da"
    at.selectbox(key="map_colour").set_value("genre").run()


def test_hdbscan_with_hundreds_of_clusters_from_a_link_colours_the_largest_and_greys_the_rest():
    at = app_test(PAGE, map_colour="HDBSCAN clusters of the map", map_min_size="2")  # the link of issue 45
    assert not at.exception and not at.error
    drawn = canvas(at)
    clusters = set(HDBSCAN(min_cluster_size=2, copy=True).fit_predict(drawn.positions.astype(np.float64))) - {-1}
    assert len(clusters) > 255  # more than a byte of colour codes
    other = [name for name in drawn.legend() if name.startswith("other")]
    assert len(other) == 1 and f"{len(clusters) - MAX_CATEGORIES:,}" in other[0]
    assert any(f"{MAX_CATEGORIES} largest" in caption.value for caption in at.caption)


def test_spherize_redraws_the_map(opened):
    at = opened
    before = canvas(at).positions
    at.toggle(key="map_centre").set_value(True).run()
    assert not at.exception and not np.allclose(canvas(at).positions, before)
    at.toggle(key="map_centre").set_value(False).run()


def test_a_vectors_file_maps_without_a_model_and_exports_round_trip():
    import pandas as pd

    from core.data.vectors import VectorCorpus, from_parquet, to_parquet

    rng = np.random.default_rng(0)
    vectors = np.concatenate([rng.normal(0, 1, (20, 16)), rng.normal(4, 1, (20, 16))]).astype(np.float32)
    corpus = VectorCorpus([f"text {i}" for i in range(40)], vectors, pd.DataFrame({"side": ["a"] * 20 + ["b"] * 20}))
    at = app_test(PAGE)
    at.radio(key="map_source").set_value("vectors").run()
    at.get("file_uploader")[0]  # the page asks for the files first
    at.file_uploader(key="map_vector_files").upload("corpus.parquet", to_parquet(corpus),
                                                    "application/octet-stream").run()
    assert not at.exception and not at.error
    assert at.selectbox(key="map_colour").value == "side"
    assert canvas(at).legend() == {"a": 20, "b": 20}
    assert at.selectbox(key="map_query_row").value == 0
    assert any("16 dimensions and the sidebar's model gives 384" in c.value for c in at.caption)
    assert canvas(at).view["label"] == "PCA of the vectors in corpus.parquet"  # not the sidebar model's name
    parquet = next(b for b in at.get("download_button") if b.proto.label.startswith(".parquet"))
    assert parquet is not None
    np.testing.assert_array_equal(from_parquet("x", to_parquet(corpus)).vectors, vectors)


def test_a_typed_query_is_placed_among_a_vectors_file_made_by_the_sidebar_model():
    import pandas as pd
    from sentence_transformers import SentenceTransformer

    from core.data.stsb import stsb_sentences
    from core.data.vectors import VectorCorpus, to_parquet
    from core.models.packages import packaged_minilm_folder
    from ui.pages.map.inputs import TYPED

    reference = SentenceTransformer(str(packaged_minilm_folder()), device="cpu")
    texts, query = stsb_sentences("dev")[:60], "A woman is slicing an onion."
    vectors, wanted = reference.encode(texts), reference.encode([query])[0]
    nearest = texts[int(np.argmax(vectors @ wanted / np.linalg.norm(vectors, axis=1)))]
    at = app_test(PAGE)
    at.radio(key="map_source").set_value("vectors").run()
    file = to_parquet(VectorCorpus(texts, vectors, pd.DataFrame(index=range(len(texts)))))
    at.file_uploader(key="map_vector_files").upload("mine.parquet", file, "application/octet-stream").run()
    at.radio(key="map_query_kind").set_value(TYPED).run()
    at.text_input(key="map_query").input(query).run()
    assert not at.exception and query_table(at)["text"].iloc[0] == nearest


def test_a_lone_npy_file_says_what_else_to_upload():
    at = app_test(PAGE)
    at.radio(key="map_source").set_value("vectors").run()
    import io

    sink = io.BytesIO()
    np.save(sink, np.zeros((2, 3), np.float32))
    at.file_uploader(key="map_vector_files").upload("v.npy", sink.getvalue(), "application/octet-stream").run()
    assert not at.exception and "not a vector corpus" in at.error[0].value


@pytest.mark.slow  # embeds 1,000 STS-B sentences with max pooling at layer 4, then their t-SNE, in the background
def test_a_corpus_not_embedded_yet_shows_the_controls_and_its_progress_then_the_map_and_a_tsne_in_its_turn():
    from core.jobs import JOBS

    # A configuration no other test embeds: the run's disk cache is shared by every test, browser tests included.
    at = app_test(PAGE, settle=False, pooling="max", layer="4", map_size="1000")
    assert not at.exception and JOBS.unfinished()
    assert at.radio(key="map_method").value == "PCA" and not at.get("bidi_component")
    assert at.get("progress") or at.info
    assert JOBS.wait_idle(900)
    at.run()
    assert len(canvas(at).positions) == 1_000
    at.radio(key="map_method").set_value("t-SNE").run()  # 1,000 points: in the queue, PCA meanwhile
    assert not at.exception and JOBS.unfinished() and "Variance on the map (PCA)" in metrics(at)
    assert any("PCA meanwhile" in c.value for c in at.caption)
    assert JOBS.wait_idle(900)
    at.run()
    assert metrics(at)["Method"] == "t-SNE" and not any("PCA meanwhile" in c.value for c in at.caption)


def test_compare_mode_with_a_hub_model_b_the_cache_lacks_offers_its_download_and_maps_a_alone(hub_uncached):
    at = app_test(PAGE, map_method="PCA", map_size="300")
    at.toggle(key="map_compare").set_value(True).run()
    at.selectbox(key="map_b_model").set_value(CATALOG_DENSE).run()
    assert not at.exception and not at.error
    assert_download_offered(at, CATALOG_DENSE, "map_b_model", hub_uncached)
    assert len(canvas(at).positions) == 300  # A's map, as without compare mode
    assert "Trustworthiness (B)" not in metrics(at)


def test_a_vectors_file_cut_to_fewer_dimensions_is_checked_against_the_sidebar_model_and_found_cut():
    import pandas as pd
    from sentence_transformers import SentenceTransformer

    from core.data.stsb import stsb_sentences
    from core.data.vectors import VectorCorpus, to_parquet
    from core.jobs import JOBS
    from core.models.packages import packaged_minilm_folder

    writer = SentenceTransformer(str(packaged_minilm_folder()), device="cpu")
    texts = stsb_sentences("dev")[:80]
    file = to_parquet(VectorCorpus(texts, writer.encode(texts, truncate_dim=256), pd.DataFrame(index=range(80))))
    at = app_test(PAGE)
    at.radio(key="map_source").set_value("vectors").run()
    at.file_uploader(key="map_vector_files").upload("index.parquet", file, "application/octet-stream").run()
    at.number_input(key="map_check_sample").set_value(50).run()
    at.toggle(key="map_check_on").set_value(True).run()
    assert JOBS.wait_idle(300)
    at.run()
    assert not at.exception
    assert [w.value for w in at.warning] == ["The stored vectors are all-MiniLM-L6-v2's cut to their first 256 of 384 "
                                             "dimensions: check again keeping 256 dimensions."]
    assert metrics(at)["Agree to 1e-3"] == "0.0%" and float(metrics(at)["Median cosine"]) > 0.999
    assert figure(at, "map_check_figure").data[0].name == "the model's, cut (50)"
