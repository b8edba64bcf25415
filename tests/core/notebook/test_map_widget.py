"""core.notebook.map_widget without a browser: the traits as declared, the columns as the browser decodes them (read
back from the binary buffers ipywidgets would send), compared with the points given and with projections computed
apart (scikit-learn's PCA and TruncatedSVD of sentence-transformers' vectors); the selection and a hover as the
browser's messages set them, and as Python's messages send them; every bad input refused in one sentence before any
widget exists."""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter

import numpy as np
import pandas as pd
import pytest
from sklearn.decomposition import PCA, TruncatedSVD

from core.models.catalog import ModelUnavailable
from core.models.packages import packaged_minilm_folder
from core.notebook import Explorer
from tests.extras import extra_module

extra_module("anywidget", "The notebook extra is missing: run `make notebook-extra`")
traitlets = extra_module("traitlets", "The notebook extra is missing: run `make notebook-extra`")
from ipywidgets.widgets.widget import _instances, _remove_buffers  # noqa: E402

from core.notebook.map_widget import MapWidget, Rows  # noqa: E402

KEY = 32
RNG = np.random.default_rng(7)
N = 300
FRAME = pd.DataFrame({"x": RNG.normal(3, 2, N), "y": RNG.normal(-1, 0.5, N),
                      "text": [f"text {i} " + ("guitar" if i % 10 == 3 else "other") for i in range(N)],
                      "topic": [("red", "green", "blue")[i % 3] for i in range(N)]})
TEXTS = ["A man is playing a guitar.", "A man plays the guitar on stage.", "A woman slices an onion.",
         "Someone is chopping vegetables.", "The cat sleeps on the sofa.", "A kitten naps on the couch.",
         "Stocks fell sharply on Monday.", "Markets dropped at the start of the week.", "Rain is expected.",
         "It will be wet tomorrow.", "A dog runs in the park.", "The puppy plays outside."]
TOPICS = ["music", "music", "food", "food", "pets", "pets", "money", "money", "weather", "weather", "pets", "pets"]


class Wire:
    """Stands in for the widget's comm: keeps what Python sends to the browser."""

    kernel = object()

    def __init__(self) -> None:
        self.sent: list[tuple[dict, list]] = []
        self.comm_id = f"wire-{id(self)}"

    def on_msg(self, callback) -> None:
        pass

    def send(self, data=None, metadata=None, buffers=None) -> None:
        self.sent.append((data, list(buffers or [])))

    def close(self, *args, **kwargs) -> None:
        pass


def wired(widget: MapWidget) -> Wire:
    widget.comm = Wire()
    return widget.comm


def from_browser(widget: MapWidget, rows: list[int]) -> None:
    """The update a lasso sends: the rows as uint32 bytes in a buffer."""
    widget._handle_msg({"content": {"data": {"method": "update", "state": {"selected": None},
                                             "buffer_paths": [["selected"]]}},
                        "buffers": [memoryview(np.array(rows, dtype="<u4").tobytes())]})


def columns(widget: MapWidget) -> dict[str, bytes]:
    """The binary buffers of the widget's state, by trait, as ipywidgets takes them out of the JSON."""
    state, paths, buffers = _remove_buffers(widget.get_state())
    assert all(len(path) == 1 for path in paths)
    rest = {name: value for name, value in state.items() if name != "_esm"}  # the code, sent once
    return {path[0]: bytes(buffer) for path, buffer in zip(paths, buffers)} | {"json": json.dumps(rest).encode()}


def decoded(widget: MapWidget) -> tuple[np.ndarray, np.ndarray]:
    """The positions (n, 2) and colour codes as the browser reads them, each column under the key the view names."""
    sent, n = columns(widget), widget.view["n"]
    for name in ("positions", "codes"):
        assert sent[name][:KEY].decode() == widget.view[name]
    xy = np.frombuffer(sent["positions"][KEY:], dtype="<f4").reshape(2, n).T
    return xy, np.frombuffer(sent["codes"][KEY:], dtype=np.uint8)


