"""Each lesson's expected observation, computed on the current model: a Check says whether it holds, in one
sentence with the numbers. A check never pretends: where the model does not show it, it says so."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from contextlib import nullcontext
from dataclasses import dataclass, field
from itertools import combinations

import numpy as np

from core.analysis import families
from core.analysis.agreement import agreement
from core.analysis.explanation import explain_pair
from core.analysis.index_check import AGREES
from core.analysis.layers import Drift, find_word
from core.analysis.lexical import fit_baseline
from core.analysis.similarity import closest_pair, mean_off_diagonal, similarity_matrix, text_similarity
from core.analysis.statistics import p_text
from core.analysis.terms import text_terms
from core.analysis.tokenization import tokenize_text
from core.data.corpus import lines
from core.data.examples import EXAMPLES, PARAPHRASE_CLUSTERS
from core.data.stsb import STSB_SETS, stsb_sample, stsb_set
from core.encoding.embedding_cache import cached_embeddings_with
from core.encoding.encoder import Progress, encode, encode_tokens
from core.encoding.prompts import resolve_prompt
from core.evaluation.example_index import WRITTEN_BY, example_index
from core.evaluation.index_check import check_index
from core.evaluation.metrics import STS_PRIMARY
from core.evaluation.precisions import PRECISIONS
from core.evaluation.probing import probe_texts
from core.evaluation.rerank import rerank_task
from core.evaluation.retrieval import (
    RetrievalTask,
    evaluate_embeddings,
    evaluate_fused,
    evaluate_lexical,
    evaluate_task,
    lexical_stage,
    model_stage,
    paraphrase_task,
)
from core.evaluation.set_drift import drift_sets
from core.evaluation.stored import store_refusal
from core.evaluation.sts import PairRows, correlation, pair_rows, sts_frame
from core.evaluation.variants import (
    TRY_INSTRUCTION,
    Embedded,
    Prompts,
    default_dimensions,
    dimension_check,
    embed_variant,
    measure,
    model_check,
    own_prompts,
    prompt_check,
    prompt_variants,
    quantization_check,
)
from core.kinds import kind_of
from core.lessons.lessons import BANK
from core.models.anatomy import parameter_breakdown
from core.models.card import matryoshka_dims
from core.models.catalog import (
    DEFAULT_MODEL_ID,
    HUB_ENTRIES,
    L3_ID,
    LATE,
    SPLADE_ID,
    UNTRAINED_ID,
    ModelKind,
    ModelUnavailable,
    finetuned_entries,
    of_kind,
)
from core.models.hub import cached_folder
from core.models.loading import LoadedModel
from core.models.reranker import LoadedReranker, load_reranker
from core.models.sources import pending_download
from core.settings import Settings
from core.training.distill import static_models_of, teacher_of
from core.training.finetune import read_card

PUBLISHED_STS = {DEFAULT_MODEL_ID: {"dev": 0.8672, "test": 0.8203}}


@dataclass(frozen=True)
class Check:
    """`holds` is None where the lesson cannot be checked on this model (and `finding` says why)."""

    holds: bool | None
    finding: str
    numbers: dict[str, float | int | str] = field(default_factory=dict)


@dataclass(frozen=True)
class Context:
    """What a check may use: the current model and settings, another model by id, a progress callback."""

    model: LoadedModel
    settings: Settings
    load: Callable[[str], LoadedModel]
    progress: Progress | None = None
    inputs: Mapping[str, object] = field(default_factory=dict)  # the lesson's view: what its page draws from

    def texts(self, key: str) -> list[str]:
        return lines(str(self.inputs[key]))


def tokenizer(ctx: Context) -> Check:
    tok = ctx.model.tokenizer
    table = tokenize_text(tok, "Unbelievably, the Café served 🤖 cakes.", ctx.model.max_length).table
    pieces = [t for t in table["token"] if t.startswith("##")]
    unknown = int((table["token"] == tok.unk_token).sum()) if tok.unk_token else 0
    lowered = "café" not in " ".join(table["token"]) and "Café" not in " ".join(table["token"])
    numbers: dict[str, float | int | str] = {"vocabulary": len(tok), "word pieces": len(pieces),
                                             "unknown tokens": unknown,
                                             "special tokens": ", ".join(tok.all_special_tokens)}
    holds = bool(pieces) and unknown > 0 and lowered
    return Check(holds, f"{len(tok):,} vocabulary entries; “Unbelievably” and friends split into {len(pieces)} "
                        f"## pieces; {unknown} [UNK] (the emoji); accents {'stripped' if lowered else 'kept'}.",
                 numbers)


def anatomy(ctx: Context) -> Check:
    breakdown = parameter_breakdown(ctx.model)
    share = float(breakdown.loc[breakdown["module"] == "embeddings", "share"].sum())
    total = int(breakdown["parameters"].sum())
    largest = breakdown.loc[breakdown["parameters"].idxmax(), "module"]
    return Check(share >= 0.4 and largest == "embeddings",
                 f"The embeddings hold {share:.0%} of {total:,} parameters ({ctx.model.num_layers} layers of "
                 f"{ctx.model.hidden_size} dimensions); the largest module is {largest}.",
                 {"parameters": total, "embedding share": round(share, 4)})


def _drift(ctx: Context, texts: list[str], word: str | None = None) -> Drift:
    """The Layers page's curves for the lesson's texts: the same token states and the same core function."""
    states = encode_tokens(ctx.model, texts, max_length=ctx.settings.max_length)
    chosen = [find_word(s, word) if word else None for s in states]
    return kind_of(ctx.model).drift(ctx.model, states, chosen, pooling=ctx.settings.pooling,
                                    max_length=ctx.settings.max_length)


def bank(ctx: Context) -> Check:
    word = str(ctx.inputs["layers_word"])
    curves = _drift(ctx, ctx.texts("layers_texts"), word).token
    robbery_river, robbery_savings, river_savings = curves  # pairs (0, 1), (0, 2), (1, 2)
    first = curves[:, 0]
    near = bool(((first > 0.9) & (first < 1)).all())
    apart = bool(robbery_river[-1] < robbery_savings[-1] and river_savings[-1] < robbery_savings[-1])
    finding = (f"Layer 0: “{word}” cosines {', '.join(f'{c:.3f}' for c in first)} "
               f"({'all' if near else 'not all'} between 0.9 and 1). Last layer: robbery–savings "
               f"{robbery_savings[-1]:.3f}, river–robbery {robbery_river[-1]:.3f}, "
               f"river–savings {river_savings[-1]:.3f}: "
               + ("the river sense ends furthest from the money senses." if apart else
                  "this model does not put the river sense furthest from both money senses."))
    return Check(near and apart, finding, {"layer 0 min": round(float(first.min()), 4),
                                           "last robbery-savings": round(float(robbery_savings[-1]), 4)})


def _matrix(ctx: Context, texts: list[str]) -> np.ndarray:
    """The Similarity page's matrix: the same function, with the prompt its picker starts on."""
    settings = ctx.settings.with_(prompt=resolve_prompt(ctx.model.pipeline))
    return text_similarity(ctx.model, texts, settings).matrix


