"""Where many independent games run: local processes (the default) or a Ray cluster.

Both backends run the same thing: ``fn(shared, item)`` for every item of a list, where ``shared``
is the large input every game needs (a parsed campaign, the agent names...) and ``item`` is
small (a game index). Items go out in coarse chunks (many games per task) and results come back
as each chunk finishes; :func:`map_jobs` yields ``(index, result)`` pairs in completion order and
:func:`run_jobs` returns the results in item order. Every game is seeded from its own index, so
the results are identical whichever backend and however many workers ran them.

- ``"local"``: ``workers == 1`` plays in this process; more uses a ``multiprocessing`` pool of
  spawned processes, ``shared`` sent once to each process (the pool's initializer).
- ``"ray"`` (``pip install "factionsim[cluster]"``): ``shared`` is ``ray.put`` once, each chunk is
  one ``@ray.remote`` task, results are streamed with ``ray.wait``; at most ``workers`` tasks are
  in flight (``workers=None``: the cluster's CPUs). ``address`` is passed to ``ray.init`` (an
  existing cluster, ``"auto"``, ``"ray://head:10001"``); without it, and with no Ray running in
  this process, a local Ray instance is started. ``fn`` must be importable on the cluster's
  nodes (factionsim installed there, or shipped in a ``runtime_env``).

>>> run_jobs(_square_plus, [1, 2, 3], shared=10)
[11, 14, 19]
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Iterator, Sequence
from typing import Any

BACKENDS = ("local", "ray")

JobFn = Callable[[Any, Any], Any]


def _square_plus(shared: Any, item: Any) -> Any:  # the doctest's job
    return item * item + shared


def chunk_size(n_items: int, workers: int, per_worker: int = 4) -> int:
    """Items per task: about ``per_worker`` tasks per worker (coarse tasks, still balanced).

    >>> chunk_size(1000, 2), chunk_size(3, 2), chunk_size(0, 2)
    (125, 1, 1)
    """
    return max(1, math.ceil(n_items / max(1, workers * per_worker)))


def _chunks(items: Sequence[Any], size: int) -> list[tuple[list[int], list[Any]]]:
    out = []
    for start in range(0, len(items), size):
        idx = list(range(start, min(start + size, len(items))))
        out.append((idx, [items[i] for i in idx]))
    return out


def _run_chunk(fn: JobFn, shared: Any, chunk: tuple[list[int], list[Any]]) -> list[tuple[int, Any]]:
    idx, items = chunk
    return [(i, fn(shared, item)) for i, item in zip(idx, items, strict=True)]


# ----------------------------------------------------------------------------- local processes
_WORKER: dict[str, Any] = {}


def _pool_init(fn: JobFn, shared: Any) -> None:
    _WORKER["fn"], _WORKER["shared"] = fn, shared


def _pool_chunk(chunk: tuple[list[int], list[Any]]) -> list[tuple[int, Any]]:
    return _run_chunk(_WORKER["fn"], _WORKER["shared"], chunk)


def _map_local(fn: JobFn, items: Sequence[Any], shared: Any, workers: int,
               size: int) -> Iterator[list[tuple[int, Any]]]:
    chunks = _chunks(items, size)
    if workers <= 1 or len(chunks) <= 1:
        for chunk in chunks:
            yield _run_chunk(fn, shared, chunk)
        return
    import multiprocessing as mp

    with mp.get_context("spawn").Pool(min(workers, len(chunks)), initializer=_pool_init,
                                      initargs=(fn, shared)) as pool:
        yield from pool.imap_unordered(_pool_chunk, chunks)


# ----------------------------------------------------------------------------- ray
_REMOTE: Any = None


def ray_init(address: str | None = None, **kwargs: Any) -> Any:
    """Connect to Ray once per process (``address``: an existing cluster); returns the module."""
    try:
        import ray
    except ImportError:
        from factionsim.core.game import FactionsimError

        raise FactionsimError('the ray backend needs Ray: pip install "factionsim[cluster]"') from None
    if not ray.is_initialized():
        kwargs.setdefault("include_dashboard", False)
        kwargs.setdefault("log_to_driver", False)
        if address is None and os.environ.get("RAY_ADDRESS") is None:
            kwargs.setdefault("num_cpus", os.cpu_count())
        ray.init(address=address, **kwargs)
    return ray


def _remote_chunk(ray: Any) -> Any:
    global _REMOTE
    if _REMOTE is None:
        _REMOTE = ray.remote(num_cpus=1, max_retries=2)(_run_chunk)
    return _REMOTE


def _map_ray(fn: JobFn, items: Sequence[Any], shared: Any, workers: int | None, size: int | None,
             address: str | None) -> Iterator[list[tuple[int, Any]]]:
    ray = ray_init(address)
    task = _remote_chunk(ray)
    if workers is None:  # every CPU of the cluster (not of this machine)
        workers = max(1, int(ray.cluster_resources().get("CPU", 1)))
    shared_ref = ray.put(shared)  # once, however many tasks read it
    fn_ref = ray.put(fn)
    todo = _chunks(items, size or chunk_size(len(items), workers))[::-1]
    pending: list[Any] = []
    try:
        while todo or pending:
            while todo and len(pending) < workers:
                pending.append(task.remote(fn_ref, shared_ref, todo.pop()))
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                yield ray.get(ref)
    finally:
        for ref in pending:  # an interrupted stream does not leave work running
            ray.cancel(ref)


# ----------------------------------------------------------------------------- entry points
def map_jobs(fn: JobFn, items: Sequence[Any], *, shared: Any = None, backend: str = "local",
             workers: int | None = 1, address: str | None = None,
             chunk: int | None = None) -> Iterator[tuple[int, Any]]:
    """Yield ``(index, fn(shared, items[index]))`` as results arrive (completion order)."""
    if backend not in BACKENDS:
        from factionsim.core.game import FactionsimError

        raise FactionsimError(f"unknown backend {backend!r}; choose from {', '.join(BACKENDS)}")
    items = list(items)
    if not items:
        return
    if backend == "local":
        workers = workers or os.cpu_count() or 1
        stream = _map_local(fn, items, shared, workers, chunk or chunk_size(len(items), workers))
    else:
        stream = _map_ray(fn, items, shared, workers, chunk, address)
    for results in stream:
        yield from results


def run_jobs(fn: JobFn, items: Sequence[Any], *, shared: Any = None, backend: str = "local",
             workers: int | None = 1, address: str | None = None, chunk: int | None = None,
             progress: Callable[[], None] | None = None) -> list[Any]:
    """All results, in item order; ``progress()`` is called once per finished item."""
    out: dict[int, Any] = {}
    for i, r in map_jobs(fn, items, shared=shared, backend=backend, workers=workers,
                         address=address, chunk=chunk):
        out[i] = r
        if progress is not None:
            progress()
    return [out[i] for i in range(len(out))]
