"""Whether this process may unpickle model files: only when the GM said so on the command line.

A stable-baselines3 ``.zip`` keeps parts of the model as Python pickles, and unpickling runs
whatever code the file's author put there. factionsim therefore loads such a file only inside
:func:`trusting_pickled_models` — entered by the commands that play (``run``, ``turn``,
``batch``, ``tournament``, ``validate``, ``train --eval-only``) when ``--trust-model`` is given —
never because a campaign file names one. Worker processes and Ray tasks inherit the decision
through :func:`carry_trust` (their job function is wrapped with it).

>>> pickled_models_trusted()
False
>>> with trusting_pickled_models():
...     pickled_models_trusted()
True
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

_TRUSTED = [False]


def pickled_models_trusted() -> bool:
    return _TRUSTED[0]


@contextmanager
def trusting_pickled_models(enabled: bool = True) -> Iterator[None]:
    """Within the block, ``policy:FILE.zip`` loads (``enabled=False``: no change)."""
    before = _TRUSTED[0]
    _TRUSTED[0] = before or bool(enabled)
    try:
        yield
    finally:
        _TRUSTED[0] = before


def _trusted_job(fn: Callable[[Any, Any], Any], shared: Any, item: Any) -> Any:
    with trusting_pickled_models():
        return fn(shared, item)


def carry_trust(fn: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
    """``fn`` as a job for :mod:`factionsim.backends`, trusting pickled models in the worker when
    this process trusts them now (a picklable wrapper); otherwise ``fn`` itself."""
    return functools.partial(_trusted_job, fn) if pickled_models_trusted() else fn


def add_trust_argument(parser: Any) -> None:
    """``--trust-model`` on a command that plays (argparse)."""
    parser.add_argument(
        "--trust-model", action="store_true",
        help="allow agent policy:FILE.zip to load a stable-baselines3 zip. Such a file holds "
        "Python pickles and loading it runs whatever code its author put in it: use this only "
        "for files you made or trust (never needed for policy .json files or agent trained)")
