"""Why a reranker scored a pair: integrated gradients (Captum's LayerIntegratedGradients) of its logit, the score
before its activation, over the word embeddings of the joint input (the query and the text read together, tokenized
as CrossEncoder.predict tokenizes them), with the baseline every explanation here uses (the same input, every
non-special token replaced by the padding token, core.analysis.attribution.padding_baseline). Steps are raised
(16, 32, 64, …) until the completeness gap is under 1% of the logit's change from the baseline, or the cap is reached.

Two checks say how far to trust it: a deletion check (the text's tokens removed most attributed first, and in seeded
random orders; the area between the two score curves), and, for two texts of one query, the attributions of the
difference of their logits, which say what lifted one above the other."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import pandas as pd
import torch

from core.analysis.attribution import layer_attributions, padding_baseline
from core.analysis.statistics import SEED
from core.models.reranker import LoadedReranker

Part = Literal["query", "text", "special"]
Progress = Callable[[int, int], None]

FIRST_STEPS = 16  # doubled until the gap is small enough, up to MAX_STEPS
MAX_STEPS = 256
GAP_SHARE = 0.01  # the gap wanted: under 1% of the logit's change from the baseline
STEPS_BATCH = 32  # interpolation steps a forward and backward pass takes
RANDOM_ORDERS = 5  # random deletion orders averaged


@dataclass(frozen=True)
class RerankAttribution:
    """A pair's tokens in the order the reranker reads them (special tokens included), which part each is of, and its
    attribution to the logit; `score` is the logit after the activation, as CrossEncoder.predict gives it; `gap` the
    attributions' sum minus the logit's change from the baseline (0: complete)."""

    query: str
    text: str
    tokens: list[str]
    parts: list[Part]
    ids: list[int]
    attributions: np.ndarray
    score: float
    logit: float
    baseline_logit: float
    gap: float
    steps: int
    truncated: bool

    @property
    def change(self) -> float:
        return self.logit - self.baseline_logit

    @property
    def converged(self) -> bool:
        """Whether the gap is under 1% of the change (a change of 0 cannot be split, so never)."""
        return abs(self.gap) < GAP_SHARE * abs(self.change)

    def positions(self, part: Part) -> list[int]:
        return [i for i, p in enumerate(self.parts) if p == part]

    def shares(self) -> np.ndarray:
        """Each token's signed share of all the attribution there is (the absolute shares sum to 1)."""
        total = float(np.abs(self.attributions).sum())
        return self.attributions / total if total else np.zeros_like(self.attributions)

    def frame(self) -> pd.DataFrame:
        return pd.DataFrame({"position": range(len(self.tokens)), "token": self.tokens, "part": self.parts,
                             "attribution": self.attributions, "share": self.shares()})

    def record(self) -> dict[str, Any]:
        """The command line's JSON (`python -m core explain --model RERANKER …`)."""
        return {"method": "ig", "score": self.score, "logit": self.logit, "baseline_logit": self.baseline_logit,
                "tokens": self.tokens, "attributions": [float(v) for v in self.attributions], "gap": self.gap,
                "steps": self.steps, "converged": self.converged, "truncated": self.truncated}


@dataclass(frozen=True)
class _Input:
    features: dict[str, Any]  # one row, as CrossEncoder.preprocess gives it for predict
    tokens: list[str]
    parts: list[Part]
    truncated: bool


def refusal(reranker: LoadedReranker, query: str, *texts: str) -> str | None:
    """Why the pair (or pairs) cannot be explained, in one sentence; None when they can."""
    for name, value in (("query", query), *(("text", text) for text in texts)):
        if not value.strip():
            return f"The {name} is empty; type one to explain the reranker's score."
    labels = int(getattr(reranker.cross, "num_labels", 1))
    if labels != 1:
        return (f"{reranker.model_id} gives {labels} scores for a pair (one per label), not one, so there is no single "
                "score to explain; pick a reranker that scores a pair with one number.")
    return None


def _checked(reranker: LoadedReranker, query: str, text: str) -> None:
    refused = refusal(reranker, query, text)
    if refused is not None:
        raise ValueError(refused)


def _prompt(reranker: LoadedReranker) -> str | None:
    """The prompt CrossEncoder.predict puts before each pair when none is asked for (the model's default, if any)."""
    return reranker.cross._resolve_prompt(None, None)


