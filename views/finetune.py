"""Fine-tune page: train a catalog model on sentence pairs, watch the loss, compare base and result."""

from __future__ import annotations

import streamlit as st

from core.analysis.similarity import matrix_frame, similarity_matrix
from core.data.examples import EXAMPLES, PARAPHRASE_CLUSTERS
from core.data.pairs import OBJECTIVES, OBJECTIVE_NAMES, PairSet, PairsError, read_pairs, stsb_train
from core.encoding.encoder import encode
from core.models.catalog import DEFAULT_MODEL_ID, ModelUnavailable, finetuned_entries
from core.plots.finetune import before_after_bars, comparison_frame, loss_curve, loss_frame
from core.plots.heatmap import similarity_heatmap
from core.training.finetune import (FinetuneError, RunControl, RunRequest, TrainOptions, check_name, delete_model,
                                    read_card, start_in_background, suggest_name)
from ui.downloads import csv_download
from ui.cache import available_ids, cached_catalog, cached_model
from ui.persist import kept
from ui.sidebar import active

DATA_CHOICES = {"stsb": "STS-B train (5,749 scored pairs)", "upload": "My pairs file (.csv / .jsonl)"}
PHASES = {"starting": "Starting…", "before": "Measuring the base model", "training": "Training",
          "saving": "Saving the model", "after": "Measuring the fine-tuned model"}
DEFAULTS = TrainOptions()

settings, model = active()
ss = st.session_state

st.title("Fine-tune")
st.caption("Train a model on sentence pairs with sentence-transformers' trainer, then see what changed: STS-B "
           "correlation, paraphrase retrieval and the similarity heatmap, base and fine-tuned side by side. The "
           "result is saved on this machine and appears in the sidebar's model list.")


def _pairs(data: str, upload) -> PairSet:
    if data == "stsb":
        return stsb_train()
    if upload is None:
        raise PairsError("Upload a pairs file first: a .csv or .jsonl with two text columns and an optional "
                         "score column (0–1, or 0–5 as in STS-B).")
    return read_pairs(upload.name, upload.getvalue())


def _time(seconds: float | None) -> str:
    if seconds is None:
        return "estimating time left"
    minutes, secs = divmod(int(seconds), 60)
    return f"about {minutes} min {secs:02d} s left" if minutes else f"about {secs} s left"


# --- options --------------------------------------------------------------------------------------
choices = available_ids()
left, right = st.columns(2)
with left:
    base = kept(st.selectbox, "Start from", key="ft_base", options=choices,
                default=settings.model_id if settings.model_id in choices else DEFAULT_MODEL_ID,
                help="Any available catalog model; untrained-bert shows how far training goes from random weights.")
    data = kept(st.radio, "Training data", key="ft_data", options=list(DATA_CHOICES), default="stsb",
                format_func=DATA_CHOICES.__getitem__, horizontal=True)
    upload = st.file_uploader("Pairs file", type=["csv", "jsonl"], key="ft_upload",
                              help="Columns: text 1, text 2, optional score (0–1, or 0–5 as in STS-B).") \
        if data == "upload" else None
    objective = kept(st.radio, "Objective", key="ft_objective", options=list(OBJECTIVES), default="cosine",
                     format_func=OBJECTIVE_NAMES.__getitem__,
                     help="Cosine: predict each pair's score as its cosine. Ranking: pairs scored ≥ 4/5 are "
                          "positives; the other texts in the batch serve as negatives.")
    suggested = suggest_name(base, "stsb" if data == "stsb" else getattr(upload, "name", "pairs"), objective)
    name = kept(st.text_input, "Name of the new model", key="ft_name", default="", placeholder=suggested,
                help="Leave empty to use the name shown. Letters, digits, dots, dashes, underscores.")
with right:
    one, two = st.columns(2)
    epochs = one.number_input("Epochs", min_value=1, max_value=20, value=DEFAULTS.epochs, key="ft_epochs")
    batch = two.number_input("Batch size", min_value=2, max_value=256, value=DEFAULTS.batch_size, key="ft_batch")
    rate = one.number_input("Learning rate", value=DEFAULTS.learning_rate, step=1e-5, format="%.1e", key="ft_lr",
                            help="2e-5 suits trained models; try 1e-4 for untrained-bert.")
    warmup = two.number_input("Warm-up (share of steps)", min_value=0.0, max_value=0.9, value=DEFAULTS.warmup_ratio,
                              step=0.05, key="ft_warmup")
    steps = one.number_input("Max steps (0 = all epochs)", min_value=0, value=DEFAULTS.max_steps, step=10,
                             key="ft_steps", help="The default caps the run at a few minutes on a laptop CPU; "
                                                  "a full epoch of STS-B train is 360 steps at batch 16.")
    seed = two.number_input("Seed", min_value=0, value=DEFAULTS.seed, key="ft_seed",
                            help="The same seed and settings give the same model.")

# --- start, progress, stop -------------------------------------------------------------------------
control: RunControl | None = ss.get("ft_control")
running = control is not None and not control.finished.is_set()
if st.button("Start training", type="primary", disabled=running, key="ft_start"):
    try:
        options = TrainOptions(epochs=int(epochs), batch_size=int(batch), learning_rate=float(rate),
                               warmup_ratio=float(warmup), max_steps=int(steps) or None, seed=int(seed))
        pairs = _pairs(data, upload).for_objective(objective)
        pairs.check_batch(options.batch_size)
        new_name = check_name(name or suggested)
        control = start_in_background(RunRequest(base, pairs, objective, options, new_name, retrieval=True,
                                                 device=settings.device))
        ss.ft_control, ss.ft_reported = control, False
    except (FinetuneError, PairsError, ModelUnavailable) as err:
        st.error(str(err))
    else:
        st.rerun()  # redraw with Start disabled and the live progress


