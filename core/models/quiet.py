"""transformers' loading reports and progress bars are for its own console users, not for this app's."""

from __future__ import annotations


def quiet_transformers() -> None:
    from transformers.utils import logging as hf_logging

    hf_logging.set_verbosity_error()  # e.g. "pooler newly initialized": sentence pooling never uses the pooler
    hf_logging.disable_progress_bar()