def _parts(encoded: Any, special: list[bool]) -> list[Part]:
    """Which text each position comes from: the tokenizer's sequence ids, else the token types, else the first
    special token after the start (a slow tokenizer that gives neither)."""
    try:
        sequence = encoded.sequence_ids(0)
    except (AttributeError, ValueError):
        sequence = None
    if sequence is None and "token_type_ids" in encoded and int(encoded["token_type_ids"].max()) > 0:
        sequence = [int(t) for t in encoded["token_type_ids"][0]]
    if sequence is None:
        split = next((i for i in range(1, len(special)) if special[i]), len(special))
        sequence = [0 if i < split else 1 for i in range(len(special))]
    return ["special" if special[i] or s is None else ("query" if s == 0 else "text")
            for i, s in enumerate(sequence)]


def _joint_input(reranker: LoadedReranker, query: str, text: str) -> _Input:
    """The pair tokenized as CrossEncoder.predict tokenizes it (its prompt, truncation and special tokens)."""
    cross, prompt = reranker.cross, _prompt(reranker)
    encoded = cross.preprocess([[query, text]], prompt=prompt)
    ids = [int(i) for i in encoded["input_ids"][0]]
    tokenizer = cross.tokenizer
    whole = len(tokenizer((prompt or "") + query, text, truncation=False)["input_ids"])
    special = [bool(s) for s in tokenizer.get_special_tokens_mask(ids, already_has_special_tokens=True)]
    features = {key: value.to(reranker.device) if isinstance(value, torch.Tensor) else value
                for key, value in encoded.items()}
    return _Input(features, tokenizer.convert_ids_to_tokens(ids), _parts(encoded, special), whole > len(ids))


def _rows(features: dict[str, Any], count: int) -> dict[str, Any]:
    """`features` for `count` rows: every per-position tensor repeated (they are one row)."""
    return {key: value.expand(count, -1) if isinstance(value, torch.Tensor) and value.dim() == 2 else value
            for key, value in features.items()}


class _Logits:
    """input ids (rows of the pair's length) -> the reranker's logit for each row, through its own forward. The
    rows it scores without gradients are kept (`seen`): LayerIntegratedGradients runs the whole network on the input
    and on the baseline to read their embeddings, and those runs' logits are the ones the gap needs."""

    def __init__(self, reranker: LoadedReranker, features: dict[str, Any]) -> None:
        self.reranker, self.features = reranker, features
        self.seen: list[tuple[torch.Tensor, float]] = []

    def __call__(self, input_ids: torch.Tensor) -> torch.Tensor:
        batch = {**_rows(self.features, len(input_ids)), "input_ids": input_ids}
        logits = self.reranker.cross(batch)["scores"].reshape(len(input_ids), -1)[:, 0].float()
        if not torch.is_grad_enabled() and len(input_ids) == 1:
            self.seen.append((input_ids.detach(), float(logits[0])))
        return logits

    def logit(self, input_ids: torch.Tensor) -> float:
        """The logit of one row: from a run seen already, else scored now."""
        found = next((logit for ids, logit in self.seen if torch.equal(ids, input_ids)), None)
        if found is not None:
            return found
        with torch.no_grad():
            return float(self(input_ids)[0])


def _score(reranker: LoadedReranker, logit: float) -> float:
    """The logit after the reranker's activation, as CrossEncoder.predict applies it."""
    activation = reranker.cross.activation_fn
    value = torch.tensor([logit], dtype=torch.float32)
    return float(activation(value)[0]) if activation is not None else logit


def step_counts(first: int = FIRST_STEPS, cap: int = MAX_STEPS) -> list[int]:
    """The steps tried in turn: `first`, doubled up to `cap` (the cap itself last)."""
    counts = [first]
    while counts[-1] < cap:
        counts.append(min(2 * counts[-1], cap))
    return counts


def explain_rerank(reranker: LoadedReranker, query: str, text: str, *, steps: int | None = None,
                   max_steps: int = MAX_STEPS, progress: Progress | None = None) -> RerankAttribution:
    """Integrated gradients of the reranker's logit for (query, text) over the joint input's word embeddings. With
    `steps`, exactly that many; else 16, 32, 64, … until the gap is under 1% of the logit's change from the baseline,
    or `max_steps` is reached (`converged` says which)."""
    _checked(reranker, query, text)
    if steps is not None and steps < 2:
        raise ValueError(f"Integrated gradients need at least 2 steps, not {steps}.")
    if max_steps < 2:
        raise ValueError(f"The cap on integrated-gradients steps must be at least 2, not {max_steps}.")
    joint = _joint_input(reranker, query, text)
    input_ids = joint.features["input_ids"]
    special = [part == "special" for part in joint.parts]
    baseline = padding_baseline(input_ids, special, reranker.cross.tokenizer.pad_token_id)
    forward = _Logits(reranker, joint.features)
    layer = reranker.cross[0].auto_model.get_input_embeddings()
    schedule = [steps] if steps is not None else step_counts(min(FIRST_STEPS, max_steps), max_steps)
    with torch.inference_mode(False), torch.enable_grad():
        for done, count in enumerate(schedule, start=1):
            attributions, _ = layer_attributions(forward, layer, input_ids, baseline, steps=count,
                                                 batch=STEPS_BATCH, convergence=False)
            logit, base = forward.logit(input_ids), forward.logit(baseline)
            gap = float(attributions.sum()) - (logit - base)
            if progress is not None:
                progress(done, len(schedule))
            if abs(gap) < GAP_SHARE * abs(logit - base):
                break
    return RerankAttribution(query, text, joint.tokens, joint.parts, [int(i) for i in input_ids[0]], attributions,
                             _score(reranker, logit), logit, base, gap, count, joint.truncated)


