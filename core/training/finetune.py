"""Fine-tuning runs with sentence-transformers' trainers, saved as catalog models with a card.

A run: take the machine-wide training lock, measure the base model, train (a callback reports
progress and honours a stop request after the step in flight; a bi-encoder's drift from its start
is recorded at checkpoints, core.training.drift), save atomically into `models_dir()/finetuned/NAME`
with `explorer-card.json`, measure the result and compare it with the base layer by layer and text
by text. The reranker objective
trains a cross-encoder from the base model's transformer (its CrossEncoder trainer, binary
cross-entropy on each pair's score), as its STS-B cross-encoder training example does, and measures
it on STS-B test beside the bi-encoder it started from. The multi-vector objective trains a
late-interaction model (a MultiVectorEncoder converted from the base model, as sentence-transformers
converts one: its pooling dropped, a seeded random 128-dimensional token projection, a MultiVectorMask
and token normalisation added) with its MultiVectorEncoderTrainer and in-batch MaxSim ranking loss, and
measures it on the STS-B paraphrase retrieval task beside the dense model it started from.
"""

from __future__ import annotations

import fcntl
import json
import re
import shutil
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import asdict, dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

from core.data.pairs import OBJECTIVE_NAMES, Objective, PairSet
from core.data.stsb import Split
from core.evaluation.metrics import STS_PRIMARY, shown_name
from core.evaluation.rerank import cross_correlation, cross_sts
from core.evaluation.retrieval import evaluate_embeddings, paraphrase_task
from core.evaluation.sts import correlation, sts_frame
from core.jobs import JOBS, Job, Progress
from core.models.catalog import CARD, LATE, ModelUnavailable, find_entry, finetuned_dir
from core.models.devices import resolve_device
from core.models.loading import LoadedModel, load_model, refusing_code, sentence_transformer
from core.models.reranker import load_reranker
from core.models.sources import availability
from core.paths import atomic_folder, atomic_write, cache_dir
from core.settings import Settings
from core.training.drift import DriftPoint, Probe, before_after, drift_callback, stsb_probe
from core.training.options import FinetuneError, TrainOptions

RETRIEVAL_KS = (1, 10)
RANKING: tuple[Objective, ...] = ("mnrl", "multi-vector")  # in-batch negatives: no text twice in a batch
NO_DRIFT: tuple[Objective, ...] = ("reranker", "multi-vector")  # no sentence vector to measure drift on
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")


class TrainingBusy(FinetuneError):
    """Another run holds the machine-wide training lock."""


@dataclass
class RunProgress:
    """What a run reports while it goes; `phase` is one of before, training, saving, after, done, failed.
    While measuring (before / after), `encoded` of `to_encode` texts are done."""

    phase: str = "starting"
    step: int = 0
    total: int = 0
    elapsed: float = 0.0
    losses: list[tuple[int, float]] = field(default_factory=list)
    drift: list[DriftPoint] = field(default_factory=list)
    encoded: int = 0
    to_encode: int = 0

    @property
    def seconds_left(self) -> float | None:
        if self.step == 0 or self.total == 0:
            return None
        return self.elapsed / self.step * (self.total - self.step)


@dataclass
class RunResult:
    model_id: str
    path: Path
    card: dict


