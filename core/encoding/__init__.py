"""Texts to vectors: the encoder (every layer in one pass, then pooling) and the disk cache."""
