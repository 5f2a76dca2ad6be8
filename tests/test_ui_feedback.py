"""What the play page tells the player (issue 17): the reason for a refusal in Chinese
from ``explain_illegal``, the throne skill's real cost (R-THRONE-6), no stale selection,
the opening prompts, the 战报 in turn blocks with one line per attack, the inspector,
an attack's predicted result from a copy of the match, following the AI and saving
unfinished matches. Driven by the widget's mouse handlers, without a browser."""

from __future__ import annotations

import json
import re
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest

from throne_lib import CardDB, Match, SideSetup
from throne_lib.games.throne.actions import Action
from throne_lib.games.throne.ui.text import illegal_text, log_blocks
from throne_lib.games.throne.ui.widget import MatchWidget
from throne_lib.kit.agents import RandomAgent

Scenario = Callable[..., Match]
ENGLISH = re.compile(r"[A-Za-z]{3,}")  # an English word (rule IDs like R-TURN-1 are fine)

HEAD = """
seed 5
side blue general=lionheart mana={mana}
side red general=beast_king
round {round}
"""


def widget(m: Match, **kw: object) -> MatchWidget:
    kw.setdefault("ai_mode", "manual")
    kw.setdefault("log_dir", Path(tempfile.mkdtemp()))  # ends of turn save the log
    return MatchWidget(m, RandomAgent(1), **kw)  # type: ignore[arg-type]


@pytest.fixture
def pos(scenario: Scenario) -> Callable[..., Match]:
    def build(body: str, round: int = 1, mana: int = 10) -> Match:
        return scenario(HEAD.format(round=round, mana=mana) + body)

    return build


def chinese_only(text: str) -> bool:
    return not ENGLISH.search(re.sub(r"R-[A-Z]+-\d+", "", text))


def test_throne_skill_shows_its_real_cost_and_why_R_THRONE_6(pos: Callable[..., Match]) -> None:
    """王者之盾 costs 2 on the card, 3 from the throne: with 2 mana the chip says 3 法力
    and 法力不足, and a click on it says so — not 「不可用：不可用」."""
    m = pos("unit c2 blue knight\n", mana=2)
    w = widget(m)
    w.click_cell("d1")
    chip = next(c for c in w.ctrl.chips() if c.key == "skill")
    assert not chip.enabled and "3 法力" in chip.sub and "法力不足" in chip.sub
    w.click_chip(w.ctrl.chips().index(chip))
    assert "3 法力" in w.ctrl.status and "2" in w.ctrl.status and "R-TURN-1" in w.ctrl.status
    assert w.ctrl.status_error and chinese_only(w.ctrl.status)
    w.click_cell("d1")  # deselect, then inspect the throne
    w.inspect(("cell", m.geo.parse("d1")))
    assert "3 法力（卡面 2 + 王座 1）" in w.inspector.value


def test_throne_skill_on_cooldown_says_so(pos: Callable[..., Match]) -> None:
    m = pos("unit c2 blue knight\n", mana=10)
    m.state.sides[0].skill_cooldown = 1
    w = widget(m)
    w.click_cell("d1")
    chip = next(c for c in w.ctrl.chips() if c.key == "skill")
    assert "冷却中" in chip.sub and "R-THRONE-6" in chip.why


@pytest.mark.parametrize(
    ("rule", "reason"),
    [
        ("R-TURN-1", "圣光术 costs 2 mana, you have 1"),
        ("R-UNIT-2", "c5 is not reachable in 1 step(s) through empty cells"),
        ("R-UNIT-1", "c5 is out of range 1"),
        ("R-UNIT-5", "c5 is not a legal target of 圣光术"),
        ("R-BARRACKS-2", "this barracks has no summons left this turn"),
        ("R-TURN-12", "something the table does not know yet"),
    ],
)
def test_refusals_are_chinese_only(rule: str, reason: str) -> None:
    text = illegal_text(rule, reason)
    assert text.startswith("不可行：") and rule in text and chinese_only(text), text