class RunControl:
    """Shared between a run and whoever watches it (another thread): progress, a stop flag, the outcome."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._progress = RunProgress()
        self.stop_requested = threading.Event()
        self.finished = threading.Event()
        self.result: RunResult | None = None
        self.error: str | None = None
        self.pace: Progress = lambda done, total: None  # after each step: the job queue lets pages go first there
        self.job: Job | None = None  # its place in the server's queue of heavy work, until it starts

    def update(self, **changes: object) -> None:
        with self._lock:
            for key, value in changes.items():
                setattr(self._progress, key, value)

    def add_loss(self, step: int, loss: float) -> None:
        with self._lock:
            self._progress.losses.append((step, loss))

    def add_drift(self, point: DriftPoint) -> None:
        with self._lock:
            self._progress.drift.append(point)

    def snapshot(self) -> RunProgress:
        with self._lock:
            return replace(self._progress, losses=list(self._progress.losses), drift=list(self._progress.drift))

    def encoding(self, done: int, total: int) -> None:
        self.update(encoded=done, to_encode=total)
        self.pace(done, total)


# --- the machine-wide lock ------------------------------------------------------------------------

class TrainingLock:
    """An exclusive file lock under cache_dir(): one run at a time across processes and sessions."""

    def __init__(self) -> None:
        self._file: IO[str] | None = None

    def acquire(self) -> None:
        handle = (cache_dir() / "finetune.lock").open("a+")
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.close()
            raise TrainingBusy("Another fine-tuning run is in progress on this machine (one at a time keeps it "
                               "responsive); start again when it has finished.") from None
        self._file = handle

    def release(self) -> None:
        if self._file is not None:
            fcntl.flock(self._file, fcntl.LOCK_UN)
            self._file.close()
            self._file = None

    def __enter__(self) -> TrainingLock:
        self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


# --- names, folders and cards ---------------------------------------------------------------------

def check_name(name: str) -> str:
    """A new model's name: a folder name not used by the catalog or by another fine-tuned model."""
    name = name.strip()
    if not _NAME.match(name):
        raise FinetuneError(f"'{name}' cannot be a model name; use 1–64 letters, digits, dots, dashes or "
                            "underscores, starting with a letter or digit.")
    if find_entry(name).source != "custom" or (finetuned_dir() / name).exists():
        raise FinetuneError(f"A model named '{name}' exists already; choose another name or delete that one.")
    return name


def suggest_name(base: str, data: str, objective: Objective) -> str:
    """`<base>-<data>-<objective>`, with -2, -3 … until the name is free."""
    return free_name(f"{Path(base).name}-{Path(data).stem}-{objective}")


def free_name(stem: str) -> str:
    """`stem` made a folder name, with -2, -3 … until it is free."""
    stem = re.sub(r"[^A-Za-z0-9._-]+", "-", stem).strip("-.")[:60]
    for suffix in ["", *(f"-{i}" for i in range(2, 1000))]:
        try:
            return check_name(stem + suffix)
        except FinetuneError:
            continue
    raise FinetuneError("No free model name is left; delete some fine-tuned models.")


def read_card(model_id: str) -> dict:
    return json.loads((finetuned_dir() / model_id / CARD).read_text(encoding="utf-8"))


def recall_comparison(model_id: str, card: dict) -> str | None:
    """A late-interaction model's Recall@1 beside the dense model it was trained from, saying which is better; None
    for any other card, or one not measured afterwards."""
    if card.get("kind") != LATE or "recall@1" not in card.get("after", {}):
        return None
    before, after = card["before"]["recall@1"], card["after"]["recall@1"]
    verdict = ("higher than" if after > before else "lower than" if after < before else "the same as")
    return (f"Recall@1 on the STS-B paraphrase retrieval task (dev): {after:.3f} for {model_id}, by MaxSim over a "
            f"vector per token, {verdict} {before:.3f} for {card['base']}, by the cosine of one vector per text.")


def delete_model(model_id: str) -> None:
    folder = finetuned_dir() / model_id
    if find_entry(model_id).source != "finetuned" or not folder.is_dir():
        raise FinetuneError(f"'{model_id}' is not a fine-tuned model of this machine, so it cannot be deleted here.")
    shutil.rmtree(folder)


# --- building, training, measuring -----------------------------------------------------------------

def require_available(model_id: str) -> None:
    status = availability(model_id)
    if not status.available:
        raise ModelUnavailable(f"{model_id} is not available: {status.message}")


