"""A hub model that a command names and the cache lacks downloads before the command loads it, with a progress line
on stderr: its size first (the hub's file list), then bytes done, the rate and the time left."""

from __future__ import annotations

import argparse
from typing import TextIO

from core.cli.progress_line import ProgressLine
from core.models.download import download
from core.models.sources import pending_download
from core.progress import bytes_progress_text

MODEL_OPTIONS = ("model", "rerank")  # the options that name a model to load: --model, and evaluate's --rerank


def download_named_models(args: argparse.Namespace, stream: TextIO) -> None:
    for option in MODEL_OPTIONS:
        model_id = getattr(args, option, None)
        revision = getattr(args, "revision", None) if option == "model" else None  # --revision is --model's
        repo = pending_download(model_id, revision) if isinstance(model_id, str) else None
        if repo is None:
            continue

        def text(done: int, total: int, elapsed: float, repo: str = repo) -> str:
            return f"Downloading {repo}: {bytes_progress_text(done, total, elapsed)}"

        line = ProgressLine(stream, describe=text)
        try:
            download(repo, line.update, revision)
        finally:
            line.close()
