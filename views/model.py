"""Model page: architecture facts, parameters per module, sentence-transformers modules, tokenizer playground, and
the models downloaded from the Hugging Face hub."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from core.analysis.similarity import limit_problems
from core.analysis.tokenization import special_tokens, tokenize_text, unknown_spans
from core.deployment import load_config
from core.models.anatomy import facts_frame, model_facts, parameter_breakdown, sentence_transformers_modules
from core.models.loading import LoadedModel
from ui.components.downloads import csv_download
from ui.components.hub_origin import origin_view
from ui.components.sidebar import page
from ui.kinds import views_of
from ui.pages.downloaded_models import downloaded_view
from ui.state.persist import kept

SAMPLE = "Tokenizers split unbelievably rare words; naïve café 🤖 and 東京 show what happens to the rest."


def architecture(model: LoadedModel) -> None:
    st.header("Architecture")
    facts, parameters = st.columns([2, 3])
    with facts:
        table = facts_frame(model_facts(model))
        st.table(table)
        st.caption("What the loaded network is: depth, widths, heads, positions, vocabulary and pooling.")
        csv_download(table, f"{model.model_id}-facts.csv", key="model_facts_csv")
    with parameters:
        breakdown = parameter_breakdown(model)
        st.dataframe(breakdown, hide_index=True, column_config={
            "parameters": st.column_config.NumberColumn(format="localized"),
            "share": st.column_config.ProgressColumn(format="percent", min_value=0.0, max_value=1.0)})
        st.caption(f"Parameters per module ({breakdown['parameters'].sum():,} in all): the bar is each module's "
                   "share. The word-embedding table is often the largest part of a small encoder; the pooler is "
                   "not used by sentence pooling.")
        csv_download(breakdown, f"{model.model_id}-parameters.csv", index=False, key="model_params_csv")
    modules = sentence_transformers_modules(model)
    st.subheader("Sentence-transformers modules")
    if modules:
        st.dataframe(pd.DataFrame(modules), hide_index=True)
        st.caption(f"The pipeline sentence-transformers runs, in order: the transformer, then "
                   f"{views_of(model).modules_sentence}.")
    else:
        st.caption("This model has no modules.json: it is a plain transformer checkpoint, so the app pools its "
                   "token vectors itself (mean by default).")


def playground(model: LoadedModel, max_length: int) -> None:
    st.header("Tokenizer playground")
    typed = kept(st.text_area, "Text to tokenize", key="model_text", url=True, default=SAMPLE, height=100)
    (text,), problems = limit_problems([typed], load_config())
    for problem in problems:
        st.warning(problem)
    if not text.strip():
        st.info("Type a text above to see how the tokenizer splits it.")
        return
    tokenizer = model.tokenizer
    tokenized = tokenize_text(tokenizer, text, max_length)
    table = tokenized.table
    whole, seen, vocab, limit = st.columns(4)
    whole.metric("Tokens in the text", f"{tokenized.length:,}", help="Including the special tokens.")
    seen.metric("Tokens the model sees", f"{len(table):,}", help="Cut at the max length.")
    vocab.metric("Vocabulary size", f"{len(tokenizer):,}")
    limit.metric("Max length (sidebar)", max_length)
    if tokenized.truncated:
        st.warning(f"The text has {tokenized.length:,} tokens, more than the max length of {max_length}: the model "
                   f"sees only the first {max_length} (shown below). Raise the max length in the sidebar, up to "
                   "the model's maximum positions.")
    st.dataframe(table, column_config={"special": st.column_config.CheckboxColumn()})
    st.caption("One row per token: the piece the model sees (## marks a word continued), its vocabulary id, "
               "attention mask (1 = attended), token type id (which text of a pair), and the character span of "
               "the typed text it came from.")
    csv_download(table, "tokens.csv", key="model_tokens_csv")
    st.markdown("**Decoded from the ids**")
    st.code(tokenized.decoded, language=None, wrap_lines=True)
    if tokenized.normalized is not None and tokenized.normalized != text:
        st.markdown("**After the tokenizer's normaliser** (before splitting)")
        st.code(tokenized.normalized, language=None, wrap_lines=True)
    unknown = unknown_spans(tokenized, tokenizer.unk_token)
    st.subheader("Unknown characters")
    if unknown:
        st.write(f"{len(unknown)} piece(s) of this text are not in the vocabulary and became "
                 f"{tokenizer.unk_token} (id {tokenizer.unk_token_id}); the model cannot tell them apart:")
        st.code(" · ".join(unknown), language=None)
    else:
        st.write("Every character of this text is in the vocabulary (try an emoji or a rare script).")
    st.caption("A WordPiece vocabulary spells most words from pieces; only characters it has never seen become "
               "the unknown token. An uncased model lowercases and strips accents first, so 'Café' and "
               "'cafe' are the same tokens.")
    st.subheader("Special tokens")
    specials = special_tokens(tokenizer)
    st.dataframe(specials, hide_index=True)
    st.caption("Tokens the tokenizer adds or uses for structure, with their ids and what each is for.")
    csv_download(specials, "special-tokens.csv", index=False, key="model_specials_csv")


def main() -> None:
    settings, model = page("Model")
    origin_view(model, f"{model.model_id}: {model.entry.description}")
    if model.entry.untrained:
        st.warning("This model has random weights: the same architecture as MiniLM-L6, without any training.")
    views = views_of(model)
    views.model_first(model, settings)
    architecture(model)
    views.model_last(model)
    playground(model, model.token_limit(settings.max_length))
    downloaded_view(model)


main()