def affine(source: np.ndarray, target: np.ndarray) -> tuple[float, np.ndarray]:
    """The uniform scale and shift taking `source` onto `target` (least squares), asserting they do."""
    centred = source - source.mean(axis=0)
    scale = float((centred * (target - target.mean(axis=0))).sum() / (centred ** 2).sum())
    shift = target.mean(axis=0) - scale * source.mean(axis=0)
    np.testing.assert_allclose(scale * source + shift, target, atol=1e-5)
    return scale, shift


def same_up_to_sign(a: np.ndarray, b: np.ndarray, atol: float) -> None:
    signs = np.sign((a * b).sum(axis=0))
    np.testing.assert_allclose(a, b * signs, atol=atol)


def one_sentence(message: str) -> bool:
    return "\n" not in message and message.endswith(".") and not re.search(r"[.;:]\s+[A-Z]", message)


def test_each_synced_trait_is_declared_once_with_its_type():
    traits = {name: trait for name, trait in MapWidget.class_traits(sync=True).items()
              if name in {"view", "positions", "codes", "highlight_bits", "selected", "answered"}}
    assert {name: type(trait) for name, trait in traits.items()} == {
        "view": traitlets.Dict, "positions": traitlets.Bytes, "codes": traitlets.Bytes,
        "highlight_bits": traitlets.Bytes, "selected": Rows, "answered": traitlets.Int}
    with pytest.raises(traitlets.TraitError):
        MapWidget.from_frame(FRAME).selected = [[1, 2]]


def test_the_columns_go_as_binary_buffers_and_decode_to_the_points_given():
    widget = MapWidget.from_frame(FRAME, label="topic")
    sent = columns(widget)
    assert set(sent) == {"positions", "codes", "highlight_bits", "selected", "json"}
    assert len(sent["positions"]) == KEY + 8 * N and len(sent["codes"]) == KEY + N
    assert len(sent["json"]) < 20_000  # the view alone: palette, legend, labels
    xy, codes = decoded(widget)
    given = FRAME[["x", "y"]].to_numpy()
    affine(given, xy)  # the same points, scaled alike on both axes
    assert np.abs(xy).max() == pytest.approx(1, abs=1e-6)
    names = {item["code"]: item["name"] for item in widget.view["legend"]["items"]}
    assert [names[code] for code in codes] == FRAME["topic"].tolist()
    assert {item["name"]: item["count"] for item in widget.view["legend"]["items"]} == Counter(FRAME["topic"])


def test_the_selection_is_empty_at_first_then_the_rows_a_lasso_sent_with_observers_fired():
    widget = MapWidget.from_frame(FRAME, label="topic")
    wire = wired(widget)
    assert widget.selection.empty and list(widget.selection.columns) == ["row_id", "text", "label", "x", "y"]
    seen = []
    widget.observe(lambda change: seen.append(change["new"].tolist()), names="selected")
    from_browser(widget, [4, 17, 250])
    assert seen == [[4, 17, 250]]
    chosen = FRAME.iloc[[4, 17, 250]]
    ids = [f"{hashlib.blake2b(text.encode(), digest_size=8).hexdigest()}:0" for text in chosen["text"]]
    pd.testing.assert_frame_equal(widget.selection, pd.DataFrame(
        {"row_id": ids, "text": chosen["text"], "label": chosen["topic"], "x": chosen["x"], "y": chosen["y"]},
        index=pd.Index([4, 17, 250], name="row")), check_dtype=False)
    # Python's answer: the counter the browser draws the selection on; the rows are not echoed back
    assert [(data["state"], buffers) for data, buffers in wire.sent] == [({"answered": 1}, [])]
    from_browser(widget, [])
    assert widget.selection.empty and seen[-1] == []
    widget.selection = ids[::-1]  # by row id, from Python
    assert widget.selection.index.tolist() == [4, 17, 250]


