"""The Fine-tune page's parts: the run's live progress, how far a model moved, the example heatmaps, and deleting
a model."""

from __future__ import annotations

from dataclasses import asdict

import numpy as np
import pandas as pd
import streamlit as st

from core.analysis.agreement import Overlap
from core.analysis.late.similarity import VALUE_NAME, per_token_matrix
from core.analysis.neighbour_changes import changed_most
from core.analysis.similarity import matrix_frame, similarity_matrix
from core.data.examples import EXAMPLES, PARAPHRASE_CLUSTERS
from core.encoding.encoder import encode
from core.jobs import JOBS
from core.kinds import kind_of
from core.models.catalog import ModelUnavailable
from core.models.sources import pending_download
from core.plots.agreement import cka_heatmap
from core.plots.finetune import drift_curve, drift_frame, loss_curve
from core.plots.heatmap import similarity_heatmap
from core.progress import time_left
from core.training.finetune import RunControl, delete_model
from ui.components.agreement import changed_panel
from ui.components.confirmed_delete import confirmed_delete
from ui.components.downloads import csv_download
from ui.components.model_download import ready_or_download
from ui.state.persist import kept
from ui.work.cache import cached_catalog, cached_model

DRIFT_CAPTION = ("At the start and at checkpoints during training, the model's vectors of the first STS-B dev pairs' "
                 "sentences against its own at the start: linear CKA (1 = the same space up to rotation and scale) and "
                 "the share of each sentence's 10 nearest neighbours kept, with the task metric, those pairs' "
                 "Spearman correlation. No checkpoint is saved: only these numbers are kept.")
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
    if progress.drift:
        st.plotly_chart(drift_curve([asdict(point) for point in progress.drift], total=progress.total),
                        key="ft_live_drift")
        st.caption(DRIFT_CAPTION)
    if control.stop_requested.is_set():
        st.info("Stopping after the step in flight; the model trained so far will be saved and measured.")
    elif st.button("Stop", key="ft_stop", disabled=progress.phase != "training"):
        control.stop_requested.set()


BASE_KEY = "ft_base"  # the "Start from" selectbox; the base's download, offered beside it, is keyed from it too


def _here(model_id: str) -> bool:
    """Whether `model_id` loads now; a base the options offer to download is not offered a second time here."""
    if model_id == st.session_state.get(BASE_KEY) and pending_download(model_id) is not None:
        st.caption(f"Its heatmap is drawn once {model_id} is here (its Download is under Start from, above).")
        return False
    return ready_or_download(model_id, key=f"ft_heat_{model_id}",
                             meanwhile=f"Its heatmap is drawn once {model_id} is here.")


def heatmaps(device: str, *model_ids: str) -> None:
    """The example set's cosine heatmap for each model (a late-interaction model's MaxSim per query token), side by
    side, with its numbers as CSV."""
    example = kept(st.selectbox, "Example set", key="ft_example", options=list(EXAMPLES),
                   default=PARAPHRASE_CLUSTERS)
    texts = EXAMPLES[example]
    late_drawn = False
    for panel, model_id in zip(st.columns(2), model_ids):
        with panel:
            if not _here(model_id):
                continue
            try:
                other = cached_model(model_id, device)
            except (ModelUnavailable, OSError) as err:
                st.warning(f"Cannot load {model_id} to draw its heatmap: {err}")
                continue
            late = kind_of(other).token_vectors
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


def moved_section(card: dict, pick: str) -> None:
    """How far training moved the model: its drift over the run, CKA of the base's layers against the fine-tuned
    model's, and the sentences whose nearest neighbours changed most."""
    st.subheader("How far the model moved")
    agreement = card.get("agreement")
    if not card.get("drift") or agreement is None:
        st.info("This model was trained before its drift and its layers were recorded; train one again to see how "
                "far it moves.")
        return
    left, right = st.columns(2)
    with left:
        st.plotly_chart(drift_curve(card["drift"], total=card["total_steps"]), key="ft_drift")
        st.caption(DRIFT_CAPTION)
        csv_download(drift_frame(card["drift"]), f"{pick}-drift.csv", index=False, key="ft_drift_csv")
    layers = np.array(agreement["cka_layers"], dtype=float)
    with right:
        st.plotly_chart(cka_heatmap(layers, a_name=f"{card['base']} (before)", b_name=f"{pick} (after)"),
                        key="ft_cka_layers")
        st.caption(f"Linear CKA of every layer before training (rows) against every layer after (columns), on the "
                   f"same {len(agreement['texts']):,} sentences: the diagonal says how much each layer changed, and "
                   "training usually moves the last layers most.")
        csv_download(pd.DataFrame(layers), f"{pick}-cka-layers.csv", key="ft_cka_csv")
    texts, overlap = agreement["texts"], Overlap.from_json(agreement["overlap"])
    st.metric(f"Neighbours kept after training (overlap@{overlap.k})", f"{overlap.mean:.0%}",
              help=f"On average, this share of each sentence's {overlap.k} nearest other sentences before training "
                   "are still among its nearest after.")
    changed_panel(texts, overlap, changed_most(texts, overlap), key="ft",
                  title="Sentences whose neighbours changed most",
                  caption=f"The share of each sentence's {overlap.k} nearest others (cosine, the model's own vectors) "
                          "that differ before and after training, most changed first, with both neighbour lists by "
                          "sentence number.")
