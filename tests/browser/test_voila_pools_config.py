"""The pools a test server (or ``benchmarks/join_at_once.py``) gives Voilà reach its
kernel manager without traitlets' DeprecationWarning for a dict literal on the command
line, and every other setting still comes from the repository's ``voila.json``. No
browser: Voilà's own option parsing and config loading, in this process."""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

import pytest
from voila_pools import ROOT, pools_args


def voila_config(argv: list[str]) -> Any:
    """The config a ``voila`` started with ``argv`` (from the repository root) loads."""
    from voila.app import Voila

    app = Voila()
    app.parse_command_line(argv)
    app.load_config_file("voila", path=app.config_file_paths)
    return app.config


def pools_of(cfg: Any) -> Any:
    """``kernel_pools_config`` as Voilà's kernel manager takes it: traitlets converts a
    command-line value only then (with the trait's ``from_string_list``)."""
    from jupyter_server.services.kernels.kernelmanager import MappingKernelManager
    from traitlets.config.loader import DeferredConfig
    from voila.voila_kernel_manager import voila_kernel_manager_factory

    value = cfg.VoilaKernelManager.kernel_pools_config
    if isinstance(value, DeferredConfig):
        manager = voila_kernel_manager_factory(MappingKernelManager, True, 0)
        value = value.get_value(manager.class_traits()["kernel_pools_config"])
    return value


def test_pools_reach_voila_without_a_deprecation_warning(tmp_path: Path) -> None:
    pools = {"default": {"pool_size": 0}, "goofspiel.ipynb": {"pool_size": 1}}
    argv = [str(ROOT / "notebooks"), "--port=1", *pools_args(pools, tmp_path / "cfg")]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a DeprecationWarning fails the test
        cfg = voila_config(argv)
        assert pools_of(cfg) == pools  # the whole dict, replacing voila.json's
    root = json.loads((ROOT / "voila.json").read_text(encoding="utf-8"))
    assert cfg.VoilaKernelManager.fill_delay == root["VoilaKernelManager"]["fill_delay"]
    assert cfg.VoilaConfiguration.template == root["VoilaConfiguration"]["template"] == "throne"
    assert cfg.VoilaConfiguration.preheat_kernel is True
    assert cfg.Voila.kernel_websocket_connection_class == "throne_serving.KernelConnection"


def test_a_dict_literal_is_what_traitlets_deprecates() -> None:
    """Why the pools are not on the command line: the form used before warns."""
    literal = '--VoilaKernelManager.kernel_pools_config={"default": {"pool_size": 0}}'
    cfg = voila_config([str(ROOT / "notebooks"), literal])
    with pytest.warns(DeprecationWarning, match="for dict-traits is deprecated"):
        assert pools_of(cfg) == {"default": {"pool_size": 0}}
