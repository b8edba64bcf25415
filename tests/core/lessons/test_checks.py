import numpy as np
import pytest

from core.data.stsb import load_stsb, stsb_sentences
from core.evaluation.retrieval import paraphrase_task
from core.evaluation.sts import pair_rows
from core.evaluation.variants import TRY_INSTRUCTION
from core.lessons.checks import CHECKS, Context
from core.lessons.lessons import LESSONS
from core.lessons.report import lessons_markdown
from core.models.loading import load_model
from core.settings import Settings
from tests.references import embedding_similarity, information_retrieval
from tests.views.cache_fill import prefill


def context(model, check: str) -> Context:
    """The context the Lessons page gives `check`: the model, default settings, and its lesson's view."""
    inputs = next(lesson.inputs for lesson in LESSONS if lesson.check == check)
    return Context(model, Settings(model_id=model.model_id), lambda model_id: load_model(model_id, "cpu"),
                   inputs=inputs)


def test_every_lesson_names_an_existing_check_and_a_page():
    assert [lesson.number for lesson in LESSONS] == list(range(1, len(LESSONS) + 1))
    assert {lesson.check for lesson in LESSONS} <= set(CHECKS)
    assert {lesson.page for lesson in LESSONS} <= {"model", "layers", "probes", "similarity", "evaluation",
                                                   "finetune", "retrieval", "map", "images"}


@pytest.mark.parametrize("model_id", ["all-MiniLM-L6-v2", "paraphrase-MiniLM-L3-v2"])
def test_the_bank_senses_separate_on_both_packaged_models(model_id):
    check = CHECKS["bank"](context(load_model(model_id, "cpu"), "bank"))
    assert check.holds is True and check.numbers["layer 0 min"] > 0.9


def test_the_light_checks_say_what_they_measured(minilm):
    for name in ("tokenizer", "anatomy", "weather", "travel", "idiom", "why", "finetune"):
        check = CHECKS[name](context(minilm, name))
        assert check.finding and check.holds in (True, False, None), name
    assert CHECKS["tokenizer"](context(minilm, "tokenizer")).numbers["vocabulary"] == len(minilm.tokenizer)


def _sts_reference(vectors, sentences):
    pairs = load_stsb("dev")
    row = {s: i for i, s in enumerate(sentences)}
    return embedding_similarity(vectors[[row[p.sentence1] for p in pairs]], vectors[[row[p.sentence2] for p in pairs]],
                                [p.score for p in pairs])["spearman_cosine"]


def test_the_untrained_and_pipeline_checks_report_the_evaluators_spearman(minilm):
    sentences = stsb_sentences("dev")
    trained = prefill(minilm, sentences, seed=3)
    untrained = prefill(load_model("untrained-bert", "cpu"), sentences, seed=4)
    check = CHECKS["untrained"](context(minilm, "untrained"))
    assert check.numbers["spearman"] == pytest.approx(_sts_reference(trained, sentences), abs=1e-4)
    assert check.numbers["untrained spearman"] == pytest.approx(_sts_reference(untrained, sentences), abs=1e-4)
    pipeline = CHECKS["pipeline"](context(minilm, "pipeline"))
    assert pipeline.holds is False  # random vectors stand in here, so the published figure is not reached
    assert "Transformer → Pooling → Normalize" in pipeline.finding


def test_the_pooling_check_reports_the_evaluators_recall(minilm):
    task = paraphrase_task("dev")
    expected = {}
    for seed, mode in enumerate(("mean", "cls", "max")):
        corpus = prefill(minilm, task.corpus, pooling=mode, seed=10 + seed)
        queries = prefill(minilm, task.queries, pooling=mode, seed=20 + seed)
        expected[mode] = information_retrieval(task, queries, corpus, (1,))["cosine_recall@1"]
    check = CHECKS["pooling"](context(minilm, "pooling"))
    assert check.numbers == pytest.approx({mode: round(value, 4) for mode, value in expected.items()}, abs=1e-4)


