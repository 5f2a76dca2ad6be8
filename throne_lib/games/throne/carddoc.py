"""Card reference generated from the table, and the card-pool check.

* :func:`rules_text` — the Chinese rules text of a card, generated from its
  keywords and effects; the ``text`` column must contain every fragment of it
  (it may add flavour such as a skill's name), see :func:`text_problems`.
* :func:`cards_markdown` -> ``docs/cards.md``, :func:`effects_markdown` ->
  ``docs/effects.md`` (from the registry in :mod:`throne_lib.games.throne.effects` and the
  grammar tables of :mod:`throne_lib.games.throne.lang`), so neither drifts.
* :func:`pool_report` — the shape of the pool per race (CONTENT.md, R-RACE-1,
  R-HERO-3) and whether every signature deck validates (R-DECK-7).

``python -m throne_lib.games.throne.carddoc write`` regenerates both pages;
``python -m throne_lib.games.throne.carddoc check [--json]`` prints the pool report.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from throne_lib.games.throne.cards import KIND_ZH, KINDS, RACE_ZH, RACES, Card, CardDB, load_cards
from throne_lib.games.throne.decks import signature_deck, validate_deck
from throne_lib.games.throne.effects import DEFAULTS, DOCS, SPECS
from throne_lib.games.throne.lang import (
    AUTO_PLACE,
    AUTO_WHO,
    CHOSEN_PLACE,
    CHOSEN_WHO,
    KEYWORD_DOCS,
    KEYWORDS,
    TRIGGERS,
    Call,
    Clause,
    signature,
)

ROOT = Path(__file__).resolve().parents[3]
CARDS_MD = ROOT / "docs" / "cards.md"
EFFECTS_MD = ROOT / "docs" / "effects.md"

KEYWORD_ZH: dict[str, str] = {
    "taunt": "嘲讽",
    "flying": "飞行",
    "cavalry": "骑兵",
    "shield": "圣盾",
    "pierce": "穿刺",
    "lifesteal": "吸血",
    "formation": "列阵",
    "fortified": "固守",
    "reborn": "复生",
    "artisan": "工匠",
    "aura_load": "装载光环",
    "production": "产费营",
    "armor": "护甲{n}",
    "siege": "围攻{n}",
    "grow": "成长{n}",
    "summons": "每回合召唤{n}次",
    "peasant": "农民：+{n}法力",
    "aura_summon": "光环：相邻兵营每回合+{n}召唤",
    "heal_aura": "每回合治疗周围友军{n}",
    "regen": "再生{n}",
}
WHO_ZH: dict[str, str] = {
    "enemy": "一个敌方目标",
    "enemy_unit": "一个敌方单位",
    "ally": "一个友方目标",
    "ally_unit": "一个友方单位",
    "unit": "一个单位",
    "ally_barracks": "一座友方兵营",
    "enemy_barracks": "一座敌方兵营",
    "self": "自身",
    "target": "该目标",
    "adjacent_allies": "周围友军",
    "adjacent_enemies": "周围敌人",
    "adjacent_units": "周围所有单位",
    "adjacent_barracks": "相邻友方兵营",
    "adjacent_loadable": "相邻友方兵营或地精建筑",
    "all_allies": "所有友方单位",
    "all_enemies": "所有敌方单位",
    "row_enemies": "同一行的敌人",
    "enemy_throne": "敌方王座",
    "own_throne": "己方王座",
    "random_enemy": "一个随机敌方单位",
}
PLACE_ZH: dict[str, str] = {
    "cell": "己方半场一个空格",
    "any_cell": "任意一个空格",
    "adjacent": "周围",
    "own_half": "己方半场",
    "target": "该格",
}
EFFECT_ZH: dict[str, str] = {
    "damage": "对{who}造成{n}点伤害",
    "heal": "为{who}恢复{n}点生命",
    "buff": "使{who}+{a}/+{h}",
    "max_hp": "使{who}生命上限+{n}",
    "armor": "使{who}获得{n}点护甲",
    "shield": "使{who}获得圣盾",
    "draw": "抽{n}张牌",
    "mana": "获得{n}点法力",
    "summon": "在{place}召唤{n}个{card}",
    "destroy": "消灭{who}",
    "bounce": "将{who}移回手牌",
    "advance": "使{who}前进至多{n}格",
    "retreat": "使{who}后退至多{n}格",
    "load": "装载{who}",
    "reload": "重新装载{who}",
    "captain": "在{place}生成一名本族队长",
    "raise_dead": "从墓园复活一名随从到{place}",
    "overload": "超载{who}（建筑等级+1）",
    "give_taunt": "使{who}获得嘲讽",
    "give_reborn": "使{who}获得复生",
    "give_regen": "使{who}获得再生{n}",
    "exhume": "从墓园将{n}张随从牌移回手牌",
}
TRIGGER_ZH = {"play": "战吼：", "death": "亡语：", "turn_start": "回合开始：", "kill": "击杀后："}


def call_text(call: Call, db: CardDB | None = None) -> str:
    """The Chinese text of one effect call."""
    fields: dict[str, str] = {}
    numbers = [a for a, t in zip(call.args, SPECS[call.name], strict=True) if t == "int"]
    for arg, ptype in zip(call.args, SPECS[call.name], strict=True):
        if ptype == "who":
            fields["who"] = WHO_ZH[str(arg)]
        elif ptype == "place":
            fields["place"] = PLACE_ZH[str(arg)]
        elif ptype == "card":
            fields["card"] = db[str(arg)].name if db is not None and arg in db else str(arg)
    if numbers:
        fields["n"] = str(numbers[0] if call.name != "summon" else numbers[-1])
        fields["a"] = str(numbers[0])
        fields["h"] = str(numbers[-1])
    return EFFECT_ZH[call.name].format(**fields)


def clause_body(clause: Clause, db: CardDB | None = None) -> str:
    return "，".join(call_text(c, db) for c in clause.calls)


def clause_head(card: Card, clause: Clause) -> str:
    if clause.trigger == "skill":
        cost = f"{clause.mana}费" + (f"，自身-{clause.hp}生命" if clause.hp else "")
        return f"技能（{cost}）："
    if card.kind == "spell" and clause.trigger == "play":
        return ""
    return TRIGGER_ZH[clause.trigger]


def keyword_text(name: str, value: int) -> str:
    return KEYWORD_ZH[name].format(n=value)


def text_fragments(card: Card, db: CardDB | None = None) -> list[str]:
    """What the card's text must say: every keyword, every clause body, each skill cost."""
    out = [keyword_text(k, v) for k, v in card.keywords]
    for clause in card.effects:
        if clause.trigger == "skill":
            out.append(f"{clause.mana}费")
            if clause.hp:
                out.append(f"自身-{clause.hp}生命")
        out.append(clause_body(clause, db))
    return out


