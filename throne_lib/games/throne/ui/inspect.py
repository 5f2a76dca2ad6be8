"""What the inspector shows for Throne & Phalanx: a card in full (cost, attack/HP/armor,
move, range, keywords, effect text, in Chinese) and a unit on the board as it is now."""

from __future__ import annotations

import html

from throne_lib.games.throne.board import SIDE_NAMES_ZH
from throne_lib.games.throne.carddoc import rules_text
from throne_lib.games.throne.cards import KIND_ZH, RACE_ZH, Card, CardDB
from throne_lib.games.throne.match import Match
from throne_lib.games.throne.state import BARRACKS, THRONE, Unit
from throne_lib.games.throne.ui.gallery import keywords_text


def _row(label: str, value: str) -> str:
    return f"<span style='color:#5d6778'>{label}</span> <b>{html.escape(value)}</b>"


def card_parts(card: Card, db: CardDB, face: str = "", stats: bool = True) -> list[str]:
    """A card in full, as its lines: name, race and type, cost, stats, keywords, effect
    text. ``face``: a label for the printed attack/HP (「卡面」 under a unit on the
    board); ``stats=False`` leaves them out (a throne's card face is not the throne)."""
    head = (
        f"<div style='font-size:16px;font-weight:bold'>{html.escape(card.name)}"
        f"<span style='font-size:12px;color:#5d6778;font-weight:normal'>　"
        f"{RACE_ZH.get(card.race, card.race)} · {KIND_ZH.get(card.kind, card.kind)}</span></div>"
    )
    figures = [_row("费用", f"{card.cost} 法力")]
    if card.kind not in ("spell",) and stats:
        figures += [_row(f"{face}攻", str(card.attack)), _row(f"{face}血", str(card.hp))]
        armor = card.kw("armor")
        if armor:
            figures.append(_row("护甲", str(armor)))
        if card.kind not in ("barracks", "building"):
            figures += [_row("移动", str(card.move)), _row("射程", str(card.range))]
    body = [head, "　".join(figures)]
    words = keywords_text(card)
    if words:
        body.append(_row("关键词", words))
    text = card.text or rules_text(card, db)
    if text:
        body.append(f"<div style='margin-top:3px'>{html.escape(text)}</div>")
    if card.tiers:
        tiers = "、".join(
            f"Lv{i + 1} {db[t].name}（{db[t].cost}费）" for i, t in enumerate(card.tiers) if t in db
        )
        body.append(_row("兵种", tiers))
    if card.captains:
        body.append(_row("队长", "、".join(db[c].name for c in card.captains if c in db)))
    return body


def _note(note: str) -> str:
    return (
        f"<div class='tp-inspector-note' style='background:#fdecea;color:#9f3a38;"
        f"padding:2px 6px;margin-bottom:3px'>{html.escape(note)}</div>"
    )


def card_html(card: Card, db: CardDB, note: str = "") -> str:
    """A card in full: name, race and type, cost, stats, keywords, effect text."""
    body = card_parts(card, db)
    if note:
        body.insert(0, _note(note))
    return "".join(f"<div>{part}</div>" for part in body)


def unit_html(match: Match, u: Unit, note: str = "") -> str:
    """A unit on the board: its card, then what it is now (HP, armor, shield, level,
    what it did this turn); a throne shows its skill's real cost (R-THRONE-6)."""
    db, eng = match.db, match.eng
    card = db[u.card]
    now = [
        _row("现在", f"{SIDE_NAMES_ZH[u.side]} {match.geo.name(u.cell)}"),
        _row("攻", str(u.attack)),
        _row("血", f"{u.hp}/{u.max_hp}"),
    ]
    if u.armor:
        now.append(_row("护甲", str(u.armor)))
    if u.shield:
        now.append("<b>圣盾</b>")
    if u.kind == BARRACKS:
        now.append(_row("等级", f"Lv{u.level}"))
        now.append(_row("本回合还可召唤", str(max(eng.summons_left(u), 0))))
    done = [
        w for w, flag in (("已移动", u.moved), ("已攻击", u.attacked), ("已行动", u.acted)) if flag
    ]
    if done:
        now.append(f"<span style='color:#5d6778'>{'、'.join(done)}</span>")
    extra = ""
    if u.kind == THRONE and card.skill is not None:
        mana, hp = eng.skill_cost(u)
        cooldown = match.state.sides[u.side].skill_cooldown
        extra = _row(
            "王座技能",
            f"{mana} 法力（卡面 {card.skill.mana} + 王座 1）"
            + (f" + {hp} 生命" if hp else "")
            + ("，冷却中" if cooldown > 0 else ""),
        )
    prediction = ""
    if note.startswith("预计"):
        prediction, note = note, ""
        prediction = (
            "<div class='tp-prediction' style='background:#fff3cd;padding:2px 6px;"
            f"margin-bottom:3px'><b>{html.escape(prediction)}</b></div>"
        )
    # what is true now right under the name, the card's printed figures after it
    # (marked 卡面; a throne's card face says nothing of the throne: 攻0 血40 now)
    body = card_parts(card, db, face="卡面", stats=u.kind != THRONE)
    body.insert(1, "<span class='tp-inspector-now'>" + "　".join(now) + "</span>")
    if extra:
        body.insert(2, extra)
    if note:
        body.insert(0, _note(note))
    return prediction + "".join(f"<div>{part}</div>" for part in body)