def test_the_model_check_lessons_report_the_evaluators_figures(minilm):
    task, sts = paraphrase_task("dev"), pair_rows("dev")
    corpus = prefill(minilm, task.corpus, seed=31)
    noise = np.random.default_rng(30).standard_normal((len(task.queries), corpus.shape[1]))
    near = corpus[[min(docs) for docs in task.relevant]] + 0.08 * noise  # paraphrases near their texts, as trained
    queries = prefill(minilm, task.queries, vectors=near.astype(np.float32))
    typed = prefill(minilm, task.queries, prompt=TRY_INSTRUCTION, seed=32)
    prefill(minilm, sts.sentences, seed=33)
    prefill(minilm, sts.sentences, prompt=TRY_INSTRUCTION, seed=34)
    quantisation = CHECKS["quantisation"](context(minilm, "quantisation"))
    assert quantisation.numbers["float32"] == pytest.approx(
        information_retrieval(task, queries, corpus, (1,))["cosine_ndcg@10"], abs=1e-4)
    dims = CHECKS["dimensions"](context(minilm, "dimensions"))
    assert dims.numbers["full"] == pytest.approx(information_retrieval(task, queries, corpus, (1,))["cosine_recall@1"],
                                                 abs=1e-4)
    assert dims.numbers["quarter"] == 64
    assert dims.numbers["kept"] == pytest.approx(
        information_retrieval(task, queries[:, :64], corpus[:, :64], (1,))["cosine_recall@1"] / dims.numbers["full"],
        abs=1e-3)
    prompts = CHECKS["prompts"](context(minilm, "prompts"))
    assert prompts.numbers == pytest.approx({"without": information_retrieval(task, queries, corpus, (1,))[
        "cosine_ndcg@10"], "typed": information_retrieval(task, typed, corpus, (1,))["cosine_ndcg@10"]}, abs=1e-4)
    assert "trained without prompts" in prompts.finding


def test_the_sheet_lists_every_lesson_and_what_was_found(minilm):
    checks = {3: CHECKS["bank"](context(minilm, "bank"))}
    sheet = lessons_markdown(checks, model_id="all-MiniLM-L6-v2", settings="default pooling")
    assert sheet.count("\n## ") == len(LESSONS)
    assert "**Observed (holds).** Layer 0" in sheet and sheet.count("Not checked in this session.") == len(LESSONS) - 1


def test_the_lexical_check_counts_the_queries_each_side_alone_ranks_first(minilm):
    import numpy as np
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.metrics.pairwise import cosine_similarity

    task = paraphrase_task("dev")
    corpus = prefill(minilm, task.corpus, seed=30)
    queries = prefill(minilm, task.queries, seed=31)

    def firsts(scores):  # whether each query's best-scored corpus text (its own text excluded) is relevant
        for q, excluded in enumerate(task.exclude):
            scores[q, list(excluded)] = -np.inf
        return np.array([int(np.argmax(row)) in task.relevant[q] for q, row in enumerate(scores)])

    tfidf = TfidfVectorizer().fit(task.corpus)
    model_first = firsts(cosine_similarity(queries, corpus))
    tfidf_first = firsts(cosine_similarity(tfidf.transform(task.queries), tfidf.transform(task.corpus)))
    check = CHECKS["lexical"](context(minilm, "lexical"))
    assert check.numbers == {"model only": int((model_first & ~tfidf_first).sum()),
                             "TF-IDF only": int((tfidf_first & ~model_first).sum())}


def test_the_expansion_check_reads_the_terms_page_on_a_sparse_model_whichever_the_sidebar_holds(minilm, splade):
    from core.analysis.terms import text_terms
    from core.lessons.lessons import BANK

    on_dense, on_sparse = (CHECKS["expansion"](context(model, "expansion")) for model in (minilm, splade))
    assert on_dense == on_sparse and on_sparse.holds is True  # SPLADE-tiny's expansion follows the sense
    counts = [len(text_terms(splade, text, Settings()).expansion) for text in BANK]
    assert on_sparse.numbers["added"] == ", ".join(map(str, counts))


def test_who_finds_what_counts_each_rankers_lone_wins_from_the_same_rankings(minilm, splade):
    from core.analysis.lexical import fit_baseline
    from core.data.stsb import stsb_corpus
    from core.evaluation.retrieval import evaluate_lexical
    from tests.views.cache_fill import prefill_sparse

    task = paraphrase_task("dev")
    prefill(minilm, task.corpus, seed=50)
    prefill(minilm, task.queries, seed=51)
    prefill_sparse(splade, stsb_corpus(), seed=52)
    prefill_sparse(splade, task.queries, role="query", seed=53)
    check = CHECKS["who_finds"](context(splade, "who_finds"))
    bm25 = evaluate_lexical(fit_baseline("bm25", task.corpus), task, ks=[1]).per_query["first relevant rank"].eq(1)
    assert check.numbers["BM25 alone"] <= int(bm25.sum())
    assert set(check.numbers) == {"all-MiniLM-L6-v2 alone", "splade-tiny alone", "BM25 alone", "hybrid recall@1"}


