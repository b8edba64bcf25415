"""Every page opens with a model of every registered kind (a tiny one of each, saved by sentence-transformers) typed
in the sidebar, raises nothing, shows no error on any page, and forks no process (the page runs and their background
jobs run in this process: a library that forks fails here). A reranker embeds nothing: the sidebar says so in one
sentence and the pages stay on the model in use. A new kind gets this test by adding its tiny folder to `folders`
below."""

from pathlib import Path

import pytest

from core.jobs import JOBS
from core.kinds import KINDS, kind_of
from core.models.loading import reranker_refusal
from tests.conftest import app_test
from tests.forks import forks

# The Probes page probes this many sentences, not its 600: what is tested here is that each page opens (probing every
# layer of 600 was a minute of CPU a kind, in a job that outlived the test).
PROBED = 60
PAGES = sorted(str(path.relative_to(Path(__file__).parents[2])) for path in
               (Path(__file__).parents[2] / "views").glob("*.py"))


@pytest.fixture(scope="module")
def folders(tiny_sentence_transformer_folder, sparse_folders, late_folders, reranker_folder, minilm) -> dict[str, Path]:
    """Each kind's tiny folder, with the STS-B corpus that Evaluation and Retrieval embed on opening already stored
    as seeded random vectors for the sparse one and for MiniLM (the pages a reranker leaves on it): what is tested
    here is that every page opens, not those vectors (8,000 texts each, 40 s of a loaded run)."""
    from core.data.stsb import stsb_corpus
    from core.models.loading import load_model
    from tests.views.cache_fill import prefill, prefill_sparse

    prefill(minilm, stsb_corpus())
    prefill_sparse(load_model(str(sparse_folders["splade"]), "cpu"), stsb_corpus())
    return {"dense": tiny_sentence_transformer_folder, "sparse": sparse_folders["splade"],
            "late interaction": late_folders["colbert"], "reranker": reranker_folder}


def test_every_registered_kind_has_a_tiny_model_here(folders):
    assert set(folders) == set(KINDS)


@pytest.mark.slow
@pytest.mark.parametrize("kind", list(KINDS))
def test_every_page_opens_with_a_model_of_each_kind(folders, kind):
    at = app_test()
    at.session_state["probe_size"] = PROBED  # the Probes page's job, which runs on after the test
    at.sidebar.text_input(key="sb_custom").set_value(str(folders[kind])).run()
    assert not at.exception
    if not kind_of(kind).embeds:  # refused in one sentence; the pages keep the model in use
        assert len(at.sidebar.error) == 1 and f"is {kind_of(kind).article}" in at.sidebar.error[0].value
    for page in PAGES:
        at.switch_page(page).run()
        assert not at.exception, (page, [e.value for e in at.exception])
        assert not at.main.error, (page, [e.value for e in at.main.error])


LINKED = [(page, {"probe_size": str(PROBED)} if page == "views/probes.py" else {}) for page in PAGES] + \
    [("views/map.py", {"map_source": "sets", "map_set_size": "30"})]


@pytest.mark.slow
@pytest.mark.parametrize("kind", list(KINDS))
def test_every_page_opens_by_a_link_naming_a_model_of_each_kind(folders, kind):
    """As a shared link opens them (`?model=FOLDER`), the two-set map too: no exception, no error on the page and no
    fork; a reranker's link leaves the pages on the model in use, and the sidebar says it is not loaded."""
    before = forks()
    for page, query in LINKED:
        at = app_test(page, model=str(folders[kind]), **query)
        while JOBS.unfinished():  # the two-set map's vectors, then its comparison
            assert JOBS.wait_idle(600)
            at.run()
        assert not at.exception, (page, query, [e.value for e in at.exception])
        assert not at.main.error, (page, query, [e.value for e in at.main.error])
        if not kind_of(kind).embeds:  # the error is said once, on the first page (app_test's home run); the reason
            # stays beside the typed model on every page
            said = f"The model typed above is not loaded: {reranker_refusal(str(folders[kind]))} Edit it to try again."
            assert said in [caption.value for caption in at.sidebar.caption], (page, query)
        assert forks() == before, (page, query, "a process forked")
