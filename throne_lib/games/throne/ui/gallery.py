"""Cards drawn as text-and-colour blocks, and the card gallery.

:func:`card_face_ops` is pure: a card and a box -> canvas operations (``(method,
*args)`` or ``("set", attribute, value)``, the convention of ``ui/render.py``), so it
is tested by reading the ops. :func:`draw_card` runs them on an ipycanvas ``Canvas``;
the play UI's hand, the tower's rewards and the card editor's preview reuse it.

Layout of a face: a band in the race's colour with the name, the cost in a blue
circle, a "kind · race" line in the kind's colour, the keywords and the card's text
wrapped in the middle, attack / HP at the bottom (durability for barracks and
buildings, nothing for spells). Narrow boxes (the play hand's 66×96) get a compact
layout of the same face: cost and kind in the band, the name big, keywords, text, stats.
A text that only repeats the keywords is not shown twice.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from throne_lib.games.throne.cards import KIND_ZH, KINDS, RACE_ZH, RACES, Card, CardDB
from throne_lib.games.throne.lang import KEYWORD_DOCS, LangError, parse_keywords
from throne_lib.kit.ui.canvas import run_ops, safe_hold

Op = tuple[object, ...]

FONT = "'Noto Sans CJK SC', 'Noto Sans SC', 'Microsoft YaHei', sans-serif"
# race -> (band / border colour, face background)
RACE_COLOURS: dict[str, tuple[str, str]] = {
    "human": ("#2f5fb3", "#eef3fc"),
    "goblin": ("#3f8f3a", "#eef7ec"),
    "demon": ("#b0302a", "#fcefed"),
    "undead": ("#5e4b8b", "#f2eff8"),
    "beast": ("#b8691d", "#fbf2e7"),
    "elf": ("#17897f", "#e9f6f4"),
    "neutral": ("#666b73", "#f3f3f4"),
}
KIND_COLOURS: dict[str, str] = {
    "general": "#b58900",
    "barracks": "#9a5b13",
    "soldier": "#4a5a6a",
    "captain": "#2e6b9e",
    "minion": "#2e7d32",
    "spell": "#7b3fa0",
    "building": "#6d4c41",
    "token": "#607d8b",
}
UNKNOWN = ("#888888", "#f4f4f4")
MANA = "#2c7be5"
ATTACK = "#c0392b"
HEALTH = "#27864a"
DURABILITY = "#7f6a50"
CARD_W, CARD_H = 132, 184  # the gallery's card size (any size works: fonts scale)
HAND_W, HAND_H = 66, 96  # the play hand's card size (``ui/layout.py``)
COMPACT_W = 100  # narrower boxes get the compact face
GAP = 10
HEADER_H = 30


def keyword_zh(name: str, value: int) -> str:
    """``("armor", 2)`` -> ``"护甲2"``; ``("taunt", 1)`` -> ``"嘲讽"``."""
    doc = KEYWORD_DOCS.get(name, name)
    label = doc.split(":")[0].replace(" N", "").strip()
    return f"{label}{value}" if " N" in doc.split(":")[0] else label


def keywords_text(card: Card) -> str:
    """The keywords in Chinese, plus the range of a ranged unit: ``"列阵 护甲2 射程2"``."""
    words = [keyword_zh(k, v) for k, v in card.keywords]
    if card.range > 1 and card.kind not in ("spell", "barracks"):
        words.append(f"射程{card.range}")
    return " ".join(words)


def body_text(card: Card) -> str:
    """The card's text, or "" when it only repeats the keyword line
    (``"射程2；围攻2"`` under ``"围攻2 射程2"``)."""
    words = set(keywords_text(card).split())
    parts = [p for p in re.split(r"[；;，,、。\s]+", card.text) if p]
    return "" if parts and set(parts) <= words else card.text


def text_width(s: str, size: float) -> float:
    """Estimated width of ``s`` at font ``size`` (CJK glyphs are square)."""
    return sum(size if ord(ch) > 0x2E80 else size * 0.56 for ch in s)


def wrap(s: str, size: float, width: float, max_lines: int) -> list[str]:
    """Greedy wrap by estimated width; the last line ends with … when cut."""
    if max_lines <= 0 or not s:
        return []
    lines: list[str] = []
    line = ""
    for ch in s:
        if ch == "\n" or (line and text_width(line + ch, size) > width):
            lines.append(line)
            line = "" if ch in "\n " else ch
            if len(lines) == max_lines:
                break
            continue
        line += ch
    else:
        if line:
            lines.append(line)
        return lines
    last = lines[-1]
    while last and text_width(last + "…", size) > width:
        last = last[:-1]
    lines[-1] = last + "…"
    return lines


def _font(size: float, bold: bool = False) -> Op:
    return ("set", "font", f"{'bold ' if bold else ''}{max(7, round(size))}px {FONT}")


def _text(
    s: str, x: float, y: float, size: float, colour: str, bold: bool = False, align: str = "center"
) -> list[Op]:
    return [
        _font(size, bold),
        ("set", "text_align", align),
        ("set", "fill_style", colour),
        ("fill_text", s, x, y),
    ]


def _badge(value: str, x: float, y: float, r: float, colour: str) -> list[Op]:
    return [
        ("set", "fill_style", colour),
        ("fill_circle", x, y, r),
        ("set", "stroke_style", "#ffffff"),
        ("set", "line_width", max(1.0, r / 6)),
        ("stroke_circle", x, y, r),
        *_text(value, x, y + 0.5, r * 1.15, "#ffffff", True),
    ]


def card_face_ops(
    card: Card, x: float, y: float, w: float, h: float, selected: bool = False
) -> list[Op]:
    """The operations that draw ``card`` in the box (x, y, w, h); boxes narrower than
    ``COMPACT_W`` (the play hand's 66×96) get the compact layout of :func:`compact_face_ops`."""
    if w < COMPACT_W:
        return compact_face_ops(card, x, y, w, h, selected)
    band, face = RACE_COLOURS.get(card.race, UNKNOWN)
    kind_colour = KIND_COLOURS.get(card.kind, UNKNOWN[0])
    s = w / CARD_W  # scale: fonts and paddings follow the width
    pad = 6 * s
    band_h = max(18.0, 30 * s)
    ops: list[Op] = [("set", "text_baseline", "middle")]
    ops += [("set", "fill_style", face), ("fill_rect", x, y, w, h)]
    ops += [("set", "fill_style", band), ("fill_rect", x, y, w, band_h)]
    # the name, in the band, right of the cost badge
    r = band_h * 0.42
    name_size = min(15 * s, (w - 2 * r - 3 * pad) / max(1, len(card.name)))
    ops += _text(card.name, x + (w + 2 * r + pad) / 2, y + band_h / 2, name_size, "#ffffff", True)
    ops += _badge(str(card.cost), x + pad + r * 0.7, y + band_h / 2, r, MANA)
    # kind · race
    line_y = y + band_h + 11 * s
    label = f"{KIND_ZH.get(card.kind, card.kind)} · {RACE_ZH.get(card.race, card.race)}"
    ops += _text(label, x + w / 2, line_y, 11 * s, kind_colour, True)
    ops += [
        ("set", "stroke_style", kind_colour),
        ("set", "line_width", max(1.0, s)),
        ("stroke_line", x + pad, line_y + 9 * s, x + w - pad, line_y + 9 * s),
    ]
    # keywords (bold) then the card's text, wrapped
    body_y = line_y + 20 * s
    bottom = y + h - (26 * s if _stats(card) else 8 * s)
    size = 10.5 * s
    step = size * 1.3
    room = max(0, int((bottom - body_y) // step))
    kws = wrap(keywords_text(card), size, w - 2 * pad, min(2, room))
    for i, part in enumerate(kws):
        ops += _text(part, x + w / 2, body_y + i * step, size, "#222222", True)
    rest = room - len(kws)
    for i, part in enumerate(wrap(body_text(card), size, w - 2 * pad, rest) if rest > 0 else []):
        ops += _text(part, x + w / 2, body_y + (len(kws) + i) * step, size, "#444444")
    # attack / HP
    br = 11 * s
    stats = _stats(card)
    if stats is not None:
        atk, hp, hp_colour = stats
        if atk is not None:
            ops += _badge(atk, x + pad + br, y + h - pad - br, br, ATTACK)
        ops += _badge(hp, x + w - pad - br, y + h - pad - br, br, hp_colour)
    # border last, over everything
    ops += [
        ("set", "stroke_style", "#f1c40f" if selected else band),
        ("set", "line_width", 4 if selected else max(1.5, 2 * s)),
        ("stroke_rect", x + 1, y + 1, w - 2, h - 2),
    ]
    return ops


def _name_lines(name: str) -> list[str]:
    """A name on one line up to 4 characters, else on two (the longer half first)."""
    if len(name) <= 4:
        return [name]
    half = (len(name) + 1) // 2
    return [name[:half], name[half:]]


def compact_face_ops(
    card: Card, x: float, y: float, w: float, h: float, selected: bool = False
) -> list[Op]:
    """The same face for a small box (the hand's 66×96): the race band holds the cost
    and the kind, the name goes big below it, then the keywords and the card's text,
    attack / HP at the bottom. Fonts follow the width, positions the height."""
    band, face = RACE_COLOURS.get(card.race, UNKNOWN)
    s, v = w / HAND_W, h / HAND_H

    def at(dy: float) -> float:
        return y + dy * v

    ops: list[Op] = [("set", "text_baseline", "middle")]
    ops += [("set", "fill_style", face), ("fill_rect", x, y, w, h)]
    ops += [("set", "fill_style", band), ("fill_rect", x, y, w, 20 * v)]
    r = 8.5 * min(s, v)
    ops += _badge(str(card.cost), x + 2 + r, at(10), r, MANA)
    kind = KIND_ZH.get(card.kind, card.kind)
    ops += _text(kind, x + (w + 2 * r + 2) / 2, at(10.5), 10.5 * s, "#ffffff", True)
    names = _name_lines(card.name)
    name_size = min(13 * s, (w - 6) / max(len(n) for n in names))
    step = 15 * v
    top = 31 if len(names) == 1 else 29
    for i, part in enumerate(names):
        ops += _text(part, x + w / 2, at(top) + i * step, name_size, "#1b1b1b", True)
    body_y = at(top) + len(names) * step - 2 * v
    stats = _stats(card)
    bottom = y + h - (20 * v if stats else 4 * v)
    size = 9 * s
    line = 10.5 * v
    room = max(0, int((bottom - body_y) // line))
    kws = wrap(keywords_text(card), size, w - 6, min(2, room))
    for i, part in enumerate(kws):
        ops += _text(
            part, x + w / 2, body_y + i * line, size, KIND_COLOURS.get(card.kind, "#222222"), True
        )
    rest = room - len(kws)
    for i, part in enumerate(wrap(body_text(card), size, w - 6, rest) if rest > 0 else []):
        ops += _text(part, x + w / 2, body_y + (len(kws) + i) * line, size, "#444444")
    if stats is not None:
        atk, hp, hp_colour = stats
        br = 9 * min(s, v)
        if atk is not None:
            ops += _badge(atk, x + 2 + br, y + h - 2 - br, br, ATTACK)
        ops += _badge(hp, x + w - 2 - br, y + h - 2 - br, br, hp_colour)
    ops += [
        ("set", "stroke_style", "#f1c40f" if selected else band),
        ("set", "line_width", 4 if selected else 2),
        ("stroke_rect", x + 1, y + 1, w - 2, h - 2),
    ]
    return ops


def _stats(card: Card) -> tuple[str | None, str, str] | None:
    """(attack, HP, HP colour) to show at the bottom, or None (spells)."""
    if card.kind == "spell":
        return None
    if card.kind in ("barracks", "building"):
        return (str(card.attack) if card.attack else None, str(card.hp), DURABILITY)
    return (str(card.attack), str(card.hp), HEALTH)


def draw_card(
    canvas: Any, card: Card, x: float, y: float, w: float, h: float, selected: bool = False
) -> None:
    """Draw ``card`` on ``canvas`` (an ipycanvas ``Canvas``) in the box (x, y, w, h)."""
    run_ops(canvas, card_face_ops(card, x, y, w, h, selected))


def card_from_record(rec: Mapping[str, str], row: int = 0) -> Card:
    """A drawable card from a table row that may not validate (for previews while
    editing): numbers that do not parse show as 0, keywords that do not parse as none."""

    def num(col: str, default: int) -> int:
        try:
            return int(str(rec.get(col, "")).strip())
        except ValueError:
            return default

    try:
        keywords = parse_keywords(str(rec.get("keywords", "")))
    except LangError:
        keywords = ()
    return Card(
        id=str(rec.get("id", "")).strip(),
        name=str(rec.get("name", "")).strip() or "（无名）",
        race=str(rec.get("race", "")).strip(),
        kind=str(rec.get("kind", "")).strip(),
        cost=num("cost", 0),
        attack=num("attack", 0),
        hp=num("hp", 0),
        move=num("move", 1),
        range=num("range", 1),
        keywords=keywords,
        text=str(rec.get("text", "")).strip(),
        row=row,
    )


# --- the gallery ------------------------------------------------------------------------


def groups(
    db: CardDB | Iterable[Card], race: str | None = None, kind: str | None = None
) -> list[tuple[str, str, list[Card]]]:
    """Cards grouped by (race, kind) in the table's race and kind order."""
    cards = list(db.values()) if isinstance(db, CardDB) else list(db)
    out = []
    for r in RACES:
        if race is not None and r != race:
            continue
        for k in KINDS:
            if kind is not None and k != kind:
                continue
            found = [c for c in cards if c.race == r and c.kind == k]
            if found:
                out.append((r, k, found))
    return out


def gallery_ops(
    db: CardDB | Iterable[Card],
    width: float,
    race: str | None = None,
    kind: str | None = None,
    card_w: float = CARD_W,
    card_h: float = CARD_H,
) -> tuple[list[Op], float]:
    """Every card (of a race / kind) in a grid, one headed group per (race, kind);
    returns the operations and the height they need."""
    per_row = max(1, int((width - GAP) // (card_w + GAP)))
    ops: list[Op] = []
    y = 0.0
    for r, k, cards in groups(db, race, kind):
        band = RACE_COLOURS.get(r, UNKNOWN)[0]
        ops += [("set", "fill_style", band), ("fill_rect", 0, y + 6, 6, HEADER_H - 10)]
        title = f"{RACE_ZH[r]} · {KIND_ZH[k]}（{len(cards)}）"
        ops += _text(title, 14, y + HEADER_H / 2 + 1, 16, "#222222", True, align="left")
        y += HEADER_H
        for i, card in enumerate(cards):
            cx = GAP / 2 + (i % per_row) * (card_w + GAP)
            cy = y + (i // per_row) * (card_h + GAP)
            ops += card_face_ops(card, cx, cy, card_w, card_h)
        y += ((len(cards) - 1) // per_row + 1) * (card_h + GAP) + 6
    return ops, max(y, 1.0)


class CardGallery:
    """The gallery widget: race / kind filters over one canvas of cards.

    ``widget`` is the ipywidgets box to display; :meth:`set_db` redraws with a new
    table (subscribe it to a :class:`~throne_lib.games.throne.live.CardTableWatcher`).
    """

    def __init__(self, db: CardDB, width: int = 1000, race: str | None = "human") -> None:
        import ipywidgets as w
        from ipycanvas import Canvas

        self.db = db
        self.width = width
        all_ = [("全部", "")]
        self.race = w.Dropdown(
            options=all_ + [(RACE_ZH[r], r) for r in RACES],
            value=race or "",
            description="种族",
            layout=w.Layout(width="180px"),
        )
        self.kind = w.Dropdown(
            options=all_ + [(KIND_ZH[k], k) for k in KINDS],
            value="",
            description="类型",
            layout=w.Layout(width="180px"),
        )
        self.count = w.HTML()
        self.canvas = Canvas(width=width, height=200, layout=w.Layout(width=f"{width}px"))
        # a canvas keeps no picture: draw again whenever a browser connects (Voilà)
        self.canvas.on_client_ready(self.redraw)
        self.race.observe(lambda _: self.redraw(), "value")
        self.kind.observe(lambda _: self.redraw(), "value")
        bar = w.HBox([self.race, self.kind, self.count], layout=w.Layout(align_items="center"))
        self.widget = w.VBox([bar, self.canvas], layout=w.Layout(overflow="visible"))
        self.widget.add_class("throne-gallery")
        self.redraw()

    def set_db(self, db: CardDB) -> None:
        self.db = db
        self.redraw()

    def redraw(self) -> None:
        race, kind = self.race.value or None, self.kind.value or None
        ops, height = gallery_ops(self.db, self.width, race, kind)
        shown = sum(len(c) for _, _, c in groups(self.db, race, kind))
        self.count.value = f"<span style='color:#555'>{shown} 张卡</span>"
        with safe_hold():
            self.canvas.height = int(height)
            self.canvas.layout.height = f"{int(height)}px"
            self.canvas.clear()
            run_ops(self.canvas, ops)
