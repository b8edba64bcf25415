"""Benchmarks as ratios against an anchor measured in the same run (`make bench`). Importing the package sets the
environment every benchmark runs in, before any of the project's modules is imported."""

import os
import tempfile

os.environ.setdefault("EXPLORER_CACHE_DIR", tempfile.mkdtemp(prefix="explorer-bench-"))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("EXPLORER_WARM_UP", "0")  # no start-up work in the background while pages are timed
