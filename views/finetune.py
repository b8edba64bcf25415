"""Fine-tune page: train a catalog model on sentence pairs, watch the loss, compare base and result."""

from __future__ import annotations

import streamlit as st

from core.data.pairs import OBJECTIVE_NAMES, OBJECTIVES, PAIR_FILE_TYPES, PairsError, PairSet, read_pairs, stsb_train
from core.kinds import kind_of
from core.models.catalog import DEFAULT_MODEL_ID, ModelUnavailable, card_kind, finetuned_entries
from core.plots.finetune import METRIC_LABELS, before_after_bars, comparison_frame, loss_curve, loss_frame
from core.training.finetune import (
    FinetuneError,
    RunControl,
    RunRequest,
    TrainOptions,
    check_name,
    read_card,
    recall_comparison,
    start_in_background,
    suggest_name,
)
from ui.components.downloads import csv_download
from ui.components.model_download import ready_or_download
from ui.components.sidebar import page
from ui.kinds import views_of
from ui.pages.finetune import BASE_KEY, delete_control, heatmaps, live_progress, moved_section
from ui.state.persist import kept
from ui.work.cache import available_ids, cached_catalog

DATA_CHOICES = {"stsb": "STS-B train (5,749 scored pairs)", "upload": "My pairs file (.csv / .jsonl)"}
DEFAULTS = TrainOptions()
# what an objective that trains another kind of model makes, said when it is chosen
OBJECTIVE_NOTES = {
    "reranker": "A reranker (cross-encoder) is measured on STS-B test beside the model it started from, and is "
                "used under Rerank on Retrieval and Evaluation. It needs about an epoch to become useful: set Max "
                "steps to 0 (360 steps at batch 16, a few minutes on a laptop CPU).",
    "multi-vector": "A late-interaction model (sentence-transformers' MultiVectorEncoder): the model's pooling is "
                    "dropped and a token projection to 128 dimensions, drawn at random from the seed, is added; "
                    "MultiVectorEncoderTrainer then trains both on the positive pairs. It is measured on the STS-B "
                    "paraphrase retrieval task by MaxSim, beside the dense model it started from (its cosine).",
}


def _pairs(data: str, upload) -> PairSet:
    if data == "stsb":
        return stsb_train()
    if upload is None:
        raise PairsError("Upload a pairs file first: a .csv or .jsonl with two text columns and an optional "
                         "score column (0–1, or 0–5 as in STS-B).")
    return read_pairs(upload.name, upload.getvalue())


def run_options(settings) -> RunRequest | None:
    """The options form and the Start button; the request to run once Start is pressed with valid options."""
    choices = available_ids("dense")
    left, right = st.columns(2)
    with left:
        base = kept(st.selectbox, "Start from", key=BASE_KEY, options=choices,
                    default=settings.model_id if settings.model_id in choices else DEFAULT_MODEL_ID,
                    help="Any available catalog model; untrained-bert shows how far training goes from random "
                         "weights.")
        data = kept(st.radio, "Training data", key="ft_data", options=list(DATA_CHOICES), default="stsb",
                    format_func=DATA_CHOICES.__getitem__, horizontal=True)
        upload = st.file_uploader("Pairs file", type=list(PAIR_FILE_TYPES), key="ft_upload",
                                  help="Columns: text 1, text 2, optional score (0–1, or 0–5 as in STS-B).") \
            if data == "upload" else None
        objective = kept(st.radio, "Objective", key="ft_objective", options=list(OBJECTIVES), default="cosine",
                         format_func=OBJECTIVE_NAMES.__getitem__,
                         help="Cosine: predict each pair's score as its cosine. Ranking: pairs scored ≥ 4/5 are "
                              "positives; the other texts in the batch serve as negatives. Reranker: a cross-encoder "
                              "from the model's transformer reads each pair together and learns its score. "
                              "Multi-vector: a late-interaction model (ColBERT style) from the model's transformer "
                              "keeps a vector per token and learns to rank the positives by MaxSim.")
        if objective in OBJECTIVE_NOTES:
            st.info(OBJECTIVE_NOTES[objective])
        base_here = ready_or_download(base, key=BASE_KEY, meanwhile="Start training waits until it is here.")
        suggested = suggest_name(base, "stsb" if data == "stsb" else getattr(upload, "name", "pairs"), objective)
        name = kept(st.text_input, "Name of the new model", key="ft_name", default="", placeholder=suggested,
                    help="Leave empty to use the name shown. Letters, digits, dots, dashes, underscores.")
    with right:
        one, two = st.columns(2)
        epochs = one.number_input("Epochs", min_value=1, max_value=20, value=DEFAULTS.epochs, key="ft_epochs")
        batch = two.number_input("Batch size", min_value=2, max_value=256, value=DEFAULTS.batch_size, key="ft_batch")
        rate = one.number_input("Learning rate", value=DEFAULTS.learning_rate, step=1e-5, format="%.1e", key="ft_lr",
                                help="2e-5 suits trained models; try 1e-4 for untrained-bert.")
        warmup = two.number_input("Warm-up (share of steps)", min_value=0.0, max_value=0.9,
                                  value=DEFAULTS.warmup_ratio, step=0.05, key="ft_warmup")
        steps = one.number_input("Max steps (0 = all epochs)", min_value=0, value=DEFAULTS.max_steps, step=10,
                                 key="ft_steps", help="The default caps the run at a few minutes on a laptop CPU; "
                                                      "a full epoch of STS-B train is 360 steps at batch 16.")
        seed = two.number_input("Seed", min_value=0, value=DEFAULTS.seed, key="ft_seed",
                                help="The same seed and settings give the same model.")
    control: RunControl | None = st.session_state.get("ft_control")
    running = control is not None and not control.finished.is_set()
    if not st.button("Start training", type="primary", disabled=running or not base_here, key="ft_start"):
        return None
    options = TrainOptions(epochs=int(epochs), batch_size=int(batch), learning_rate=float(rate),
                           warmup_ratio=float(warmup), max_steps=int(steps) or None, seed=int(seed))
    return RunRequest(base, _pairs(data, upload), objective, options, check_name(name or suggested),
                      retrieval=True, device=settings.device)


