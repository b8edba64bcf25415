"""The contract with the browser is written twice, once per language: CanvasData in Python (the view's keys are
core's CanvasViewData) and the MapData typedef in frontend/src/contract.js; the notebook widget's synced traits
(core.notebook.map_widget.MapWidget) and the WidgetState typedef. A key on one side only fails."""

import re

from tests.extras import extra_module
from ui.components.map_canvas import FRONTEND, CanvasData

CONTRACT = FRONTEND / "src" / "contract.js"


def typedef_keys(source: str, name: str) -> set[str]:
    """The @property names of one JSDoc @typedef in `source` (a property's type may span lines)."""
    block = re.search(rf"@typedef {{Object}} {name}\n(.*?)\*/", source, re.S)
    assert block is not None, f"no @typedef {name} in {CONTRACT}"
    return set(re.findall(r"@property \{.*?\} (\w+)", block.group(1), re.S))


def test_python_and_javascript_name_the_same_keys():
    python = set(CanvasData.__required_keys__ | CanvasData.__optional_keys__)
    javascript = typedef_keys(CONTRACT.read_text(encoding="utf-8"), "MapData")
    assert python == javascript, {"only in Python": python - javascript, "only in contract.js": javascript - python}


def test_the_parser_sees_a_key_added_on_either_side():
    added = " * @property {number} n points\n * @property {string} extra x"
    source = CONTRACT.read_text(encoding="utf-8").replace(" * @property {number} n points", added)
    assert "extra" in typedef_keys(source, "MapData")


def test_the_widgets_traits_are_the_typedefs_properties():
    anywidget = extra_module("anywidget", "The notebook extra is missing: run `make notebook-extra`")
    from core.notebook.map_widget import MapWidget

    python = set(MapWidget.class_trait_names(sync=True)) - set(anywidget.AnyWidget.class_trait_names(sync=True))
    javascript = typedef_keys(CONTRACT.read_text(encoding="utf-8"), "WidgetState")
    assert python == javascript, {"only in Python": python - javascript, "only in contract.js": javascript - python}
