"""The map as one HTML file, opened in Chromium from file:// with every other request aborted and counted (none may
happen): the Map page's "Download the map as HTML", MapWidget.save_html and `python -m core project --output
map.html` give the same file for the same map; in it the points are drawn and a hover shows its text, a search
highlights the rows pandas finds, a lasso selects the rows a point-in-polygon over the drawn positions finds and the
CSVs downloaded hold exactly those rows (their row ids computed apart from the app), a text holding markup runs
nothing, and a map of pictures hovers each picture's thumbnail from inside the file; axe-core finds no WCAG 2 A/AA
violation in it."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from matplotlib.path import Path as Polygon

from core.cli import main
from core.data.labels import tags_from_table
from core.data.stsb import stsb_sample
from core.maps.build import map_points
from core.maps.html import points_html
from tests.browser.accessibility import assert_accessible
from tests.browser.canvas import (
    MAP,
    drag,
    hover,
    isolated_row,
    pixels,
    screen_positions,
    tooltip,
    wait_drawn,
    wait_maps,
)
from tests.browser.harness import SHOTS, VIEWPORT, download, shoot, wait_for_idle
from tests.extras import extra_module
from tests.row_ids import digest_id

pytestmark = [pytest.mark.browser, pytest.mark.slow]
SIZE = 300
QUERY = "A man is playing a guitar on stage."  # the Map page's default query
LASSO = [(0.25, 0.2), (0.8, 0.3), (0.55, 0.85), (0.2, 0.65), (0.25, 0.21)]  # fractions of the canvas


@pytest.fixture(scope="module")
def saved(server, chromium, tmp_path_factory) -> dict[str, Path]:
    """The same map saved by the Map page, by the widget and by the command line."""
    extra_module("anywidget", "The notebook extra is missing: run `make notebook-extra`")
    from core.notebook import Explorer

    folder = tmp_path_factory.mktemp("map-files")
    context = chromium.new_context(viewport=VIEWPORT, accept_downloads=True)
    page = context.new_page()
    page.set_default_timeout(300_000)
    try:
        page.goto(f"{server.url}/map?map_size={SIZE}")
        wait_drawn(page, timeout_s=300)
        wait_for_idle(page, 300)
        (folder / "page.html").write_bytes(download(page, "Download the map as HTML").read_bytes())
    finally:
        context.close()
    sample = stsb_sample(SIZE)
    Explorer("all-MiniLM-L6-v2", device="cpu").map(sample["text"].tolist(), labels=sample["genre"],
                                                    query=QUERY).save_html(folder / "widget.html")
    sample.to_csv(folder / "texts.csv", index=False)
    assert main(["project", "--model", "all-MiniLM-L6-v2", "--device", "cpu", "--input", str(folder / "texts.csv"),
                 "--label-column", "genre", "--query", QUERY, "--output", str(folder / "cli.html")]) == 0
    return {"page": folder / "page.html", "widget": folder / "widget.html", "cli": folder / "cli.html"}


class Opened:
    """A map file in its own browser context, every request but the file's own aborted and kept."""

    def __init__(self, chromium, path: Path) -> None:
        self.uri = path.as_uri()
        self.context = chromium.new_context(viewport=VIEWPORT, accept_downloads=True)
        self.requests: list[str] = []
        self.context.route("**/*", self._route)
        self.page = self.context.new_page()
        self.page.set_default_timeout(120_000)
        self.dialogs: list[str] = []
        self.page.on("dialog", lambda dialog: (self.dialogs.append(dialog.message), dialog.dismiss()))
        self.page.goto(self.uri)
        wait_drawn(self.page)

    def _route(self, route) -> None:
        if route.request.url == self.uri:
            route.continue_()
        else:
            self.requests.append(route.request.url)
            route.abort()

    def downloaded(self, button: str) -> pd.DataFrame:
        with self.page.expect_download() as info:
            self.page.get_by_role("button", name=button).click()
        return pd.read_csv(io.BytesIO(Path(info.value.path()).read_bytes()), dtype={"row_id": str},
                           keep_default_na=False)

    def close(self) -> None:
        self.context.close()


@pytest.fixture
def opened(chromium, saved):
    made = Opened(chromium, saved["page"])
    yield made
    assert made.requests == [], "the map file asked for something beyond itself"
    made.close()