def test_a_selection_set_in_python_goes_to_the_browser_as_uint32_rows():
    widget = MapWidget.from_frame(FRAME)
    wire = wired(widget)
    widget.selection = [9, 3, 3, 120]
    data, buffers = next((data, buffers) for data, buffers in wire.sent if data.get("buffer_paths"))
    assert data["buffer_paths"] == [["selected"]] and "selected" not in data["state"]  # out of the JSON
    assert np.frombuffer(bytes(buffers[0]), dtype="<u4").tolist() == [3, 9, 120]
    widget.selection = FRAME["x"] > 5  # a mask
    assert widget.selection.index.tolist() == np.flatnonzero(FRAME["x"] > 5).tolist()
    widget.selection = widget.selection.iloc[:2]  # a DataFrame of rows
    assert len(widget.selection) == 2


def test_a_hover_is_answered_with_the_rows_text_by_a_custom_message():
    widget = MapWidget.from_frame(FRAME, label="topic")
    wire = wired(widget)
    widget._handle_msg({"content": {"data": {"method": "custom", "content": {"hover": 13}}}, "buffers": []})
    (data, _), = wire.sent
    assert data["method"] == "custom" and data["content"]["hover"]["row"] == 13
    said = data["content"]["hover"]["text"]
    assert FRAME["text"][13] in said and FRAME["topic"][13] in said
    widget._handle_msg({"content": {"data": {"method": "custom", "content": {"hover": N}}}, "buffers": []})
    assert len(wire.sent) == 1  # a row past the last is not answered


def test_a_highlight_sends_its_bitmask_and_clears():
    widget = MapWidget.from_frame(FRAME)
    positions = widget.view["positions"]
    lit = FRAME["text"].str.contains("GUITAR", case=False).to_numpy()
    assert widget.highlight("guitar") == lit.sum() == widget.view["highlighted"]
    bits = columns(widget)["highlight_bits"]
    assert bits[:KEY].decode() == widget.view["highlight"]
    assert np.unpackbits(np.frombuffer(bits[KEY:], np.uint8), bitorder="little")[:N].astype(bool).tolist() == \
        lit.tolist()
    assert widget.view["positions"] == positions  # the points are not sent again
    assert widget.highlight([1, 2]) == 2
    assert widget.highlight(None) == N and widget.view["highlight"] is None and widget.highlight_bits == b""


def lit_rows(widget) -> list[int]:
    """The rows the highlight column sent to the browser lights."""
    bits = columns(widget)["highlight_bits"]
    return np.flatnonzero(np.unpackbits(np.frombuffer(bits[KEY:], np.uint8), bitorder="little")[:N]).tolist()


MIXED = FRAME.assign(text=[f"Text {i} " + ("Guitar" if i % 10 == 3 else "GUITARS" if i % 10 == 7 else "other")
                           for i in range(N)])


@pytest.mark.parametrize("find, regex", [("guitar", False), ("GuItAr", False), ("guit.r$", True), ("t 1[0-9] ", True)])
def test_a_highlight_lights_exactly_the_rows_pandas_finds_whatever_their_case(find, regex):
    widget = MapWidget.from_frame(MIXED)
    expected = np.flatnonzero(MIXED["text"].str.contains(find, case=False, regex=regex)).tolist()
    assert widget.highlight(find, regex=regex) == len(expected) > 0
    assert lit_rows(widget) == expected


def test_a_highlight_of_rows_or_a_mask_lights_exactly_those_rows():
    widget = MapWidget.from_frame(FRAME)
    assert widget.highlight([0, 17, 299]) == 3 and lit_rows(widget) == [0, 17, 299]
    mask = np.zeros(N, dtype=bool)
    mask[[5, 6, 250]] = True
    assert widget.highlight(mask) == 3 and lit_rows(widget) == [5, 6, 250]


