"""What the vectors say: similarity, layers, attention, tokenization, search and 2-D projection."""