def rules_text(card: Card, db: CardDB | None = None) -> str:
    """The generated Chinese rules text of a card."""
    parts = [keyword_text(k, v) for k, v in card.keywords]
    parts += [clause_head(card, c) + clause_body(c, db) for c in card.effects]
    return "；".join(parts)


def text_problems(db: CardDB) -> list[str]:
    """Rows whose ``text`` is empty or misses a generated fragment."""
    out = []
    for card in db.values():
        if not card.text:
            out.append(f"cards.csv:{card.row}:text: empty; suggested: {rules_text(card, db)}")
            continue
        for frag in text_fragments(card, db):
            if frag not in card.text:
                out.append(f"cards.csv:{card.row}:text: {card.id} does not say {frag!r}")
    return out


# --- the pool report --------------------------------------------------------------


def pool_report(db: CardDB) -> dict[str, Any]:
    """Counts per race and the signature decks' validity (CONTENT.md, R-RACE-1, R-DECK-7)."""
    races: dict[str, dict[str, Any]] = {}
    for race in RACES:
        if race == "neutral":
            continue
        barracks = db.of("barracks", race)
        races[race] = {
            "generals": len(db.of("general", race)),
            "barracks": len(barracks),
            "production_camps": sum(1 for b in barracks if b.is_production),
            "minions": len(db.of("minion", race)),
            "spells": len(db.of("spell", race)),
            "captains": len(db.of("captain", race)),
            "soldiers": len(db.of("soldier", race)),
            "buildings": len(db.of("building", race)),
            "tokens": len(db.of("token", race)),
        }
    decks: dict[str, Any] = {}
    for g in db.of("general"):
        setup = signature_deck(db, g.id)
        problems = validate_deck(db, setup)
        decks[g.id] = {
            "cards": len(setup.deck),
            "minions": sum(1 for c in setup.deck if db[c].kind == "minion"),
            "valid": not problems,
            "problems": [str(p) for p in problems],
        }
    ok = all(
        r["generals"] == 3
        and r["barracks"] >= 3
        and r["production_camps"] >= 1
        and r["minions"] == 7
        and r["spells"] >= 10
        and r["captains"] >= 8
        for r in races.values()
    ) and all(d["valid"] for d in decks.values())
    return {
        "cards": len(db),
        "hash": db.hash,
        "races": races,
        "neutral": {k: len(db.of(k, "neutral")) for k in KINDS if db.of(k, "neutral")},
        "signature_decks": decks,
        "text_problems": text_problems(db),
        "ok": ok and not text_problems(db),
    }


# --- markdown pages ---------------------------------------------------------------


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _stats(card: Card) -> str:
    if card.kind == "spell":
        return ""
    if card.kind == "barracks":
        return f"耐久 {card.hp}"
    return f"{card.attack}/{card.hp} 移{card.move} 射{card.range}"


