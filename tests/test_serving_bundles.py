"""throne_serving.bundles: the webpack chunks of Voilà's front end as one script per
bundle, and the template partial that loads them (the browser side is
tests/browser/test_serving.py::test_pages_fetch_the_front_end_as_bundles)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from throne_serving import bundles

CHUNK = b'"use strict";(self.webpackChunkx=self.webpackChunkx||[]).push([[%d],{%d:()=>{}}]);'


def _front_end(tmp: Path) -> tuple[Path, dict[str, Path]]:
    core = tmp / "voila-static"
    core.mkdir()
    (core / "voila.js").write_bytes(b"/* the runtime */")
    for c in bundles.CORE_CHUNKS[:3]:
        (core / f"{c}.voila.js").write_bytes(CHUNK % (int(c), int(c)))
    ext = tmp / "ipycanvas" / "static"
    ext.mkdir(parents=True)
    (ext / "remoteEntry.b3a35f7d09c1698e7380.js").write_bytes(b"var _JUPYTERLAB;")
    licensed = b"/*! For license information please see 287.js.LICENSE.txt */\n(self.webpackChunkipycanvas=[]).push([[287],{}]);"
    (ext / "287.f6e45b75014d924a8e77.js").write_bytes(licensed)
    # ipycanvas' ./index chunk: no page fetched it (loaded ahead it blanked the castle table)
    (ext / "509.94b5c681c7259af8ec75.js").write_bytes(CHUNK % (509, 509))
    (ext / "style.js").write_bytes(
        b"/* This is a generated file of CSS imports */\nimport './base.css';"
    )
    (ext / "worker.js").write_bytes(b"self.onmessage = () => {};")
    return core, {"ipycanvas": ext, "@jupyter-widgets/jupyterlab-manager": tmp / "missing"}


def test_only_recorded_webpack_chunks_go_in(tmp_path: Path) -> None:
    assert bundles.is_chunk(CHUNK % (1, 1))
    assert bundles.is_chunk(
        b"/*! licence */\n(self.webpackChunkipycanvas=self.w||[]).push([[1],{}])"
    )
    assert not bundles.is_chunk(b"var _JUPYTERLAB;(()=>{})()")  # a remoteEntry runs code
    assert not bundles.is_chunk(b"self.onmessage = () => {};")  # a worker
    core, exts = _front_end(tmp_path)
    plan = bundles.plan(core, exts)
    assert [p.name for p in plan["core"]] == [f"{c}.voila.js" for c in bundles.CORE_CHUNKS[:3]]
    # the recorded chunk only: no remoteEntry, style module, worker, or unrecorded chunk
    assert [p.name for p in plan["ipycanvas"]] == ["287.f6e45b75014d924a8e77.js"]
    assert "jupyter-widgets--jupyterlab-manager" not in plan  # not installed


def test_an_upgraded_extension_is_not_bundled(tmp_path: Path) -> None:
    """Chunk files named with another hash (an upgrade): nothing of them goes in."""
    ext = tmp_path / "static"
    ext.mkdir()
    (ext / "287.0000000000000000000.js").write_bytes(CHUNK % (287, 287))
    assert bundles.plan(None, {"ipycanvas": ext}) == {}


def test_each_chunk_runs_in_its_own_function(tmp_path: Path) -> None:
    """One chunk's "use strict" must not make the next one strict: each is wrapped."""
    core, exts = _front_end(tmp_path)
    source = bundles.bundle_source(bundles.plan(core, exts)["core"])
    assert source.count(b"(function () {\n") == 3 and source.count(b"\n})();\n") == 3
    assert not source.startswith(b'"use strict"')


def test_build_writes_bundles_and_the_partial_once(tmp_path: Path) -> None:
    core, exts = _front_end(tmp_path)
    template = tmp_path / "throne"
    built = bundles.build(template, core, exts)
    assert built == {"core": 3, "ipycanvas": 1}
    (template / "static" / "bundles" / "gone.js").write_text("an uninstalled extension's")
    partial = (template / bundles.PARTIAL).read_text()
    assert 'resources.include_js("static/bundles/core.js")' in partial
    assert '{%- if "ipycanvas" in tp_loaded %}' in partial  # only when the page loads it
    assert "jupyterlab-manager" not in partial
    js = template / "static" / "bundles" / "ipycanvas.js"
    mtime = js.stat().st_mtime_ns
    bundles.build(template, core, exts)
    assert js.stat().st_mtime_ns == mtime  # unchanged content is not rewritten
    assert not (template / "static" / "bundles" / "gone.js").exists()


def test_without_voila_no_partial(tmp_path: Path) -> None:
    """No Voilà bundle found: no partial, so the template includes nothing."""
    template = tmp_path / "throne"
    (template).mkdir()
    (template / bundles.PARTIAL).write_text("stale")
    assert bundles.build(template, tmp_path / "nothing", {}) == {}
    assert not (template / bundles.PARTIAL).exists()


def test_safe_names() -> None:
    assert (
        bundles.safe_name("@jupyter-widgets/jupyterlab-manager")
        == "jupyter-widgets--jupyterlab-manager"
    )
    assert bundles.safe_name("ipycanvas") == "ipycanvas"


def test_importing_outside_voila_builds_nothing() -> None:
    """Tests and tools import the connection class without building bundles."""
    code = "import sys, throne_serving; print('voila.app' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