def test_the_page_the_widget_and_the_command_line_save_the_same_file(saved):
    page = saved["page"].read_bytes()
    assert saved["widget"].read_bytes() == page
    assert saved["cli"].read_bytes() == page


def test_the_file_draws_its_points_and_a_hover_shows_the_rows_text(opened):
    sample = stsb_sample(SIZE)
    drawn = pixels(opened.page)
    assert (drawn.sum(axis=2) < 3 * 240).sum() > SIZE  # coloured points, not a blank canvas
    row = isolated_row(opened.page)
    hover(opened.page, row)
    expected = f"#{row} · genre: {sample['genre'][row]}\n{sample['text'][row]}"
    tip = tooltip(opened.page)
    tip.wait_for(state="visible")
    opened.page.wait_for_function("([el, text]) => el.textContent === text", arg=[tip.element_handle(), expected])
    shoot(opened.page, SHOTS / "map-file.png")
    assert_accessible(opened.page)

    lowest = int(screen_positions(opened.page)[:, 1].argmax())  # its text goes above it, inside the map
    hover(opened.page, lowest)
    opened.page.wait_for_function("([el, row]) => el.textContent.startsWith(`#${row} `)",
                                  arg=[tip.element_handle(), lowest])
    stage = opened.page.locator(f"{MAP} .stage").bounding_box()
    shown = tip.bounding_box()
    assert stage["y"] <= shown["y"] and shown["y"] + shown["height"] <= stage["y"] + stage["height"] + 0.5


def highlighted_rows(page) -> set[int]:
    return set(page.locator(MAP).evaluate("""async (el) => { const m = el.mapCanvas;
        const bits = new Uint8Array(await m.columns.blob(m.data.highlight));
        return Array.from({ length: m.data.n }, (_, i) => i).filter((i) => (bits[i >> 3] >> (i & 7)) & 1); }"""))


def test_a_search_highlights_the_rows_whose_texts_hold_the_words(opened):
    texts = pd.Series(stsb_sample(SIZE)["text"])
    box = opened.page.get_by_role("searchbox", name="Search")
    for word in ("MAN", "guitar"):
        expected = set(np.flatnonzero(texts.str.contains(word, case=False, regex=False)).tolist())
        box.fill(word)
        opened.page.get_by_text(f"{len(expected)} texts found", exact=True).wait_for()
        wait_maps(opened.page, f"maps[0].mapCanvas.data.highlighted === {len(expected)}")
        assert highlighted_rows(opened.page) == expected
    opened.page.get_by_label("Regular expression").check()
    box.fill("guitar|piano")
    expected = set(np.flatnonzero(texts.str.contains("guitar|piano", case=False, regex=True)).tolist())
    opened.page.get_by_text(f"{len(expected)} texts found", exact=True).wait_for()


def test_a_lasso_selects_the_rows_inside_it_and_both_csvs_hold_exactly_those(opened):
    sample = stsb_sample(SIZE)
    page = opened.page
    page.locator(MAP).get_by_role("button", name="Lasso", exact=True).click()
    box = page.locator(f"{MAP} canvas.points").bounding_box()
    xy = screen_positions(page)
    drag(page, LASSO)
    shape = Polygon([(box["x"] + fx * box["width"], box["y"] + fy * box["height"]) for fx, fy in LASSO])
    # 3 px inside the edge and 3 px outside it: a point on the edge may go either way
    inside, near = sorted((set(np.flatnonzero(shape.contains_points(xy, radius=r)).tolist()) for r in (-3, 3)),
                          key=len)
    page.get_by_text("selected", exact=False).first.wait_for()
    selection = opened.downloaded("Download the selection as CSV")
    ids = [digest_id(text) for text in sample["text"]]
    rows = {ids.index(row_id) for row_id in selection["row_id"]}
    assert len(inside) > 20 and inside <= rows <= near
    assert list(selection.columns) == ["row_id", "text", "genre", "x", "y"]
    assert selection["text"].tolist() == [sample["text"][i] for i in sorted(rows)]
    assert selection["genre"].tolist() == [sample["genre"][i] for i in sorted(rows)]

    page.get_by_label("Tag name").fill("lassoed")
    page.get_by_role("button", name="Tag the selection").click()
    page.get_by_text(f"“lassoed” now has {len(rows)} texts.").wait_for()
    tags = tags_from_table(opened.downloaded("Download the tags as CSV"))
    assert tags == {"lassoed": frozenset(ids[i] for i in rows)}  # the app reads them back by row id


