"""One map, three hosts: the Map page, the notebook's MapWidget and `python -m core project --model` map the same rows
of the same texts to the same coordinates (each read back as that host gives them: the page's canvas, the widget's
own points, the command's file), and the Map page keeps a selection and every row by its row id."""

import json

import numpy as np
import pandas as pd

from core.cli import main
from core.data.stsb import stsb_sample
from core.plots.map_canvas import canvas_points
from tests.canvases import canvas
from tests.conftest import app_test
from tests.extras import extra_module
from tests.row_ids import digest_id
from tests.views.map_upload import upload_topics

PAGE = "views/map.py"
SIZE = 300
QUERY = "A man is playing a guitar on stage."  # the page's default query


def canvas_positions(coords: np.ndarray) -> np.ndarray:
    """Positions as the canvas draws them, decoded from the column core.plots.map_canvas writes."""
    data = canvas_points(coords).blob[32:]
    xy = np.frombuffer(data, dtype=np.float32)
    return np.column_stack([xy[:len(coords)], xy[len(coords):]])


def test_the_map_page_the_widget_and_project_give_the_same_coordinates(tmp_path):
    extra_module("anywidget", "The notebook extra is missing: run `make notebook-extra`")
    from core.notebook import Explorer

    sample = stsb_sample(SIZE)
    at = app_test(PAGE)
    at.number_input(key="map_size").set_value(SIZE).run()
    assert not at.exception and not at.error
    page = canvas(at)

    widget = Explorer("all-MiniLM-L6-v2", device="cpu").map(sample["text"].tolist(), labels=sample["genre"].tolist(),
                                                            query=QUERY)
    widget.selection = range(SIZE)
    coords = widget.selection[["x", "y"]].to_numpy()

    source = tmp_path / "texts.csv"
    sample.to_csv(source, index=False)
    assert main(["project", "--model", "all-MiniLM-L6-v2", "--device", "cpu", "--input", str(source),
                 "--label-column", "genre", "--output", str(tmp_path / "map.csv")]) == 0
    written = pd.read_csv(tmp_path / "map.csv", dtype={"row_id": str})

    np.testing.assert_allclose(written[["projection_x", "projection_y"]].to_numpy(), coords, atol=1e-9)
    np.testing.assert_allclose(page.positions, canvas_positions(coords), atol=1e-6)
    star, widget_star = page.view["query"], json.loads(json.dumps(widget.view["query"]))  # the star and its lines, sent
    assert star["text"] == widget_star["text"]
    np.testing.assert_allclose([star["x"], star["y"], *np.ravel(star["neighbours"])],
                               [widget_star["x"], widget_star["y"], *np.ravel(widget_star["neighbours"])], atol=1e-5)
    ids = [digest_id(text) for text in sample["text"]]
    assert written["row_id"].tolist() == widget.selection["row_id"].tolist() == ids
    assert written["genre"].tolist() == widget.selection["label"].tolist() == sample["genre"].tolist()


def selected_texts(at) -> list[tuple[str, str]]:
    table = next(frame.value for frame in at.dataframe if "nearest text" in frame.value.columns)
    return list(zip(table["text"], table["label"]))


ROWS = [(f"Sentence {i} is about {('music', 'food', 'weather')[i % 3]}.", ("music", "food", "weather")[i % 3])
        for i in range(12)] + [("The same words twice.", "first"), ("The same words twice.", "second")]


def test_a_selection_survives_the_corpus_uploaded_again_in_another_order_and_repeated_texts_keep_their_labels():
    at = upload_topics(app_test(PAGE), ROWS)
    drawn = canvas(at)
    assert drawn.view["n"] == len(ROWS)  # both rows of the repeated text are points, each with its own label
    assert drawn.legend()["first"] == drawn.legend()["second"] == 1
    chosen = [ROWS[2], ROWS[7], ROWS[13]]
    at.session_state["map_selected"] = [digest_id(ROWS[2][0]), digest_id(ROWS[7][0]), digest_id(ROWS[13][0], 1)]
    at.run()
    assert selected_texts(at) == chosen

    at = upload_topics(at, ROWS[::-1])  # the same file, its rows in the opposite order
    assert not at.exception
    # the rows are listed in the new order; the repeated text's second row is now the first of the two
    assert selected_texts(at) == [("The same words twice.", "first"), ROWS[7], ROWS[2]]
