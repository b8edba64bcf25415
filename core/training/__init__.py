"""Fine-tuning with sentence-transformers' trainer."""