def test_the_rerank_check_says_when_no_reranker_exists_and_measures_one_that_does(minilm, reranker_folder):
    import shutil

    from core.analysis.lexical import fit_baseline
    from core.evaluation.rerank import rerank_task
    from core.evaluation.retrieval import lexical_stage
    from core.models.catalog import finetuned_dir
    from core.models.reranker import load_reranker

    assert CHECKS["rerank"](context(minilm, "rerank")).holds is None
    task = paraphrase_task("dev")
    prefill(minilm, task.corpus, seed=70)
    prefill(minilm, task.queries, seed=71)
    shutil.copytree(reranker_folder, finetuned_dir() / "lesson-reranker")
    (finetuned_dir() / "lesson-reranker" / "explorer-card.json").write_text('{"kind": "reranker", "base": "x"}')
    try:
        check = CHECKS["rerank"](context(minilm, "rerank"))
        expected = rerank_task(task, lexical_stage(fit_baseline("bm25", task.corpus), task),
                               load_reranker("lesson-reranker", "cpu"), depths=[10], ks=[1])
        assert check.numbers["BM25 after"] == round(expected.reranked[10].metrics["reranker_recall@1"], 4)
        assert check.holds in (True, False)
    finally:
        shutil.rmtree(finetuned_dir() / "lesson-reranker")


def test_one_vector_or_one_per_token_says_when_no_late_interaction_model_is_here(minilm):
    check = CHECKS["one_per_token"](context(minilm, "one_per_token"))
    assert check.holds is None and "objective: multi-vector" in check.finding


def test_one_vector_or_one_per_token_compares_the_three_families_as_their_libraries_score(late_folders,
                                                                                        reranker_folder):
    """The sidebar's model is late interaction; a reranker was trained here: each family's ranking is its own
    library's (SentenceTransformer's cosine, MultiVectorEncoder.similarity, CrossEncoder.predict), the bytes kept per
    text are its vectors' and the alignment adds up to the late score."""
    import shutil

    from sentence_transformers import CrossEncoder, MultiVectorEncoder, SentenceTransformer
    from sentence_transformers.util import cos_sim

    from core.lessons.lessons import GUITAR
    from core.models.catalog import finetuned_dir
    from core.models.packages import packaged_minilm_folder

    query, *texts = GUITAR
    folder = late_folders["colbert"]
    shutil.copytree(reranker_folder, finetuned_dir() / "lesson-cross")
    (finetuned_dir() / "lesson-cross" / "explorer-card.json").write_text('{"kind": "reranker", "base": "x"}')
    try:
        check = CHECKS["one_per_token"](context(load_model(str(folder), "cpu"), "one_per_token"))
    finally:
        shutil.rmtree(finetuned_dir() / "lesson-cross")
    dense = SentenceTransformer(str(packaged_minilm_folder()), device="cpu")
    cosines = cos_sim(dense.encode([query]), dense.encode(texts))[0].numpy()
    late = MultiVectorEncoder(str(folder), device="cpu", local_files_only=True)
    documents = late.encode_document(texts)
    maxsim = late.similarity(late.encode_query([query]), documents)[0].numpy()
    crossed = CrossEncoder(str(reranker_folder), device="cpu").predict([(query, text) for text in texts])
    numbers = check.numbers
    assert (numbers["dense best"], numbers["late interaction best"], numbers["cross-encoder best"]) == (
        int(np.argmax(cosines)) + 1, int(np.argmax(maxsim)) + 1, int(np.argmax(crossed)) + 1)
    late_bytes = np.mean([len(document) * document.shape[1] * 4 for document in documents])
    assert numbers["dense bytes per text"] == 384 * 4 and numbers["cross-encoder bytes per text"] == 0
    assert numbers["late interaction bytes per text"] == round(late_bytes)
    assert numbers["storage ratio"] == round(late_bytes / (384 * 4), 2)
    assert check.holds is bool(late_bytes > 384 * 4)  # the alignment adds up, so the storage decides
    assert f"({maxsim.max():.3f}) is the sum of its query tokens' best matches" in check.finding
    assert f"ranks “{texts[int(np.argmax(maxsim))]}” first" in check.finding and "[CLS]→" not in check.finding