def _progress_callback(control: RunControl, started: float):
    from transformers import TrainerCallback

    class ProgressCallback(TrainerCallback):
        def on_train_begin(self, args, state, control_, **kwargs):
            control.update(phase="training", total=state.max_steps)

        def on_log(self, args, state, control_, logs=None, **kwargs):
            if logs and "loss" in logs:
                control.add_loss(state.global_step, float(logs["loss"]))

        def on_step_end(self, args, state, control_, **kwargs):
            control.update(step=state.global_step, elapsed=time.monotonic() - started)
            if control.stop_requested.is_set():
                control_.should_training_stop = True
            control.pace(state.global_step, state.max_steps)

    return ProgressCallback()


def _trainer_parts(model, objective: Objective) -> tuple[Any, Any, Any]:
    """sentence-transformers' trainer, its training arguments and the loss for `objective`."""
    if objective == "reranker":
        from sentence_transformers import CrossEncoderTrainer, CrossEncoderTrainingArguments
        from sentence_transformers.cross_encoder.losses import BinaryCrossEntropyLoss

        return CrossEncoderTrainer, CrossEncoderTrainingArguments, BinaryCrossEntropyLoss(model)
    if objective == "multi-vector":
        from sentence_transformers import MultiVectorEncoderTrainer, MultiVectorEncoderTrainingArguments
        from sentence_transformers.multi_vector_encoder.losses import MultiVectorMultipleNegativesRankingLoss

        return (MultiVectorEncoderTrainer, MultiVectorEncoderTrainingArguments,
                MultiVectorMultipleNegativesRankingLoss(model))
    from sentence_transformers import SentenceTransformerTrainer, SentenceTransformerTrainingArguments
    from sentence_transformers.sentence_transformer.losses import CosineSimilarityLoss, MultipleNegativesRankingLoss

    return (SentenceTransformerTrainer, SentenceTransformerTrainingArguments,
            CosineSimilarityLoss(model) if objective == "cosine" else MultipleNegativesRankingLoss(model))


def train(model, pairs: PairSet, objective: Objective, options: TrainOptions, control: RunControl,
          probe: Probe | None = None) -> int:
    """Train `model` (a SentenceTransformer; a CrossEncoder for the reranker objective, a MultiVectorEncoder for the
    multi-vector one) in place with sentence-transformers' trainer for it; returns the steps finished. With a `probe`,
    a bi-encoder's drift from its start is recorded at checkpoints (control's `drift`)."""
    from datasets import Dataset
    from transformers.trainer_callback import PrinterCallback

    pairs = pairs.prepared(objective, options.batch_size)
    trainer_class, arguments_class, loss = _trainer_parts(model, objective)
    with tempfile.TemporaryDirectory(dir=cache_dir(), prefix="finetune-run-") as scratch:
        arguments: dict[str, Any] = dict(
            output_dir=scratch, num_train_epochs=options.epochs, per_device_train_batch_size=options.batch_size,
            learning_rate=options.learning_rate, warmup_steps=float(options.warmup_ratio),
            max_steps=options.max_steps or -1, seed=options.seed, data_seed=options.seed, save_strategy="no",
            logging_steps=1, report_to="none", disable_tqdm=True, use_cpu=str(model.device) == "cpu",
            batch_sampler="no_duplicates" if objective in RANKING else "batch_sampler", dataloader_num_workers=0)
        drift = [drift_callback(probe, control.add_drift)] if probe and objective not in NO_DRIFT else []
        trainer = trainer_class(model=model, args=arguments_class(**arguments),
                                train_dataset=Dataset.from_pandas(pairs.frame()), loss=loss,
                                callbacks=[_progress_callback(control, time.monotonic()), *drift])
        trainer.remove_callback(PrinterCallback)  # it prints every log line to stdout
        trainer.train()
        return int(trainer.state.global_step)


