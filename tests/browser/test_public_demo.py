"""The published demo: a Binder-style environment built from ``binder/`` only (the
way repo2docker would, without Docker) serves the home page with Voilà; a visitor
clicks into the play dashboard and sees the board. And with the public-demo settings
a failing cell shows the friendly panel, never a traceback."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import venv
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import nbformat
import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

RENDER_TIMEOUT_MS = 120_000
ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "tests" / "artifacts"


@pytest.fixture(scope="module")
def binder_bin(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh virtual environment from binder/ files only: requirements.txt installs
    the pinned dependencies and the project itself (its `-e .` line), as repo2docker
    does from the repository root. runtime.txt names the Python it expects."""
    runtime = (ROOT / "binder" / "runtime.txt").read_text().strip()
    assert runtime == f"python-{sys.version_info.major}.{sys.version_info.minor}", runtime
    env_dir = tmp_path_factory.mktemp("binder-env") / "venv"
    venv.create(env_dir, with_pip=True)
    pip = [str(env_dir / "bin" / "python"), "-m", "pip", "install", "--quiet"]
    # Binder compiles the engine with mypyc like any install (setup.py, docs/speed.md).
    # Here `-e .` would rebuild it in place, rewriting the extension modules this test
    # run's own servers have loaded: install pure Python instead; an in-place build that
    # the test environment's install made is used as it is.
    done = subprocess.run(
        [*pip, "-r", "binder/requirements.txt"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        env={**os.environ, "THRONE_COMPILE": "0"},
    )
    assert done.returncode == 0, (
        f"pip install -r binder/requirements.txt failed:\n{done.stderr[-3000:]}"
    )
    probe = subprocess.run(
        [
            str(env_dir / "bin" / "python"),
            "-c",
            "import throne_lib, sys; print(throne_lib.__file__)",
        ],
        cwd="/",
        capture_output=True,
        text=True,
    )
    assert probe.returncode == 0, probe
    assert Path(probe.stdout.strip()).parent == ROOT / "throne_lib", probe.stdout  # `-e .`
    return env_dir / "bin"


@pytest.fixture(scope="module")
def binder_server(binder_bin: Path, voila_server: Any) -> Iterator[str]:
    server = voila_server("notebooks", bin_dir=binder_bin, show_tracebacks=False)
    try:
        server.wait_ready()
        yield server.url
    finally:
        server.stop()


def test_binder_environment_serves_home_and_play(binder_server: str, page: Page) -> None:
    page.goto(binder_server + "voila/render/index.ipynb")
    link = page.locator("#tp-link-play")
    expect(link).to_be_visible(timeout=RENDER_TIMEOUT_MS)
    for name in ("tower", "cards", "replay", "balance"):
        expect(page.locator(f"#tp-link-{name}")).to_be_visible()
    page.screenshot(path=str(ARTIFACTS / "demo_home.png"), full_page=True)
    link.click()
    page.wait_for_url("**/voila/render/play.ipynb", timeout=30_000)
    # The page opens on a board at once (the last or default settings); the deck choice
    # is behind 换将领/牌组, and starting from it gives a new board.
    setup = page.locator("button.tp-setup-btn")
    expect(setup).to_be_visible(timeout=RENDER_TIMEOUT_MS)
    expect(page.locator(".tp-match canvas").first).to_be_visible(timeout=RENDER_TIMEOUT_MS)
    setup.click()
    start = page.locator("button.tp-start")
    expect(start).to_be_visible()
    start.click()
    expect(page.locator(".tp-match canvas").first).to_be_visible(timeout=RENDER_TIMEOUT_MS)
    expect(page.get_by_text("打满按血量结算").first).to_be_visible()
    page.wait_for_timeout(1000)
    page.screenshot(path=str(ARTIFACTS / "demo_play_from_home.png"), full_page=True)
    assert page.locator(".tp-error").count() == 0


@pytest.fixture
def failing_notebook() -> Iterator[str]:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / "failing_demo.ipynb"
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    nb.cells = [
        nbformat.v4.new_code_cell(
            "from throne_lib.ui.demo import install_error_panel\ninstall_error_panel()"
        ),
        nbformat.v4.new_code_cell("raise RuntimeError('deliberate failure for the test')"),
    ]
    nbformat.write(nb, path)
    yield str(path.relative_to(ROOT))
    path.unlink(missing_ok=True)


def test_failing_cell_shows_the_friendly_panel_not_a_traceback(
    failing_notebook: str, page: Page, voila_server: Any
) -> None:
    server = voila_server(failing_notebook, show_tracebacks=False)
    try:
        server.wait_ready()
        page.goto(server.url)
        panel = page.locator(".tp-error")
        expect(panel).to_be_visible(timeout=RENDER_TIMEOUT_MS)
        expect(panel).to_contain_text("抱歉")
        expect(panel).to_contain_text("RuntimeError: deliberate failure for the test")
        body = page.content()
        assert "Traceback" not in body and "raise RuntimeError" not in body
        page.screenshot(path=str(ARTIFACTS / "demo_error_panel.png"), full_page=True)
        assert "Traceback (most recent call last)" in server.log_tail(200)  # it went to the log
    finally:
        server.stop()


def test_voila_json_has_public_demo_settings() -> None:
    cfg = json.loads((ROOT / "voila.json").read_text())
    assert cfg["VoilaConfiguration"]["strip_sources"] is True
    assert cfg["VoilaConfiguration"]["show_tracebacks"] is False
    assert cfg["MappingKernelManager"]["cull_idle_timeout"] > 0
