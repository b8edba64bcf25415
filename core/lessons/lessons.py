"""The lessons, in teaching order. A lesson is data: what it asks, what to do, which page opens with which inputs,
what it expects, which check computes that on the current model, questions to discuss and a next step. A teacher
adds one by adding an entry here (and, for a new sort of observation, a check in core.lessons.checks)."""

from __future__ import annotations

from dataclasses import dataclass, field

from core.models.catalog import CLIP_ID, DEFAULT_MODEL_ID, L3_ID, SPLADE_ID

BANK = ("The robbers burst into the bank and emptied the safe.",
        "We had a picnic on the grassy bank of the river.",
        "She put her savings into an account at the bank.")
WEATHER = ("The weather is nice today.", "The weather is bad today.", "The weather is lovely today.")
TRAVEL = ("I drove a car to work.", "I rode a bike to work.", "I flew a plane to work.", "I read a book at home.")
IDIOM = ("He decided to bite the bullet and pay the fine.", "He bit down hard on a metal bullet.",
         "He accepted the unpleasant situation and paid the fine.")
CERTAINTY = ("The project will definitely succeed.", "The project might succeed.", "The project failed.")
PAIR = ("A man is playing a guitar on stage.", "Someone performs music with an instrument.")
GUITAR = ("A man is playing a guitar.", "Someone performs music on an instrument.", "A man is playing a flute.",
          "An old guitar lies on the floor of an empty room.", "Stocks fell sharply today.")  # a query, then texts
COMPARED_TEXTS = 500  # STS-B sentences two models are compared on (lesson 21)
PROBED_TEXTS = 600  # STS-B sentences whose genre each layer is probed for (lesson 22)
DRIFT_TEXTS = 300  # STS-B sentences in each of two sets compared (lesson 23)


@dataclass(frozen=True)
class Lesson:
    number: int
    title: str
    question: str
    steps: str
    page: str  # the page's URL path
    inputs: dict[str, object] = field(default_factory=dict)  # the whole view: that page's widget key -> value
    expect: str = ""
    check: str = ""  # a name in core.lessons.checks.CHECKS
    discussion: tuple[str, ...] = ()
    what_if: str = ""
    heavy: bool = False  # the check encodes benchmark data, so it runs when asked (up to a few minutes)
    model: str | None = None  # the model the view opens on, where the lesson needs one of its kind (a sparse one)
    # (query, text, other text): the lesson ends on a reranker's explanation of the pair, and of why one text scores
    # above the other
    rerank_pair: tuple[str, str, str] | None = None


