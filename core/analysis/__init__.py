"""What the vectors say: similarity, layers, attention, tokenization, search, lexical baselines and 2-D projection."""
