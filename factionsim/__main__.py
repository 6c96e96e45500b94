"""``python -m factionsim``: the command line."""

import sys

from factionsim.cli import main

sys.exit(main())
