"""Reference implementations the tests compare with: sentence-transformers' evaluators run on the same vectors,
so a number the app shows is checked against the standard tool, never against a number it printed before."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import scipy.sparse as sp
import torch
from sentence_transformers.multi_vector_encoder.evaluation import MultiVectorInformationRetrievalEvaluator
from sentence_transformers.sentence_transformer.evaluation import (
    EmbeddingSimilarityEvaluator,
    InformationRetrievalEvaluator,
)
from sentence_transformers.util import cos_sim
from sentence_transformers.util.similarity import SimilarityFunction

from core.evaluation.retrieval import RetrievalTask


class LookupModel:
    """Stands in for a SentenceTransformer: each text's vector is looked up, not computed."""

    def __init__(self, table: dict[str, np.ndarray]):
        self.table = table

    def encode(self, texts, **_):
        return np.stack([self.table[t] for t in texts])

    def encode_query(self, texts, **_):
        return torch.from_numpy(self.encode(texts))

    encode_document = encode_query


def information_retrieval(task: RetrievalTask, queries, corpus, ks: Sequence[int], *,
                          score: Callable[[torch.Tensor, torch.Tensor], torch.Tensor] = cos_sim) -> dict[str, float]:
    """InformationRetrievalEvaluator on `task` with these query and corpus rows (dense, or sparse unit rows
    such as TF-IDF), ranked by `score` of dense rows (cosine unless another is given), each query's excluded texts
    masked; keys as the evaluator names them (`cosine_recall@k`)."""
    exclude = torch.zeros(len(task.queries), len(task.corpus), dtype=torch.bool)
    for q, texts in enumerate(task.exclude):
        exclude[q, list(texts)] = True
    if sp.issparse(queries):  # the "vector" of a text is its row number; the score is the sparse cosine
        vectors = ([np.array([i], np.float32) for i in range(len(task.queries))],
                   [np.array([i], np.float32) for i in range(len(task.corpus))])
        query_rows, corpus_rows = sp.csr_matrix(queries), sp.csr_matrix(corpus)

        def cosine(a, b):
            return torch.from_numpy((query_rows[a[:, 0].long().numpy()] @ corpus_rows[b[:, 0].long().numpy()].T)
                                    .toarray().astype(np.float32))
    else:
        vectors = (np.asarray(queries, np.float32), np.asarray(corpus, np.float32))
        cosine = score
    # the evaluator hands the score function one block of queries against one chunk of the corpus at a time;
    # a chunk as large as the corpus keeps the mask aligned
    table = {f"q:{t}": v for t, v in zip(task.queries, vectors[0])} | {f"c:{t}": v for t, v in
                                                                       zip(task.corpus, vectors[1])}
    evaluator = InformationRetrievalEvaluator(
        {f"q{i:05d}": f"q:{t}" for i, t in enumerate(task.queries)},
        {f"{i:06d}": f"c:{t}" for i, t in enumerate(task.corpus)},
        {f"q{i:05d}": {f"{d:06d}" for d in docs} | {f"missing{j}" for j in range(len(task.missing[i]))}
         for i, docs in enumerate(task.relevant)},
        precision_recall_at_k=list(ks), accuracy_at_k=[1], mrr_at_k=[10], ndcg_at_k=[10], map_at_k=[10],
        corpus_chunk_size=len(task.corpus) + 1, batch_size=len(task.queries) + 1,
        score_functions={"cosine": lambda a, b: cosine(a, b).masked_fill(exclude[: len(a)], float("-inf"))})
    scores = evaluator.compute_all_metrics(LookupModel(table))["cosine"]
    flat = {f"cosine_recall@{k}": scores["recall@k"][k] for k in ks}
    return flat | {"cosine_mrr@10": scores["mrr@k"][10], "cosine_ndcg@10": scores["ndcg@k"][10],
                   "cosine_accuracy@1": scores["accuracy@k"][1]}


def embedding_similarity(first: np.ndarray, second: np.ndarray, gold: Sequence[float]) -> dict[str, float]:
    """EmbeddingSimilarityEvaluator's `pearson_cosine` and `spearman_cosine` for these pairs of vectors."""
    texts_a = [f"a{i}" for i in range(len(first))]
    texts_b = [f"b{i}" for i in range(len(second))]
    evaluator = EmbeddingSimilarityEvaluator(texts_a, texts_b, list(gold), similarity_fn_names=["cosine"])
    scores = evaluator(_EvaluatedModel(dict(zip(texts_a, first)) | dict(zip(texts_b, second))))
    return {key: scores[key] for key in ("pearson_cosine", "spearman_cosine")}


class _EvaluatedModel(LookupModel):
    """What EmbeddingSimilarityEvaluator also reads from a model when it is called."""

    similarity_fn_name = "cosine"

    class model_card_data:  # noqa: N801 - the evaluator records its metrics here
        set_evaluation_metrics = staticmethod(lambda *a, **k: None)