def test_explorer_map_is_the_pca_of_the_models_vectors_with_the_query_among_its_nearest():
    from sentence_transformers import SentenceTransformer

    widget = Explorer("all-MiniLM-L6-v2", device="cpu").map(TEXTS, labels=TOPICS, query="Who plays music?")
    reference = SentenceTransformer(str(packaged_minilm_folder()), device="cpu")
    vectors = reference.encode_document(TEXTS)
    pca = PCA(n_components=2, svd_solver="covariance_eigh").fit(vectors.astype(np.float64))
    expected = pca.transform(vectors.astype(np.float64))
    widget.selection = range(len(TEXTS))
    same_up_to_sign(widget.selection[["x", "y"]].to_numpy(), expected, atol=1e-4)
    assert widget.selection["label"].tolist() == TOPICS and widget.selection["text"].tolist() == TEXTS
    # the star: the query's vector through the same axes, drawn where the positions' scale puts it
    xy, _ = decoded(widget)
    scale, shift = affine(widget.selection[["x", "y"]].to_numpy(), xy)
    query = reference.encode_query(["Who plays music?"]).astype(np.float64)
    signs = np.sign((widget.selection[["x", "y"]].to_numpy() * expected).sum(axis=0))
    star = pca.transform(query)[0] * signs * scale + shift
    np.testing.assert_allclose([widget.view["query"]["x"], widget.view["query"]["y"]], star, atol=1e-4)
    cosines = (vectors @ query[0]) / np.linalg.norm(vectors, axis=1) / np.linalg.norm(query)
    nearest = np.argsort(-cosines)[:5]
    np.testing.assert_allclose(widget.view["query"]["neighbours"], xy[nearest], atol=1e-5)
    assert widget.view["legend"]["title"] == "label"


def test_a_sparse_models_map_is_the_pca_of_its_truncated_svd(sparse_folders):
    from sentence_transformers import SparseEncoder

    folder = str(sparse_folders["splade"])
    widget = Explorer(folder, device="cpu").map(TEXTS)
    rows = SparseEncoder(folder, device="cpu").encode_document(TEXTS, convert_to_sparse_tensor=True)
    dense = rows.to_dense().numpy()
    reduced = TruncatedSVD(n_components=len(TEXTS) - 1, random_state=0).fit_transform(dense)
    expected = PCA(n_components=2, svd_solver="covariance_eigh").fit_transform(reduced.astype(np.float32))
    widget.selection = range(len(TEXTS))
    same_up_to_sign(widget.selection[["x", "y"]].to_numpy(), expected, atol=1e-3)
    assert widget.view["legend"]["title"] == "cluster" and widget.view["n"] == len(TEXTS)


def test_a_late_interaction_models_map_places_each_text_at_its_mean_token_vector(late_folders):
    from sentence_transformers import MultiVectorEncoder

    folder = str(late_folders["colbert"])
    widget = Explorer(folder, device="cpu").map(TEXTS)
    tokens = MultiVectorEncoder(folder, device="cpu").encode_document(TEXTS)
    means = np.stack([np.asarray(t, dtype=np.float64).mean(axis=0) for t in tokens])
    widget.selection = range(len(TEXTS))
    same_up_to_sign(widget.selection[["x", "y"]].to_numpy(), PCA(n_components=2).fit_transform(means), atol=1e-4)


def test_vectors_and_texts_open_a_map_projected_as_the_map_page_does():
    vectors = RNG.normal(size=(60, 5))
    widget = MapWidget.from_vectors(vectors, [f"t{i}" for i in range(60)], labels=["a", "b"] * 30)
    widget.selection = range(60)
    same_up_to_sign(widget.selection[["x", "y"]].to_numpy(), PCA(n_components=2).fit_transform(vectors), atol=1e-8)
    assert widget.view["label"] == "PCA of 60 vectors" and widget.view["legend"]["title"] == "label"
    assert widget.selection["label"].tolist() == ["a", "b"] * 30


