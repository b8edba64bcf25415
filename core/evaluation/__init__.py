"""Scores on benchmark data: metrics equal to sentence-transformers' evaluators, STS and retrieval tasks."""