def multi_vector_retrieval(task: RetrievalTask, reference, ks: Sequence[int] = (1, 5, 10)) -> dict[str, float]:
    """MultiVectorInformationRetrievalEvaluator on the task, with the model's own similarity (resolved as the evaluator
    resolves it) and each query's excluded texts masked; one corpus chunk, so the mask lines up."""
    name = reference.similarity_fn_name
    similarity = SimilarityFunction.to_similarity_fn(name)
    exclude = torch.zeros(len(task.queries), len(task.corpus), dtype=torch.bool)
    for q, texts in enumerate(task.exclude):
        exclude[q, list(texts)] = True
    evaluator = MultiVectorInformationRetrievalEvaluator(
        {f"q{i}": q for i, q in enumerate(task.queries)}, {f"c{i}": c for i, c in enumerate(task.corpus)},
        {f"q{i}": {f"c{d}" for d in docs} | {f"missing{j}" for j in range(len(task.missing[i]))}
         for i, docs in enumerate(task.relevant)},
        precision_recall_at_k=list(ks), accuracy_at_k=[1], mrr_at_k=[10], ndcg_at_k=[10], map_at_k=[10],
        corpus_chunk_size=len(task.corpus) + 1, write_csv=False,
        score_functions={name: lambda a, b: similarity(a, b).masked_fill(exclude[:len(a)], float("-inf"))})
    found = evaluator(reference)
    return {f"{name}_recall@{k}": found[f"{name}_recall@{k}"] for k in ks} | \
        {f"{name}_mrr@10": found[f"{name}_mrr@10"], f"{name}_ndcg@10": found[f"{name}_ndcg@10"]}


NEAR_TIE = 1e-5  # scores closer than this (a random model's crowd together) fall either way in float32 rounding


def without_near_ties(task: RetrievalTask, reference, depth: int) -> RetrievalTask:
    """The task's queries whose top `depth` + 1 scores (their own texts masked), as sentence-transformers computes
    them, are all at least NEAR_TIE apart: a closer pair (a random model's scores crowd together) falls either way in
    float32 rounding, so the order is compared only where it is defined."""
    scores = reference.similarity(reference.encode_query(task.queries), reference.encode_document(task.corpus))
    for q, texts in enumerate(task.exclude):
        scores[q, list(texts)] = float("-inf")
    top = scores.topk(depth + 1, dim=1).values
    keep = [q for q in range(len(task.queries)) if bool((top[q, :-1] - top[q, 1:] >= NEAR_TIE).all())]
    assert len(keep) >= len(task.queries) * 0.7
    return RetrievalTask(task.name, [task.queries[q] for q in keep], task.corpus, [task.relevant[q] for q in keep],
                         [task.missing[q] for q in keep], [task.exclude[q] for q in keep])


def assert_top_order(found: Sequence[int], scores: np.ndarray, depth: int | None = None) -> None:
    """`found` is the best `depth` (all by default) of one query's `scores` as a reference computes them (such as
    sentence-transformers' similarity), best first, wherever that order is defined: texts whose scores lie within
    NEAR_TIE of the next (a chain of such) may come in any order among themselves and, at the cut, either may be in,
    as `without_near_ties` leaves out a query whose order such a pair would decide."""
    scores = np.asarray(scores, dtype=np.float64)
    order = np.argsort(-scores, kind="stable")
    depth = len(scores) if depth is None else min(depth, len(scores))
    found = [int(i) for i in found]
    assert len(found) == len(set(found)) == depth, (found, order[:depth].tolist())
    blocks, block = [], [int(order[0])]
    for before, after in zip(order[:-1], order[1:]):
        if scores[before] - scores[after] < NEAR_TIE:
            block.append(int(after))
        else:
            blocks.append(block)
            block = [int(after)]
    blocks.append(block)
    start = 0
    for block in blocks:
        if start >= depth:
            break
        assert set(found[start:start + len(block)]) <= set(block), (found, order[:depth].tolist(),
                                                                    scores[order[:depth + 1]].tolist())
        start += len(block)


def plain_captum_pair(cross, query: str, text: str, steps: int, *, max_length: int | None = None):
    """Captum's LayerIntegratedGradients of a CrossEncoder's first logit over its word embeddings, called plainly as
    a user would write it (the baseline: every non-special token padded): each token's attribution (summed over the
    embedding's dimensions), the encoded pair, the baseline ids and Captum's own convergence delta (the attributions'
    sum minus the logit's change from the baseline)."""
    import torch
    from captum.attr import LayerIntegratedGradients

    network, tokenizer = cross[0].auto_model, cross[0].tokenizer
    encoded = tokenizer(query, text, return_tensors="pt", truncation=max_length is not None, max_length=max_length)
    special = torch.tensor(tokenizer.get_special_tokens_mask(encoded["input_ids"][0].tolist(),
                                                             already_has_special_tokens=True), dtype=torch.bool)
    baseline = torch.where(special, encoded["input_ids"][0], tokenizer.pad_token_id)[None]

    def forward(input_ids):
        n = len(input_ids)
        return network(input_ids=input_ids, attention_mask=encoded["attention_mask"].expand(n, -1),
                       token_type_ids=encoded["token_type_ids"].expand(n, -1)).logits[:, 0]

    attributions, delta = LayerIntegratedGradients(forward, network.get_input_embeddings()).attribute(
        encoded["input_ids"], baselines=baseline, n_steps=steps, return_convergence_delta=True)
    return attributions[0].sum(-1).detach().numpy(), encoded, baseline, float(delta[0])

