"""The dashboards' front end is one consistent set (issue 17 items 9 and 16).

Voilà's page loads every installed labextension. Its own widget manager
(``@voila-dashboards/widgets-manager8``) is built on a bundled
``@jupyter-widgets/jupyterlab-manager``; the kernel's ``ipywidgets`` installs another copy of
that package (``jupyterlab_widgets``), and module federation picks the newest of the two.
jupyterlab_widgets 3.0.17 (ipywidgets 8.1.9) won: its ``get_model`` waits up to 2 s for a
missing model instead of failing at once, so a widget view that asked before Voilà's
restore finished missed the "restored" signal and showed 「model not found」 for good
whenever a busy machine let the restore complete inside one of its 100 ms naps (the
gallery and diff sections of the cards page). The pins in pyproject.toml and
binder/requirements.txt keep the two copies the same version, and every shared JupyterLab
package a labextension asks for within what Voilà's core provides (no "Unsatisfied version"
warnings; the browser test ``test_no_unsatisfied_version_warnings`` checks the page)."""

from __future__ import annotations

import re
from pathlib import Path

from jupyterlab_server.config import get_federated_extensions
from voila.utils import get_voila_labextensions_path

MANAGER = "@jupyter-widgets/jupyterlab-manager"
VOILA_MANAGER = "@voila-dashboards/widgets-manager8"


def _extensions() -> dict[str, dict[str, str]]:
    found: dict[str, dict[str, str]] = get_federated_extensions(get_voila_labextensions_path())
    return found


def _bundled_version(ext: dict[str, str], package: str) -> str:
    """The version of ``package`` that a labextension provides to the shared scope
    (its webpack remoteEntry registers ``"package","version"``)."""
    static = Path(ext["ext_path"]) / "static"
    for entry in static.glob("remoteEntry.*.js"):
        m = re.search(re.escape(f'"{package}","') + r'(\d+\.\d+\.\d+)"', entry.read_text())
        if m:
            return m.group(1)
    raise AssertionError(f"{ext['name']} bundles no {package}")


def test_ipywidgets_manager_is_the_one_voila_bundles() -> None:
    exts = _extensions()
    assert MANAGER in exts and VOILA_MANAGER in exts
    assert exts[MANAGER]["version"] == _bundled_version(exts[VOILA_MANAGER], MANAGER)