@dataclass(frozen=True)
class Deletion:
    """The pair's score (after the activation) as the text's tokens are removed one by one: most attributed first
    (`attributed`) and in seeded random orders (`random`, one row per order); `removed` counts the tokens gone."""

    removed: np.ndarray
    attributed: np.ndarray
    random: np.ndarray

    @property
    def random_mean(self) -> np.ndarray:
        return self.random.mean(axis=0)

    @property
    def area(self) -> float:
        """The area between the random orders' mean curve and the attributed one, over the share of the text
        removed (0 to 1), in score units: above 0 the attributed order lowers the score faster than chance."""
        if len(self.removed) < 2:
            return 0.0
        return float(np.trapezoid(self.random_mean - self.attributed, self.removed / self.removed[-1]))

    @property
    def better_than_random(self) -> bool:
        """Whether the attributed order lowers the score faster than every random order (its area under the curve
        the smallest): the explanation found what the score rests on, where chance did not."""
        if len(self.removed) < 2:
            return False
        x = self.removed / self.removed[-1]
        own = float(np.trapezoid(self.attributed, x))
        return self.area > 0 and all(own < float(np.trapezoid(row, x)) for row in self.random)

    def verdict(self) -> str:
        """One sentence saying whether the explanation is faithful by this check."""
        if len(self.removed) < 2:
            return "The text has a single token, so removing tokens in one order or another cannot be told apart."
        if self.better_than_random:
            return (f"Faithful by this check: removing the text's most attributed tokens first lowers the score "
                    f"faster than every one of {len(self.random)} random orders (area between the curves "
                    f"{self.area:+.3f}).")
        return (f"No better than random by this check: removing the most attributed tokens first does not lower the "
                f"score faster than {len(self.random)} random orders do (area between the curves {self.area:+.3f}), "
                "so do not read much into the colours.")

    def frame(self) -> pd.DataFrame:
        columns = {"tokens removed": self.removed, "most attributed first": self.attributed,
                   "random orders (mean)": self.random_mean}
        columns |= {f"random order {i + 1}": row for i, row in enumerate(self.random)}
        return pd.DataFrame(columns)


def _removal_orders(explained: RerankAttribution, orders: int, seed: int) -> np.ndarray:
    """Each row: the text's positions in the order they are removed; the first, most attributed first (ties by
    position), then `orders` seeded random permutations."""
    text = np.asarray(explained.positions("text"), dtype=np.int64)
    ranked = text[np.argsort(-explained.attributions[text], kind="stable")]
    generator = np.random.default_rng(seed)
    return np.stack([ranked, *(generator.permutation(text) for _ in range(orders))]) if len(text) else \
        np.zeros((orders + 1, 0), dtype=np.int64)


def deletion_check(reranker: LoadedReranker, explained: RerankAttribution, *, orders: int = RANDOM_ORDERS,
                   seed: int = SEED) -> Deletion:
    """The pair's score with 0, 1, … of the text's tokens removed from the joint input (the query and the special
    tokens stay), most attributed first and in `orders` random orders drawn from `seed`. Every order has the same
    length at each count, so each count is one batch with no padding: each score is CrossEncoder.predict's for that
    shortened input."""
    if orders < 1:
        raise ValueError(f"The deletion check needs at least one random order, not {orders}.")
    joint = _joint_input(reranker, explained.query, explained.text)
    removal = _removal_orders(explained, orders, seed)
    length = len(explained.tokens)
    scores = np.zeros((len(removal), removal.shape[1] + 1))
    activation = reranker.cross.activation_fn
    with torch.inference_mode():
        for count in range(removal.shape[1] + 1):
            keep = np.ones((len(removal), length), dtype=bool)
            for row, gone in enumerate(removal[:, :count]):
                keep[row, gone] = False
            batch = {key: torch.stack([value[0][torch.from_numpy(row).to(value.device)] for row in keep])
                     if isinstance(value, torch.Tensor) and value.dim() == 2 else value
                     for key, value in joint.features.items()}
            logits = reranker.cross(batch)["scores"].reshape(len(removal), -1)[:, 0].float()
            shown = activation(logits) if activation is not None else logits
            scores[:, count] = shown.cpu().numpy()
    return Deletion(np.arange(removal.shape[1] + 1), scores[0], scores[1:])