def weather(ctx: Context) -> Check:
    matrix = _matrix(ctx, ctx.texts("sim_texts"))
    i, j = closest_pair(matrix)
    names = ["nice", "bad", "lovely"]
    holds = {i, j} == {0, 2}
    return Check(holds, f"Closest pair: {names[i]}–{names[j]} ({matrix[i, j]:.3f}); nice–bad {matrix[0, 1]:.3f}, "
                        f"bad–lovely {matrix[1, 2]:.3f}.", {"nice-lovely": round(float(matrix[0, 2]), 4),
                                                            "nice-bad": round(float(matrix[0, 1]), 4)})


def travel(ctx: Context) -> Check:
    matrix = _matrix(ctx, ctx.texts("sim_texts"))
    among = float(np.mean([matrix[0, 1], matrix[0, 2], matrix[1, 2]]))
    control = float(np.mean(matrix[3, :3]))
    return Check(among > control, f"Among the travel sentences: mean cosine {among:.3f}; to the control: "
                                  f"{control:.3f}.", {"travel": round(among, 4), "control": round(control, 4)})


def idiom(ctx: Context) -> Check:
    literal, paraphrase = _drift(ctx, ctx.texts("layers_texts")).sentence[:2]  # pairs (0, 1) and (0, 2)
    lead = (paraphrase[0] - literal[0], paraphrase[-1] - literal[-1])
    holds = lead[1] > lead[0] and lead[1] > 0
    return Check(holds, f"Idiom–literal {literal[0]:.3f} → {literal[-1]:.3f}, idiom–paraphrase {paraphrase[0]:.3f} → "
                        f"{paraphrase[-1]:.3f} (layer 0 → last): the paraphrase's lead goes from {lead[0]:+.3f} to "
                        f"{lead[1]:+.3f}" + ("." if holds else "; this model does not move the idiom towards its "
                                                              "meaning."),
                 {"literal last": round(float(literal[-1]), 4), "paraphrase last": round(float(paraphrase[-1]), 4)})


def _mean_cosine(model: LoadedModel, texts: list[str]) -> float:
    mean = mean_off_diagonal(similarity_matrix(encode(model, texts).vectors))
    if mean is None:
        raise ValueError("A mean cosine needs at least two texts.")
    return mean


def untrained(ctx: Context) -> Check:
    texts = EXAMPLES[PARAPHRASE_CLUSTERS]
    other = ctx.load(UNTRAINED_ID)
    means = {m.model_id: _mean_cosine(m, texts) for m in (ctx.model, other)}
    spearman = {m.model_id: correlation(sts_frame(m, "dev", progress=ctx.progress))[STS_PRIMARY]
                for m in (ctx.model, other)}
    trained = ctx.model.model_id
    holds = means[UNTRAINED_ID] > means[trained] and spearman[trained] > spearman[UNTRAINED_ID]
    return Check(holds, f"Mean off-diagonal cosine: {trained} {means[trained]:.3f}, untrained "
                        f"{means[UNTRAINED_ID]:.3f}; "
                        f"STS-B dev Spearman: {spearman[trained]:.3f} against {spearman[UNTRAINED_ID]:.3f}.",
                 {"mean cosine": round(means[trained], 4), "untrained mean cosine": round(means[UNTRAINED_ID], 4),
                  "spearman": round(spearman[trained], 4), "untrained spearman": round(spearman[UNTRAINED_ID], 4)})


