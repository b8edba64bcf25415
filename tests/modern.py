"""Tiny random-weight folders of the models people check today, saved by sentence-transformers itself in its own
format (modules.json, Pooling, Dense, Normalize, prompts), built offline: a Qwen3 decoder with last-token pooling
and left padding, the Gemma 3 encoder as EmbeddingGemma uses it, a BERT with e5-style prompts left out of the
pooling, weighted-mean pooling on a decoder, mean + max at once, and the two models the app refuses (a static
model, a Router)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import torch

from tests.architectures import TRAINING_TEXTS, build

HIDDEN = 32
QWEN_PROMPTS = {"query": "Instruct: Given a question, retrieve passages that answer it\nQuery: ", "document": ""}
GEMMA_PROMPTS = {"query": "task: search result | query: ", "document": "title: none | text: ",
                 "Clustering": "task: clustering | query: "}
E5_PROMPTS = {"query": "query: ", "passage": "passage: "}
CLASSIFY_PROMPTS = {"classification": "Classify the topic: "}


def _bpe(folder: Path, *, bos: bool, padding_side: str) -> int:
    """A byte-level BPE tokenizer trained on a few texts that ends every text with an end-of-text token (and starts
    it with <bos> where `bos`), as decoder embedders' tokenizers do."""
    import transformers
    from tokenizers import ByteLevelBPETokenizer
    from tokenizers.processors import TemplateProcessing

    specials = ["<|endoftext|>", "<bos>", "<pad>"]
    raw = ByteLevelBPETokenizer()
    raw.train_from_iterator(TRAINING_TEXTS, vocab_size=400, special_tokens=specials)
    ids = {token: raw.token_to_id(token) for token in specials}
    single = ("<bos> " if bos else "") + "$A <|endoftext|>"
    raw.post_processor = TemplateProcessing(single=single, special_tokens=[(t, ids[t]) for t in specials[:2]])
    tokenizer = transformers.PreTrainedTokenizerFast(
        tokenizer_object=raw, eos_token="<|endoftext|>", bos_token="<bos>", pad_token="<pad>",
        padding_side=padding_side, model_max_length=128)
    tokenizer.save_pretrained(folder)
    return len(tokenizer)


def _network(folder: Path, config) -> None:
    from transformers import AutoModel

    torch.manual_seed(0)
    AutoModel.from_config(config).save_pretrained(folder)


def _qwen3(folder: Path) -> None:
    from transformers import Qwen3Config

    vocab = _bpe(folder, bos=False, padding_side="left")
    _network(folder, Qwen3Config(vocab_size=vocab, hidden_size=HIDDEN, num_hidden_layers=2, num_attention_heads=2,
                                 num_key_value_heads=1, head_dim=16, intermediate_size=64,
                                 max_position_embeddings=128, pad_token_id=2))


def _gemma3(folder: Path) -> None:
    from transformers import Gemma3TextConfig

    vocab = _bpe(folder, bos=True, padding_side="right")
    _network(folder, Gemma3TextConfig(vocab_size=vocab, hidden_size=HIDDEN, num_hidden_layers=2, num_attention_heads=2,
                                      num_key_value_heads=1, head_dim=16, intermediate_size=64,
                                      max_position_embeddings=128, sliding_window=8, pad_token_id=2,
                                      use_bidirectional_attention=True))


def _save(folder: Path, modules: Callable[[object], list], *, prompts: dict[str, str] | None = None,
          default_prompt_name: str | None = None) -> Path:
    from sentence_transformers import SentenceTransformer
    from sentence_transformers.sentence_transformer.modules import Transformer

    transformer = Transformer(str(folder))
    model = SentenceTransformer(modules=[transformer, *modules(transformer)], prompts=prompts,
                                default_prompt_name=default_prompt_name, device="cpu")
    model.save(str(folder))
    return folder


def _modules():
    from sentence_transformers.sentence_transformer import modules

    return modules


def qwen3_lasttoken(folder: Path) -> Path:
    m = _modules()
    _qwen3(folder)
    return _save(folder, lambda t: [m.Pooling(HIDDEN, "lasttoken"), m.Normalize()], prompts=QWEN_PROMPTS)


def qwen3_weightedmean(folder: Path) -> Path:
    m = _modules()
    _qwen3(folder)
    return _save(folder, lambda t: [m.Pooling(HIDDEN, "weightedmean")], prompts=QWEN_PROMPTS)


def embeddinggemma(folder: Path) -> Path:
    """Bidirectional Gemma 3, mean pooling, two Dense layers (32 → 128 → 32, as 768 → 3072 → 768), Normalize."""
    m = _modules()
    _gemma3(folder)
    torch.manual_seed(1)
    return _save(folder, lambda t: [m.Pooling(HIDDEN, "mean"),
                                    m.Dense(HIDDEN, 4 * HIDDEN, bias=False, activation_function=torch.nn.Identity()),
                                    m.Dense(4 * HIDDEN, HIDDEN, bias=False, activation_function=torch.nn.Identity()),
                                    m.Normalize()], prompts=GEMMA_PROMPTS)


def e5_bert(folder: Path) -> Path:
    """A BERT with e5-style query/passage prompts that its mean pooling leaves out (include_prompt false)."""
    m = _modules()
    build("bert", folder)
    return _save(folder, lambda t: [m.Pooling(HIDDEN, "mean", include_prompt=False), m.Normalize()],
                 prompts=E5_PROMPTS)


def mean_max_bert(folder: Path) -> Path:
    """Mean and max pooling concatenated, and a default prompt that every text gets."""
    m = _modules()
    build("bert", folder)
    return _save(folder, lambda t: [m.Pooling(HIDDEN, ("mean", "max"))], prompts=CLASSIFY_PROMPTS,
                 default_prompt_name="classification")


FIXTURES: dict[str, Callable[[Path], Path]] = {
    "qwen3-lasttoken": qwen3_lasttoken, "embeddinggemma": embeddinggemma, "e5-bert": e5_bert,
    "qwen3-weightedmean": qwen3_weightedmean, "mean-max-bert": mean_max_bert,
}


def static_model(folder: Path) -> Path:
    """A static-embedding model (sentence-transformers' StaticEmbedding, as model2vec makes them)."""
    from sentence_transformers import SentenceTransformer
    from tokenizers import Tokenizer

    from core.models.packages import packaged_minilm_folder

    m = _modules()
    tokenizer = Tokenizer.from_file(str(packaged_minilm_folder() / "tokenizer.json"))
    torch.manual_seed(0)
    static = m.StaticEmbedding(tokenizer, embedding_weights=torch.randn(tokenizer.get_vocab_size(), HIDDEN))
    SentenceTransformer(modules=[static], device="cpu").save(str(folder))
    return folder


def router_model(folder: Path) -> Path:
    """Different modules for queries and documents (sentence-transformers' Router)."""
    from sentence_transformers import SentenceTransformer
    from sentence_transformers.sentence_transformer.modules import Transformer

    m = _modules()
    build("bert", folder / "bert")
    query = [Transformer(str(folder / "bert")), m.Pooling(HIDDEN, "mean")]
    document = [Transformer(str(folder / "bert")), m.Pooling(HIDDEN, "cls")]
    SentenceTransformer(modules=[m.Router.for_query_document(query, document)], device="cpu").save(str(folder))
    return folder
