import numpy as np
from streamlit.testing.v1 import AppTest

from core.encoding import embedding_cache
from core.settings import Settings
from ui.work.background import BACKGROUND_FROM, corpus_job


def _page_with_a_failed_job() -> None:
    from core.jobs import JOBS
    from ui.work.background import job_status

    def fail(progress) -> None:
        raise OSError("No space left on device")

    job = JOBS.submit(("test", "fails"), "Embedding 3 texts", fail)
    job.finished.wait(30)
    job_status(job)


def test_a_failed_job_says_why_and_how_to_try_again():
    at = AppTest.from_function(_page_with_a_failed_job).run()
    assert not at.exception
    assert "No space left on device" in at.error[0].value and "try again" in at.error[0].value


def test_a_corpus_embedded_in_the_background_is_handed_out_even_when_its_file_is_gone(tiny_bert):
    texts = [f"sentence number {i}" for i in range(BACKGROUND_FROM)]
    job = corpus_job(tiny_bert, texts, Settings())
    assert job.finished.wait(300) and job.state == "done"
    key = embedding_cache.settings_key(tiny_bert, texts, Settings())
    embedding_cache.cache_file(key).unlink()
    embedding_cache._memo.clear()
    again = corpus_job(tiny_bert, texts, Settings())  # not a finished job to wait for again (the page would rerun)
    assert isinstance(again, np.ndarray) and np.array_equal(again, job.result)