def run_status() -> None:
    """Live progress while a run goes; once it ends, what happened (said once)."""
    ss = st.session_state
    control: RunControl | None = ss.get("ft_control")
    if control is not None and not control.finished.is_set():
        live_progress(control)
    elif control is not None and not ss.get("ft_reported", True):
        ss.ft_reported = True
        cached_catalog.clear()  # the new model appears in the sidebar now
        if control.error:
            st.error(control.error)
        elif control.result is not None:
            ss.ft_pick = control.result.model_id
            stopped = " (stopped early)" if control.result.card["stopped"] else ""
            st.success(f"Saved {control.result.model_id}{stopped}; "
                       f"{views_of(card_kind(control.result.card)).saved}")


def results(settings) -> None:
    st.header("Before and after")
    tuned_ids = [entry.id for entry in finetuned_entries()]
    base = st.session_state.get(BASE_KEY, settings.model_id)
    if not tuned_ids:
        st.info("No fine-tuned model on this machine yet: press Start training above (the defaults take a few "
                "minutes on a laptop CPU), then compare it here with the model it started from. Below is the "
                f"'before': how {base} sees the example texts now.")
        heatmaps(settings.device, base)
        return
    if st.session_state.get("ft_pick") not in tuned_ids:
        st.session_state.ft_pick = tuned_ids[-1]
    pick = st.selectbox("Fine-tuned model", tuned_ids, key="ft_pick")
    card = read_card(pick)
    kind = kind_of(card_kind(card))
    params = card["parameters"]
    st.caption(f"From {card['base']} on {card['data']} ({card.get('pairs', '?'):,} pairs), {card['objective']} "
               f"objective; {card['steps']}/{card['total_steps']} steps{' (stopped early)' if card['stopped'] else ''}"
               f", batch {params['batch_size']}, learning rate {params['learning_rate']:g}, warm-up "
               f"{params['warmup_ratio']:g}, seed {params['seed']}; {card['seconds']:.0f} s of training on "
               f"{card['date']}.")
    figures, losses = st.columns(2)
    with figures:
        if "after" in card:
            split = card.get("split", "dev")
            compared = comparison_frame(card["before"], card["after"], split)
            st.plotly_chart(before_after_bars(card["before"], card["after"], base_name=card["base"],
                                              tuned_name=pick, split=split), key="ft_bars")
            late = recall_comparison(pick, card)
            if not kind.embeds:
                st.caption(f"STS-B {card['split']} Spearman: grey is {card['base']} comparing two vectors by their "
                           f"cosine, blue the reranker reading both sentences together; higher is better.")
            elif late is not None:
                st.caption(f"Grey is {card['base']} (one vector per text, cosine), blue {pick} (a vector per token, "
                           f"MaxSim), on the STS-B paraphrase retrieval task; higher is better. {late}")
            else:
                st.caption(f"Measured before and after: {', '.join(compared.index)}. Grey is the base model, blue the "
                           "fine-tuned one; higher is better." + ("" if METRIC_LABELS["recall@1"] in compared.index
                                                                  else " This run measured STS only, not retrieval."))
            csv_download(compared, f"{pick}-before-after.csv")
        else:
            st.warning("This model was saved but not measured afterwards (the run ended early); train it again to "
                       "get the comparison.")
    with losses:
        if card["losses"]:
            st.plotly_chart(loss_curve(card["losses"], total=card["total_steps"]), key="ft_card_loss")
            st.caption("Training loss per step (thin) and its moving average (bold) over the run that made this "
                       "model.")
            csv_download(loss_frame(card["losses"]), f"{pick}-loss.csv", index=False)
    if not kind.embeds:
        st.caption(views_of(kind.name).not_shown["one_vector_per_text"])
    else:
        if not kind.applies.drift:
            st.caption(views_of(kind.name).not_shown["drift"])
        else:
            moved_section(card, pick)
        heatmaps(settings.device, card["base"], pick)
    delete_control(pick, settings.model_id)


def main() -> None:
    settings, _ = page("Fine-tune")
    st.caption("Train a model on sentence pairs with sentence-transformers' trainer, then see what changed: STS-B "
               "correlation, paraphrase retrieval and the similarity heatmap, base and fine-tuned side by side. The "
               "result is saved on this machine and appears in the sidebar's model list.")
    try:
        request = run_options(settings)
        if request is not None:
            st.session_state.ft_control, st.session_state.ft_reported = start_in_background(request), False
            st.rerun()  # redraw with Start disabled and the live progress
    except (FinetuneError, PairsError, ModelUnavailable) as err:
        st.error(str(err))
    run_status()
    results(settings)


main()
