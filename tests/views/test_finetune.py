import threading

import numpy as np
import pytest

from core.data.pairs import PairSet
from core.jobs import JOBS
from core.training.finetune import RunRequest, TrainingLock, TrainOptions, delete_model, finetuned_dir, read_card, run
from tests.conftest import CATALOG_DENSE, app_test
from tests.figures import figure
from tests.views.download_asked import assert_download_offered
from ui.work.cache import cached_catalog

PAGE = "views/finetune.py"
PAIRS = PairSet("toy pairs", tuple(f"sentence {i}" for i in range(8)), tuple(f"line {i}" for i in range(8)),
                tuple(i / 7 for i in range(8)))


@pytest.fixture
def quick_measures(monkeypatch):
    """Replace the STS-B / retrieval measurements (minutes on a CPU) with a fixed stand-in."""
    figures = {"spearman": 0.5, "recall@1": 0.4, "recall@10": 0.7, "mrr@10": 0.5}
    monkeypatch.setattr("core.training.finetune.evaluate", lambda model, **kwargs: dict(figures))


def test_the_page_opens_with_the_defaults_and_says_how_to_start():
    at = app_test(PAGE)
    assert not at.exception
    assert at.selectbox(key="ft_base").value == "all-MiniLM-L6-v2"
    assert at.number_input(key="ft_steps").value == 40
    assert at.text_input(key="ft_name").placeholder == "all-MiniLM-L6-v2-stsb-cosine"
    assert any("No fine-tuned model on this machine yet" in info.value for info in at.info)
    assert len(at.get("plotly_chart")) == 1  # the base model's heatmap of the example texts: the 'before'


def test_a_base_model_from_the_hub_the_cache_lacks_is_offered_once_and_start_waits_for_it(hub_uncached):
    at = app_test(PAGE)
    at.selectbox(key="ft_base").set_value(CATALOG_DENSE).run()
    assert not at.exception and not at.error
    assert_download_offered(at, CATALOG_DENSE, "ft_base", hub_uncached)  # one button: none beside its heatmap
    assert at.button(key="ft_start").disabled  # Start would download it inside the training run, with no progress
    captions = [c.value for c in at.caption]
    assert "Start training waits until it is here." in captions
    assert any(c.startswith(f"Its heatmap is drawn once {CATALOG_DENSE} is here") for c in captions)
    assert not at.get("plotly_chart")


def test_a_learning_rate_of_zero_is_refused_in_one_sentence_and_the_name_is_kept():
    at = app_test(PAGE)
    at.text_input(key="ft_name").set_value("my-model")
    at.number_input(key="ft_lr").set_value(0.0)
    at.button(key="ft_start").click().run()
    assert not at.exception
    assert "learning rate must be above 0" in at.error[0].value
    assert at.text_input(key="ft_name").value == "my-model"


def test_starting_while_another_run_holds_the_machine_is_refused():
    at = app_test(PAGE)
    with TrainingLock():
        at.button(key="ft_start").click().run()
    assert "Another fine-tuning run is in progress" in at.error[0].value
    assert "ft_control" not in at.session_state


def test_a_run_behind_other_heavy_work_shows_its_place_in_the_queue(monkeypatch):
    monkeypatch.setattr("core.training.finetune.run", lambda request, control, lock: lock.release())
    at = app_test(PAGE)
    release = threading.Event()
    JOBS.submit(("test", "blocker"), "a job that waits", lambda progress: release.wait(60))
    try:
        at.text_input(key="ft_name").set_value("queued-run")
        at.button(key="ft_start").click().run()
        assert not at.exception and not at.error
        assert any("Waiting, number 1 in the server's queue" in bar.proto.text for bar in at.get("progress"))
    finally:
        release.set()
    assert at.session_state["ft_control"].finished.wait(60)


