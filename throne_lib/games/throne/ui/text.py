"""The 战报 (battle log): every engine Event as one readable Chinese line.

>>> from throne_lib import load_cards, geometry, Event
>>> db, geo = load_cards(), geometry()
>>> event_text(Event("attack", 3, 1, "siege_behemoth", geo.parse("d5"), "lionheart",
...                  geo.parse("d6"), 7, "围攻+5"), db, geo)
'攻城巨兽 d5 攻击王座 d6：-7（围攻+5）'
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable

from throne_lib.games.throne.actions import Action, Event
from throne_lib.games.throne.board import SIDE_NAMES_ZH, Geometry
from throne_lib.games.throne.cards import CardDB

LOG = logging.getLogger("throne.ui")

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


def result_text(winner: int | None, reason: str, human: int | None = 0) -> str:
    """The headline of the result panel (``human`` None: a spectator's, no 你赢/你输)."""
    why = END_REASONS_ZH.get(reason, reason)
    if winner is None:
        return f"平局 · {why}"
    if human is None:
        return f"{side_zh(winner)}获胜 · {why}"
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


# The engine's English reasons (throne_lib.explain) in Chinese; the first pattern that
# matches wins. Names in them are already Chinese card names and cell names.
REASONS_ZH: tuple[tuple[str, str], ...] = (
    (
        r"the skill costs (\d+) mana from the throne, you have (\d+)",
        "从王座发动技能需要 {0} 法力（卡面费用 +1），你只有 {1}",
    ),
    (r"the skill costs (\d+) mana, you have (\d+)", "技能需要 {0} 法力，你只有 {1}"),
    (r"the skill costs (\d+) HP, the unit has (\d+)", "技能需要支付 {0} 点生命，单位只有 {1}"),
    (r"the throne skill is on cooldown this turn", "王座技能本回合冷却中"),
    (r"this hero already acted or attacked this turn", "本回合已经行动或攻击过，不能再发动技能"),
    (r"this hero used its skill this turn", "本回合已发动过技能"),
    (r"this unit has no skill", "这个单位没有技能"),
    (r"the skill has no legal target now", "技能现在没有合法目标"),
    (r"the throne is immune to destroy.*", "王座免疫消灭：这个技能不能以王座为目标"),
    (r"(\S+) is not a legal target of the skill", "{0} 不是技能的合法目标"),
    (r"no target is not a legal target of (.+)", "「{0}」需要选择目标"),
    (r"(\S+) is not a legal target of (.+)", "{0} 不是「{1}」的合法目标"),
    (r"(.+) costs (\d+) mana, you have (\d+)", "「{0}」需要 {1} 法力，你只有 {2}"),
    (r"加派 costs (\d+) mana", "加派需要 {0} 法力"),
    (r"加派 needs a loaded barracks", "加派需要已装载的兵营"),
    (r"加派 is bought once this turn's summons are used up", "本回合召唤次数用完后才能加派"),
    (r"(.+) costs (\d+) mana", "「{0}」需要 {1} 法力"),
    (r"(.+) was used (\d+) times this turn", "同名牌「{0}」本回合已用 {1} 次"),
    (r"a draw-only spell cannot be cast with a full hand", "手牌已满，不能施放抽牌法术"),
    (r"(\S+) is not in your hand", "这张牌不在手牌中"),
    (r"units are played onto an empty cell of your own half", "单位只能放在己方半场的空格"),
    (
        r"a barracks goes on an empty cell of your half or onto your own barracks",
        "兵营须放在己方半场的空格或己方兵营上",
    ),
    (r"a (\S+) is never played from the hand", "这种牌不能从手牌打出"),
    (r"the match is over", "对局已结束"),
    (r"a captain offer is pending.*", "正在招募队长：先选一名队长放到兵营周围，或点「取消」"),
    (r"the opening is not finished.*", "开局尚未完成：先换牌，再免费建立 3 座兵营"),
    (r"'(\S+)' is not an action of the main phase", "这是开局才有的操作"),
    (r"there is no unit on (\S+)", "{0} 上没有单位"),
    (r"(.+) on (\S+) is not yours", "{1} 的「{0}」不是你的单位"),
    (
        r"the throne does not (move|attack) before the royal march.*",
        "御驾亲征（第 15 回合）之前王座不能移动或攻击",
    ),
    (r"barracks do not move", "兵营不能移动"),
    (r"fortified units and buildings do not move", "固守单位与建筑不能移动"),
    (r"this unit has already moved this turn", "这个单位本回合已经移动过"),
    (r"(\S+) is occupied", "{0} 已被占据"),
    (
        r"no free path: full row\(s\) \[(.*)\] are walls, and moves are (\d+) step\(s\)",
        "没有通路：第 {0} 行已站满（如墙），移动力只有 {1}",
    ),
    (
        r"(\S+) is not reachable in (\d+) step\(s\) through empty cells",
        "{0} 走不到：只能经过空格移动 {1} 步",
    ),
    (r"a unit with 0 attack cannot attack", "攻击力为 0 的单位不能攻击"),
    (r"this unit has already attacked this turn", "这个单位本回合已经攻击过"),
    (r"there is nothing to attack on (\S+)", "{0} 上没有可攻击的目标"),
    (r"(\S+) is out of range (\d+)", "{0} 超出射程（射程 {1}）"),
    (r"ground melee units cannot hit a flying unit", "近战地面单位打不到飞行单位"),
    (r"a taunt unit protects its row.*", "嘲讽单位保护同一行：先攻击嘲讽单位"),
    (r"only a barracks summons", "只有兵营能召唤"),
    (r"this barracks has no summons left this turn", "这座兵营本回合召唤次数已用完"),
    (r"all 8 cells around the barracks are occupied", "兵营周围 8 格都已被占据"),
    (r"captains come from round (\d+)", "第 {0} 回合起才能招募队长"),
    (r"(.+) has no captain pool", "「{0}」没有可招募的队长"),
    (r"no offered captain is affordable", "法力不够招募任何一名队长"),
    (r"(.+) is not a soldier of (.+)", "这不是「{1}」的兵种"),
    (r"level (\d+) does not unlock (.+)", "兵营等级 {0} 尚未解锁「{1}」"),
    (r"soldiers appear on the 8 cells around their barracks", "士兵只能出现在兵营周围 8 格"),
    (r"the graveyard is empty", "墓地是空的，不能洗牌"),
    (r"a shuffle costs (\d+) mana now", "现在洗牌需要 {0} 法力"),
    (r"only an artisan builds.*", "只有工匠能在自己的格子上建造，且需要足够法力"),
    (r"pick one of the offered captains.*", "从提供的队长中选一名，放到兵营周围的空格"),
    (r"the replacement is over: build your free barracks", "换牌已结束：请建立免费兵营"),
    (r"replace up to 3 non-barracks hand cards.*", "最多替换 3 张非兵营手牌（牌库中还有兵营时）"),
    (r"build each offered barracks once.*", "每种兵营建一次，放在己方半场的空格，最多一座产营"),
    (r"not legal in this position", "当前局面下不可行"),
    (r"no action is legal", "没有任何可行的操作"),
)


def reason_zh(rule: str, reason: str) -> str:
    """The engine's English reason in Chinese (the rule's summary if no pattern fits)."""
    for pattern, form in REASONS_ZH:
        m = re.fullmatch(pattern, reason)
        if m is not None:
            return form.format(*m.groups())
    return RULES_ZH.get(rule, "现在不能这样做")


def illegal_text(rule: str, reason: str) -> str:
    """The status line for a refused click, in Chinese with the rule ID; the English
    detail goes to the log (``throne.ui``), not to the player."""
    LOG.info("refused %s: %s", rule, reason)
    return f"不可行：{reason_zh(rule, reason)}（{rule}）"


# --- the 战报 as the player reads it: turn blocks, one line per attack ------------------

LogLine = tuple[int, str]  # (side or -1, text)


def _attack_line(events: list[Event], i: int, db: CardDB, geo: Geometry) -> tuple[str, int]:
    """An attack and what it caused at once (damage dealt, counter, shield, deaths) as
    one line; returns the line and the index after the events it used."""
    a = events[i]
    n = _Namer(a, db, geo)
    cells = {a.cell, a.target_cell}
    parts: list[str] = []
    j = i + 1
    kinds = ("damage", "shield_break", "death", "reborn", "heal")
    while j < len(events) and events[j].kind in kinds:
        e = events[j]
        en = _Namer(e, db, geo)
        if e.kind == "damage" and e.target_cell in cells:
            rest = e.note.replace("反击", "").strip(" ，")
            note = f"（{rest}）" if rest else ""
            if "反击" in e.note or (e.target_cell == a.cell != a.target_cell):
                parts.append(f"受到反击 {e.amount}{note}")
            else:
                parts.append(f"造成 {e.amount}{note}")
        elif e.kind == "heal" and e.target_cell in cells:
            parts.append(f"{en.target} 恢复 {e.amount}")
        elif e.kind == "shield_break" and e.target_cell in cells:
            parts.append(f"{en.target} 圣盾被击破")
        elif e.kind in ("death", "reborn") and e.cell in cells:
            parts.append(f"{en.actor} {'阵亡' if e.kind == 'death' else '复生'}")
        else:
            break
        j += 1
    if not any(p.startswith("造成") for p in parts):
        parts.insert(0, f"-{a.amount}")
    extra = f"（{a.note}）" if a.note else ""
    return f"{n.actor} 攻击{n.target}{extra}：{'，'.join(parts)}", j


def _opening_lines(events: list[Event], db: CardDB, viewer: int | None) -> list[LogLine]:
    """The setup draws as one line per side (the viewer sees its own cards; the barracks
    moved in by R-OPEN-1 replace the cards they pushed back)."""
    out: list[LogLine] = []
    for side in (0, 1):
        hand: list[str] = []
        fills: list[str] = []
        for e in events:
            if e.side != side:
                continue
            if e.kind == "draw":
                hand.append(e.actor)
            elif e.kind == "opening_fill":
                if e.target in hand:
                    hand[hand.index(e.target)] = e.actor
                fills.append(e.actor)
        if not hand:
            continue
        if viewer is not None and side != viewer:
            text = f"{side_zh(side)}起手 {len(hand)} 张牌"
            if fills:
                text += f"（其中 {len(fills)} 张兵营按规则补入，R-OPEN-1）"
        else:
            text = f"{side_zh(side)}起手：" + "、".join(card_name(db, c) for c in hand)
            if fills:
                names = "、".join(card_name(db, c) for c in fills)
                text += f"（兵营不足 2 张，补入{names}，R-OPEN-1）"
        out.append((side, text))
    return out


def log_blocks(
    events: list[Event], db: CardDB, geo: Geometry, viewer: int | None = None
) -> list[tuple[str, list[LogLine]]]:
    """The 战报 in blocks, oldest first: (heading, lines in order). Block 0 is the
    opening; every ``turn_start`` opens a block; an attack and its consequences are
    one line."""
    blocks: list[tuple[str, list[LogLine]]] = [("—— 开局 ——", [])]
    setup = [e for e in events if e.round == 0 and e.kind in ("draw", "opening_fill")]
    blocks[0][1].extend(_opening_lines(setup, db, viewer))
    i = 0
    while i < len(events):
        e = events[i]
        if e.round == 0 and e.kind in ("draw", "opening_fill"):
            i += 1
            continue
        if e.kind == "turn_start":
            blocks.append((event_text(e, db, geo, viewer), []))
            i += 1
            continue
        if e.kind == "attack":
            text, i = _attack_line(events, i, db, geo)
            blocks[-1][1].append((e.side, text))
            continue
        blocks[-1][1].append((e.side, event_text(e, db, geo, viewer)))
        i += 1
    return blocks
