"""Every code block of docs/guide.md runs, in order, in a scratch folder."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
GUIDE = ROOT / "docs" / "guide.md"
BLOCK = re.compile(r"^```(python|bash)\n(.*?)^```", re.S | re.M)
NOT_RUN = ("python3 dev.py",)  # the README's own commands: running them here would recurse


def blocks() -> list[tuple[str, str]]:
    return [(lang, code) for lang, code in BLOCK.findall(GUIDE.read_text(encoding="utf-8"))]


def test_the_guide_has_code_blocks() -> None:
    kinds = {lang for lang, _ in blocks()}
    assert kinds == {"python", "bash"} and len(blocks()) >= 10


def test_every_code_block_of_the_guide_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shutil.copy(ROOT / "cards.csv", tmp_path / "cards.csv")
    monkeypatch.chdir(tmp_path)
    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    namespace: dict[str, object] = {}
    ran = 0
    for n, (lang, code) in enumerate(blocks(), start=1):
        if lang == "bash":
            if any(line.startswith(NOT_RUN) for line in code.splitlines()):
                continue
            done = subprocess.run(
                ["bash", "-euo", "pipefail", "-c", code],
                cwd=tmp_path,
                env=env,
                capture_output=True,
                text=True,
                stdin=subprocess.DEVNULL,
                timeout=600,
            )
            assert done.returncode == 0, (
                f"guide block {n} (bash) failed:\n{code}\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
            )
        else:
            exec(compile(textwrap.dedent(code), f"guide block {n}", "exec"), namespace)  # noqa: S102
        ran += 1
    assert ran >= 10