def _run_from_the_page(name: str, objective: str | None = None):
    """Two steps of batch 4 from paraphrase-MiniLM-L3-v2 started on the page, once the run has ended."""
    at = app_test(PAGE)
    at.selectbox(key="ft_base").set_value("paraphrase-MiniLM-L3-v2")
    if objective is not None:
        at.radio(key="ft_objective").set_value(objective)
    at.text_input(key="ft_name").set_value(name)
    at.number_input(key="ft_batch").set_value(4)
    at.number_input(key="ft_steps").set_value(2)
    at.button(key="ft_start").click().run()
    assert not at.exception and not at.error
    control = at.session_state["ft_control"]
    assert control.finished.wait(300)
    assert control.error is None
    return at.run()


@pytest.mark.slow
def test_a_run_from_the_page_trains_saves_and_shows_the_comparison(quick_measures):
    at = _run_from_the_page("l3-page-run")
    assert "Saved l3-page-run" in at.success[0].value
    assert at.selectbox(key="ft_pick").value == "l3-page-run"
    card = read_card("l3-page-run")
    assert card["steps"] == 2 and card["base"] == "paraphrase-MiniLM-L3-v2" and card["data"] == "STS-B train"
    assert len(at.get("plotly_chart")) == 6  # bars, loss curve, drift curve, CKA layer by layer, two heatmaps
    at.run()
    assert "l3-page-run" in at.sidebar.selectbox(key="sb_model").options
    at.button(key="ft_delete").click().run()
    assert (finetuned_dir() / "l3-page-run").exists()  # one click only asks
    assert "cannot be undone" in at.warning[0].value
    at.button(key="ft_delete_no").click().run()
    assert (finetuned_dir() / "l3-page-run").exists() and not at.warning
    at.button(key="ft_delete").click().run()
    at.button(key="ft_delete_yes").click().run()
    assert not (finetuned_dir() / "l3-page-run").exists()
    assert any("No fine-tuned model" in info.value for info in at.info)


def test_a_saved_model_shows_its_loss_and_figures_and_can_be_deleted(tiny_bert_folder, monkeypatch):
    from core.data.stsb import load_stsb

    monkeypatch.setattr("core.evaluation.sts.load_stsb", lambda split: load_stsb(split)[:32])
    run(RunRequest(str(tiny_bert_folder), PAIRS, "cosine", TrainOptions(batch_size=4, max_steps=2), "tiny-shown"))
    try:
        at = app_test(PAGE)
        assert not at.exception
        assert at.selectbox(key="ft_pick").value == "tiny-shown"
        assert any("2/2 steps" in caption.value for caption in at.caption)
        assert len(at.get("plotly_chart")) == 6
    finally:  # a failure must not leave the model for the tests after this one
        delete_model("tiny-shown")


def test_a_server_can_switch_deleting_off(tiny_bert_folder, monkeypatch):
    from core.data.stsb import load_stsb
    from core.deployment import load_config

    monkeypatch.setattr("core.evaluation.sts.load_stsb", lambda split: load_stsb(split)[:32])
    run(RunRequest(str(tiny_bert_folder), PAIRS, "cosine", TrainOptions(batch_size=4, max_steps=1), "tiny-kept"))
    monkeypatch.setenv("EXPLORER_ALLOW_MODEL_DELETION", "0")
    load_config.cache_clear()
    try:
        at = app_test(PAGE)
        assert not at.exception and not [b for b in at.button if b.key == "ft_delete"]
        assert any("switched off" in caption.value for caption in at.caption)
    finally:
        monkeypatch.delenv("EXPLORER_ALLOW_MODEL_DELETION")
        load_config.cache_clear()
        delete_model("tiny-kept")


def test_the_multi_vector_objective_says_what_it_trains_and_how_it_is_measured():
    at = app_test(PAGE)
    at.radio(key="ft_objective").set_value("multi-vector").run()
    assert not at.exception
    assert any("MultiVectorEncoderTrainer then trains both" in box.value for box in at.info)
    assert at.text_input(key="ft_name").placeholder == "all-MiniLM-L6-v2-stsb-multi-vector"


