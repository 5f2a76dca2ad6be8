"""The 战报 (battle log): every engine Event as one readable Chinese line.

>>> from throne_lib import load_cards, geometry, Event
>>> db, geo = load_cards(), geometry()
>>> event_text(Event("attack", 3, 1, "siege_behemoth", geo.parse("d5"), "lionheart",
...                  geo.parse("d6"), 7, "围攻+5"), db, geo)
'攻城巨兽 d5 攻击王座 d6：-7（围攻+5）'
"""

from __future__ import annotations

from collections.abc import Callable

from throne_lib.games.throne.actions import Action, Event
from throne_lib.games.throne.board import SIDE_NAMES_ZH, Geometry
from throne_lib.games.throne.cards import CardDB

END_REASONS_ZH = {
    "throne": "王座被摧毁",
    "round_limit:hp": "回合上限，按王座血量结算",
    "round_limit:ratio": "回合上限，按血量比例结算",
    "round_limit:board": "回合上限，按场面结算",
    "round_limit:draw": "回合上限，完全相同：平局",
}


def side_zh(side: int) -> str:
    return SIDE_NAMES_ZH[side] if side in (0, 1) else "双方"


def card_name(db: CardDB, card_id: str) -> str:
    return db[card_id].name if card_id in db else card_id


class _Namer:
    """Names of cards, units and cells for one event."""

    def __init__(self, e: Event, db: CardDB, geo: Geometry) -> None:
        self.e, self.db, self.geo = e, db, geo

    def cell(self, cell: int) -> str:
        return f" {self.geo.name(cell)}" if 0 <= cell < self.geo.size else ""

    def card(self, card_id: str) -> str:
        return card_name(self.db, card_id)

    def unit(self, card_id: str, cell: int) -> str:
        """A unit by name and cell; a general on a throne cell is 「王座」."""
        thrones = (self.geo.throne_cell(0), self.geo.throne_cell(1))
        if card_id in self.db and self.db[card_id].kind == "general" and cell in thrones:
            return f"王座{self.cell(cell)}"
        return f"{self.card(card_id)}{self.cell(cell)}"

    @property
    def actor(self) -> str:
        return self.unit(self.e.actor, self.e.cell)

    @property
    def target(self) -> str:
        return self.unit(self.e.target, self.e.target_cell)

    def note(self, sep: str = "（", end: str = "）") -> str:
        return f"{sep}{self.e.note}{end}" if self.e.note else ""


def _attack(n: _Namer) -> str:
    return f"{n.actor} 攻击{n.target}：-{n.e.amount}{n.note()}"


def _damage(n: _Namer) -> str:
    return f"{n.target} 受到 {n.e.amount} 点伤害（来自{n.card(n.e.actor)}）{n.note('，', '')}"


def _heal(n: _Namer) -> str:
    return f"{n.target} 恢复 {n.e.amount} 点生命{n.note('，', '')}"


KEYWORDS_ZH = {
    "taunt": "嘲讽",
    "reborn": "复生",
    "regen": "再生",
    "shield": "圣盾",
    "flying": "飞行",
    "lifesteal": "吸血",
    "pierce": "穿刺",
    "armor": "护甲",
}


def _grant(n: _Namer) -> str:
    word = KEYWORDS_ZH.get(n.e.note, n.e.note)
    amount = f" {n.e.amount}" if n.e.amount else ""
    return f"{n.target} 获得「{word}{amount}」（{n.card(n.e.actor)}）"


def _captain_offer(n: _Namer) -> str:
    names = "、".join(n.card(c) for c in n.e.note.split())
    return f"{n.actor} 提供队长：{names}（三选一）"


def _game_over(n: _Namer) -> str:
    reason = END_REASONS_ZH.get(n.e.note, n.e.note)
    if n.e.side not in (0, 1):
        return f"对局结束：平局（{reason}）"
    return f"对局结束：{side_zh(n.e.side)}获胜（{reason}）"


def _play(n: _Namer) -> str:
    card = n.db.get(n.e.actor)
    verb = "施放" if card is not None and card.kind == "spell" else "打出"
    at = f" → {n.geo.name(n.e.target_cell)}" if n.e.target_cell >= 0 else ""
    return f"{side_zh(n.e.side)}{verb}「{n.card(n.e.actor)}」{at}"


