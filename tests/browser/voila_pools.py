"""Giving a Voilà server preheated-kernel pools other than ``voila.json``'s: shared by
the browser tests' servers (``conftest.py``) and ``benchmarks/join_at_once.py`` (which
puts this folder on ``sys.path``).

``VoilaKernelManager.kernel_pools_config`` is a dict of dicts (notebook -> ``{"pool_size":
N}``). On the command line traitlets takes a dict only as a literal
(``--VoilaKernelManager.kernel_pools_config={...}``), deprecated since traitlets 5.0 (a
DeprecationWarning in every server's log), or as ``key=value`` items whose values stay
strings (Voilà then fails on ``"{...}".get``). So the pools go into a ``voila.json`` of
their own, in a folder searched before the repository root (``Voila.config_file_paths``,
first = highest priority; the list, given item by item, is the non-deprecated form):
that file's ``kernel_pools_config`` replaces the root's whole dict, as the literal did,
and every other setting still comes from the root's ``voila.json``.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from unittest import mock

ROOT = Path(__file__).resolve().parents[2]


def config_paths(env: Mapping[str, str] | None = None) -> list[str]:
    """Where Voilà looks for ``voila.json`` by default: its working directory (the
    repository root for these servers), then Jupyter's config path under ``env``."""
    from jupyter_core.paths import jupyter_config_path

    with mock.patch.dict(os.environ, dict(env if env is not None else os.environ), clear=True):
        return [str(ROOT), *jupyter_config_path()]


def pools_args(
    pools: Mapping[str, Any], folder: Path, env: Mapping[str, str] | None = None
) -> list[str]:
    """Voilà options giving the server ``pools`` as its ``kernel_pools_config``: writes
    ``folder/voila.json`` and puts ``folder`` first in the config search path."""
    folder.mkdir(parents=True, exist_ok=True)
    config = {"VoilaKernelManager": {"kernel_pools_config": dict(pools)}}
    (folder / "voila.json").write_text(json.dumps(config, indent=1) + "\n", encoding="utf-8")
    return [f"--Voila.config_file_paths={p}" for p in (str(folder), *config_paths(env))]
