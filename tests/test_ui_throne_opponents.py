"""Throne's play page: 「对手」 with 信息集搜索's think time (issue 32 item 6). The time
chosen reaches the agent from the next 新对局; the status line says 「AI 思考中…」 while
the search is to run (not while 逐步 waits for 「下一步」); the search runs in the AI
task's worker thread, so the kernel's event loop keeps serving the page."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

from throne_lib import CardDB
from throne_lib.games.throne.ui.app import THINK_S, PlayApp
from throne_lib.games.throne.ui.widget import MatchWidget
from throne_lib.kit.ismcts import IsmctsAgent


def _to_ai_turn(w: MatchWidget) -> None:
    """The human (blue) plays its first legal actions until the AI is to act."""
    for _ in range(50):
        if w._ai_to_move():
            return
        w.ctrl.apply(w.match.legal_actions()[0])
    raise AssertionError("the AI never came to act")


def _ismcts_page(db: CardDB, think: float, **kwargs: object) -> PlayApp:
    app = PlayApp(db, ai_mode="manual", rules="quick", **kwargs)  # type: ignore[arg-type]
    assert app.choose("agent", "ismcts") and app.choose("think", think)
    return app


def test_every_kit_agent_is_offered_with_ismcts_at_a_small_default_think_time(
    db: CardDB,
) -> None:
    app = PlayApp(db, ai_mode="manual")
    offered = [v for _, v in app.agent.options]
    assert {"random", "standard", "ismcts"} <= set(offered) and app.agent.value == "standard"
    assert app.think.value == THINK_S <= 0.5 and app.think.layout.display == "none"
    w = app.start()
    assert w is not None and app.opponents in w.buttons.children  # beside 新对局
    assert not isinstance(w.agent, IsmctsAgent) and w.thinking == ""
    app.agent.value = "ismcts"
    assert app.think.layout.display == ""  # the slider shows for 信息集搜索 only


def test_think_time_reaches_the_agent_from_the_next_match(db: CardDB) -> None:
    app = _ismcts_page(db, 0.2)
    w = app.start(seed=3)
    assert w is not None and isinstance(w.agent, IsmctsAgent)
    assert w.agent.seconds == 0.2 and w.agent.game == "throne" and w.agent_name == "信息集搜索 AI"
    app.think.value = 1.2  # used from the next 新对局, not by the running match
    assert w.agent.seconds == 0.2
    app.new_btn.click()
    assert app.match_widget is not None and app.match_widget is not w
    assert isinstance(app.match_widget.agent, IsmctsAgent)
    assert app.match_widget.agent.seconds == 1.2
    assert not app.choose("think", 30.0) and not app.choose("think", True)
    assert app.think.value == 1.2  # refused values change nothing


def test_status_says_the_ai_thinks_and_its_search_plays(db: CardDB) -> None:
    app = _ismcts_page(db, 0.1)
    w = app.start(seed=5)
    assert w is not None
    _to_ai_turn(w)
    w.refresh()
    assert "AI 思考中" in w.status.value and "0.1 秒" in w.status.value
    assert 'data-thinking="1"' in w.status.value
    w.click_cell("d1")  # refused: the reason, and still that the AI thinks
    assert "对手的回合" in w.status.value and "AI 思考中" in w.status.value
    while w._ai_to_move() and len(w.match.legal_actions()) < 2:
        w.ai_step()
    assert w._ai_to_move(), "the AI has a choice to search"
    w._think()  # what the AI task runs in its worker thread
    chosen = w._chosen
    assert chosen in w.match.legal_actions() and w.agent.stats["iterations"] > 0
    before = len(w.match.history)
    assert w.ai_step() == chosen and w.match.history[before] == chosen
    while w._ai_to_move():
        w.ai_step()
    w.refresh()
    assert "思考中" not in w.status.value and 'data-thinking="0"' in w.status.value


def test_no_thinking_while_step_mode_waits_for_the_next_step(db: CardDB) -> None:
    app = _ismcts_page(db, 0.1)
    w = app.start(seed=5)
    assert w is not None
    _to_ai_turn(w)
    w.tempo.value = "step"

    async def gate() -> None:
        waiting = asyncio.ensure_future(w._gate())
        await asyncio.sleep(0.01)
        assert "下一步" in w.status.value and 'data-thinking="0"' in w.status.value
        w.step_btn.click()
        assert await waiting
        assert "AI 思考中" in w.status.value  # it searches now

    asyncio.run(gate())


def test_the_search_leaves_the_event_loop_free(db: CardDB) -> None:
    """The AI task awaits the search in a worker thread: while it runs, other work on
    the kernel's loop (a click, a redraw) goes on."""
    app = _ismcts_page(db, 0.3)
    w = app.start(seed=5)
    assert w is not None
    _to_ai_turn(w)
    while len(w.match.legal_actions()) < 2:
        w.ai_step()
    w.ai_mode = "async"
    w.ready = True
    w.ai.delay = lambda: 0.0
    ticks: list[float] = []

    async def main() -> None:
        before = len(w.match.history)
        w._maybe_start_ai()
        assert w.ai.task is not None
        while len(w.match.history) == before:  # until the AI's first action lands
            ticks.append(time.perf_counter())
            await asyncio.sleep(0.01)
        w.stop_ai()

    asyncio.run(main())
    assert len(ticks) >= 10  # ≥ 0.1 s of a 0.3 s search served the loop every 10 ms


def test_the_think_time_is_remembered_with_the_other_choices(db: CardDB, tmp_path: Path) -> None:
    settings = tmp_path / "play_settings.json"
    app = _ismcts_page(db, 0.8, settings=settings)
    assert app.start() is not None
    saved = json.loads(settings.read_text(encoding="utf-8"))
    assert saved["agent"] == "ismcts" and saved["think"] == 0.8
    again = PlayApp(db, ai_mode="manual", autostart=True, settings=settings)
    w = again.match_widget
    assert w is not None and isinstance(w.agent, IsmctsAgent) and w.agent.seconds == 0.8
    settings.write_text(json.dumps({**saved, "think": "fast"}), encoding="utf-8")
    stale = PlayApp(db, ai_mode="manual", autostart=True, settings=settings)
    assert stale.think.value == THINK_S  # a stale value keeps the default