_PUBLIC: dict[str, Callable[[_Namer], str]] = {
    "attack": _attack,
    "damage": _damage,
    "heal": _heal,
    "captain_offer": _captain_offer,
    "game_over": _game_over,
    "grant": _grant,
    "exhume": lambda n: (
        f"{side_zh(n.e.side)}从墓地取回「{n.card(n.e.target)}」（{n.card(n.e.actor)}）"
    ),
    "play": _play,
    "summon": lambda n: f"{side_zh(n.e.side)}召唤 {n.actor}",
    "shield_break": lambda n: f"{n.target} 的圣盾被击破（{n.card(n.e.actor)}）",
    "buff": lambda n: f"{n.target} 获得 {n.e.note}",
    "armor": lambda n: f"{n.target} 获得 {n.e.amount} 点护甲",
    "shield": lambda n: f"{n.target} 获得圣盾",
    "destroy": lambda n: f"{n.target} 被消灭（{n.card(n.e.actor)}）",
    "immune": lambda n: f"{n.target} 免疫消灭",
    "bounce": lambda n: f"{n.target} 被弹回手牌",
    "shift": lambda n: f"{n.card(n.e.target)} 从{n.cell(n.e.cell)} 推移到{n.cell(n.e.target_cell)}",
    "load": lambda n: f"{n.target} 已装载{n.note()}",
    "mana": lambda n: f"{side_zh(n.e.side)}获得 {n.e.amount} 点法力（{n.card(n.e.actor)}）",
    "hand_full": lambda n: (
        f"{side_zh(n.e.side)}手牌已满" + (f"，{n.card(n.e.actor)} 进入墓地" if n.e.actor else "")
    ),
    "reshuffle": lambda n: f"{side_zh(n.e.side)}牌库耗尽：墓地 {n.e.amount} 张洗回牌库",
    "deck_empty": lambda n: f"{side_zh(n.e.side)}牌库已空",
    "death": lambda n: f"{n.actor} 阵亡",
    "reborn": lambda n: f"{n.actor} 复生（1 点生命）",
    "move": lambda n: f"{n.card(n.e.actor)}{n.cell(n.e.cell)} 移动到{n.cell(n.e.target_cell)}",
    "repair": lambda n: f"{n.target} 修复 +{n.e.amount}，升至 {n.e.note}",
    "extra_summon": lambda n: f"{n.actor} 加派（-{n.e.amount} 法力）",
    "pay_hp": lambda n: f"{n.actor} 支付 {n.e.amount} 点生命",
    "skill": lambda n: (
        f"{n.actor} 发动技能"
        + (f" → {n.geo.name(n.e.target_cell)}" if n.e.target_cell >= 0 else "")
    ),
    "build": lambda n: f"{n.actor} 建造「{n.card(n.e.target)}」",
    "shuffle": lambda n: f"{side_zh(n.e.side)}洗牌：墓地洗回牌库（-{n.e.amount} 法力）",
    "keep": lambda n: f"{side_zh(n.e.side)}确定起手",
    "found": lambda n: f"{side_zh(n.e.side)}建立 {n.actor}",
    "turn_start": lambda n: f"—— 第 {n.e.round} 回合 · {side_zh(n.e.side)}行动 ——",
    "mana_reset": lambda n: f"{side_zh(n.e.side)}法力 {n.e.amount}{n.note()}",
    "end_turn": lambda n: f"{side_zh(n.e.side)}结束回合",
    "march": lambda n: f"御驾亲征！{n.actor} 攻击变为 {n.e.amount}，可以移动",
}

# Events that would reveal a hidden card of the other side to the viewer.
_HIDDEN: dict[str, Callable[[_Namer], str]] = {
    "draw": lambda n: f"{side_zh(n.e.side)}抽了 1 张牌",
    "replace": lambda n: f"{side_zh(n.e.side)}替换了 1 张手牌",
    "opening_fill": lambda n: f"{side_zh(n.e.side)}起手补入 1 张兵营",
}
_REVEALED: dict[str, Callable[[_Namer], str]] = {
    "draw": lambda n: f"{side_zh(n.e.side)}抽到「{n.card(n.e.actor)}」",
    "replace": lambda n: (
        f"{side_zh(n.e.side)}换掉「{n.card(n.e.actor)}」，换入「{n.card(n.e.target)}」"
    ),
    "opening_fill": lambda n: f"{side_zh(n.e.side)}起手补入「{n.card(n.e.actor)}」",
}


