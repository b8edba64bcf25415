"""Late interaction's encoding: texts to token vectors by the model's own encode_query / encode_document (tokens),
many texts as one matrix with offsets (matrix), and its memory-mapped disk cache (cache)."""
