"""What every browser test checks of a page it opened: no cell printed a Python error."""

from __future__ import annotations

from typing import Any

# a cell's output on stderr (a warning or a traceback printed) or an error output
ERROR_OUTPUT = (
    '[data-mime-type="application/vnd.jupyter.stderr"], '
    '[data-mime-type="application/vnd.jupyter.error"]'
)


def assert_no_error_output(page: Any) -> None:
    """The page shows no error output; the failure quotes what it shows."""
    errors = page.locator(ERROR_OUTPUT)
    assert errors.count() == 0, errors.all_inner_texts()
