"""The page registry is the one list of pages: the navigation shows it, and every widget key a page draws carries
the page's prefix (else `forget_other_pages` would keep that key in other pages' links)."""

import pytest

from tests.conftest import app_test
from ui.state.page_registry import PAGES
from ui.state.persist import PAGE_KEYS

WIDGET_TYPES = ("button", "checkbox", "multiselect", "number_input", "radio", "select_slider", "selectbox",
                "slider", "text_area", "text_input", "toggle")


def test_every_page_is_in_the_navigation_and_the_url_state():
    at = app_test()
    assert not at.exception
    assert set(PAGE_KEYS) == {page.url_path for page in PAGES}
    assert len({page.prefix for page in PAGES}) == len(PAGES)


@pytest.mark.parametrize("page", PAGES, ids=[page.title for page in PAGES])
def test_every_widget_key_of_a_page_carries_its_prefix(page):
    at = app_test(page.file)
    assert not at.exception
    keys = [widget.key for widget_type in WIDGET_TYPES for widget in getattr(at.main, widget_type)
            if widget.key is not None]
    others = [key for key in keys if not key.startswith(page.prefix)]
    assert not others, f"{page.file} draws widgets whose keys lack {page.prefix!r}: {others}"
