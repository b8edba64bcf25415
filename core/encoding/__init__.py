"""Texts to vectors: the encoder (every layer in one pass), pooling, the in-memory memo and the disk cache."""