def test_the_fine_tuning_check_reads_only_runs_measured_on_sts(minilm):
    """A late-interaction run is measured on retrieval alone: the Fine-tuning lesson passes over its card."""
    import json

    from core.models.catalog import finetuned_dir

    folder = finetuned_dir() / "lesson-late"
    folder.mkdir(parents=True)
    (folder / "explorer-card.json").write_text(json.dumps({
        "kind": "late interaction", "base": "x", "data": "d", "steps": 2, "before": {"spearman": 0.8, "recall@1": 0.8},
        "after": {"recall@1": 0.7}}))
    try:
        check = CHECKS["finetune"](context(minilm, "finetune"))
        assert check.holds is None and "No fine-tuned model" in check.finding
    finally:
        import shutil

        shutil.rmtree(folder)
def test_how_different_measures_the_sidebars_model_against_another_and_against_untrained_bert(minilm):
    from core.data.stsb import stsb_sample
    from core.lessons.lessons import COMPARED_TEXTS
    from core.models.catalog import L3_ID, UNTRAINED_ID
    from tests.core.analysis.test_agreement import numpy_cka, scipy_procrustes, sklearn_neighbours

    texts = stsb_sample(COMPARED_TEXTS)["text"].tolist()
    rng = np.random.default_rng(5)
    own = prefill(minilm, texts, seed=50)
    other = prefill(load_model(L3_ID, "cpu"), texts, vectors=own @ np.linalg.qr(rng.standard_normal((384, 384)))[0]
                    + 0.05 * rng.standard_normal(own.shape))  # a rotated, slightly noisy copy: the same space
    random = prefill(load_model(UNTRAINED_ID, "cpu"), texts, seed=52, vectors=rng.standard_normal((len(texts), 768)))
    check = CHECKS["how_different"](context(minilm, "how_different"))
    assert check.holds is True
    for name, vectors in ((L3_ID, other), (UNTRAINED_ID, random)):
        kept = np.mean([len(set(x) & set(y)) / 10 for x, y in zip(sklearn_neighbours(own, 10),
                                                                   sklearn_neighbours(vectors, 10))])
        assert check.numbers[f"{name} cka"] == pytest.approx(numpy_cka(own, vectors), abs=1e-4)
        assert check.numbers[f"{name} neighbour_overlap@10"] == pytest.approx(kept, abs=1e-4)
        assert check.numbers[f"{name} procrustes"] == pytest.approx(scipy_procrustes(own, vectors), abs=1e-4)
    assert f"against {L3_ID}: CKA" in check.finding


def test_the_layer_probe_check_reads_the_probes_of_the_lessons_sentences(minilm):
    from core.data.stsb import stsb_sample
    from core.evaluation.probing import probe_texts

    inputs = {"probe_size": 200}
    check = CHECKS["what_each_layer_knows"](Context(minilm, Settings(model_id=minilm.model_id),
                                                    lambda model_id: load_model(model_id, "cpu"), inputs=inputs))
    sample = stsb_sample(200)
    rows = probe_texts(minilm, sample["text"].tolist(), sample["genre"].tolist(), Settings()).frame()
    assert check.numbers["best accuracy"] == pytest.approx(rows["accuracy"].max(), abs=1e-4)
    assert check.holds == (check.numbers["first layer beyond TF-IDF"] >= 0)
    assert "over the same architecture with random weights" in check.finding
    added = rows["accuracy"] - rows["untrained_accuracy"]
    assert check.numbers["most added by training"] == pytest.approx(added.max(), abs=1e-4)