def pooling(ctx: Context) -> Check:
    task = paraphrase_task("dev")
    own = ctx.model.pipeline.pooling  # the model's own mode joins the three when it is another single one
    modes = tuple(dict.fromkeys(("mean", "cls", "max") + (own if len(own) == 1 else ())))
    recall = {mode: evaluate_embeddings(ctx.model, task, ctx.settings.with_(pooling=mode, layer=None),
                                        ks=[1, 10]).metrics["cosine_recall@1"] for mode in modes}
    trained_with = ctx.model.default_pooling
    if trained_with not in recall:
        return Check(None, f"Recall@1 on STS-B dev paraphrases: {', '.join(f'{m} {v:.3f}' for m, v in recall.items())}"
                           f"; {ctx.model.model_id} joins several poolings ({trained_with}), so none of these is its "
                           "own.", {mode: round(value, 4) for mode, value in recall.items()})
    best = max(recall, key=lambda mode: recall[mode])
    finding = ", ".join(f"{mode} {value:.3f}" for mode, value in recall.items())
    holds = best == trained_with or recall[trained_with] >= recall[best] - 0.005
    return Check(holds, f"Recall@1 on STS-B dev paraphrases: {finding}; {ctx.model.model_id} pools by {trained_with}"
                        f", so {'that is the best, as expected' if holds else f'{best} does better here'}.",
                 {mode: round(value, 4) for mode, value in recall.items()})


def lexical(ctx: Context) -> Check:
    task = paraphrase_task("dev")
    model = evaluate_embeddings(ctx.model, task, ctx.settings, ks=[1]).per_query["first relevant rank"]
    tfidf = evaluate_lexical(fit_baseline("tfidf", task.corpus), task, ks=[1]).per_query["first relevant rank"]
    model_only = int(((model == 1) & (tfidf != 1)).sum())
    tfidf_only = int(((tfidf == 1) & (model != 1)).sum())
    return Check(model_only > tfidf_only, f"Of {len(task.queries)} queries, the model alone ranks the paraphrase "
                                          f"first for {model_only}, TF-IDF alone for {tfidf_only}.",
                 {"model only": model_only, "TF-IDF only": tfidf_only})


def pipeline(ctx: Context) -> Check:
    stages = (" → ".join(stage.module_type for stage in ctx.model.pipeline.stages)
              or "a plain transformer (mean pooling)")
    spearman = correlation(sts_frame(ctx.model, "dev", progress=ctx.progress))[STS_PRIMARY]
    published = PUBLISHED_STS.get(ctx.model.model_id)
    if published is None or ctx.settings.pooling != "default" or ctx.settings.layer is not None:
        return Check(None, f"{stages}; STS-B dev Spearman {spearman:.4f}. The published figure is for "
                           f"{DEFAULT_MODEL_ID} with its default pooling at the last layer.", {"spearman": spearman})
    holds = abs(spearman - published["dev"]) < 5e-4
    return Check(holds, f"{stages}; STS-B dev Spearman {spearman:.4f} against the published {published['dev']:.4f}.",
                 {"spearman": round(spearman, 4), "published": published["dev"]})


def finetune(ctx: Context) -> Check:
    cards = [read_card(entry.id) for entry in finetuned_entries()]
    measured = [card for card in cards if "spearman" in card.get("after", {})]  # a late-interaction run has no STS
    if not measured:
        return Check(None, "No fine-tuned model on this machine yet: start a run on the Fine-tune page.")
    card = measured[-1]
    before, after = card["before"]["spearman"], card["after"]["spearman"]
    return Check(after > before, f"{card['base']} after {card['steps']} steps on {card['data']}: STS-B dev "
                                 f"Spearman {before:.3f} → {after:.3f}.", {"before": before, "after": after})


def why(ctx: Context) -> Check:
    a, b = (int(i) - 1 for i in str(ctx.inputs["sim_pair"]).split(","))
    texts = ctx.texts("sim_texts")
    explanation = explain_pair(ctx.model, texts[a], texts[b], pooling=ctx.settings.pooling, layer=ctx.settings.layer,
                               max_length=ctx.settings.max_length, prompt=resolve_prompt(ctx.model.pipeline))
    top = explanation.top_pairs(1).iloc[0]
    exact = abs(explanation.total - explanation.score) < 1e-6
    return Check(exact, f"The {explanation.matrix.size} token pairs sum to {explanation.total:.4f}, the cosine "
                        f"{explanation.score:.4f}; the strongest pair is “{top['token of A']}”–“{top['token of B']}” "
                        f"({top['contribution']:.4f}).", {"score": round(explanation.score, 4)})


