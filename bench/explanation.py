"""The exact token-pair explanation against an encode of the pair, and integrated gradients against it."""

from __future__ import annotations

from bench.common import Row, best_of
from core.models.loading import load_model
from core.models.packages import packaged_minilm_folder


def bench_explanation(rows: list[Row]) -> None:
    from sentence_transformers import SentenceTransformer

    from core.analysis.attribution import attribute_pair
    from core.analysis.explanation import explain_pair, reference_texts

    model = load_model("all-MiniLM-L6-v2", "cpu")
    reference = SentenceTransformer(str(packaged_minilm_folder()), device="cpu")
    a = ("A man in a red jacket is playing an old acoustic guitar on a small wooden stage in front of a quiet "
         "crowd of students tonight.")
    b = ("Someone performs a slow song with a guitar for an attentive audience at a little concert hall in town "
         "late in the evening.")
    tokens = [len(ids) for ids in model.tokenizer([a, b])["input_ids"]]
    explain_pair(model, a, b, reference=reference_texts())  # warm: the reference texts are encoded once
    exact = best_of(lambda: explain_pair(model, a, b, reference=reference_texts()), 5)
    encoded = best_of(lambda: reference.encode([a, b]), 5)
    rows.append(Row(f"Exact token-pair explanation of two texts ({tokens[0]} and {tokens[1]} tokens), every token's "
                    "states encoded and split", f"{exact * 1000:.0f} ms", f"sentence-transformers encode of the pair: "
                    f"{encoded * 1000:.0f} ms", f"{exact / encoded:.1f}× an encode (goal: under 100 ms)",
                    raw={"exact_s": exact, "encode_s": encoded, "tokens_a": tokens[0], "tokens_b": tokens[1]}))
    for layer in (model.num_layers // 2, 0):
        ig = best_of(lambda layer=layer: attribute_pair(model, a, b, attribution_layer=layer, steps=32), 1)
        rows.append(Row(f"Integrated gradients, 32 steps, both texts, attributed at layer {layer}", f"{ig:.2f} s",
                        f"exact explanation: {exact * 1000:.0f} ms", f"{ig / exact:,.0f}× the exact one",
                        raw={"integrated_gradients_s": ig, "exact_s": exact, "layer": layer}))