def test_vectors_are_projected_by_the_method_and_seed_asked():
    from core.analysis.map.projection import project

    vectors = RNG.normal(size=(100, 5))
    widget = MapWidget.from_vectors(vectors, [f"t{i}" for i in range(100)], method="t-SNE", seed=3, title="mine")
    widget.selection = range(100)
    expected = project(vectors, method="t-SNE", seed=3).coords
    np.testing.assert_allclose(widget.selection[["x", "y"]].to_numpy(), expected, atol=1e-6)
    assert widget.view["label"] == "mine" and widget.view["legend"]["title"] == "cluster"


def test_row_zero_is_selected_and_hovered_like_any_other_and_the_title_says_the_rows():
    widget = MapWidget.from_frame(FRAME.assign(row_id=[f"r{i}" for i in range(N)]))
    wire = wired(widget)
    from_browser(widget, [0])
    assert widget.selection.index.tolist() == [0] and widget.selection["row_id"].tolist() == ["r0"]
    widget.selection = ["r0", "r5"]
    assert widget.selection.index.tolist() == [0, 5]
    widget._handle_msg({"content": {"data": {"method": "custom", "content": {"hover": 0}}}, "buffers": []})
    assert wire.sent[-1][0]["content"]["hover"]["row"] == 0
    assert widget.view["label"] == f"{N} points of a DataFrame"


def test_a_highlight_is_literal_text_unless_a_pattern_is_asked():
    widget = MapWidget.from_frame(FRAME.assign(text=["a.c" if i == 4 else "abc" for i in range(N)]))
    assert widget.highlight("a.c") == 1 and lit_rows(widget) == [4]


def test_too_many_labels_for_a_legend_are_coloured_by_clusters_but_kept_in_the_selection():
    labels = [f"label {i}" for i in range(N)]
    with pytest.warns(UserWarning, match=f"{N} distinct values"):
        widget = MapWidget.from_frame(FRAME.assign(many=labels), label="many")
    assert widget.view["legend"]["title"] == "cluster"
    widget.selection = [5]
    assert widget.selection["label"].tolist() == ["label 5"]


@pytest.mark.parametrize("make, said", [
    (lambda: MapWidget.from_vectors(np.ones((3, 4)), ["a", "b"]), "There are 3 vectors and 2 texts"),
    (lambda: MapWidget.from_vectors(np.array([[0, 1], [np.nan, 2], [3, 4]]), ["a", "b", "c"]),
     "1 vector(s) hold NaN or infinite values"),
    (lambda: MapWidget.from_frame(FRAME.assign(x=FRAME["x"].where(FRAME.index != 7, np.inf))),
     "1 point(s) have NaN or infinite coordinates (rows 7)"),
    (lambda: MapWidget.from_frame(FRAME.assign(y=np.nan)), "300 point(s) have NaN or infinite coordinates"),
    (lambda: MapWidget.from_frame(FRAME.iloc[:0]), "There are no texts"),
    (lambda: MapWidget.from_frame(FRAME, x="east"), "The DataFrame has no column 'east'"),
    (lambda: MapWidget.from_frame(FRAME.assign(x="far")), "The column 'x' holds values that are not numbers"),
    (lambda: MapWidget.from_vectors(np.ones((2, 2)), ["a", "b"], method="MDS"), "Unknown method 'MDS'"),
    (lambda: MapWidget.from_vectors(np.eye(3), ["a", "b", "c"], labels=["x"]), "There are 1 labels and 3 texts"),
    (lambda: MapWidget.from_vectors(np.ones((1, 3)), ["a"]), "A map is projected from at least 2 texts, not 1"),
    (lambda: MapWidget.from_vectors(np.ones((3, 2)), ["a", "b", "c"]), "All 3 points have the same vector"),
])
def test_bad_input_is_one_sentence_and_no_widget_is_made(make, said):
    before = len(_instances)
    with pytest.raises(ValueError) as refused:
        make()
    assert str(refused.value).startswith(said) and one_sentence(str(refused.value)), str(refused.value)
    assert len(_instances) == before


