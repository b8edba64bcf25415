"""The Fine-tune page's parts: the run's live progress, the example heatmaps, and deleting a model."""

from __future__ import annotations

import streamlit as st

from core.analysis.late_matrix import VALUE_NAME, per_token_matrix
from core.analysis.similarity import matrix_frame, similarity_matrix
from core.data.examples import EXAMPLES, PARAPHRASE_CLUSTERS
from core.encoding.encoder import encode
from core.jobs import JOBS
from core.models.catalog import LATE, ModelUnavailable
from core.plots.finetune import loss_curve
from core.plots.heatmap import similarity_heatmap
from core.progress import time_left
from core.training.finetune import RunControl, delete_model
from ui.components.confirmed_delete import confirmed_delete
from ui.components.downloads import csv_download
from ui.components.model_download import ready_or_download
from ui.state.persist import kept
from ui.work.cache import cached_catalog, cached_model

PHASES = {"starting": "Starting…",
          "before": "Measuring the base model", "training": "Training", "saving": "Saving the model",
          "after": "Measuring the fine-tuned model"}


@st.fragment(run_every=1.0)
def live_progress(control: RunControl) -> None:
    if control.finished.is_set():
        st.rerun()
    progress = control.snapshot()
    if progress.phase == "training" and progress.total:
        loss = f", loss {progress.losses[-1][1]:.4f}" if progress.losses else ""
        st.progress(progress.step / progress.total,
                    text=f"Training: step {progress.step}/{progress.total}{loss}, {time_left(progress.seconds_left)}")
    elif progress.to_encode:
        st.progress(progress.encoded / progress.to_encode,
                    text=f"{PHASES.get(progress.phase, progress.phase)}: {progress.encoded:,}/{progress.to_encode:,} "
                         "texts encoded")
    else:
        place = JOBS.place(control.job) if control.job is not None else 0
        st.progress(0.0, text=f"Waiting, number {place} in the server's queue of heavy work…" if place
                    else PHASES.get(progress.phase, progress.phase))
    if progress.losses:
        st.plotly_chart(loss_curve(progress.losses, total=progress.total), key="ft_live_loss")
        st.caption("Training loss per step (thin) and its moving average (bold); a falling curve means the model "
                   "is fitting the pairs.")
    if control.stop_requested.is_set():
        st.info("Stopping after the step in flight; the model trained so far will be saved and measured.")
    elif st.button("Stop", key="ft_stop", disabled=progress.phase != "training"):
        control.stop_requested.set()


def heatmaps(device: str, *model_ids: str) -> None:
    """The example set's cosine heatmap for each model (a late-interaction model's MaxSim per query token), side by
    side, with its numbers as CSV."""
    example = kept(st.selectbox, "Example set", key="ft_example", options=list(EXAMPLES),
                   default=PARAPHRASE_CLUSTERS)
    texts = EXAMPLES[example]
    late_drawn = False
    for panel, model_id in zip(st.columns(2), model_ids):
        with panel:
            if not ready_or_download(model_id, key=f"ft_heat_{model_id}",
                                     meanwhile=f"Its heatmap is drawn once {model_id} is here."):
                continue
            try:
                other = cached_model(model_id, device)
            except (ModelUnavailable, OSError) as err:
                st.warning(f"Cannot load {model_id} to draw its heatmap: {err}")
                continue
            late = other.kind == LATE
            late_drawn |= late
            matrix = per_token_matrix(other, texts) if late else similarity_matrix(encode(other, texts).vectors)
            st.plotly_chart(similarity_heatmap(matrix, texts, title=model_id, columns=2,
                                               value_name=VALUE_NAME if late else None), key=f"ft_heat_{model_id}")
            csv_download(matrix_frame(matrix, texts), f"{model_id.replace('/', '_')}-similarity.csv",
                         key=f"ft_heat_csv_{model_id}")
    st.caption("Cosine similarity of every pair of example texts (red close, blue far), with each model's own "
               "pooling: after training, paraphrases should stay red while unrelated texts turn blue.")
    if late_drawn:
        st.caption("A late-interaction model's cells are its MaxSim per query token: each row's text read as a query, "
                   "each of its tokens matched to its best token of the column's text read as a document, the "
                   "matches averaged (MaxSim over the query's token count: a row orders its columns as the score "
                   "does). Read as a query and as a document, a text is not scored the same both ways, so the matrix "
                   "is not symmetric.")


def _delete(pick: str) -> None:
    delete_model(pick)
    cached_catalog.clear()
    cached_model.clear()
    st.session_state.pop("ft_pick", None)


def delete_control(pick: str, in_use: str) -> None:
    """Delete a fine-tuned model, after a confirmation; a deployment can switch deleting off."""
    confirmed_delete(pick, in_use, key="ft", delete=_delete,
                     question=f"Delete {pick} from this machine for every user of this server? This cannot be undone.")
