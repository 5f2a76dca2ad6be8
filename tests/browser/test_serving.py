"""Serving the dashboards (issue 17): a closed page stops its kernel, and no request
leaves localhost (Voilà's lab template links Font Awesome on a CDN; the "throne"
template of voila.json drops those links)."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from typing import Any
from urllib.parse import urlparse

import pytest
from playwright.sync_api import Browser, Page, expect

pytestmark = pytest.mark.browser

RENDER_TIMEOUT_MS = 120_000
PAGES = 10
GONE_TIMEOUT_S = 30.0


def kernel_alive(base: str, kernel_id: str) -> bool:
    try:
        with urllib.request.urlopen(f"{base}api/kernels/{kernel_id}", timeout=5):
            return True
    except urllib.error.HTTPError as error:
        if error.code == 404:
            return False
        raise


def kernel_of(page: Page) -> str:
    cfg = json.loads(page.locator("#jupyter-config-data").text_content() or "{}")
    kernel_id: str = cfg["kernelId"]
    return kernel_id


def test_closing_pages_stops_their_kernels(
    voila_url: Callable[[str], str], browser: Browser
) -> None:
    """Ten pages open (ten kernels), ten pages closed: the kernels stop within seconds,
    not at the 900 s idle cull."""
    base = voila_url("notebooks/index.ipynb")
    context = browser.new_context(locale="zh-CN")
    try:
        pages = [context.new_page() for _ in range(PAGES)]
        for page in pages:  # all ten start at once
            page.goto(base, wait_until="commit")
        kernels = []
        for page in pages:
            expect(page.locator("#tp-link-play")).to_be_visible(timeout=RENDER_TIMEOUT_MS)
            page.wait_for_function("window.__tpHelpers === true")
            kernels.append((page, kernel_of(page)))
        assert len({k for _, k in kernels}) == PAGES
        assert all(kernel_alive(base, k) for _, k in kernels)  # the count went up to 10
        for page, _ in kernels:
            page.close()
        deadline = time.monotonic() + GONE_TIMEOUT_S
        alive = [k for _, k in kernels]
        while alive and time.monotonic() < deadline:
            time.sleep(0.5)
            alive = [k for k in alive if kernel_alive(base, k)]
        assert not alive, f"{len(alive)} of {PAGES} kernels still running"
    finally:
        context.close()


def test_no_request_leaves_localhost(voila_url: Callable[[str], str], page: Page) -> None:
    outside: list[str] = []
    failed: list[str] = []
    page.on(
        "request",
        lambda r: (
            outside.append(r.url)
            if urlparse(r.url).hostname not in ("127.0.0.1", "localhost", None)
            and not r.url.startswith(("data:", "blob:"))
            else None
        ),
    )
    page.on("requestfailed", lambda r: failed.append(r.url))
    page.goto(voila_url("notebooks/index.ipynb"))
    expect(page.locator("#tp-link-play")).to_be_visible(timeout=RENDER_TIMEOUT_MS)
    page.wait_for_load_state("networkidle")
    assert outside == [] and failed == []


def test_pages_skip_the_labextensions_they_do_not_use(
    voila_url: Callable[[str], str], page: Page
) -> None:
    """The play page names ipydatagrid, bqplot and bqscales as unused (notebook metadata,
    read by the "throne" template): none of their JavaScript is fetched (1.6 MB less to
    parse before the first widget); the card editor, which shows a DataGrid, still gets
    them."""
    fetched: list[str] = []
    page.on("request", lambda r: fetched.append(urlparse(r.url).path))

    def loaded(name: str) -> bool:
        return any(path.startswith(f"/voila/labextensions/{name}/") for path in fetched)

    page.goto(voila_url("notebooks/play.ipynb"))
    expect(page.locator(".tp-match canvas").first).to_be_visible(timeout=RENDER_TIMEOUT_MS)
    page.wait_for_load_state("networkidle")
    assert loaded("ipycanvas") and loaded("@jupyter-widgets/jupyterlab-manager")
    assert not loaded("ipydatagrid") and not loaded("bqplot") and not loaded("bqscales")
    fetched.clear()
    page.goto(voila_url("notebooks/cards.ipynb"))
    expect(page.locator(".throne-gallery canvas")).to_be_visible(timeout=RENDER_TIMEOUT_MS)
    page.wait_for_load_state("networkidle")
    assert loaded("ipydatagrid") and loaded("bqplot")


def test_pages_load_no_mathjax_and_no_pygments(voila_url: Callable[[str], str], page: Page) -> None:
    """No dashboard shows math or code, so pages load neither Voilà's MathJax 3 nor
    jupyterlab_pygments: the throne template points Voilà's typesetter at
    static/no-mathjax.js (a MathJax that typesets nothing) and voila.json denies the
    pygments extension. Before, every load fetched ~0.5 MB of MathJax chunks (18
    requests with pygments') and ran MathJax over each label. A "$" in a label stays
    text."""
    fetched: list[str] = []
    page.on("request", lambda r: fetched.append(urlparse(r.url).path))
    page.goto(voila_url("notebooks/cards.ipynb"))
    expect(page.locator(".throne-gallery canvas")).to_be_visible(timeout=RENDER_TIMEOUT_MS)
    page.wait_for_load_state("networkidle")
    assert "/voila/templates/throne/static/no-mathjax.js" in fetched
    assert not any(path.startswith("/voila/labextensions/jupyterlab_pygments/") for path in fetched)
    mathjax = page.evaluate(
        "({stub: !!(window.MathJax && window.MathJax.Hub && !window.MathJax.version),"
        " typeset: document.querySelectorAll('mjx-container, .MathJax').length})"
    )
    assert mathjax == {"stub": True, "typeset": 0}


def _colours(png: bytes) -> int:
    """How many colours a screenshot holds (1: nothing drawn)."""
    import io

    from PIL import Image

    image = Image.open(io.BytesIO(png)).convert("RGB")
    return len(image.getcolors(maxcolors=image.width * image.height) or [])


def test_pages_fetch_the_front_end_as_bundles(voila_url: Callable[[str], str], page: Page) -> None:
    """The Voilà server builds one script of the chunks every page fetched and one per
    JupyterLab extension (throne_serving.bundles); the template loads them before
    voila.js. The cards page (every extension) then fetches no chunk on its own: of
    Voilà's static files only voila.js, of each extension only its remoteEntry — 20
    requests instead of 140, page not counted (docs/ui.md, *Page load*). The pages still work: no page
    error, and ipycanvas draws (the gallery, the castle table: a chunk bundled that no
    page had fetched once left the table blank)."""
    fetched: list[str] = []
    errors: list[str] = []
    page.on("request", lambda r: fetched.append(urlparse(r.url).path))
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(voila_url("notebooks/cards.ipynb"))
    gallery = page.locator(".throne-gallery canvas").first
    expect(gallery).to_be_visible(timeout=RENDER_TIMEOUT_MS)
    page.wait_for_load_state("networkidle")
    bundles = {p.rsplit("/", 1)[-1] for p in fetched if "/throne/static/bundles/" in p}
    assert {"core.js", "ipycanvas.js", "ipydatagrid.js", "bqplot.js", "bqscales.js"} <= bundles
    own = [p for p in fetched if p.startswith("/voila/static/")]
    assert own == ["/voila/static/voila.js"]
    chunks = [
        p for p in fetched if p.startswith("/voila/labextensions/") and "/remoteEntry." not in p
    ]
    assert chunks == []
    gallery.scroll_into_view_if_needed()
    assert _colours(gallery.screenshot()) > 10
    page.goto(voila_url("notebooks/castle.ipynb"))
    table = page.locator(".castle-table").first
    expect(table).to_be_visible(timeout=RENDER_TIMEOUT_MS)
    page.wait_for_load_state("networkidle")
    drawn = _drawn(table)
    assert drawn > 10, f"the castle table stayed blank ({drawn} colours); page errors: {errors}"
    assert errors == []


def _drawn(locator: Any, seconds: float = 30.0) -> int:
    """The colours of ``locator``'s screenshot once it has more than 10, or after
    ``seconds``: the castle table is drawn by the kernel after the page is idle, later
    on a loaded machine (a fixed 0.5 s wait failed once in CI); a table left blank
    stays at 1 colour and fails the caller's assert."""
    deadline = time.monotonic() + seconds
    while True:
        n = _colours(locator.screenshot())
        if n > 10 or time.monotonic() > deadline:
            return n
        time.sleep(0.5)


VERSION_WARNINGS = ("Unsatisfied version", "No satisfying version")
# ipydatagrid 1.4.0's front end was built for a newer JupyterLab and for bqplot's 0.5 front
# end; no pin clears these two: bqplot ~0.5 (Python 0.12) needs pandas < 3 or lumino 1
# (two warnings instead of one), and older ipydatagrid releases are untested here.
KNOWN_WARNINGS = (
    "of shared singleton module bqplot (required ~0.5)",
    "of shared singleton module @jupyterlab/apputils (required ^4.4.3)",
)


def test_no_unsatisfied_version_warnings(voila_url: Callable[[str], str], page: Page) -> None:
    """Every labextension's shared packages are satisfied by Voilà's front end (issue 17
    item 16): the pins of pyproject.toml and binder/ keep ipywidgets' own widget manager
    (jupyterlab_widgets), bqplot (for ipydatagrid) and Voilà's JupyterLab core in step.
    The cards page loads every labextension (ipydatagrid, bqplot, ipycanvas), so it
    covers them all. Only ipydatagrid's two known ones (:data:`KNOWN_WARNINGS`) are let through;
    there were 15 with Voilà 0.5.13 and ipywidgets 8.1.9."""
    warnings: list[str] = []
    page.on(
        "console",
        lambda m: (
            warnings.append(m.text)
            if any(w in m.text for w in VERSION_WARNINGS)
            and not any(k in m.text for k in KNOWN_WARNINGS)
            else None
        ),
    )
    page.goto(voila_url("notebooks/cards.ipynb"))
    expect(page.locator(".throne-gallery canvas")).to_be_visible(timeout=RENDER_TIMEOUT_MS)
    page.wait_for_load_state("networkidle")
    assert not warnings, "\n".join(warnings)
