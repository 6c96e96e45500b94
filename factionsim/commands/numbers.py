"""Whole-number command-line options with their bounds (argparse types).

A bad value is refused by argparse itself: exit code 2 and a usage line naming the option, never
a traceback later (a negative ``--seed`` reached numpy and crashed there).

>>> SEED("7"), whole(1, 8)("4")
(7, 4)
>>> SEED("-1")
Traceback (most recent call last):
...
argparse.ArgumentTypeError: must be a whole number from 0 to 18446744073709551615 (got '-1')
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

from factionsim.core.fields import MAX_SEED


def whole(lo: int, hi: int) -> Callable[[str], int]:
    """An argparse ``type``: a whole number from ``lo`` to ``hi``."""

    def parse(text: str) -> int:
        try:
            n = int(text) if len(text) <= 40 else None
        except ValueError:
            n = None
        if n is None or not lo <= n <= hi:
            raise argparse.ArgumentTypeError(f"must be a whole number from {lo} to {hi} "
                                             f"(got {text[:40]!r})")
        return n

    parse.__name__ = "whole number"  # what argparse names in "invalid ... value"
    return parse


#: ``--seed``: what numpy's generators take as one 64-bit word
SEED = whole(0, MAX_SEED)