@dataclass(frozen=True)
class RerankComparison:
    """Why `first` scores above (or below) `second` for one query: the attributions of the difference of their logits
    are first's attributions and minus second's. The query's tokens, read in both, carry the difference of their two
    attributions where both inputs kept the same query tokens. Each side's attributions sum to its logit minus its
    baseline's plus its gap, so the frame's sum is the logits' difference, minus the baselines' difference (they
    differ only in length), plus the gaps' difference: ΔL − ΔB + ΔG."""

    first: RerankAttribution
    second: RerankAttribution

    @property
    def logit_difference(self) -> float:
        return self.first.logit - self.second.logit

    @property
    def score_difference(self) -> float:
        return self.first.score - self.second.score

    @property
    def baseline_difference(self) -> float:
        return self.first.baseline_logit - self.second.baseline_logit

    @property
    def gap(self) -> float:
        return self.first.gap - self.second.gap

    @property
    def same_query(self) -> bool:
        """Whether both inputs hold the same query tokens (a long text can cut the query in one of them)."""
        return [self.first.tokens[i] for i in self.first.positions("query")] == \
            [self.second.tokens[i] for i in self.second.positions("query")]

    def query_difference(self) -> np.ndarray:
        """Each query token's attribution in first minus in second (same_query only)."""
        return (self.first.attributions[self.first.positions("query")]
                - self.second.attributions[self.second.positions("query")])

    def frame(self) -> pd.DataFrame:
        """Every token of both inputs with its attribution to the difference (second's negated), the query's once
        where both read it alike."""
        rows = []
        if self.same_query:
            for i, value in zip(self.first.positions("query"), self.query_difference()):
                rows.append({"part": "query", "position": i, "token": self.first.tokens[i], "attribution": value})
        for name, side, sign in (("first", self.first, 1.0), ("second", self.second, -1.0)):
            wanted = ["text", "special"] if self.same_query else ["query", "text", "special"]
            for i, (token, part) in enumerate(zip(side.tokens, side.parts)):
                if part in wanted:
                    rows.append({"part": f"{name} {part}", "position": i, "token": token,
                                 "attribution": sign * side.attributions[i]})
        return pd.DataFrame(rows, columns=["part", "position", "token", "attribution"])

    def record(self) -> dict[str, Any]:
        return {"logit_difference": self.logit_difference, "score_difference": self.score_difference,
                "baseline_difference": self.baseline_difference, "gap": self.gap}


def compare_texts(reranker: LoadedReranker, query: str, first: str, second: str, *, steps: int | None = None,
                  max_steps: int = MAX_STEPS, progress: Progress | None = None) -> RerankComparison:
    """Both pairs explained (the same steps rule for each), for the attributions of their logits' difference."""
    explained = []
    for done, text in enumerate((first, second), start=1):
        explained.append(explain_rerank(reranker, query, text, steps=steps, max_steps=max_steps))
        if progress is not None:
            progress(done, 2)
    return RerankComparison(*explained)


@dataclass(frozen=True)
class RerankExplanation:
    """What the pages show of a pair: its attributions, the deletion check of them and, with a second text of the
    same query, the attributions of the two texts' difference."""

    pair: RerankAttribution
    deletion: Deletion
    versus: RerankComparison | None


def explain_with_checks(reranker: LoadedReranker, query: str, text: str, *, versus: str | None = None,
                        progress: Progress | None = None) -> RerankExplanation:
    """The pair explained (steps raised until the gap is under 1%), its deletion check, and the comparison with
    `versus` where one is given."""
    total = 3 if versus else 2
    explained = explain_rerank(reranker, query, text)
    if progress is not None:
        progress(1, total)
    deletion = deletion_check(reranker, explained)
    if progress is not None:
        progress(2, total)
    compared = None
    if versus:
        compared = RerankComparison(explained, explain_rerank(reranker, query, versus))
        if progress is not None:
            progress(3, total)
    return RerankExplanation(explained, deletion, compared)