def test_refused_hand_card_leaves_nothing_selected(pos: Callable[..., Match]) -> None:
    """A refused hand card clears the throne's selection: the next board click is not
    refused for a choice the player did not make."""
    m = pos("unit c2 blue knight\nhand blue siege_ballista\n", mana=2)
    w = widget(m)
    w.click_cell("d1")
    assert w.ctrl.selected_cell == m.geo.parse("d1")
    w.click_hand(0)  # the ballista costs 4
    assert "R-TURN-1" in w.ctrl.status
    assert w.ctrl.selected_cell == -1 and w.ctrl.selected_hand == -1 and not w.ctrl.highlights()
    w.click_cell("c2")  # selects the knight, no refusal
    assert w.ctrl.selected_cell == m.geo.parse("c2") and not w.ctrl.status_error


def test_move_attack_hint_only_when_relevant(pos: Callable[..., Match]) -> None:
    m = pos("unit c3 blue knight\n")  # no enemy in reach: moves only
    w = widget(m)
    w.click_cell("c3")
    assert "移动" in w.ctrl.status and "攻击" not in w.ctrl.status


def test_opening_prompts_found_and_names_the_swapped_card(db: CardDB) -> None:
    """R-OPEN-2/3: a replacement says which card went and which came; after 确定手牌 the
    prompt asks for the free barracks with a count and where they come from."""
    m = Match.new(db, SideSetup.signature(db, "human"), SideSetup.signature(db, "demon"), 3)
    w = widget(m, ai_mode="sync")
    replace = next(a for a in m.legal_actions() if a.kind == "replace")
    w.click_hand(w.ctrl.hand.index(replace.card))
    swapped = db[replace.card].name
    assert f"换掉「{swapped}」，换入「" in w.ctrl.status
    w.click_chip(0)  # 确定手牌
    assert m.phase == "found"
    assert "第 1/3 座" in w.ctrl.status and "R-OPEN-3" in w.ctrl.status
    assert all("开局免费" in c.sub for c in w.ctrl.chips())


def test_log_blocks_have_their_heading_first_and_one_line_per_attack(db: CardDB) -> None:
    m = Match.new(db, SideSetup.signature(db, "human"), SideSetup.signature(db, "demon"), 3)
    events = list(m.setup_events)
    agents = (RandomAgent(1), RandomAgent(2))
    attacks = 0
    while m.round < 6 and not m.is_over:
        a = agents[m.turn].choose(m)
        attacks += a.kind == "attack"
        events += m.apply(a)
    blocks = log_blocks(events, db, m.geo, viewer=0)
    assert blocks[0][0] == "—— 开局 ——"
    heads = [h for h, _ in blocks[1:]]
    assert all(h.startswith("—— 第") for h in heads)
    rounds = [int(re.search(r"第 (\d+) 回合", h).group(1)) for h in heads]  # type: ignore[union-attr]
    assert rounds == sorted(rounds)
    lines = [t for _, ls in blocks for _, t in ls]
    assert sum(" 攻击" in t for t in lines) == attacks  # one line per attack
    assert not any("反击" in t and " 攻击" not in t for t in lines)  # counters folded in
    # the opening: one line per side, the opponent's cards hidden
    opening = [t for _, t in blocks[0][1][:2]]
    assert opening[0].startswith("蓝方起手：") and opening[1].startswith("红方起手 ")


def test_prediction_is_what_the_attack_then_does(pos: Callable[..., Match]) -> None:
    m = pos("unit c3 blue knight\nunit c4 red wolf\n")
    w = widget(m)
    w.click_cell("c3")
    target = m.geo.parse("c4")
    p = w.ctrl.prediction(target)
    assert p is not None and w.ctrl.view().predictions[target] == p.badge
    w.inspect(("cell", target))
    assert "预计" in w.inspector.value
    before = {c: (u.hp if u else None) for c, u in enumerate(m.state.board)}
    w.click_cell("c4")
    assert m.history[-1] == Action("attack", m.geo.parse("c3"), target)
    assert "预计" not in w.inspector.value  # after the attack, no stale prediction
    wolf, knight = m.state.board[target], m.state.board[m.geo.parse("c3")]
    assert p.target_dies == (wolf is None)
    if wolf is not None:
        assert before[target] - wolf.hp == p.dealt
    if knight is not None:
        assert before[m.geo.parse("c3")] - knight.hp == p.taken