LESSONS: tuple[Lesson, ...] = (
    Lesson(1, "Tokenizer anatomy", "What does the model actually read?",
           "Open the Model page's tokenizer playground: look at the token table, the word pieces (## continues a "
           "word), the special tokens and what became [UNK].", "model",
           {"model_text": "Unbelievably, the Café served 🤖 cakes in 東京."},
           "The vocabulary has 30,522 entries for the packaged models; a rare word splits into ## pieces; "
           "accents are stripped and letters lower-cased; an emoji becomes [UNK].", "tokenizer",
           ("Why would a tokenizer rather split a word into pieces than give it [UNK]?",
            "What does lower-casing cost a model that reads “US” and “us”?"),
           "Type a sentence in another language and count the [UNK] tokens."),
    Lesson(2, "Model anatomy", "Where are a small encoder's parameters?",
           "Open the Model page: read the architecture facts and the parameters per module.", "model", {},
           "The word-embedding table is the largest single part: about half or more of a small encoder's "
           "parameters.", "anatomy",
           ("Why is the embedding table so large compared with one transformer layer?",
            "What changes in this share for a 12-layer, 768-dimension model?"),
           "Pick all-mpnet-base-v2 (after `make models-extra`) in the sidebar and compare the shares."),
    Lesson(3, "One word, several senses", "Does “bank” mean the same in every sentence?",
           "Open Layers: the token “bank” is chosen in three sentences; read the token-drift curves.", "layers",
           {"layers_texts": "\n".join(BANK), "layers_word": "bank", "layers_tab": "Token drift"},
           "At layer 0 the three “bank” vectors are nearly identical (cosine between 0.9 and 1: only the position "
           "embeddings differ); in later layers the river sense moves furthest from the two money senses.", "bank",
           ("Why is layer 0 not exactly 1?", "Which layer separates the senses most, and why not the last?"),
           "Add “You can bank on her.”: a verb sense. Where does it go?"),
    Lesson(4, "Synonyms and antonyms in one frame", "Does the model tell “nice” from “bad” in the same frame?",
           "Open Similarity with three sentences that differ in one word; the explanation below the heatmap opens "
           "on the nice/bad pair.", "similarity",
           {"sim_texts": "\n".join(WEATHER), "sim_pair": "1,2"},
           "“nice” and “lovely” end closest; “bad” stays close too, because the rest of the sentence is the same.",
           "weather", ("Why can antonyms score high?", "What would a model trained on entailment data do here?"),
           "In the nice/bad explanation, which tokens make up that score? Click the nice/lovely cell and compare."),
    Lesson(5, "Same slot, same category", "Do sentences that fill one slot with things of one kind cluster?",
           "Open Similarity with three ways to get to work and one control sentence.", "similarity",
           {"sim_texts": "\n".join(TRAVEL)},
           "The three travel sentences are closer to each other than to the control.", "travel",
           ("Is it the vehicle or the shared words that makes them close?",),
           "Replace “to work” by different endings and see what stays."),
    Lesson(6, "Sentence drift across layers", "When does an idiom mean its paraphrase rather than its words?",
           "Open Layers with an idiom, its literal reading and its paraphrase; read the sentence-drift curves.",
           "layers", {"layers_texts": "\n".join(IDIOM), "layers_tab": "Sentence drift"},
           "From layer 0 to the last, the idiom moves away from its literal reading (which shares “bullet”) and "
           "towards its paraphrase: the paraphrase's lead grows.", "idiom",
           ("Which layers carry word overlap and which meaning?",),
           "Try the certainty sentences: " + " / ".join(CERTAINTY)),
    Lesson(7, "Untrained against trained", "How similar does a model with random weights find everything?",
           "Open Similarity: the untrained BERT heatmap stands beside the model's.", "similarity", {},
           "Untrained BERT's mean off-diagonal cosine is far higher (anisotropy), and its STS-B dev Spearman far "
           "lower (about 0.55, from word overlap alone: the same tokens give the same embeddings).", "untrained",
           ("Why is an untrained encoder above 0.5 on STS-B at all?",
            "What does training do to the space, beyond the scores?"), "Open a pair's explanation and compare the "
           "“shared by all texts” part under both models.", heavy=True),
    Lesson(8, "Pooling matters", "How much does the choice of pooling change retrieval?",
           "Open Evaluation with mean, CLS and max pooling on the paraphrase task.", "evaluation",
           {"ev_section": "Retrieval (Recall@k)", "ev_poolings": ["mean", "cls", "max"]},
           "The pooling the model was trained with wins; how much CLS loses depends on training: all-MiniLM-L6-v2 "
           "loses only a few points of Recall@1, where the classic lab's mean-trained model collapsed.", "pooling",
           ("Why would a model trained with mean pooling still put information in [CLS]?",),
           "Try the untrained model: does any pooling help?", heavy=True),
    Lesson(9, "Lexical baselines", "Where do TF-IDF and bag of words win, and where do they lose?",
           "Open Evaluation's per-query diagnostics: TF-IDF's failures are listed; then pick the model.",
           "evaluation", {"ev_section": "Retrieval (Recall@k)", "ev_diag_config": "TF-IDF", "ev_failures": True},
           "The model finds far more paraphrases first; TF-IDF still wins some queries that share rare words.",
           "lexical", ("What do the queries TF-IDF wins have in common?",), "Use Retrieval's “why this hit?” on one "
           "of them.", heavy=True),
    Lesson(10, "The sentence-transformers pipeline", "What turns token vectors into one sentence vector?",
           "Open the Model page: read the modules (Transformer → Pooling → (Dense) → Normalize).", "model", {},
           "all-MiniLM-L6-v2 scores the published STS-B Spearman: 0.8672 on dev (0.8203 on test).", "pipeline",
           ("What does Normalize change for cosine similarity? For the dot product?",),
           "Switch the sidebar's pooling and compare the Spearman on the Evaluation page.", heavy=True),
    Lesson(11, "Fine-tuning", "Can a few minutes of training on STS-B move the scores?",
           "Open Fine-tune, start a run with the defaults, then read before and after.", "finetune", {},
           "After training on STS-B, dev Spearman rises above the base model's.", "finetune",
           ("Why does retrieval sometimes get worse while STS improves?",), "Fine-tune untrained-bert at 1e-4."),
    Lesson(12, "Why similar", "Which tokens make up a pair's score?",
           "Open Similarity with a pair and read the explanation under the heatmap.", "similarity",
           {"sim_texts": "\n".join(PAIR), "sim_pair": "1,2"},
           "The token-pair contributions add up exactly to the cosine, and a few content-word pairs carry most of "
           "it.", "why", ("Do [CLS] and [SEP] matter?",), "Set the explanation's layer to 0 and compare."),
    Lesson(13, "Prompts and asymmetric search", "Does an instruction before the query change what is found?",
           "Open Evaluation's Prompts check: the paraphrase task and STS-B measured without prompts and with them (for "
           "a model without prompts, with a typed retrieval instruction).", "evaluation",
           {"ev_section": "Model checks", "ev_check": "Prompts"},
           "A model trained with prompts (e5, bge, Qwen3-Embedding, EmbeddingGemma) loses without them: queries and "
           "documents are embedded differently on purpose. all-MiniLM-L6-v2 was trained without prompts: an "
           "instruction changes little or hurts.", "prompts",
           ("Why give a query and a document different prompts, when paraphrase pairs are symmetric?",
            "What does the instruction take from the token budget of a long text?"),
           "Type “query: ” as the instruction, the prefix e5 models expect, and compare.", heavy=True),
    Lesson(14, "Fewer dimensions", "How much of the vector does retrieval need?",
           "Open Evaluation's Dimensions check: the same metrics with only the first 32, 64, 128, 256 dimensions "
           "kept.", "evaluation", {"ev_section": "Model checks", "ev_check": "Dimensions"},
           "The scores fall as dimensions are cut. A model trained with MatryoshkaLoss keeps most of its score at a "
           "quarter of its size; all-MiniLM-L6-v2 was not trained for it and loses more.", "dimensions",
           ("Why would the first dimensions carry more than the last, in a model trained for truncation?",
            "What do 128 dimensions save for a million vectors?"),
           "Compare STS-B Spearman and Recall@1: which falls faster?", heavy=True),
    Lesson(15, "Quantisation", "Does storing vectors as int8 or bits lose what is found?",
           "Open Evaluation's Quantisation check: float32, int8, binary and binary with rescoring, each with its "
           "bytes per vector and search time.", "evaluation",
           {"ev_section": "Model checks", "ev_check": "Quantisation"},
           "int8 keeps almost all of float32's scores at a quarter of the bytes; binary (32× smaller) loses some, and "
           "rescoring its top candidates with the float query wins most of it back.", "quantisation",
           ("Why is the query kept in float32 for rescoring?", "Where is binary search faster, and where not?"),
           "Cut the dimensions in the sidebar to 128, then quantise: what do both together cost?", heavy=True),
    Lesson(16, "Static embeddings", "What does context buy?",
           "Open Evaluation's Static model check, distil a static model from the current one (about a minute), and "
           "compare the two.", "evaluation", {"ev_section": "Model checks", "ev_check": "Static model"},
           "The static model (one vector per token, averaged: no attention) encodes hundreds of times as many texts "
           "per second, and scores lower, most of all where word order and context decide the meaning.", "static",
           ("Which STS-B pairs would a static model get wrong? Think of “not”, and of word order.",
            "When would you choose the static model anyway?"),
           "Open Similarity with the static model and the “bank” sentences: what happens to the three senses?",
           heavy=True),
    Lesson(17, "Which words does the model add?", "What does a sparse model put in a text's vector besides its words?",
           "Open the Model page's Terms view on a sparse model (SPLADE-tiny): read the terms of the river sentence, "
           "then type the two money senses of “bank”.", "model", {"model_terms_text": BANK[1]},
           "The vector holds the text's own content words and, in orange, words it does not hold: its expansion "
           "(river → rivers, hiking, tents). The expansion follows the sense in context: the three “bank” sentences "
           "share almost none of their added words.", "expansion",
           ("Why would adding words the text does not hold help retrieval?",
            "Which function words does the model leave out, and why?"),
           "Open Similarity with the three “bank” sentences and click a cell: which terms make up each pair's "
           "score?", model=SPLADE_ID),
    Lesson(18, "Dense, sparse, BM25, hybrid: who finds what?", "Do a dense model, a sparse model and BM25 find "
           "the same paraphrases, and does fusing two lists help?",
           "Open Evaluation with all-MiniLM-L6-v2, SPLADE-tiny, BM25 and their hybrids on the paraphrase task; then "
           "read the per-query diagnostics of each.", "evaluation",
           {"ev_section": "Retrieval (Recall@k)", "ev_models": [DEFAULT_MODEL_ID, SPLADE_ID],
            "ev_poolings": ["default"], "ev_baselines": ["bm25"],
            "ev_hybrids": [f"{DEFAULT_MODEL_ID} · default · layer last + {SPLADE_ID}",
                           f"{DEFAULT_MODEL_ID} · default · layer last + BM25"]},
           "Each of the three ranks first some paraphrases the other two miss. SPLADE-tiny's expansion finds more "
           "within the top 10 than BM25, which needs the query's exact words. A hybrid of a strong and a weaker list "
           "lands between the two here: fusion pays where its parts fail on different queries, and all-MiniLM-L6-v2 "
           "was trained on paraphrases like these.", "who_finds",
           ("Why might the hybrid still win on another corpus (rare names, product codes)?",
            "What does a hybrid cost at query time?"),
           "Search “guitar” on Retrieval and compare the four lists.", heavy=True),
    Lesson(19, "Bi-encoder or cross-encoder?", "What does a reranker that reads the query and a text together "
           "change?",
           "Train a reranker on Fine-tune (objective: reranker, an epoch), then open Retrieval: the query's top 10 "
           "reranked, each text's move drawn; then Evaluation's Rerank section for the metrics against N and the "
           "cost per query. Last, read “Why this score?” under Rerank (open below too): the query's and the hit's "
           "tokens coloured by their share of the reranker's score, the deletion check that says whether to trust "
           "the colours, and what lifted the top hit above the next.", "retrieval",
           {"ret_query": "A man is playing a guitar.", "ret_rerank_n": 10, "ret_rerank_why": True},
           "The reranker reorders the first stage's top N. It lifts a weak first stage (BM25, TF-IDF) and can lower a "
           "strong one (all-MiniLM-L6-v2, trained on paraphrases) when it is lightly trained; every text it reads "
           "costs one network pass, so a deeper N costs proportionally more per query. Reading the pair together, "
           "its score rests on tokens of both texts at once, which a bi-encoder's two separate vectors cannot show; a "
           "lightly trained reranker's explanation may be no better than random by the deletion check.", "rerank",
           ("Why can a bi-encoder search millions of texts while a cross-encoder cannot?",
            "When would you rerank the top 50 rather than the top 10?",
            "Which query tokens matter to the reranker, and would a bi-encoder's cosine weigh them alike?"),
           "Train the reranker for three epochs, or from another base model, and see where it turns.", heavy=True,
           rerank_pair=(GUITAR[0], GUITAR[1], GUITAR[2])),
    Lesson(20, "One vector, or one per token", "What does keeping a vector for every token buy, and what does it "
           "cost?",
           "Open Similarity with a query (the first line) and four texts, and read the query's row with the dense "
           "model: one cosine per text. The explanation below opens on the query and the old guitar, which share "
           "their rarest word and little else. Then pick a late-interaction model in the sidebar (train one on "
           "Fine-tune with the multi-vector objective, or a ColBERT from the hub) and read the same row: MaxSim, "
           "where each query token finds its best match in the text and the matches add up to the score. The check "
           "puts a cross-encoder beside them where one is here.", "similarity",
           {"sim_texts": "\n".join(GUITAR), "sim_pair": "1,4"},
           "Late interaction keeps several times a dense vector's bytes for every text (a vector per kept token), and "
           "its score splits exactly into each query token's best match, which says why a text ranks where it does. "
           "The cross-encoder keeps nothing ahead but reads the query with every text, one network pass each, so its "
           "cost grows with the texts it scores; the two bi-encoders encode the query once.", "one_per_token",
           ("Why does MaxSim reward a text that shares the query's rarest word, and when is that wrong?",
            "Which of the three would you use to search a million texts, and which to rerank the top 20?"),
           "Add a text that holds the query's words in another order: which family notices?", heavy=True),
    Lesson(21, "How different are two models?", "Do two trained models see the same space, and do their texts keep "
           "the same neighbours?",
           "Open the Embedding map in compare mode: A is the sidebar's model, B paraphrase-MiniLM-L3-v2, on 500 STS-B "
           "sentences. Read the four numbers above the maps, then the map coloured by each text's neighbours kept in "
           "B, and the texts whose neighbourhood changed most.", "map",
           {"map_source": "stsb", "map_size": COMPARED_TEXTS, "map_method": "PCA", "map_compare": True,
            "map_b_model": L3_ID, "map_b_layer": 3, "map_compare_kept": True},
           "Two trained models agree on much of the space's shape (all-MiniLM-L6-v2 against "
           "paraphrase-MiniLM-L3-v2: linear CKA about 0.7) yet keep only about half of each text's 10 nearest "
           "neighbours; against untrained BERT both fall far lower (CKA about 0.3, about one neighbour in eight "
           "kept).", "how_different",
           ("Why can CKA be high while many neighbourhoods change?",
            "Which texts lose their neighbours: short ones, rare words, one genre?"),
           "Set B to the sidebar's own model at layer 0, then at each layer up: where does B start to agree with A? "
           "`python -m core compare --layers` gives every layer at once.", heavy=True),
    Lesson(22, "What does each layer know?", "At which layer does the model know a sentence's genre better than its "
           "words do, and how much of that did training put there?",
           "Open “What each layer knows” on 600 STS-B sentences labelled by genre (news, image captions, forums). "
           "Read the probe's accuracy by layer against the TF-IDF probe of the words, the same architecture with "
           "random weights (untrained) and the labels shuffled (chance), then the compression below.", "probes",
           {"probe_source": "stsb", "probe_size": PROBED_TEXTS},
           "Genre is easy to read from the words (TF-IDF about 90%), yet an early layer's probe already beats it on "
           "the same folds. The untrained architecture reads some genre too (its words still differ), and the gap "
           "above it is what training added; the labels shuffled stay at chance. Compression keeps changing where "
           "accuracy saturates.",
           "what_each_layer_knows",
           ("Why is beating TF-IDF a fairer bar than beating the majority class?",
            "Why does a model with random weights already beat the majority class?",
            "Why does compression fall at the last layer where accuracy barely moves?"),
           "Upload your own texts with a label column (blank labels are left out and counted); or tag a region of "
           "the Embedding map, download its rows and probe the tag_ column here.", heavy=True),
    Lesson(23, "Has my data drifted?", "Are a new set of texts and a reference set drawn from the same place, and "
           "if not, where do they differ?",
           "Open the Embedding map on two sets: STS-B's news as the reference and its forum texts as the new set, "
           f"{DRIFT_TEXTS} each. Read the domain classifier's AUC and MMD²'s p-value, then the clusters the new set "
           "over-represents and the new texts farthest from every reference text.", "map",
           {"map_source": "sets", "map_set_size": DRIFT_TEXTS, "map_set_reference": "news", "map_set_new": "forums"},
           "News and forum texts part clearly: a classifier tells a text's set with an AUC near 1 and MMD²'s p-value "
           "is under 0.01, with clusters of forum chatter over-represented. Two random halves of the captions, the "
           "null case, give an AUC near 0.5 and a large p.", "has_drifted",
           ("Why does a p-value under 0.01 with an AUC of 0.55 still call for a look at the clusters?",
            "Which would you trust with 30 texts a set: the AUC or MMD²?"),
           "Set the reference to “STS-B captions, one random half” and the new set to “the other half”: does "
           "anything drift? Then upload last month's and this month's texts, or run `python -m core drift`.",
           heavy=True),
    Lesson(24, "Pictures and words in one space", "How well does a model of images and texts name pictures it was "
           "never trained to classify, and why does a picture sit nearer other pictures than its own caption?",
           f"Open “Pictures and words” with {CLIP_ID} (downloaded once, about 600 MB, where downloads are on) on the "
           "fourteen example pictures and their captions. Read zero-shot accuracy and its confusion matrix, then "
           "the heatmap's blocks and the modality gap: the distance between the two centroids, the share of the "
           "variance along it, and what closing it changes in zero-shot accuracy and in retrieval both ways.",
           "images", {"img_model": CLIP_ID, "img_source": "examples"},
           "The prompts alone name most pictures, far above the one in fourteen of chance. Yet in the heatmap a "
           "picture is nearer every other picture than its own caption: the two modalities sit apart (Liang et al. "
           "2022 measure CLIP's gap at about 0.8), and much of the variance lies along the gap. Closing it moves "
           "each modality, so read what it changes in the rankings rather than assume it.",
           "pictures_and_words",
           ("If a picture is nearer every picture than its caption, how can a caption still find its picture "
            "first?",
            "Why could closing the gap change the image-to-caption ranking less than the heatmap suggests?"),
           "Edit the prompt to “a {label}” or “a blurry photo of a {label}”: how much does the template move the "
           "accuracy? Then upload a zip of your own pictures, one subfolder per class.", heavy=True),
    Lesson(25, "Does this index still match its model?", "A search service stores a vector for every text. Were they "
           "all made by the model you would now embed queries with?",
           "Open the Embedding map on the example index: STS-B sentences with the vectors a service stored for them. "
           "Below the map, “Check the stored vectors” embeds a sample of the texts again with the sidebar's model and "
           "sets each stored vector against the fresh one. Read the verdict, the share that agrees to 1e-3 and the "
           "rows unlike the model, then colour the map by written_by.", "map",
           {"map_source": "example_index", "map_check_on": True},
           "The index is mixed: all-MiniLM-L6-v2 agrees exactly with the last third of the rows and with none of the "
           "first two thirds, which paraphrase-MiniLM-L3-v2 wrote before the team moved to the new model. Both give "
           "384 dimensions, so nothing failed: only the check tells. A query embedded by the new model finds the old "
           "rows by a different geometry, as the neighbours' overlap shows.", "index_matches",
           ("Why does an index written by two models of the same width give no error, and what does it cost a search?",
            "Which rows would you embed again first, and how would you know you were done?"),
           "Pick paraphrase-MiniLM-L3-v2 in the sidebar and check again: which rows agree now? Then check a store of "
           "your own: `python -m core check-store --model M --input lancedb://…`.", heavy=True),
)
