"""Data: STS-B, corpora, uploads, training pairs, example sets, export."""
