"""The play widget's top bar (R-UI-4, R-END-2) and the AI's tempo (R-AI-3)."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import pytest

from throne_lib.games.throne.cards import CardDB
from throne_lib.games.throne.scenario import load_scenario
from throne_lib.games.throne.ui import widget as widget_module
from throne_lib.games.throne.ui.widget import TEMPO_MS, MatchWidget
from throne_lib.kit.agents import RandomAgent

RED_TO_MOVE = """
seed 3
round 4
turn red
first red
side blue general=lionheart mana=5
side red general=beast_king mana=5
unit b2 blue militia_camp
unit f5 red wolf_den
"""


def test_top_bar_shows_round_tempo_toggle_and_tower_entry_R_UI_4_R_END_2(db: CardDB) -> None:
    m = load_scenario(RED_TO_MOVE.replace("turn red", "turn blue"), db)
    w = MatchWidget(m, RandomAgent(1), ai_mode="manual")
    assert re.search(r"第 4/40 回合 · 打满按血量结算", w.info.value)
    assert w.tempo.description == "节奏"
    assert [label for label, _ in w.tempo.options] == ["标准", "快速", "逐步"]
    assert "爬塔" in w.tower.value and "tower.ipynb" in w.tower.value


@pytest.mark.parametrize("tempo", ["standard", "fast"])
def test_ai_actions_wait_the_chosen_tempo_R_AI_3(
    db: CardDB, tempo: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """标准 120–150 ms per AI action, 快速 50–70 ms: every delay the AI loop draws lies
    in the tempo's range, and the loop waits it out (asyncio.sleep, never blocking)."""
    m = load_scenario(RED_TO_MOVE, db)
    w = MatchWidget(m, RandomAgent(1), human=0, tempo=tempo, ai_mode="manual")
    drawn: list[float] = []
    real_uniform = w._rng.uniform

    def uniform(a: float, b: float) -> float:
        value = real_uniform(a, b)
        drawn.append(value)
        return value

    slept: list[float] = []

    async def fake_sleep(seconds: float, *args: Any) -> None:
        slept.append(seconds)

    monkeypatch.setattr(w._rng, "uniform", uniform)
    monkeypatch.setattr(widget_module.asyncio, "sleep", fake_sleep)
    asyncio.run(w._ai_loop())
    low, high = TEMPO_MS[tempo]
    assert m.turn == 0  # the AI played its whole turn
    assert len(drawn) >= 1 and all(low <= d <= high for d in drawn)
    action_sleeps = slept[: len(drawn)]
    assert all(0 <= s <= high / 1000 for s in action_sleeps)


def test_step_mode_waits_for_next_and_lights_the_ai_trail(db: CardDB) -> None:
    """逐步: the AI acts only on 「下一步」; each action is flashed and listed in the prompt
    line, and after its turn the cells it touched stay lit (follow the AI)."""
    m = load_scenario(RED_TO_MOVE, db)
    w = MatchWidget(m, RandomAgent(1), human=0, tempo="step", ai_mode="manual")
    w.ready = True

    async def run() -> int:
        task = asyncio.get_running_loop().create_task(w._ai_loop())
        steps = 0
        for _ in range(200):
            await asyncio.sleep(0.01)
            if task.done():
                break
            if w._step.is_set():
                continue
            before = len(m.history)
            await asyncio.sleep(0.05)
            assert len(m.history) == before  # nothing happens without 「下一步」
            assert w.step_btn.layout.display != "none" and not w.step_btn.disabled
            w.step_btn.click()
            steps += 1
        await task
        return steps

    steps = asyncio.run(run())
    assert m.turn == 0 and steps >= 1
    assert w.ai_lines and w.ai_lines[0] in w.status.value
    assert set(w.flash) == set(w.ai_trail)