@st.fragment(run_every=1.0)
def live_progress(control: RunControl) -> None:
    if control.finished.is_set():
        st.rerun()
    progress = control.snapshot()
    if progress.phase == "training" and progress.total:
        loss = f", loss {progress.losses[-1][1]:.4f}" if progress.losses else ""
        st.progress(progress.step / progress.total,
                    text=f"Training: step {progress.step}/{progress.total}{loss}, {_time(progress.seconds_left)}")
    elif progress.to_encode:
        st.progress(progress.encoded / progress.to_encode,
                    text=f"{PHASES.get(progress.phase, progress.phase)}: {progress.encoded:,}/{progress.to_encode:,} "
                         "texts encoded")
    else:
        st.progress(0.0, text=PHASES.get(progress.phase, progress.phase))
    if progress.losses:
        st.plotly_chart(loss_curve(progress.losses, total=progress.total), key="ft_live_loss")
        st.caption("Training loss per step (thin) and its moving average (bold); a falling curve means the model "
                   "is fitting the pairs.")
    if control.stop_requested.is_set():
        st.info("Stopping after the step in flight; the model trained so far will be saved and measured.")
    elif st.button("Stop", key="ft_stop", disabled=progress.phase != "training"):
        control.stop_requested.set()


if running:
    live_progress(control)
elif control is not None and not ss.get("ft_reported", True):
    ss.ft_reported = True
    cached_catalog.clear()  # the new model appears in the sidebar now
    if control.error:
        st.error(control.error)
    elif control.result is not None:
        ss.ft_pick = control.result.model_id
        stopped = " (stopped early)" if control.result.card["stopped"] else ""
        st.success(f"Saved {control.result.model_id}{stopped}; choose it in the sidebar on any page.")

def heatmaps(*model_ids: str) -> None:
    """The example set's cosine heatmap for each model, side by side, with its numbers as CSV."""
    example = kept(st.selectbox, "Example set", key="ft_example", options=list(EXAMPLES),
                   default=PARAPHRASE_CLUSTERS)
    texts = EXAMPLES[example]
    for panel, model_id in zip(st.columns(2), model_ids):
        with panel:
            try:
                other = cached_model(model_id, settings.device)
            except (ModelUnavailable, OSError) as err:
                st.warning(f"Cannot load {model_id} to draw its heatmap: {err}")
                continue
            matrix = similarity_matrix(encode(other, texts).vectors)
            st.plotly_chart(similarity_heatmap(matrix, texts, title=model_id), key=f"ft_heat_{model_id}")
            csv_download(matrix_frame(matrix, texts), f"{model_id.replace('/', '_')}-similarity.csv",
                         key=f"ft_heat_csv_{model_id}")
    st.caption("Cosine similarity of every pair of example texts (red close, blue far), with each model's own "
               "pooling: after training, paraphrases should stay red while unrelated texts turn blue.")


# --- results ---------------------------------------------------------------------------------------
st.header("Before and after")
tuned_ids = [entry.id for entry in finetuned_entries()]
if not tuned_ids:
    st.info("No fine-tuned model on this machine yet: press Start training above (the defaults take a few minutes "
            "on a laptop CPU), then compare it here with the model it started from. Below is the 'before': "
            f"how {base} sees the example texts now.")
    heatmaps(base)
    st.stop()
if ss.get("ft_pick") not in tuned_ids:
    ss.ft_pick = tuned_ids[-1]
pick = st.selectbox("Fine-tuned model", tuned_ids, key="ft_pick")
card = read_card(pick)
params = card["parameters"]
st.caption(f"From {card['base']} on {card['data']} ({card.get('pairs', '?'):,} pairs), {card['objective']} "
           f"objective; {card['steps']}/{card['total_steps']} steps{' (stopped early)' if card['stopped'] else ''}, "
           f"batch {params['batch_size']}, learning rate {params['learning_rate']:g}, warm-up "
           f"{params['warmup_ratio']:g}, seed {params['seed']}; {card['seconds']:.0f} s of training on {card['date']}.")

figures, losses = st.columns(2)
with figures:
    if "after" in card:
        st.plotly_chart(before_after_bars(card["before"], card["after"], base_name=card["base"], tuned_name=pick),
                        key="ft_bars")
        st.caption("STS-B dev Spearman (cosine against gold scores) and paraphrase retrieval on STS-B dev "
                   "(Recall@1/10, MRR@10): grey is the base model, blue the fine-tuned one; higher is better.")
        csv_download(comparison_frame(card["before"], card["after"]), f"{pick}-before-after.csv")
    else:
        st.warning("This model was saved but not measured afterwards (the run ended early); train it again to "
                   "get the comparison.")
with losses:
    if card["losses"]:
        st.plotly_chart(loss_curve(card["losses"], total=card["total_steps"]), key="ft_card_loss")
        st.caption("Training loss per step (thin) and its moving average (bold) over the run that made this model.")
        csv_download(loss_frame(card["losses"]), f"{pick}-loss.csv", index=False)

heatmaps(card["base"], pick)

if st.button(f"Delete {pick}", key="ft_delete"):
    if pick == settings.model_id:
        st.error(f"{pick} is the sidebar's model now; choose another model in the sidebar, then delete it.")
        st.stop()
    delete_model(pick)
    cached_catalog.clear()
    cached_model.clear()
    ss.pop("ft_pick", None)
    st.rerun()
