"""The shape of the project, as README's Layout section describes it."""

import ast
import re

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


# a line that compares a model's kind: `kind ==`, `== LATE`, `kind in (...)`, `kind !=`, or an isinstance of one of
# sentence-transformers' model classes
KIND_COMPARED = re.compile(r"kind ==|== LATE|kind in \(|kind !=|isinstance\([^)]*(SparseEncoder|MultiVectorEncoder|"
                           r"CrossEncoder)")
KIND_HOMES = ("core/kinds/", "ui/kinds.py", "core/models/")


def test_few_lines_compare_a_models_kind_outside_its_homes_and_the_readme_names_each_file():
    sources = [ROOT / "app.py", *(path for folder in ("core", "ui", "views") for path in (ROOT / folder).rglob("*.py"))]
    found = [(str(path.relative_to(ROOT)), number) for path in sources
             if not str(path.relative_to(ROOT)).startswith(KIND_HOMES)
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
             if KIND_COMPARED.search(line)]
    assert len(found) <= 15, found
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    counted = {name: sum(1 for file, _ in found if file == name) for name, _ in found}
    for name, count in counted.items():
        assert f"`{name}` ({count})" in readme, f"README does not say why {name} compares a kind {count} time(s)"


def test_the_kind_comparison_pattern_finds_what_it_is_meant_to():
    for line in ('if model.kind == "sparse":', "late = other.kind == LATE", "if model.kind in (LATE, 'reranker'):",
                 "isinstance(model, SparseEncoder | CrossEncoder)"):
        assert KIND_COMPARED.search(line), line
    assert not KIND_COMPARED.search("kind = kind_of(model)")