@pytest.mark.parametrize("rows, said", [
    ([3, N], f"{N} is not a row of the map: its rows are the numbers 0 to {N - 1}."),
    ([-1], "-1 is not a row of the map"),
    ([True, False], f"A mask of 2 values does not fit the map's {N} points"),
])
def test_a_selection_of_rows_the_map_lacks_is_refused_and_the_selection_kept(rows, said):
    widget = MapWidget.from_frame(FRAME)
    widget.selection = [1]
    with pytest.raises(ValueError) as refused:
        widget.selection = rows
    assert str(refused.value).startswith(said) and one_sentence(str(refused.value))
    assert widget.selection.index.tolist() == [1]


def test_a_single_text_is_refused_by_explorer_map_in_one_sentence():
    with pytest.raises(ValueError) as refused:
        Explorer("all-MiniLM-L6-v2", device="cpu").map(["Only one text."])
    assert one_sentence(str(refused.value)) and "at least 2 texts" in str(refused.value)


def test_a_model_the_app_refuses_makes_no_widget(reranker_folder):
    before = len(_instances)
    with pytest.raises(ModelUnavailable) as refused:
        Explorer(str(reranker_folder), device="cpu").map(TEXTS)
    assert "is a reranker" in str(refused.value) and "\n" not in str(refused.value)
    assert len(_instances) == before


def test_the_zoom_labels_come_once_the_browser_asks_for_them_after_its_first_frame():
    widget = MapWidget.from_frame(FRAME, label="topic")
    assert widget.view["labels"] == []  # the first frame does not wait for them
    wire = wired(widget)
    for _ in range(2):
        widget._handle_msg({"content": {"data": {"method": "custom", "content": {"labels": True}}}, "buffers": []})
    widget._labelling.join()  # computed beside the kernel's thread, so a hover is answered meanwhile
    (data, _), = wire.sent  # once
    labels = data["state"]["view"]["labels"]
    assert labels == widget.view["labels"] and {label["level"] for label in labels} == {0, 1}
    xy, _ = decoded(widget)
    scale, shift = affine(FRAME[["x", "y"]].to_numpy(), xy)
    for label in labels:  # each names points of the map: its place lies among them, its words among their texts
        x, y = (np.array([label["x"], label["y"]]) - shift) / scale
        assert FRAME["x"].min() < x < FRAME["x"].max() and FRAME["y"].min() < y < FRAME["y"].max()
        assert set(label["text"].split(", ")) <= set(" ".join(FRAME["text"]).split())


def test_the_selection_tagged_in_one_widget_is_a_column_of_every_map_of_that_corpus(tmp_path, monkeypatch):
    monkeypatch.setenv("EXPLORER_CACHE_DIR", str(tmp_path))  # a tag store of this test's own
    widget = MapWidget.from_frame(FRAME, label="topic")
    widget.selection = [4, 17, 250]
    assert widget.tag("widget pets") == 3
    widget.selection = [17, 18]
    assert widget.tag("widget pets") == 4  # more rows for the same tag
    again = MapWidget.from_frame(FRAME.iloc[::-1], label="topic")  # the same rows in another order
    tags = again.tags
    assert list(tags.columns) == ["row_id", "text", "label", "tag_widget pets", "x", "y"]
    assert set(tags.loc[tags["tag_widget pets"], "text"]) == set(FRAME["text"].iloc[[4, 17, 18, 250]])
    np.testing.assert_array_equal(tags[["x", "y"]].to_numpy(), FRAME[["x", "y"]].to_numpy()[::-1])
    widget.selection = []
    with pytest.raises(ValueError, match="Nothing is selected"):
        widget.tag("widget pets")


