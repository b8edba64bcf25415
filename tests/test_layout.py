"""The shape of the project, as README's Layout section describes it."""

import ast

from tests.conftest import ROOT


def test_there_is_no_top_level_pages_folder():
    # beside an st.navigation app, a pages/ folder switches Streamlit to its old multipage mode
    assert not (ROOT / "pages").exists()


def test_every_page_file_is_in_the_registry_and_every_entry_is_a_file():
    from ui.state.page_registry import PAGES

    files = {f"views/{path.name}" for path in (ROOT / "views").glob("*.py")}
    assert {page.file for page in PAGES} == files
    assert "PAGE_REGISTRY" in (ROOT / "app.py").read_text(encoding="utf-8")  # the navigation is built from it


def _imports(path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    return names | {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module}


def test_core_never_imports_streamlit_or_the_ui():
    offenders = [str(path.relative_to(ROOT)) for path in (ROOT / "core").rglob("*.py")
                 if any(name.split(".")[0] in {"streamlit", "ui", "views"} for name in _imports(path))]
    assert not offenders


def test_every_page_defines_main_and_calls_it_once():
    for path in (ROOT / "views").glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        assert any(isinstance(node, ast.FunctionDef) and node.name == "main" for node in tree.body), path.name
        calls = [node for node in tree.body if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call)]
        assert [getattr(c.value.func, "id", "") for c in calls] == ["main"], path.name