@pytest.fixture
def late_card(tiny_sentence_transformer_folder, monkeypatch):
    """A late-interaction model trained from the tiny SentenceTransformer for two steps, measured on a small task."""
    from core.data.stsb import load_stsb, stsb_corpus
    from core.evaluation.retrieval import build_task

    corpus = list(stsb_corpus()[:80])
    task = build_task("small", {"A man plays a guitar.": {corpus[3]}, "Stocks fell.": {corpus[11]}}, corpus)
    monkeypatch.setattr("core.training.finetune.paraphrase_task", lambda split: task)
    monkeypatch.setattr("core.evaluation.sts.load_stsb", lambda split: load_stsb(split)[:32])
    positives = PairSet("toy positives", PAIRS.first, PAIRS.second)
    run(RunRequest(str(tiny_sentence_transformer_folder), positives, "multi-vector",
                   TrainOptions(batch_size=4, max_steps=2), "tiny-late-shown"))
    cached_catalog.clear()  # as the page does when its own run ends: the sidebar lists the new model
    yield "tiny-late-shown"
    delete_model("tiny-late-shown")


def test_a_late_interaction_model_shows_its_recall_beside_its_base_and_its_maxsim_heatmap(late_card):
    from sentence_transformers import MultiVectorEncoder

    from core.data.examples import EXAMPLES, PARAPHRASE_CLUSTERS

    at = app_test(PAGE)
    assert not at.exception
    assert at.selectbox(key="ft_pick").value == late_card
    card = read_card(late_card)
    assert list(figure(at, "ft_bars").data[0].x) == ["Recall@1", "Recall@10", "MRR@10"]  # no STS: measured alike
    said = next(c.value for c in at.caption if "on the STS-B paraphrase retrieval task" in c.value)
    assert f"{card['after']['recall@1']:.3f} for {late_card}" in said
    assert any("MaxSim per query token" in c.value for c in at.caption)
    texts = EXAMPLES[PARAPHRASE_CLUSTERS]
    reference = MultiVectorEncoder(str(finetuned_dir() / late_card), device="cpu", local_files_only=True)
    queries = reference.encode_query(texts)
    expected = reference.similarity(queries, reference.encode_document(texts)).numpy() / \
        np.array([len(q) for q in queries])[:, None]
    shown = np.array(figure(at, f"ft_heat_{late_card}").data[0].z, dtype=float)
    np.testing.assert_allclose(shown, expected, rtol=1e-5, atol=1e-6)
    assert late_card in at.sidebar.selectbox(key="sb_model").options
    assert late_card not in at.selectbox(key="ft_base").options  # training starts from a dense model
    assert card["drift"] == [] and "agreement" not in card  # no drift curve: what the page says instead
    keys = [chart.proto.id.rsplit("-", 1)[-1] for chart in at.get("plotly_chart")]
    assert "ft_drift" not in keys and "ft_cka_layers" not in keys
    assert any(c.value.startswith("Drift (CKA and neighbours kept) is measured on one vector") for c in at.caption)


def test_the_page_shows_with_a_late_interaction_model_in_the_sidebar(late_card):
    at = app_test(PAGE)
    at.sidebar.selectbox(key="sb_model").set_value(late_card).run()
    assert not at.exception and not at.error
    assert not any("does not show" in box.value for box in at.info)
    assert at.selectbox(key="ft_base").value == "all-MiniLM-L6-v2"
    assert at.button(key="ft_start")


@pytest.mark.slow
def test_a_multi_vector_run_from_the_page_goes_through_the_queue_and_is_listed(quick_measures):
    try:
        at = _run_from_the_page("l3-late-page-run", "multi-vector")
        assert "Saved l3-late-page-run; a late-interaction model" in at.success[0].value
        card = read_card("l3-late-page-run")
        assert card["kind"] == "late interaction" and card["steps"] == 2 and [s for s, _ in card["losses"]] == [1, 2]
        at.run()
        assert "l3-late-page-run" in at.sidebar.selectbox(key="sb_model").options
    finally:
        if (finetuned_dir() / "l3-late-page-run").exists():
            delete_model("l3-late-page-run")