def test_the_drift_check_compares_the_lessons_two_sets_and_the_null_halves(minilm):
    from core.data.stsb import stsb_set
    from core.evaluation.set_drift import drift_sets

    inputs = {"map_set_size": 100, "map_set_reference": "news", "map_set_new": "forums"}
    check = CHECKS["has_drifted"](Context(minilm, Settings(model_id=minilm.model_id),
                                          lambda model_id: load_model(model_id, "cpu"), inputs=inputs))
    null = drift_sets(minilm, stsb_set("captions_a", 100), stsb_set("captions_b", 100), Settings())
    assert check.numbers["null p"] == null.mmd.p_value and check.numbers["null auc"] == round(null.separability.auc, 4)
    assert check.holds == (check.numbers["drift p"] < 0.01 < 0.05 < check.numbers["null p"])
    assert check.holds and "STS-B forum texts against STS-B news, AUC" in check.finding


def test_the_pictures_check_says_what_to_download_where_no_model_of_images_and_texts_is_here(minilm):
    check = CHECKS["pictures_and_words"](context(minilm, "pictures_and_words"))
    assert check.holds is None
    assert check.finding.startswith("No model of images and texts is here to check this lesson on")  # downloads off
    assert "type sentence-transformers/clip-ViT-B-32 on the page “Pictures and words” once" in check.finding


def test_the_pictures_check_never_downloads(minilm, online):
    """With downloads on and the model not in the cache, the check says where to download it instead."""
    check = CHECKS["pictures_and_words"](context(minilm, "pictures_and_words"))
    assert check.holds is None and check.finding.endswith("(about 600 MB), then check again.")


def test_the_pictures_check_measures_the_lessons_model_on_the_example_pictures(minilm, clip_folder):
    """With a model of images and texts given (the tiny CLIP), its figures are those computed here from
    sentence-transformers' own vectors of the example pictures and their captions."""
    from sentence_transformers import SentenceTransformer

    from core.data.image_examples import EXAMPLES, example_corpus

    check = CHECKS["pictures_and_words"](Context(minilm, Settings(), lambda model_id: load_model(model_id, "cpu"),
                                                 inputs={"img_model": str(clip_folder)}))
    reference = SentenceTransformer(str(clip_folder), device="cpu")

    def unit(x):
        return x / np.linalg.norm(x, axis=1, keepdims=True)

    images = unit(reference.encode(list(example_corpus().images())))
    prompts = unit(reference.encode([f"a photo of a {example.label}" for example in EXAMPLES]))
    captions = unit(reference.encode([example.caption for example in EXAMPLES]))
    accuracy = np.mean(np.argmax(images @ prompts.T, axis=1) == np.arange(len(EXAMPLES)))
    assert check.numbers["zero-shot accuracy"] == pytest.approx(accuracy, abs=1e-4)
    assert check.numbers["modality gap"] == pytest.approx(np.linalg.norm(images.mean(0) - prompts.mean(0)), abs=1e-4)
    first = np.mean(np.argmax(captions @ images.T, axis=1) == np.arange(len(EXAMPLES)))
    assert check.numbers["caption → image recall@1, as embedded"] == pytest.approx(first, abs=1e-4)
    assert check.holds == (accuracy > 1 / len(EXAMPLES) and check.numbers["modality gap"] > 0.2)


def test_the_example_index_holds_each_models_own_vectors_and_the_check_finds_which_wrote_them(minilm):
    from sentence_transformers import SentenceTransformer

    from core.evaluation.example_index import NEW, OLD, WRITTEN_BY, example_index

    stored = example_index(lambda model_id: load_model(model_id, "cpu"))
    written = stored.metadata[WRITTEN_BY].to_numpy()
    for model_id in (OLD, NEW):  # each part as sentence-transformers itself encodes it
        rows = written == model_id
        reference = SentenceTransformer(str(load_model(model_id, "cpu").folder), device="cpu")
        own = reference.encode([text for text, row in zip(stored.texts, rows) if row])
        assert np.allclose(stored.vectors[rows], own, atol=1e-5)
    check = CHECKS["index_matches"](Context(minilm, Settings(model_id=NEW), lambda other: load_model(other, "cpu")))
    assert check.holds and check.numbers["verdict"] == "mixed"
    assert check.numbers["agree share"] == check.numbers["written share"] == pytest.approx(1 / 3, abs=0.02)


def test_the_index_check_lesson_says_a_sparse_model_reads_no_stored_vectors(splade):
    check = CHECKS["index_matches"](Context(splade, Settings(model_id=splade.model_id),
                                            lambda other: load_model(other, "cpu")))
    assert check.holds is None and "stored vectors are one dense vector a text" in check.finding