HOSTILE = ["<script>window.pwned = 1</script>", "</script><script>window.pwned = 2</script>",
           '<img src=x onerror="window.pwned = 3">', "plain words"]


def test_a_text_holding_markup_shows_as_text_and_runs_nothing(chromium, tmp_path):
    texts = HOSTILE * 5
    coords = np.column_stack([np.arange(len(texts), dtype=float), np.arange(len(texts), dtype=float) % 4])
    frame = pd.DataFrame({"text": texts, "kind": [f"<b>{i % 2}</b>" for i in range(len(texts))]})
    path = tmp_path / "hostile.html"
    path.write_text(points_html(map_points(frame, coords, coords, title="<i>Hostile</i> map", label="kind")),
                    encoding="utf-8")
    made = Opened(chromium, path)
    try:
        page = made.page
        hover(page, 2)
        tooltip(page).wait_for(state="visible")
        page.wait_for_function("(el) => el.textContent.includes('onerror')", arg=tooltip(page).element_handle())
        assert page.evaluate("window.pwned") is None and made.dialogs == []
        assert page.locator("img").count() == 0 and page.locator("b, i").count() == 0
        assert page.get_by_role("heading", level=1).text_content() == "<i>Hostile</i> map"
        assert made.requests == []
    finally:
        made.close()


def test_a_map_of_pictures_hovers_each_pictures_thumbnail_from_inside_the_file(chromium, tmp_path):
    from core.analysis.map.projection import ProjectionParams
    from core.data.image_examples import EXAMPLES, example_corpus
    from core.maps.html import map_html
    from core.maps.pictures import picture_map

    corpus = example_corpus()
    rng = np.random.default_rng(0)
    found = picture_map(corpus, rng.normal(size=(len(corpus), 8)), ["a cat"], rng.normal(size=(1, 8)),
                        ProjectionParams("PCA"), model_id="random vectors")
    path = tmp_path / "pictures.html"
    path.write_text(map_html(found.canvas(), found.file_rows(corpus)), encoding="utf-8")
    made = Opened(chromium, path)
    try:
        page = made.page
        picture = isolated_row(page, among=range(len(corpus)))
        hover(page, picture)
        tooltip(page).filter(has_text=EXAMPLES[picture].file).wait_for()
        shown = tooltip(page).locator("img")
        assert shown.get_attribute("src").startswith("data:image/jpeg;base64,")
        page.wait_for_function("(img) => img.complete && img.naturalWidth > 0", arg=shown.element_handle())
        shoot(page, SHOTS / "map-file-pictures.png")
        hover(page, len(corpus))  # the text
        tooltip(page).filter(has_text="a cat").wait_for()
        assert tooltip(page).locator("img").count() == 0
        assert made.requests == []  # the thumbnails are inside the file
    finally:
        made.close()


def _misfit(drawn: np.ndarray, source: np.ndarray) -> float:
    """How far, in pixels, `drawn` is from the nearest affine image of `source` (a map drawn at another size and
    zoom is one)."""
    design = np.column_stack([source, np.ones(len(source))])
    fitted = design @ np.linalg.lstsq(design, drawn, rcond=None)[0]
    return float(np.abs(fitted - drawn).max())


def test_compare_mode_saves_each_side_as_a_file_of_its_own_map(server, chromium, tmp_path):
    context = chromium.new_context(viewport=VIEWPORT, accept_downloads=True)
    page = context.new_page()
    page.set_default_timeout(300_000)
    try:
        page.goto(f"{server.url}/map?map_size={SIZE}&map_method=PCA&map_compare=1")
        wait_drawn(page, nth=1, timeout_s=300)
        wait_for_idle(page, 300)
        a, b = (screen_positions(page, nth) for nth in (0, 1))
        path = tmp_path / "b.html"
        path.write_bytes(download(page, "Download B as HTML").read_bytes())
    finally:
        context.close()
    made = Opened(chromium, path)
    try:
        drawn = screen_positions(made.page)
        assert _misfit(drawn, b) < 1.0 < 10 < _misfit(drawn, a)  # B's own map, not A's
        assert made.requests == []
    finally:
        made.close()
