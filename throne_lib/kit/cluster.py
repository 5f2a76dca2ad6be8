"""How the kit's parallel runs (:mod:`throne_lib.kit.sim`'s batches, the ladder, the
balance search's evaluator) spread their matches: the backends, the command-line options
that choose one, and a Dask client of the cluster at a scheduler's address or a local one."""

from __future__ import annotations

import argparse
import contextlib
from collections.abc import Iterator
from typing import Any

BACKENDS = ("process", "dask", "serial")


def add_backend_options(p: argparse.ArgumentParser) -> None:
    """``--backend``, ``--workers`` and ``--scheduler``, the same in every command that
    runs matches in parallel (``simulate``, ``ladder``, ``balance suggest/verify``)."""
    p.add_argument("--backend", default="process", choices=BACKENDS)
    p.add_argument("--workers", type=int, default=None, help="default: all cores")
    p.add_argument("--scheduler", default=None, help="Dask scheduler address")


@contextlib.contextmanager
def dask_client(workers: int, scheduler: str | None = None) -> Iterator[Any]:
    """A ``distributed.Client`` of the cluster at ``scheduler``, or (None) of a local
    cluster on 127.0.0.1 with ``workers`` single-threaded workers (processes when more
    than one, no dashboard); the client, and a local cluster, are closed on exit."""
    from distributed import Client, LocalCluster

    cluster = None
    if scheduler is None:
        cluster = LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            host="127.0.0.1",
            protocol="tcp",
            dashboard_address=None,
            processes=workers > 1,
        )
    client = Client(cluster if cluster is not None else scheduler)
    try:
        yield client
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
