"""`python -m core COMMAND …`: the command line of core.cli."""

import sys

from core.cli import main

sys.exit(main())
