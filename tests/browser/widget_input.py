"""Typing into ipywidgets controls from Playwright: shared by the browser tests and
``benchmarks/screenshots.py`` (which puts this folder on ``sys.path``)."""

from __future__ import annotations

from typing import Any


def set_slider(page: Any, label: str, value: int) -> None:
    """Type ``value`` into the editable readout of the slider whose label is ``label``
    and wait until the readout shows it (the widget took the value)."""
    slider = page.locator(".widget-slider", has=page.get_by_text(label, exact=True))
    readout = slider.locator(".widget-readout")
    readout.click()
    page.keyboard.press("Control+A")
    page.keyboard.type(str(value))
    page.keyboard.press("Enter")
    page.wait_for_function(
        "([el, v]) => el.textContent.trim() === v",
        arg=[readout.element_handle(), str(value)],
    )
