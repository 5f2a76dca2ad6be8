"""Chinese text for every action, for a UI's buttons and the CLI (CH-UI-6)."""

from __future__ import annotations

from throne_lib.games.castle.actions import Act
from throne_lib.games.castle.rules import CAMP_ZH
from throne_lib.games.castle.skills import SKILL_ZH
from throne_lib.games.castle.state import State
from throne_lib.games.castle.turn import may_declare

SIMPLE = {
    "pass": "结束部署",
    "end_play": "结束出牌阶段",
    "skip_command": "不指挥士兵",
    "end_command": "结束指挥阶段",
    "next_soldier": "十字军剑士放弃第二次攻击",
    "block": "打出剑抵挡",
    "no_block": "不抵挡",
    "take": "承受伤害",
    "counter": "打出魔法抵消",
    "decline": "放弃",
    "yes": "是",
    "no": "否",
}
PROMPT_YES_NO = {
    "hold": ("发动 抗拒死亡", "不发动 抗拒死亡"),
    "throes": ("发动 临死挣扎 反击", "不反击"),
    "banner": ("发动 黑暗旌旗（1张魔）", "不发动"),
    "axe": ("发动 斧的效果", "不发动"),
    "ring_upkeep": ("消耗3张魔保留飞弹戒指", "放弃飞弹戒指"),
    "defect": ("投靠", "拒绝投靠（转为敌军阵营）"),
    "discard": ("", "不必弃牌（魔不计入手牌上限）"),
}


def _ref(s: State, ref: object) -> str:
    r = str(ref)
    if r[:1] in ("h", "s") and r[1:].isdigit():
        return s.name(r)
    return r


def describe(s: State, act: Act, prompt_kind: str = "") -> str:
    """``Act('attack', ('h1', 0, 'sword'))`` -> ``剑攻击 拜帕（支付1张剑）``."""
    k, a = act.kind, act.args
    if k in ("yes", "no") and prompt_kind in PROMPT_YES_NO:
        return PROMPT_YES_NO[prompt_kind][0 if k == "yes" else 1]
    if k in SIMPLE:
        return SIMPLE[k]
    card = s.cards.get(str(a[0])) if a else None
    if k == "pick_hero" and card:
        return f"选择英雄 {card.name}（{card.title}，生命{card.hp}）"
    if k == "draft" and card:
        return f"部署 {card.name}（价值{card.value}）"
    if k == "declare":
        what = str(a[0])
        if what != "keep":
            return f"宣布阵营：{CAMP_ZH['' if what == 'none' else what]}"
        pr = s.prompt  # CH-UI-3: every hero's turn start asks; only a neutral may declare
        return "保持阵营，开始回合" if pr is not None and may_declare(s, pr.seat) else "开始回合"
    if k == "attack":
        pay = "任意2张手牌" if a[2] == "two" else "1张剑"
        extra = f"，狙击+{a[1]}" if int(a[1]) else ""
        return f"剑攻击 {_ref(s, a[0])}（支付{pay}{extra}）"
    if k in ("heal", "rescue"):
        how = "魔当做愈" if a[1] == "mana" else "愈"
        return f"对 {_ref(s, a[0])} 使用{how}"
    if k == "equip" and card:
        return f"装备 {card.name}"
    if k == "magic" and card:
        rest = [str(x) for x in a[1:]]
        on = ""
        if rest:
            on = f" → {_ref(s, rest[0])}"
            if len(rest) > 1:
                on += "的手牌" if rest[1] == "hand" else f"的{s.cards[rest[1]].name}"
        return f"使用 {card.name}{on}"
    if k == "skill":
        name = SKILL_ZH.get(str(a[0]), str(a[0]))
        rest = [str(x) for x in a[1:]]
        if str(a[0]) == "alchemy":
            return f"发动 造化万物：召唤{s.cards[rest[0]].name}"
        return f"发动 {name}" + (" → " + "、".join(_ref(s, x) for x in rest) if rest else "")
    if k == "command":
        return f"指挥士兵进攻 {_ref(s, a[0])} 一组"
    if k == "order":
        target = "随机目标" if a[1] == "random" else _ref(s, a[1])
        return f"{_ref(s, a[0])} 攻击 {target}"
    if k == "discard" and card:
        return f"弃置 {card.name}"
    if k == "split":
        extra = "、".join(_ref(s, x) for x in a)
        return "平均承受" + (f"（{extra} 多承受1点）" if extra else "")
    if k == "adopt":
        return f"收编 {_ref(s, a[0])}"
    if k == "follow":
        return f"追击 {_ref(s, a[0])}（消耗1张剑）"
    if k == "take" and a:
        return f"由 {_ref(s, a[0])} 独自承受"
    return act.text()
