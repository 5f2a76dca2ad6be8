"""One script per bundle for the chunks of Voilà's front end that every page fetches.

Voilà's JavaScript comes as webpack chunks, each its own request: every dashboard page
fetched the same 56 chunks of Voilà's own bundle (2.6 MB) and 4–19 per JupyterLab
extension, 85–123 requests per load. On this 2-core machine a request costs Chromium
~5 ms of CPU (browser process, network service, renderer) and the server ~0.7 ms,
whatever its size: 100 chunks fetched one by one took 0.71 CPU-s of Chromium, the same
bytes as one script 0.23 (``docs/ui.md``, *Page load*).

A webpack chunk is a script that pushes its modules onto a global array
(``(self.webpackChunkX = self.webpackChunkX || []).push([[ids], {modules}])``); the
runtime takes every chunk already pushed when it starts and fetches only the others.
So a script of the chunks, loaded before Voilà's ``voila.js``, makes the page fetch
none of them: :func:`build` writes ``static/bundles/core.js`` (the chunks of Voilà's
bundle in :data:`CORE_CHUNKS`, the set every page fetched, recorded with
``benchmarks/page_load_probe.py``) and one ``static/bundles/<extension>.js`` per
JupyterLab extension of :data:`EXTENSION_CHUNKS` (the chunk files pages fetched, named
with their content hash; its ``remoteEntry`` still loads on its own, as Voilà starts
it), into the ``throne`` template, and ``bundles.html.j2``, which
the template includes before ``voila.js``: the script tags of the core bundle and of
the extensions the page loads (after its ``skip_labextensions``). A chunk the page
needs that no bundle holds (a Voilà upgrade, a panel opened later) is fetched as
before; without ``bundles.html.j2`` (never built) pages load as before.

Only chunks the pages fetched anyway go in: a chunk loaded ahead that a page never
asked for can change what it runs (all of ipycanvas' chunks, with the one of its
``./index`` module, left the castle table blank: "Cannot read properties of undefined
(reading 'clearCanvas')"). So the core list holds for Voilà :data:`VOILA_VERSION` only
(its chunk files carry no hash), and an extension's files are named with their hash: an
upgrade bundles less until the lists are recorded again, never something else. Each
chunk runs in a function of its own: the bundle stays one script without letting one
chunk's ``"use strict"`` change how another runs. Only files that are webpack chunks go
in (a worker or style module is left out).

The Voilà server imports this package at start (``voila.json``'s connection class),
which builds the bundles when the installed files changed (:func:`ensure_built`).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import re
import tempfile
from collections.abc import Iterable
from pathlib import Path

LOG = logging.getLogger("throne.bundles")

TEMPLATE = (
    Path(__file__).resolve().parents[1] / "share" / "jupyter" / "voila" / "templates" / "throne"
)
PARTIAL = "bundles.html.j2"
BUNDLE_DIR = "static/bundles"

# The chunks of Voilà 0.5.8's own bundle that each dashboard page fetched (index, play,
# castle, cities, cards, pin_cards, replay, castle_replay, tower, balance: the same 56),
# recorded 2026-12-03 with benchmarks/page_load_probe.py ("core_chunks").
CORE_CHUNKS = (
    "1187", "143", "1601", "1621", "1670", "2930", "3144", "3249", "3307", "3311",
    "3459", "3649", "3916", "3989", "3992", "4041", "4135", "4173", "4222", "431",
    "457", "4653", "4729", "4972", "5044", "5312", "5688", "5764", "5767", "6008",
    "6049", "630", "6382", "6468", "6573", "7155", "73", "7483", "7556", "7598",
    "7770", "7883", "8017", "8135", "8487", "8766", "8773", "8862", "8925", "9081",
    "9151", "9212", "9582", "9684", "9890", "9981",
)  # fmt: skip

# The chunks of each extension that the pages fetched (cards and pin_cards: all six;
# castle, play, index: ipycanvas and the two widget managers), recorded with the core's.
EXTENSION_CHUNKS: dict[str, tuple[str, ...]] = {
    "@jupyter-widgets/jupyterlab-manager": (
        "327.8166aeb81cf1531ca240.js",
        "420.063e2ee9f71033206b1f.js",
        "439.33696bc45fbd403becbb.js",
        "446.bf169bd3821a9ba1aa62.js",
        "586.5a62b313f9ec1d9df348.js",
        "651.fe40a967a60b543cf15c.js",
        "722.3fefeac9cae358348cbc.js",
        "727.2abc0b27bd0932fb5f81.js",
    ),
    "@voila-dashboards/widgets-manager8": (
        "264.95d855dc9ed80b79c78e.js",
        "324.aa49bd5aec16839cc9e0.js",
        "496.45f50ff8111515264be7.js",
        "603.9866b69497a4a124e57f.js",
        "651.d9c6fa52270ea21fdf9e.js",
        "883.bbe30bf61f3074749dda.js",
    ),
    "bqplot": (
        "147.995621b367d712db6a42.js",
        "467.4caeb68b3b052790671a.js",
        "501.6c13f92ce49688bde790.js",
        "568.ca3cef0d68ed10611ed4.js",
        "662.b8660bb103af4c7debb1.js",
        "815.df2a018ca7cb187ff4f5.js",
        "830.a063e0f474933b3600ec.js",
        "87.2329d3e645b83e1204d6.js",
        "981.7a1ccc069cbc4b318b98.js",
    ),
    "bqscales": (
        "122.16ac989f5773078d8eea.js",
        "394.6542f2fcc498509a0868.js",
        "695.2ec5fb469072625443f2.js",
        "765.1c9d1d79113d9572c734.js",
        "779.1cfd286805b812820807.js",
        "801.3c0ed7e6dcdc0e9bd56b.js",
        "830.ddefedf960cfb46b7626.js",
        "884.ce7bb8cb406e6c345993.js",
    ),
    "ipycanvas": (
        "122.798ec8c3ecacb9105364.js",
        "287.f6e45b75014d924a8e77.js",
        "796.5d8779b08f270682c51f.js",
        "819.e29285b5a637c25adceb.js",
    ),
    "ipydatagrid": (
        "145.ad38ff5c5895617bd74b.js",
        "195.c19e8dda60c9f3d0cc04.js",
        "197.c6a9817ee38c7ec335bd.js",
        "249.40f6e1a1f8301d4262f5.js",
        "30.234eff684ff775094acb.js",
        "300.5908152178539727a5c7.js",
        "358.b55adab425e5c59ccdad.js",
        "372.06c784cba6f39697a906.js",
        "38.36144db13a6996481117.js",
        "535.5806754b6196034ec70b.js",
        "536.85479e504f0cb415afbd.js",
        "542.aca71031a8675faef99b.js",
        "59.41da8c17de511b26b30e.js",
        "595.271a9ddf1bb242989eeb.js",
        "646.bf41b08c79710974ae35.js",
        "673.aade23886d1847c62f49.js",
        "70.52c1214beeee1f63a5bf.js",
        "841.199a9bcc20a8a5dc79d1.js",
    ),
}
VOILA_VERSION = "0.5.8"  # the Voilà whose chunk ids CORE_CHUNKS names

# A webpack 5 JSONP chunk: an optional licence comment, "use strict", then the push.
_CHUNK = re.compile(rb'\A\s*(?:/\*.*?\*/\s*)?(?:"use strict";\s*)?\(self\.webpackChunk', re.S)


def is_chunk(source: bytes) -> bool:
    """Whether ``source`` is a webpack JSONP chunk (pushes modules, runs nothing)."""
    return _CHUNK.match(source[:2000]) is not None


def bundle_source(chunks: Iterable[Path]) -> bytes:
    """The chunks as one script, each in a function of its own."""
    parts = []
    for path in chunks:
        parts.append(b"(function () {\n" + path.read_bytes() + b"\n})();\n")
    return b"".join(parts)


def safe_name(extension: str) -> str:
    """A file name for an extension's bundle: ``@jupyter-widgets/jupyterlab-manager``
    -> ``jupyter-widgets--jupyterlab-manager``."""
    return re.sub(r"[^A-Za-z0-9_.-]", "-", extension.lstrip("@").replace("/", "--"))


def voila_static() -> Path | None:
    """The folder Voilà serves ``/voila/static/`` from (its ``base`` template's static)."""
    from jupyter_core.paths import jupyter_path

    for folder in jupyter_path("voila", "templates", "base", "static"):
        if (Path(folder) / "voila.js").is_file():
            return Path(folder)
    return None


def _voila_version() -> str:
    from voila import __version__

    return str(__version__)


def labextensions() -> dict[str, Path]:
    """Installed JupyterLab extensions Voilà serves: name -> their ``static`` folder."""
    from jupyterlab_server.config import get_federated_extensions
    from voila.utils import get_voila_labextensions_path

    found = get_federated_extensions(get_voila_labextensions_path())
    return {name: Path(data["ext_path"]) / "static" for name, data in sorted(found.items())}


def plan(core: Path | None, extensions: dict[str, Path]) -> dict[str, list[Path]]:
    """Bundle name -> the chunk files it holds: the recorded ones that are installed."""
    out: dict[str, list[Path]] = {}
    if core is not None:
        files = [core / f"{c}.voila.js" for c in CORE_CHUNKS]
        found = [f for f in files if f.is_file() and is_chunk(f.read_bytes())]
        if found:
            out["core"] = found
    for name, static in extensions.items():
        files = [static / f for f in EXTENSION_CHUNKS.get(name, ())]
        chunks = [f for f in files if f.is_file() and is_chunk(f.read_bytes())]
        if chunks:
            out[safe_name(name)] = chunks
    return out


def partial_source(extensions: dict[str, str]) -> str:
    """``bundles.html.j2``: the core bundle's script tag and, for each extension the
    page loads (``page_config.federated_extensions``), its bundle's."""
    lines = [
        "{#- Written by throne_serving.bundles (do not edit): the chunks of Voilà's",
        "    front end as one script per bundle, before voila.js. -#}",
        '{%- set tp_loaded = page_config["federated_extensions"] | map(attribute="name")'
        " | list -%}",
        f'{{{{ resources.include_js("{BUNDLE_DIR}/core.js") }}}}',
    ]
    for name, file in sorted(extensions.items()):
        lines.append(
            f"{{%- if {json.dumps(name)} in tp_loaded %}}"
            f'{{{{ resources.include_js("{BUNDLE_DIR}/{file}.js") }}}}{{% endif -%}}'
        )
    return "\n".join(lines) + "\n"


def _write(path: Path, data: bytes) -> bool:
    """Write ``data`` to ``path`` atomically unless it holds it already."""
    if path.is_file() and path.read_bytes() == data:
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.chmod(tmp, 0o644)  # served files, as the rest of the template
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return True


def build(
    template: Path = TEMPLATE,
    core: Path | None = None,
    extensions: dict[str, Path] | None = None,
) -> dict[str, int]:
    """Write the bundles into ``template``'s ``static/bundles/`` and its
    ``bundles.html.j2``; bundle name -> chunks in it. Without ``core`` or ``extensions``,
    the installed ones (:func:`voila_static`, :func:`labextensions`)."""
    if extensions is None:
        extensions = labextensions()
    if core is None:
        core = voila_static() if _voila_version() == VOILA_VERSION else None
    chunks = plan(core, extensions)
    partial = template / PARTIAL
    if "core" not in chunks:  # no Voilà bundle found: pages load as Voilà ships them
        partial.unlink(missing_ok=True)
        return {}
    for name, files in chunks.items():
        _write(template / BUNDLE_DIR / f"{name}.js", bundle_source(files))
    for old in (template / BUNDLE_DIR).glob("*.js"):  # an extension no longer installed
        if old.stem not in chunks:
            old.unlink()
    names = {ext: safe_name(ext) for ext in extensions if safe_name(ext) in chunks}
    _write(partial, partial_source(names).encode())
    return {name: len(files) for name, files in chunks.items()}


def sources_digest() -> str:
    """A digest of the installed files the bundles are built from (paths, sizes, times)."""
    h = hashlib.sha256()
    folders = [voila_static(), *labextensions().values()]
    for folder in folders:
        if folder is None or not folder.is_dir():
            continue
        for p in sorted(folder.glob("*.js")):
            st = p.stat()
            h.update(f"{p}:{st.st_size}:{st.st_mtime_ns}\n".encode())
    h.update(repr(CORE_CHUNKS).encode())
    h.update(Path(__file__).read_bytes())
    return h.hexdigest()


def ensure_built(template: Path = TEMPLATE) -> None:
    """Build the bundles unless they were built from the same installed files; a
    failure (a read-only checkout) is logged and leaves pages loading as before."""
    stamp = template / BUNDLE_DIR / "sources.sha256"
    try:
        digest = sources_digest()
        if (template / PARTIAL).is_file() and stamp.is_file() and stamp.read_text() == digest:
            return
        built = build(template)
        if built:
            _write(stamp, digest.encode())
        LOG.info("page bundles: %s", built)
    except Exception as error:  # noqa: BLE001 - the server must start anyway
        LOG.warning("could not build the page bundles (pages load unbundled): %r", error)
        with contextlib.suppress(OSError):
            (template / PARTIAL).unlink(missing_ok=True)