def test_explorer_map_colours_each_text_by_its_score_along_the_direction_between_two_labels():
    """As a logistic regression of one genre against the other on the standardised vectors, fitted here, scores
    them: its unit weight vector is the direction."""
    from sentence_transformers import SentenceTransformer
    from sklearn.linear_model import LogisticRegression
    from sklearn.preprocessing import StandardScaler

    from core.data.stsb import stsb_sample
    from core.plots.map_canvas import SCALE_STEPS

    sample = stsb_sample(60)
    texts, genre = sample["text"].tolist(), sample["genre"].to_numpy()
    explorer = Explorer("all-MiniLM-L6-v2", device="cpu")
    widget = explorer.map(texts, labels=sample["genre"], direction=("news", "captions"))
    vectors = SentenceTransformer(str(packaged_minilm_folder()), device="cpu").encode_document(texts)
    vectors = vectors.astype(np.float64)
    kept = np.isin(genre, ["news", "captions"])
    scaler = StandardScaler().fit(vectors[kept])
    weights = LogisticRegression(C=1.0, max_iter=1000).fit(scaler.transform(vectors[kept]),
                                                           genre[kept] == "news").coef_[0]
    scores = scaler.transform(vectors) @ (weights / np.linalg.norm(weights))
    expected = np.rint((scores - scores.min()) / np.ptp(scores) * (SCALE_STEPS - 1))
    _, codes = decoded(widget)
    assert np.abs(codes.astype(int) - expected).max() <= 1
    legend = widget.view["legend"]
    assert legend["title"] == "captions → news"
    assert float(legend["scale"]["min"]) == pytest.approx(scores.min(), rel=1e-2)
    assert float(legend["scale"]["max"]) == pytest.approx(scores.max(), rel=1e-2)

    alone = explorer.map(texts, labels=sample["genre"], direction="news")
    assert alone.view["legend"]["title"] == "not news → news"
    with pytest.raises(ValueError, match="give the texts' labels too"):
        explorer.map(texts, direction="news")
    with pytest.raises(ValueError, match="No text is labelled “sports”"):
        explorer.map(texts, labels=sample["genre"], direction="sports")


def test_a_store_opened_in_the_notebook_is_mapped_by_its_stored_vectors_and_searched_as_the_command_searches_it(
        tmp_path, capsys):
    import json

    from sentence_transformers import SentenceTransformer

    from core.cli import main
    from core.data.rows import ROW_ID, text_row_ids
    from core.data.stores.reading import write_store
    from core.data.vectors import VectorCorpus
    from tests.extras import extra_module

    extra_module("lancedb", "The vector stores' clients are an optional extra: `make stores`")
    reference = SentenceTransformer(str(packaged_minilm_folder()), device="cpu")
    vectors = reference.encode_document(TEXTS)
    uri = f"lancedb://{tmp_path}/docs"
    write_store(uri, VectorCorpus(TEXTS, vectors, pd.DataFrame({ROW_ID: text_row_ids(TEXTS), "topic": TOPICS})))
    ex = Explorer("all-MiniLM-L6-v2", device="cpu")
    stored = ex.open(uri)
    assert stored.texts == TEXTS and np.array_equal(stored.vectors, vectors)
    widget = ex.map(stored, labels=stored.metadata["topic"])
    widget.selection = range(len(TEXTS))
    expected = PCA(n_components=2, svd_solver="covariance_eigh").fit_transform(vectors.astype(np.float64))
    same_up_to_sign(widget.selection[["x", "y"]].to_numpy(), expected, atol=1e-4)
    assert widget.selection["label"].tolist() == TOPICS
    found = ex.search("Who plays music?", stored, k=3)
    assert main(["search", "--model", "all-MiniLM-L6-v2", "--device", "cpu", "--input", uri, "--query",
                 "Who plays music?", "--k", "3"]) == 0
    command = json.loads(capsys.readouterr().out)["results"]
    assert found[ROW_ID].tolist() == [hit[ROW_ID] for hit in command]
    assert found["topic"].tolist()[:2] == ["music", "music"]
    with pytest.raises(ValueError, match="mapped by their stored vectors"):
        ex.map(stored, query="guitar")
