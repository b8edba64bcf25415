"""Each command module has `register(subparsers)`, which sets `run` on its parser."""

from core.commands import embed, evaluate, finetune, models

COMMANDS = [models, embed, evaluate, finetune]