def _variant(ctx: Context, prompts: Prompts, *, full: bool = False) -> tuple[RetrievalTask, Embedded, PairRows]:
    """The dev paraphrase task, its vectors with `prompts` (at full size with `full`) and STS-B dev, as Evaluation's
    model checks read them."""
    task, sts = paraphrase_task("dev"), pair_rows("dev")
    settings = ctx.settings.with_(truncate_dim=None if full else ctx.model.kept_dims(ctx.settings.truncate_dim,
                                                                                        ctx.settings.pooling))
    progress = ctx.progress
    bar = (lambda: nullcontext(progress)) if progress is not None else nullcontext
    return task, embed_variant(ctx.model, task, sts, settings, prompts, progress_bar=bar), sts


def prompts(ctx: Context) -> Check:
    own = any(own_prompts(ctx.model.pipeline))
    typed = str(ctx.inputs.get("ev_check_prompt", "" if own else TRY_INSTRUCTION))
    variants = prompt_variants(ctx.model.pipeline, typed)
    if len(variants) == 1:
        return Check(None, f"{ctx.model.model_id} has no prompts and no instruction was typed: nothing to compare.")
    vectors = {}
    for name, chosen in variants.items():
        task, vectors[name], sts = _variant(ctx, chosen)
    ndcg = prompt_check(task, vectors, sts).set_index("prompts")["ndcg@10"]
    tried = "the model's prompts" if own else next(iter(ndcg.index[1:]))
    gain = ndcg[tried] - ndcg["without prompts"]
    finding = f"nDCG@10 on STS-B dev paraphrases: {ndcg['without prompts']:.3f} without prompts, {ndcg[tried]:.3f} " \
              f"with {tried} ({gain:+.3f})"
    if own:
        return Check(gain > 0, finding + ("; the model's own prompts help, as expected." if gain > 0 else
                                          "; here its prompts do not help, unlike what instruction tuning "
                                          "promises."), {"without": round(ndcg["without prompts"], 4),
                                                         "with": round(ndcg[tried], 4)})
    holds = gain <= 0.01
    return Check(holds, finding + (f"; {ctx.model.model_id} was trained without prompts, and an instruction "
                                   "changes little or hurts, as expected." if holds else
                                   "; an instruction helps this model, though it was trained without one."),
                 {"without": round(ndcg["without prompts"], 4), "typed": round(ndcg[tried], 4)})