@contextmanager
def cross_encoder_from(base: str, device: str) -> Iterator[Any]:
    """A CrossEncoder (one score per pair) on the base model's transformer, its classifier new: the transformer is
    written out and read back as sentence-transformers builds a cross-encoder from a checkpoint (held while the run
    uses it; untrained-bert brings its seeded random weights)."""
    from sentence_transformers import CrossEncoder

    encoder = sentence_transformer(base, device)
    transformer = encoder[0]
    if not hasattr(transformer, "auto_model"):
        raise FinetuneError(f"{base} has no transformer to read two texts together (a static model looks each token "
                            "up alone); start a reranker from a transformer model.")
    with tempfile.TemporaryDirectory(dir=cache_dir(), prefix="cross-encoder-base-") as folder:
        transformer.auto_model.save_pretrained(folder)
        transformer.tokenizer.save_pretrained(folder)
        yield refusing_code(base, lambda: CrossEncoder(folder, num_labels=1, max_length=transformer.max_seq_length,
                                                       device=device, local_files_only=True, trust_remote_code=False))


@contextmanager
def multi_vector_from(base: str, device: str, seed: int) -> Iterator[Any]:
    """A MultiVectorEncoder converted from the base model as sentence-transformers converts a SentenceTransformer
    checkpoint: the base (untrained-bert with its seeded random weights) is written out and read back as a
    MultiVectorEncoder, which drops its pooling and adds a token projection drawn from `seed`, a MultiVectorMask and
    token normalisation (held while the run uses it)."""
    import torch
    from sentence_transformers import MultiVectorEncoder

    encoder = sentence_transformer(base, device)
    if not hasattr(encoder[0], "auto_model"):
        raise FinetuneError(f"{base} has no transformer to give each token its own vector in context (a static model "
                            "looks each token up alone); start a multi-vector model from a transformer model.")
    with tempfile.TemporaryDirectory(dir=cache_dir(), prefix="multi-vector-base-") as folder:
        encoder.save(folder)

        def converted():
            torch.manual_seed(seed)
            return MultiVectorEncoder(folder, device=device, local_files_only=True, trust_remote_code=False)

        yield refusing_code(base, converted)


def evaluate(model: LoadedModel, *, retrieval: bool = False, split: Split = "dev",
             progress: Callable[[int, int], None] | None = None) -> dict[str, float]:
    """STS-B Spearman (cosine, the model's default pooling) on `split` and, with `retrieval`, the paraphrase
    retrieval task's Recall@1/10 and MRR@10; a late-interaction model gives the retrieval figures alone, by its own
    MaxSim (sentence-transformers has no STS evaluator for one: MaxSim is not symmetric)."""
    late = model.kind == LATE
    figures = {} if late else {"spearman": correlation(sts_frame(model, split, progress=progress))[STS_PRIMARY]}
    if retrieval or late:
        result = evaluate_embeddings(model, paraphrase_task("dev"), Settings(model_id=model.model_id),
                                     ks=RETRIEVAL_KS, progress_bar=lambda: nullcontext(progress))
        figures |= {shown_name(key): value for key, value in result.metrics.items() if not key.endswith("ndcg@10")}
    return figures


# --- a whole run ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class RunRequest:
    """A run to start; the pairs are prepared for the objective on creation, so a bad request fails at once."""

    base: str
    pairs: PairSet
    objective: Objective
    options: TrainOptions
    name: str
    retrieval: bool = False
    device: str = "cpu"

    def __post_init__(self) -> None:
        object.__setattr__(self, "pairs", self.pairs.prepared(self.objective, self.options.batch_size))


def write_card(folder: Path, card: dict) -> None:
    atomic_write(folder / CARD, lambda tmp: tmp.write_text(json.dumps(card, indent=2), encoding="utf-8"))


def save_model(model, name: str, card: dict) -> Path:
    """Write the model (a SentenceTransformer, or a model2vec StaticModel) and its card into a temporary folder that
    becomes `finetuned/NAME` only when complete."""
    target = finetuned_dir() / name
    try:
        with atomic_folder(target) as folder:
            (model.save if hasattr(model, "save") else model.save_pretrained)(str(folder))
            write_card(folder, card)
    except OSError as err:
        raise FinetuneError(f"Could not save the model ({err.strerror or err}); nothing was kept. "
                            "Free some disk space and try again.") from err
    return target


