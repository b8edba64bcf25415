"""Models built in two threads at once (a page and the background queue) come out whole: transformers patches
process-wide state while it builds one (huggingface/transformers#44940), so the app builds one at a time."""

import threading

from transformers import PreTrainedModel

from core.models.loading import load_model


def test_two_threads_loading_at_once_each_get_a_whole_model_and_leave_tying_in_place():
    tie_weights = PreTrainedModel.tie_weights
    failures: list[BaseException] = []

    def load_repeatedly(model_id: str) -> None:
        try:
            for _ in range(3):
                model = load_model(model_id, "cpu")
                assert not any(p.is_meta for p in (model.sparse or model.network).parameters())
        except Exception as err:  # the other thread's failure is reported by the test
            failures.append(err)

    other = threading.Thread(target=load_repeatedly, args=("untrained-bert",))
    other.start()
    load_repeatedly("splade-tiny")
    other.join()
    kept = PreTrainedModel.tie_weights
    PreTrainedModel.tie_weights = tie_weights  # a failure here leaves the rest of the run as it found it
    assert not failures, failures
    assert kept is tie_weights
