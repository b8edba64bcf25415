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


def test_drift_and_probe_jobs_are_keyed_by_every_setting_so_a_change_of_layer_gives_new_numbers(tiny_bert,
                                                                                                  monkeypatch):
    """The two-set panel kept the last layer's AUC and MMD² after the sidebar's layer changed: its job was keyed by
    some settings only. Every setting that changes a vector must give another job."""
    from ui.work import background

    asked = []
    monkeypatch.setattr(background, "_queued", lambda key, *args, **kwargs: asked.append(key))
    texts = [f"sentence number {i}" for i in range(30)]
    for settings in (Settings(), Settings(layer=1), Settings(normalize=True), Settings(truncate_dim=8)):
        background.drift_job(tiny_bert, texts[:15], texts[15:], settings)
        background.layer_drift_job(tiny_bert, texts[:15], texts[15:], settings)
        background.probe_job(tiny_bert, texts, ["a", "b"] * 15, settings)
    assert len(set(asked)) == len(asked) == 12