def _trained(request: RunRequest, device: str, control: RunControl, name: str,
             card_of: Callable[[int, float], dict], probe: Probe | None) -> tuple[Path, dict]:
    """Train the run's model (a bi-encoder, or a cross-encoder for the reranker objective) and save it with the
    card `card_of(steps finished, seconds of training)` gives; its folder and card."""
    building = (cross_encoder_from(request.base, device) if request.objective == "reranker" else
                multi_vector_from(request.base, device, request.options.seed) if request.objective == "multi-vector"
                else nullcontext(sentence_transformer(request.base, device)))
    with building as model:
        started = time.monotonic()
        steps = train(model, request.pairs, request.objective, request.options, control, probe)
        card = card_of(steps, time.monotonic() - started)
        control.update(phase="saving")
        return save_model(model, name, card), card


def run(request: RunRequest, control: RunControl | None = None, *, lock: TrainingLock | None = None) -> RunResult:
    """The whole run under the training lock (pass `lock` already held to keep it across threads)."""
    control = control or RunControl()
    held = lock or TrainingLock()
    if lock is None:
        held.acquire()
    try:
        name = check_name(request.name)
        require_available(request.base)
        device = resolve_device(request.device)
        pairs, cross, late = request.pairs, request.objective == "reranker", request.objective == "multi-vector"
        split: Split = "test" if cross else "dev"  # a reranker is reported on STS-B test beside its bi-encoder
        control.update(phase="before")
        # a late-interaction model is measured on retrieval alone, so its base is too
        base = load_model(request.base, device)
        before = evaluate(base, retrieval=(request.retrieval or late) and not cross, split=split,
                          progress=control.encoding)
        probe = None if request.objective in NO_DRIFT else stsb_probe()

        def card_of(steps: int, seconds: float) -> dict:
            snapshot = control.snapshot()
            return {"base": request.base, "data": pairs.source, "pairs": len(pairs), "objective": request.objective,
                    "objective_name": OBJECTIVE_NAMES[request.objective], "parameters": asdict(request.options),
                    "date": datetime.now(UTC).isoformat(timespec="seconds"), "steps": steps,
                    "total_steps": snapshot.total, "stopped": control.stop_requested.is_set(),
                    "seconds": round(seconds, 1), "losses": snapshot.losses, "before": before, "split": split,
                    "drift": [asdict(point) for point in snapshot.drift],
                    **({"kind": "reranker"} if cross else {"kind": LATE} if late else {})}

        path, card = _trained(request, device, control, name, card_of, probe)
        control.update(phase="after")
        if cross:
            card["after"] = {"spearman": cross_correlation(cross_sts(load_reranker(name, device), split,
                                                                     progress=control.encoding))["spearman_reranker"]}
        else:
            tuned = load_model(name, device)
            card["after"] = evaluate(tuned, retrieval=request.retrieval, split=split, progress=control.encoding)
            if probe is not None:
                card["agreement"] = before_after(base, tuned, probe.texts)
        write_card(path, card)
        result = RunResult(name, path, card)
        control.result = result
        control.update(phase="done")
        return result
    finally:
        held.release()


def start_in_background(request: RunRequest) -> RunControl:
    """Take the lock now (so a busy machine is refused at once), then run in the server's queue of heavy work,
    which pauses the run between steps while pages are running."""
    lock = TrainingLock()
    lock.acquire()
    control = RunControl()

    def work(progress: Progress) -> None:
        control.pace = progress
        try:
            run(request, control, lock=lock)
        except Exception as err:  # the page shows it as one sentence
            control.error = str(err) if isinstance(err, (FinetuneError, ModelUnavailable, ValueError)) \
                else f"The run failed ({type(err).__name__}: {err})."
            control.update(phase="failed")
        finally:
            control.finished.set()

    control.job = JOBS.submit(("finetune", request.name, id(control)), f"Fine-tuning {request.name}", work)
    return control
