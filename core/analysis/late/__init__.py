"""Late interaction (ColBERT, every MultiVectorEncoder) over token vectors: MaxSim over a corpus (maxsim), a pair's
alignment and score (alignment), a query's exact search (search), the FAISS token index (index), a hit's token
matches (matches), the Similarity matrix (similarity), map points (points) and what a corpus stores (storage)."""