def test_inspector_shows_cards_from_hand_and_chips(pos: Callable[..., Match]) -> None:
    m = pos("unit b2 blue militia_camp\nhand blue holy_light siege_ballista\n", mana=2)
    w = widget(m)
    w.hover(*w.px.hand.center(1))
    assert m.db["siege_ballista"].name in w.inspector.value and "R-TURN-1" in w.inspector.value
    w.click_cell("b2")
    w.hover(*w.px.tray.center(0))
    tier = m.db[m.db["militia_camp"].tiers[0]]
    assert tier.name in w.inspector.value and "费用" in w.inspector.value


def test_ai_actions_are_listed_hidden_cards_stay_hidden(db: CardDB) -> None:
    """The prompt line lists the AI's actions of its turn; a replacement in its
    opening does not name the card it swapped out."""
    m = Match.new(db, SideSetup.signature(db, "human"), SideSetup.signature(db, "demon"), 4)
    w = widget(m, ai_mode="manual")
    while m.turn != 0 and not m.is_over:
        w.ai_step()
    if m.phase == "replace":
        w.click_chip(0)
    while m.phase == "found" and m.turn == 0:
        cell = next(a.target for a in m.legal_actions() if a.kind == "found")
        w.click_cell(cell)
    swapped = []
    while m.turn == 1 and not m.is_over:
        a = w.ai_step()
        if a.kind == "replace":
            swapped.append(db[a.card].name)
    assert w.ai_lines
    for name in swapped:
        assert f"「{name}」" not in w.status.value


def test_unfinished_match_is_saved_at_each_end_of_turn(
    pos: Callable[..., Match], tmp_path: Path
) -> None:
    m = pos("unit c3 blue knight\n")
    w = widget(m, log_dir=tmp_path, ai_mode="sync")
    w.end_btn.click()
    files = sorted(tmp_path.glob("*.jsonl"))
    assert len(files) == 1 and not m.is_over
    first = files[0].read_text(encoding="utf-8").splitlines()
    assert json.loads(first[0])  # a header line
    w.end_btn.click()
    assert sorted(tmp_path.glob("*.jsonl")) == files  # the same file, rewritten
    assert len(files[0].read_text(encoding="utf-8").splitlines()) > len(first)
    assert not list(tmp_path.glob("*.tmp"))


def test_a_fallen_throne_shows_its_own_max_hp(pos: Callable[..., Match]) -> None:
    """A destroyed throne leaves the board; the top bar and the result panel still
    show its real max HP (a tower throne of 16 reads 0/16, not the default 0/40)."""
    m = pos("unit c3 blue knight\n")
    red = m.state.throne(1)
    assert red is not None
    red.max_hp = 16  # a tower throne
    w = widget(m)
    m.state.board[red.cell] = None  # it falls
    w.refresh()
    assert "0/16" in w.info.value


def test_the_tower_battle_does_not_link_the_tower_to_itself(pos: Callable[..., Match]) -> None:
    from throne_lib.games.throne.ui.tower_widget import TowerMatchWidget

    w = TowerMatchWidget(pos("unit c3 blue knight\n"), RandomAgent(1), ai_mode="manual")
    assert w.tower.layout.display == "none"


def test_the_inspector_shows_a_unit_as_it_is_now_first(pos: Callable[..., Match]) -> None:
    """Issue 36, item 6: a throne shows its figures now (攻0 血40/40), not its card's
    face (攻5 血12) beside them; a unit's printed figures are marked 卡面, after now."""
    from throne_lib.games.throne.state import THRONE
    from throne_lib.games.throne.ui.inspect import unit_html

    m = pos("unit c2 blue knight\n")
    throne = next(u for u in m.state.units() if u.kind == THRONE and u.side == 0)
    shown = unit_html(m, throne)
    face = m.db[throne.card]
    assert f"{throne.hp}/{throne.max_hp}" in shown and "tp-inspector-now" in shown
    assert f"攻</span> <b>{face.attack}</b>" not in shown or face.attack == throne.attack
    assert "卡面攻" not in shown and f"血</span> <b>{face.hp}</b>" not in shown
    knight = next(u for u in m.state.units() if u.card == "knight")
    shown = unit_html(m, knight)
    assert shown.index("tp-inspector-now") < shown.index("卡面攻")


def test_the_ai_seat_is_named_in_chinese(pos: Callable[..., Match]) -> None:
    """Issue 36, item 5: 「红方（随机）」, not 「红方（random）」 (the tower passes no name)."""
    w = widget(pos("unit c2 blue knight\n"))
    assert w.agent_name == "随机" and "random" not in w.info.value