def dimensions(ctx: Context) -> Check:
    task, vectors, sts = _variant(ctx, own_prompts(ctx.model.pipeline), full=True)
    dims = default_dimensions(vectors.width)
    recall = dimension_check(task, vectors, dims, sts).set_index("dimensions")["recall@1"]
    quarter = max((d for d in dims if d <= vectors.width // 4), default=dims[0])
    kept = recall[quarter] / recall[vectors.width] if recall[vectors.width] else float("nan")
    trained = matryoshka_dims(ctx.model.folder)
    curve = ", ".join(f"{d}: {value:.3f}" for d, value in recall.items())
    holds = recall[vectors.width] >= recall.max() - 0.005 and recall[dims[0]] < recall[vectors.width]
    return Check(holds, f"Recall@1 by dimensions kept ({curve}): at {quarter} of {vectors.width} dimensions it keeps "
                        f"{kept:.0%} of the full score; {ctx.model.model_id} was "
                        + ("trained for truncation (Matryoshka)." if trained else "not trained for truncation.")
                        + ("" if holds else " Here fewer dimensions do not cost what they should: look at the curve."),
                 {"full": round(recall[vectors.width], 4), "quarter": quarter, "kept": round(kept, 4)})


def quantisation(ctx: Context) -> Check:
    task, vectors, _ = _variant(ctx, own_prompts(ctx.model.pipeline))
    ndcg = quantization_check(task, vectors).set_index("precision")["ndcg@10"]
    float32, int8, binary, rescored = (ndcg[name] for name in PRECISIONS.values())
    holds = int8 >= float32 - 0.02 and rescored >= binary
    return Check(holds, f"nDCG@10 on STS-B dev paraphrases: float32 {float32:.3f}, int8 {int8:.3f} (4× smaller), "
                        f"binary {binary:.3f} (32× smaller), binary rescored {rescored:.3f}"
                        + ("." if holds else "; here quantisation costs more than usual."),
                 {"float32": round(float32, 4), "int8": round(int8, 4), "binary": round(binary, 4),
                  "rescored": round(rescored, 4)})


def static(ctx: Context) -> Check:
    teacher_id = teacher_of(ctx.model.model_id) or ctx.model.model_id
    made = static_models_of(teacher_id)
    if not made:
        return Check(None, f"No static model distilled from {teacher_id} on this machine yet: distil one on "
                           "Evaluation's Static model check (or `python -m core distill`), then check again.")
    task, sts = paraphrase_task("dev"), pair_rows("dev")
    measured = {}
    for model in (ctx.load(teacher_id), ctx.load(made[-1])):
        settings = ctx.settings.with_(model_id=model.model_id, pooling="default", layer=None, truncate_dim=None)
        vectors = embed_variant(model, task, sts, settings, own_prompts(model.pipeline))
        measured[model.model_id] = measure(model, vectors, sts.sentences[:500], settings)
    frame = model_check(task, measured, sts).set_index("model")
    teacher, student = frame.loc[teacher_id], frame.loc[made[-1]]
    speed = student["texts/s"] / teacher["texts/s"]
    holds = speed > 1 and student["STS-B spearman"] < teacher["STS-B spearman"]
    return Check(holds, f"STS-B dev Spearman {teacher['STS-B spearman']:.3f} for {teacher_id} against "
                        f"{student['STS-B spearman']:.3f} for its static model, which encodes {speed:,.0f}× as many "
                        f"texts per second in {student['MB']:.0f} MB (teacher {teacher['MB']:.0f} MB)"
                        + ("." if holds else "; here context does not buy what it usually does."),
                 {"teacher spearman": round(teacher["STS-B spearman"], 4),
                  "static spearman": round(student["STS-B spearman"], 4), "speed-up": round(speed, 1)})


def _of_kind(ctx: Context, kind: str, fallback: str) -> LoadedModel:
    """The sidebar's model where it is of `kind` (the lesson is about that kind), else the catalog's `fallback`."""
    return ctx.model if ctx.model.kind == kind else ctx.load(fallback)


def expansion(ctx: Context) -> Check:
    model = _of_kind(ctx, "sparse", SPLADE_ID)
    added = {text: set(text_terms(model, text, ctx.settings.with_(model_id=model.model_id)).expansion["term"])
             for text in BANK}
    overlaps = [len(a & b) / max(len(a | b), 1) for a, b in combinations(added.values(), 2)]
    river = next(iter(sorted(added[BANK[1]])), "")
    holds = all(len(terms) >= 5 for terms in added.values()) and max(overlaps) < 0.2
    counts = ", ".join(str(len(terms)) for terms in added.values())
    return Check(holds, f"{model.model_id} adds {counts} terms the three “bank” sentences do not hold; any two of "
                        f"those expansions share at most {max(overlaps):.0%} of their terms"
                        + (" (the expansion follows the sense)." if holds else "; here the expansion does not follow "
                                                                                "the sense."),
                 {"added": counts, "largest overlap": round(max(overlaps), 4), "a river-sense term": river})


def who_finds(ctx: Context) -> Check:
    task = paraphrase_task("dev")
    dense, sparse = _of_kind(ctx, "dense", DEFAULT_MODEL_ID), _of_kind(ctx, "sparse", SPLADE_ID)
    stages = {dense.model_id: model_stage(dense, task, ctx.settings.with_(model_id=dense.model_id)),
              sparse.model_id: model_stage(sparse, task, Settings(model_id=sparse.model_id)),
              "BM25": lexical_stage(fit_baseline("bm25", task.corpus), task)}
    results = {name: evaluate_task(task, stage.queries, stage.corpus, ks=[1, 10], score=stage.score)
               for name, stage in stages.items()}
    hybrid = evaluate_fused(task, stages[dense.model_id], stages[sparse.model_id], ks=[1, 10])
    first = {name: result.per_query["first relevant rank"].eq(1).fillna(False) for name, result in results.items()}
    alone = {name: int((hits & ~np.logical_or.reduce([other for o, other in first.items() if o != name])).sum())
             for name, hits in first.items()}
    recall = {name: (result.metrics[f"{result.score}_recall@1"], result.metrics[f"{result.score}_recall@10"])
              for name, result in results.items()}
    fused = hybrid.metrics["rrf_recall@1"]
    holds = min(alone.values()) > 0 and recall[sparse.model_id][1] > recall["BM25"][1]
    return Check(holds, "Paraphrases ranked first by one alone: " + ", ".join(f"{n} {c}" for n, c in alone.items())
                 + ". Recall@1 / Recall@10: " + ", ".join(f"{n} {r1:.3f} / {r10:.3f}" for n, (r1, r10) in
                                                          recall.items())
                 + f"; the hybrid of {dense.model_id} and {sparse.model_id}: Recall@1 {fused:.3f}.",
                 {**{f"{n} alone": c for n, c in alone.items()}, "hybrid recall@1": round(fused, 4)})


def rerank(ctx: Context) -> Check:
    rerankers = [entry.id for entry in of_kind(finetuned_entries(), "reranker")]
    if not rerankers:
        return Check(None, "No reranker on this machine yet: train one on Fine-tune (objective: reranker), then "
                           "check again.")
    reranker = load_reranker(rerankers[-1], ctx.settings.device)
    task = paraphrase_task("dev")
    dense = _of_kind(ctx, "dense", DEFAULT_MODEL_ID)
    stages = {dense.model_id: model_stage(dense, task, ctx.settings.with_(model_id=dense.model_id)),
              "BM25": lexical_stage(fit_baseline("bm25", task.corpus), task)}
    gains: dict[str, float] = {}
    numbers: dict[str, float | int | str] = {}
    for name, stage in stages.items():
        sweep = rerank_task(task, stage, reranker, depths=[10], ks=[1], progress=ctx.progress)
        before, after = sweep.first.metrics[f"{stage.score}_recall@1"], sweep.reranked[10].metrics["reranker_recall@1"]
        gains[name] = after - before
        numbers |= {f"{name} before": round(before, 4), f"{name} after": round(after, 4),
                    "ms per query": round(10_000 * sweep.seconds_per_pair, 1)}
    holds = gains["BM25"] > gains[dense.model_id]
    return Check(holds, f"Recall@1 on STS-B dev paraphrases with the top 10 reranked by {reranker.model_id}: "
                        + "; ".join(f"{name} {float(numbers[f'{name} before']):.3f} → "
                                    f"{float(numbers[f'{name} after']):.3f}" for name in stages)
                        + f", at {float(numbers['ms per query']):.0f} ms per query"
                        + (": it helps the weaker first stage more." if holds else
                           ": here it does not help the weaker first stage more."), numbers)


def _here(kind: ModelKind) -> str | None:
    """The last model of `kind` trained on this machine, else one of the catalog's from the hub that the cache holds
    (none is downloaded for a check); None when there is none."""
    trained = [entry.id for entry in of_kind(finetuned_entries(), kind)]
    cached = [entry.id for entry in of_kind(HUB_ENTRIES, kind) if cached_folder(str(entry.repo)) is not None]
    found = [*trained[-1:], *cached]
    return found[0] if found else None


def _late_here(ctx: Context) -> LoadedModel | None:
    """A late-interaction model that is here: the sidebar's, else `_here`'s."""
    if ctx.model.kind == LATE:  # the lesson is about this kind: the sidebar's model serves if it is one
        return ctx.model
    found = _here(LATE)
    return None if found is None else ctx.load(found)


def _reranker_here(ctx: Context) -> LoadedReranker | None:
    found = _here("reranker")
    return None if found is None else load_reranker(found, ctx.settings.device)


def one_per_token(ctx: Context) -> Check:
    query, *texts = ctx.texts("sim_texts")
    late_model = _late_here(ctx)
    if late_model is None:
        return Check(None, "No late-interaction model on this machine yet: train one on Fine-tune (objective: "
                           "multi-vector, a few minutes) or pick a ColBERT from the hub in the sidebar, then check "
                           "again.")
    dense_model = _of_kind(ctx, "dense", DEFAULT_MODEL_ID)
    settings = ctx.settings if ctx.model is dense_model else Settings(model_id=dense_model.model_id,
                                                                      device=ctx.settings.device)
    late_family, aligned = families.late(late_model, query, texts)
    reranker = _reranker_here(ctx)
    compared = [families.dense(dense_model, query, texts, settings), late_family,
                *([families.cross(reranker, query, texts)] if reranker is not None else [])]
    dense_family = compared[0]
    ratio = late_family.bytes_per_text / dense_family.bytes_per_text
    special = set(late_model.tokenizer.all_special_tokens)
    typed = [(aligned.query.tokens[i], aligned.document.tokens[j], float(aligned.grid[i, j]))
             for i, j in enumerate(aligned.best) if aligned.query.typed[i] and aligned.query.tokens[i] not in special]
    strongest = sorted(typed, key=lambda match: -match[2])[:3]
    exact = abs(aligned.score - float(late_family.scores[late_family.best])) < 1e-4
    holds = ratio > 1 and exact
    said = "; ".join(f"{f.model_id} ({f.name}) ranks “{texts[f.best]}” first, {f.bytes_per_text:,.0f} bytes kept "
                     f"per text, {f.passes} network pass{'es' if f.passes > 1 else ''} and {1000 * f.seconds:.0f} ms "
                     "for the query" for f in compared)
    return Check(holds, f"Query “{query}”: {said}. Late interaction keeps {ratio:.1f}× the dense vector's bytes; its "
                        f"score for its first text ({aligned.score:.3f}) is the sum of its query tokens' best matches, "
                        f"the strongest of its words {', '.join(f'{q}→{d} {s:.2f}' for q, d, s in strongest)}"
                        + ("" if reranker is not None else "; no cross-encoder is here to compare (train one on "
                                                            "Fine-tune: objective reranker)") + ".",
                 {"storage ratio": round(ratio, 2),
                  **{f"{f.name} best": f.best + 1 for f in compared},
                  **{f"{f.name} ms": round(1000 * f.seconds, 1) for f in compared},
                  **{f"{f.name} bytes per text": round(f.bytes_per_text) for f in compared}})


def how_different(ctx: Context) -> Check:
    """The sidebar's configuration against another trained model (paraphrase-MiniLM-L3-v2, or all-MiniLM-L6-v2 when
    that is the sidebar's) and against untrained BERT, on the lesson's STS-B sentences: the four measures of each."""
    texts = stsb_sample(int(str(ctx.inputs["map_size"])))["text"].tolist()
    other_id = DEFAULT_MODEL_ID if ctx.model.model_id == L3_ID else L3_ID

    def vectors(model: LoadedModel, settings: Settings) -> np.ndarray:
        return cached_embeddings_with(model, texts, settings, lambda: nullcontext(ctx.progress))

    own = vectors(ctx.model, ctx.settings)
    found = {name: agreement(own, vectors(ctx.load(name), Settings(model_id=name)))
             for name in (other_id, UNTRAINED_ID)}
    trained, untrained = found[other_id], found[UNTRAINED_ID]
    holds = trained.cka > untrained.cka and trained.overlap.mean > untrained.overlap.mean and trained.overlap.mean < 1
    numbers: dict[str, float | int | str] = {"texts": len(texts)}
    for name, measured in found.items():
        numbers |= {f"{name} {key}": round(value, 4) for key, value in measured.record().items()
                    if key != "texts" and value is not None}
    return Check(holds, f"On {len(texts)} STS-B sentences, {ctx.model.model_id} against {other_id}: CKA "
                        f"{trained.cka:.3f}, {trained.overlap.mean:.0%} of neighbours kept, RSA "
                        f"{trained.rsa_spearman:.3f}, Procrustes {trained.procrustes:.3f}; against untrained BERT: "
                        f"CKA {untrained.cka:.3f}, {untrained.overlap.mean:.0%} kept.", numbers)


# checks that read any kind of model as it is, or pick the model of the kind they need themselves; the others pool a
# model's token vectors into one vector per text, so where pooling does not apply to the sidebar's model's kind (sparse,
# late interaction) their lessons run on the default dense model, and say so
def what_each_layer_knows(ctx: Context) -> Check:
    """The lesson's STS-B sentences probed for their genre at every layer: which layer first beats the words' TF-IDF
    on the same folds, and what training added over the same architecture untrained."""
    sample = stsb_sample(int(str(ctx.inputs["probe_size"])))
    report = probe_texts(ctx.model, sample["text"].tolist(), sample["genre"].tolist(), ctx.settings,
                         progress=ctx.progress)
    rows = report.frame()
    words = float(report.words.accuracy.mean())
    best = rows.loc[rows["accuracy"].idxmax()]
    beyond = report.first_beyond_words()
    holds = beyond is not None
    numbers: dict[str, float | int | str] = {"first layer beyond TF-IDF": -1 if beyond is None else beyond,
                                  "best accuracy": round(float(best["accuracy"]), 4),
                                  "tf-idf accuracy": round(words, 4)}
    if report.untrained_note:
        trained = f" {report.untrained_note}"
    else:
        added = rows["accuracy"] - rows["untrained_accuracy"]
        most = rows.loc[added.idxmax()]
        trained = (f" Training added {added.iloc[-1]:+.1%} at the last layer over the same architecture with random "
                   f"weights, most at layer {int(most['layer'])} ({added.max():+.1%}).")
        numbers["most added by training"] = round(float(added.max()), 4)
    return Check(holds, f"Genre from each layer of {ctx.model.model_id} on {len(report.texts):,} STS-B "
                        f"sentences: {best['accuracy']:.1%} at best (layer {int(best['layer'])}), against "
                        f"{words:.1%} for TF-IDF of the words and {report.labels.majority:.1%} for the majority "
                        "genre; "
                        + (f"layer {beyond} is the first to beat TF-IDF on the same folds (corrected resampled "
                           "t-test, p < 0.05)." if holds else "no layer beats TF-IDF on the same folds.") + trained,
                 numbers)


def has_drifted(ctx: Context) -> Check:
    """The lesson's two sets (news against forum texts) compared, and the null case beside them (two random halves of
    the captions): the first must differ (p < 0.01), the second not (p > 0.05)."""
    size = int(str(ctx.inputs["map_set_size"]))
    reference, current = str(ctx.inputs["map_set_reference"]), str(ctx.inputs["map_set_new"])
    drifted = drift_sets(ctx.model, stsb_set(reference, size), stsb_set(current, size), ctx.settings)
    null = drift_sets(ctx.model, stsb_set("captions_a", size), stsb_set("captions_b", size), ctx.settings)
    holds = drifted.mmd.p_value < 0.01 and null.mmd.p_value > 0.05
    over = drifted.represented(more=True)
    return Check(holds, f"On {size} texts a set with {ctx.model.model_id}: {STSB_SETS[current]} against "
                        f"{STSB_SETS[reference]}, AUC "
                        f"{drifted.separability.auc:.2f} and MMD²'s {p_text(drifted.mmd.p_value)}"
                        + (f", the new set over-representing “{over['keywords'].iloc[0]}”" if len(over) else "")
                        + f"; two random halves of the captions, AUC {null.separability.auc:.2f} and "
                          f"{p_text(null.mmd.p_value)}.",
                 {"drift auc": round(drifted.separability.auc, 4), "drift p": drifted.mmd.p_value,
                  "null auc": round(null.separability.auc, 4), "null p": null.mmd.p_value})


def index_matches(ctx: Context) -> Check:
    """The example index (two models wrote its vectors) checked against the sidebar's model: the sampled rows it
    agrees with must be exactly those it wrote, and the verdict must say so."""
    refused = store_refusal(ctx.model)
    if refused is not None:
        return Check(None, refused)
    stored = example_index(ctx.load)
    check = check_index(ctx.model, stored.texts, stored.vectors, ctx.settings)
    own = stored.metadata[WRITTEN_BY].to_numpy()[check.rows] == ctx.model.model_id
    agrees = check.looks == AGREES
    verdict = check.verdict
    expected = "matches" if own.all() else "other_model" if not own.any() else "mixed"
    return Check(bool((agrees == own).all()) and verdict == expected,
                 f"{ctx.model.model_id} agrees with {agrees.mean():.0%} of the {check.sample} sampled stored vectors "
                 f"(it wrote {own.mean():.0%} of them): verdict “{verdict}”, neighbours' overlap@{check.k} "
                 f"{check.overlap_at_10:.2f}.",
                 {"agree share": round(check.agree_share, 4), "written share": round(float(own.mean()), 4),
                  "verdict": verdict, "overlap at 10": round(check.overlap_at_10, 4)})


def pictures_and_words(ctx: Context) -> Check:
    """The lesson's model of images and texts (its own, not the sidebar's) on the example pictures: zero-shot
    accuracy by the labels' prompts, the modality gap, and captioned retrieval both ways, each with the gap closed."""
    from core.data.image_examples import example_captions, example_corpus
    from core.evaluation.captioned import captioned_retrieval
    from core.evaluation.zero_shot import zero_shot
    from core.models.image_text import load_image_text

    model_id = str(ctx.inputs["img_model"])
    download = f"type {model_id} on the page “Pictures and words” once to download it (about 600 MB)"
    if pending_download(model_id) is not None:  # a check never downloads: the page does, with its progress
        return Check(None, f"No model of images and texts is here to check this lesson on: {download}, then check "
                           "again.")
    try:
        model = load_image_text(model_id, ctx.settings.device)
    except ModelUnavailable as err:
        return Check(None, f"No model of images and texts is here to check this lesson on ({err}) On a machine "
                           f"with network, {download}.")
    corpus = example_corpus()
    images = model.encode_images(corpus.images())
    found = zero_shot(images, corpus.labels, [row.split(":")[0] for row in corpus.row_ids], model.encode_texts)
    table = captioned_retrieval(images, model.encode_texts(example_captions())).set_index(["direction", "gap"])
    first = {(direction, gap): float(table.loc[(direction, gap), "recall@1"]) for direction, gap in table.index}
    holds = found.accuracy > found.majority and found.gap.distance > 0.2
    numbers: dict[str, float | int | str] = {
        "zero-shot accuracy": round(found.accuracy, 4),
        "zero-shot accuracy, gap closed": round(found.closed_accuracy, 4),
        "modality gap": round(found.gap.distance, 4), "variance along the gap": round(found.gap.variance_share, 4)}
    numbers |= {f"{direction} recall@1, {gap}": round(value, 4) for (direction, gap), value in first.items()}
    return Check(holds, f"On the {len(corpus)} example pictures, {model.model_id} names {found.accuracy:.0%} by "
                        f"“{found.prompts[0]}” and its kind (gap closed: {found.closed_accuracy:.0%}; chance "
                        f"{found.majority:.0%}); the centroids of the pictures and the prompts are "
                        f"{found.gap.distance:.2f} apart, {found.gap.variance_share:.0%} of the variance along the "
                        f"gap; a caption finds its picture first "
                        f"{first[('caption → image', 'as embedded')]:.0%} of the time (gap closed: "
                        f"{first[('caption → image', 'gap closed')]:.0%}), a picture its caption "
                        f"{first[('image → caption', 'as embedded')]:.0%} ("
                        f"{first[('image → caption', 'gap closed')]:.0%}).",
                 numbers)


READS_ANY_KIND = frozenset({"tokenizer", "anatomy", "finetune", "expansion", "who_finds", "rerank", "one_per_token",
                            "pictures_and_words"})


def stand_in(check: str, model: LoadedModel) -> str | None:
    """The model a lesson is opened and checked on in place of the sidebar's `model`, or None for the sidebar's."""
    return DEFAULT_MODEL_ID if not kind_of(model).applies.pooling and check not in READS_ANY_KIND else None


CHECKS: dict[str, Callable[[Context], Check]] = {
    "tokenizer": tokenizer, "anatomy": anatomy, "bank": bank, "weather": weather, "travel": travel,
    "idiom": idiom, "untrained": untrained, "pooling": pooling, "lexical": lexical, "pipeline": pipeline,
    "finetune": finetune, "why": why, "prompts": prompts, "dimensions": dimensions, "quantisation": quantisation,
    "static": static, "expansion": expansion, "who_finds": who_finds, "rerank": rerank, "one_per_token": one_per_token,
    "how_different": how_different, "what_each_layer_knows": what_each_layer_knows, "has_drifted": has_drifted,
    "pictures_and_words": pictures_and_words, "index_matches": index_matches,
}
