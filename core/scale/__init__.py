"""Corpora beyond one machine: input files embedded on Ray Data (an optional extra, `make scale`)."""
