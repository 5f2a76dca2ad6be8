"""Static checks on notebooks/*.ipynb; nbval (see pyproject.toml) executes them.

Notebooks stay thin (DESIGN.md): outputs cleared, no cell longer than ~15 lines.
"""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("*.ipynb"))
MAX_CELL_LINES = 15


def test_there_are_notebooks() -> None:
    assert any(path.name == "play.ipynb" for path in NOTEBOOKS)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.name)
def test_notebook_is_thin_and_clean(path: Path) -> None:
    notebook = nbformat.read(path, as_version=4)
    nbformat.validate(notebook)
    assert notebook.metadata.get("kernelspec", {}).get("name") == "python3"
    for index, cell in enumerate(notebook.cells):
        if cell.cell_type != "code":
            continue
        where = f"{path.name} cell {index}"
        assert not cell.outputs, f"{where}: clear outputs before committing"
        assert cell.execution_count is None, f"{where}: clear execution counts"
        lines = len(cell.source.splitlines())
        assert lines <= MAX_CELL_LINES, f"{where}: {lines} lines; move the code into throne_lib"
