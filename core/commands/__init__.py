"""Each command module has `register(subparsers)`, which sets `run` on its parser."""

from core.commands import embed, models

COMMANDS = [models, embed]