def event_text(event: Event, db: CardDB, geo: Geometry, viewer: int | None = None) -> str:
    """One 战报 line. ``viewer`` (a side) hides the other side's drawn/replaced cards."""
    n = _Namer(event, db, geo)
    fn = _PUBLIC.get(event.kind)
    if fn is None:
        hidden = viewer is not None and event.side != viewer
        fn = (_HIDDEN if hidden else _REVEALED).get(event.kind)
    if fn is None:
        return f"{event.kind}{n.note('（')}"
    return fn(n)


def result_text(winner: int | None, reason: str, human: int = 0) -> str:
    """The headline of the result panel."""
    why = END_REASONS_ZH.get(reason, reason)
    if winner is None:
        return f"平局 · {why}"
    who = "你赢了！" if winner == human else "你输了"
    return f"{who} {side_zh(winner)}获胜 · {why}"


def action_text(action: Action, db: CardDB, geo: Geometry) -> str:
    """A player's action in Chinese, e.g. 「召唤 民兵 → b3」."""
    a = action

    def cell(c: int) -> str:
        return geo.name(c) if 0 <= c < geo.size else ""

    def name(card_id: str) -> str:
        return card_name(db, card_id)

    target = f" → {cell(a.target)}" if a.target >= 0 else ""
    forms = {
        "move": lambda: f"移动 {cell(a.cell)} → {cell(a.target)}",
        "attack": lambda: f"攻击 {cell(a.cell)} → {cell(a.target)}",
        "play": lambda: f"打出「{name(a.card)}」{target}",
        "summon": lambda: f"召唤 {name(a.card)}{target}",
        "captain": lambda: f"{cell(a.cell)} 招募队长（三选一）",
        "pick": lambda: f"选择队长 {name(a.card)}{target}",
        "cancel": lambda: "放弃队长",
        "extra": lambda: f"{cell(a.cell)} 加派",
        "skill": lambda: f"发动技能 {cell(a.cell)}{target}",
        "build": lambda: f"建造「{name(a.card)}」于 {cell(a.cell)}",
        "shuffle": lambda: "洗牌",
        "end": lambda: "结束回合",
        "replace": lambda: f"换掉「{name(a.card)}」",
        "keep": lambda: "确定手牌",
        "found": lambda: f"建立{name(a.card)}{target}",
    }
    form = forms.get(a.kind)
    return form() if form is not None else a.text(geo)


# Short Chinese forms of the rules an illegal click breaks (the English detail follows).
RULES_ZH = {
    "R-OPEN-2": "开局尚未完成",
    "R-OPEN-3": "开局兵营须建在己方半场的空格",
    "R-UNIT-1": "这个单位现在不能这样行动",
    "R-UNIT-2": "无法移动到该格",
    "R-UNIT-5": "不是合法目标",
    "R-BOARD-3": "满行如墙，无路可走",
    "R-COMBAT-5": "嘲讽单位保护同一行",
    "R-COMBAT-7": "固守单位、兵营与建筑不能移动",
    "R-FLY-2": "近战地面单位打不到飞行单位",
    "R-THRONE-4": "御驾亲征（第 15 回合）之前王座不能移动或攻击",
    "R-THRONE-6": "王座技能冷却中",
    "R-HERO-2": "英雄技能现在不可用",
    "R-TURN-1": "法力不足",
    "R-TURN-7": "现在不能洗牌",
    "R-TURN-8": "手牌已满，不能施放抽牌法术",
    "R-TURN-9": "同名牌本回合已用满",
    "R-TURN-10": "这张牌不在手牌中",
    "R-TURN-12": "现在不能这样做",
    "R-BARRACKS-1": "兵营须放在己方半场的空格或己方兵营上",
    "R-BARRACKS-2": "这座兵营本回合召唤次数已用完",
    "R-BARRACKS-3": "兵营等级不够",
    "R-BARRACKS-5": "士兵只能出现在兵营周围 8 格的空格",
    "R-BARRACKS-9": "队长：从提供的队长中选一名",
    "R-BARRACKS-10": "加派需要已装载的兵营",
}


def illegal_text(rule: str, reason: str) -> str:
    """The status line for a refused click: Chinese summary, rule ID, English detail."""
    summary = RULES_ZH.get(rule, "不可行")
    return f"不可行：{summary}（{rule}）— {reason}"