def cards_markdown(db: CardDB) -> str:
    """docs/cards.md: every card with its numbers, keywords, effects and text."""
    lines = [
        "# 卡牌一览 · Card reference",
        "",
        "Generated from `cards.csv` by `python -m throne_lib.games.throne.carddoc write` — do not edit;",
        "a test checks it is up to date. The effect language is in [effects.md](effects.md).",
        "",
        f"{len(db)} cards.",
        "",
    ]
    for race in RACES:
        cards = db.of(race=race)
        if not cards:
            continue
        lines += [f"## {RACE_ZH[race]} ({race})", ""]
        for kind in KINDS:
            group = [c for c in cards if c.kind == kind]
            if not group:
                continue
            lines += [
                f"### {KIND_ZH[kind]} ({kind}) × {len(group)}",
                "",
                "| id | 名称 | 费 | 数值 | 关键词 | 效果 | 文本 |",
                "|---|---|---|---|---|---|---|",
            ]
            for c in sorted(group, key=lambda c: (c.cost, c.row)):
                kws = ", ".join(
                    k if v == 1 and not KEYWORDS[k] else f"{k}({v})" for k, v in c.keywords
                )
                eff = "; ".join(cl.text() for cl in c.effects)
                text = c.text
                if c.kind == "barracks":
                    tiers = " / ".join(db[t].name for t in c.tiers)
                    caps = "、".join(db[t].name for t in c.captains)
                    text += f"<br>士兵：{tiers}<br>队长池：{caps or '—'}"
                row = [f"`{c.id}`", c.name, str(c.cost), _stats(c), kws, eff, text]
                lines.append("| " + " | ".join(_cell(x) for x in row) + " |")
            lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def effects_markdown() -> str:
    """docs/effects.md: the effect language, generated from the registry."""
    lines = [
        "# 效果语言 · Effect language",
        "",
        "Generated from `throne_lib/games/throne/effects.py` (the registry) and `throne_lib/games/throne/lang.py`",
        "(the grammar) by `python -m throne_lib.games.throne.carddoc write` — do not edit.",
        "",
        "The `keywords` column is a comma-separated list (`taunt, armor(2)`); the",
        "`effects` column holds clauses `trigger: effect(args), effect(args)` separated by `;`.",
        "",
        "## Keywords",
        "",
        "| keyword | form | 中文 | meaning |",
        "|---|---|---|---|",
    ]
    for name, has_arg in KEYWORDS.items():
        form = f"{name}(N)" if has_arg else name
        zh = KEYWORD_ZH.get(name, "").format(n="N")
        lines.append(f"| `{name}` | `{form}` | {zh} | {_cell(KEYWORD_DOCS.get(name, ''))} |")
    lines += ["", "## Triggers", "", "| trigger | meaning |", "|---|---|"]
    for name, doc in TRIGGERS.items():
        lines.append(f"| `{name}` | {_cell(doc)} |")
    lines += ["", "## Effects", "", "| effect | 中文 | meaning |", "|---|---|---|"]
    for name in sorted(SPECS):
        sig = signature(name, SPECS[name], DEFAULTS[name])
        zh = EFFECT_ZH.get(name, "").format(
            who="〈目标〉", place="〈位置〉", card="〈卡牌〉", n="N", a="A", h="H"
        )
        lines.append(f"| `{sig}` | {zh} | {_cell(DOCS[name])} |")
    lines += [
        "",
        "## Targets (`who`)",
        "",
        "Chosen targets ask the player (or the AI) for a cell; a clause may ask for one.",
        "",
        "| selector | chosen? | 中文 | meaning |",
        "|---|---|---|---|",
    ]
    for table, chosen in ((CHOSEN_WHO, "yes"), (AUTO_WHO, "")):
        for name, doc in table.items():
            lines.append(f"| `{name}` | {chosen} | {WHO_ZH.get(name, '')} | {_cell(doc)} |")
    lines += ["", "## Places (`place`)", "", "| place | chosen? | 中文 | meaning |"]
    lines.append("|---|---|---|---|")
    for table, chosen in ((CHOSEN_PLACE, "yes"), (AUTO_PLACE, "")):
        for name, doc in table.items():
            lines.append(f"| `{name}` | {chosen} | {PLACE_ZH.get(name, '')} | {_cell(doc)} |")
    return "\n".join(lines) + "\n"


def write_docs(db: CardDB | None = None) -> list[Path]:
    db = db if db is not None else load_cards()
    CARDS_MD.parent.mkdir(parents=True, exist_ok=True)
    CARDS_MD.write_text(cards_markdown(db), encoding="utf-8")
    EFFECTS_MD.write_text(effects_markdown(), encoding="utf-8")
    return [CARDS_MD, EFFECTS_MD]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m throne_lib.games.throne.carddoc", description=__doc__
    )
    sub = ap.add_subparsers(dest="cmd", required=True)
    sub.add_parser("write", help="regenerate docs/cards.md and docs/effects.md")
    check = sub.add_parser("check", help="report the card pool per race and the signature decks")
    check.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    if args.cmd == "write":
        for p in write_docs():
            print(f"wrote {p}")
        return 0
    report = pool_report(load_cards())
    if args.json:
        print(json.dumps(report, ensure_ascii=False, indent=2))
    else:
        for race, counts in report["races"].items():
            print(race, " ".join(f"{k}={v}" for k, v in counts.items()))
        bad = [g for g, d in report["signature_decks"].items() if not d["valid"]]
        print(f"signature decks: {len(report['signature_decks'])}, invalid: {bad or 'none'}")
        for p in report["text_problems"]:
            print(p)
        print("ok" if report["ok"] else "NOT OK")
    return 0 if report["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
