"""「对手」 on the play pages (issue 32 item 6): the scripted agent or ISMCTS with a think
time; the search runs in the AI's worker-thread hook and the status line says the AI is
thinking."""

from __future__ import annotations

from throne_lib.games.castle.agents import ScriptedAgent
from throne_lib.games.castle.ui.app import CastleApp
from throne_lib.games.cities.ui.app import CitiesApp
from throne_lib.kit.ismcts import IsmctsAgent
from throne_lib.kit.ui.opponents import OpponentPicker


def test_picker_builds_the_chosen_agent_and_shows_the_slider_for_ismcts() -> None:
    p = OpponentPicker("castle")
    assert not p.searching and p.seconds.layout.display == "none"
    assert isinstance(p.agent(3, 1, ScriptedAgent), ScriptedAgent)
    p.kind.value = "ismcts"
    p.seconds.value = 0.3
    assert p.searching and p.seconds.layout.display == "" and p.name == "ismcts"
    agent = p.agent(3, 1, ScriptedAgent)
    assert isinstance(agent, IsmctsAgent) and agent.seconds == 0.3 and agent.game == "castle"
    assert "思考" in p.thinking() and "0.3" in p.thinking()


def test_castle_page_plays_ismcts_opponents_and_says_it_thinks() -> None:
    app = CastleApp(players=4, seed=3, tempo=0)
    app.opponents.kind.value = "ismcts"
    app.opponents.seconds.value = 0.1
    app.ai.mode = "manual"
    app.tempo = 1.0  # keep the AI from playing at once: this test steps it
    app.schedule_ai = lambda: None  # type: ignore[method-assign]
    app.new_match()
    assert all(isinstance(a, IsmctsAgent) for a in app.agents)
    assert app.ai.think is not None
    for _ in range(200):  # to the first AI decision with a choice
        if app._ai_to_move() and len(app.match.legal_actions()) > 1:
            break
        if app._ai_to_move():
            app.ai_step()
        else:
            app.press(app.match.legal_actions()[0])
    app.refresh()
    assert "AI 思考中" in app.status.value and 'data-thinking="1"' in app.status.value
    chosen = app.ai.think()
    assert chosen in app.match.legal_actions()
    app.ai.chosen = chosen
    before = len(app.match.actions)
    assert app.ai_step() and app.match.actions[before] == chosen


def test_cities_page_builds_ismcts_for_cities() -> None:
    app = CitiesApp(players=3, seed=2, tempo=0)
    app.opponents.kind.value = "ismcts"
    app.schedule_ai = lambda: None  # type: ignore[method-assign]
    app.new_match()
    assert {a.game for a in app.agents} == {"cities"}


def test_pin_board_plays_ismcts_and_says_it_thinks() -> None:
    from throne_lib.games.pin.ui.app import pin_app
    from throne_lib.games.pin.ui.widget import PinBoard
    from throne_lib.kit import registry

    assert any(isinstance(c, OpponentPicker) for c in pin_app(ai_mode="manual").children)
    picker = OpponentPicker("pin")
    picker.kind.value = "ismcts"
    picker.seconds.value = 0.1
    m = registry.get("pin").new(seed=4)
    while len(m.legal_actions()) < 2:
        m.apply(m.legal_actions()[0])
    board = PinBoard(m, human=1 - m.current_seat, ai_mode="manual", opponents=picker)
    assert isinstance(board.agent, IsmctsAgent) and board.ai.think is not None
    assert "思考中" in board.status.value
    chosen = board.ai.think()
    assert chosen in m.legal_actions()
    board.ai.chosen = chosen
    before = len(m.history)
    board._ai_step()
    assert m.history[before] == chosen


def test_picker_offers_a_games_own_agents_and_thinks_only_for_ismcts() -> None:
    from throne_lib.kit.agents import make_agent
    from throne_lib.kit.ui.opponents import agent_thinking

    p = OpponentPicker("throne", options=[("随机", "random"), ("信息集", "ismcts")], value="random")
    assert p.name == "random" and not p.searching and p.seconds.layout.display == "none"
    assert p.agent(5, 1, lambda s, _seat: make_agent(p.name, s)).name == "random"
    assert agent_thinking(make_agent("random", 1)) == ""
    p.kind.value = "ismcts"
    p.seconds.value = 0.7
    agent = p.agent(5, 1, lambda s, _seat: make_agent(p.name, s))
    assert isinstance(agent, IsmctsAgent) and agent.game == "throne" and agent.seconds == 0.7
    p.seconds.value = 1.5  # the running agent keeps its think time; the status says it
    assert "0.7" in agent_thinking(agent) and "思考中" in agent_thinking(agent)
    assert OpponentPicker("throne", value="ismcts").seconds.layout.display == ""
