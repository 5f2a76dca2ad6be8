"""Every number and every **Reading:** of RULES-CASTLE.md as one frozen parameter set.

A designer tries a variant with ``CastleRules(draw_per_turn=3)``; the engine reads
nothing else. Card numbers (HP, 价值, ranges, counts) live in ``cards-castle.csv``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from typing import Any, TypeVar

from throne_lib.kit.params import check_overrides

Row = TypeVar("Row")
R = TypeVar("R")
Nested = Mapping[str, Callable[[Any], Any]]

ROLES = ("lord", "enemy", "reinforcement", "neutral")
ROLE_ZH = {"lord": "城主", "enemy": "敌军", "reinforcement": "援军", "neutral": "中立"}
CAMP_ZH = {"": "未宣布", "enemy": "敌军", "castle": "援军"}

# players -> (城主, 敌军, 援军, 中立)   CH-ROLE-4
DEFAULT_ROLE_TABLE: dict[int, tuple[int, int, int, int]] = {
    3: (1, 2, 0, 0),
    4: (1, 3, 0, 0),
    5: (1, 3, 1, 0),
    6: (1, 3, 1, 1),
    7: (1, 4, 1, 1),
    8: (1, 4, 2, 1),
}


# CH-TURN-1 Reading: "by_hero" (the rulebook's) keeps the heroes' clockwise order of the
# battle's start, whatever swaps happen, so every living hero has one turn per round;
# "by_seat" passes the turn to the next living hero clockwise from the position the turn
# began at (a 跳跃 swap moves a hero's turn: a 拜帕 leaping onto the 城主 every turn denies
# him all his turns).
TURN_PASSING = ("by_seat", "by_hero")


def player_row(
    table: Mapping[int, Row],
    players: int,
    seats: tuple[int, int],
    game: tuple[str, str],
    name: tuple[str, str],
    error: type[ValueError] = ValueError,
) -> Row:
    """The row of a table by number of players (the role table, 城池战's city table),
    after checking that the game seats ``players``; ``game`` and ``name`` are the game's
    and the table's name with the rule each check cites; ``error`` is what they raise."""
    lo, hi = seats
    if not lo <= players <= hi:
        raise error(f"{game[0]} seats {lo}–{hi} players, not {players} ({game[1]})")
    row = table.get(players)
    if row is None:
        raise error(f"the {name[0]} table has no row for {players} players ({name[1]})")
    return row


class RoleTableError(ValueError):
    """A role table row that breaks CH-ROLE-3."""


def check_role_row(players: int, row: tuple[int, int, int, int]) -> None:
    """CH-ROLE-3: exactly one 城主; 敌军 > 1 + 援军; 中立 ≤ 援军; the row seats everyone."""
    lord, enemy, reinf, neutral = row
    if sum(row) != players:
        raise RoleTableError(f"{players} players but the row deals {sum(row)} identities")
    if lord != 1:
        raise RoleTableError("城主只能有一名 (CH-ROLE-3): exactly one 城主")
    if enemy <= lord + reinf:
        raise RoleTableError("敌军数量应该超过城主加援军的数量 (CH-ROLE-3): 敌军 > 1 + 援军")
    if neutral > reinf:
        raise RoleTableError("中立的数量不得超过援军的数量 (CH-ROLE-3): 中立 ≤ 援军")


def legal_role_rows(players: int) -> list[tuple[int, int, int, int]]:
    """Every (城主, 敌军, 援军, 中立) row CH-ROLE-3 allows at ``players`` seats, the castle
    camp's weakest first: the most 敌军 first, then (at equal 敌军) fewer 援军 and more
    中立 (a 中立 is no ally of the 城主). The rulebook's row (CH-ROLE-4) is among them."""
    rows = []
    for enemy in range(players):
        for reinf in range(players - 1 - enemy + 1):
            row = (1, enemy, reinf, players - 1 - enemy - reinf)
            try:
                check_role_row(players, row)
            except RoleTableError:
                continue
            rows.append(row)
    return sorted(rows, key=lambda r: (-r[1], r[2]))


@dataclass(frozen=True)
class CastleRules:
    """Rule parameters; every default is the rulebook's (ID in the comment)."""

    min_players: int = 3  # CH-SETUP-1
    max_players: int = 8  # CH-SETUP-1
    random_seating: bool = True  # CH-SETUP-3
    lord_hero_offer: int = 3  # CH-SETUP-5
    hero_offer: int = 2  # CH-SETUP-5
    lord_bonus_hp: int = 0  # CH-SETUP-6
    opening_hand: int = 4  # CH-SETUP-8
    dead_share_win: bool = True  # CH-ROLE-2
    role_table: dict[int, tuple[int, int, int, int]] = field(
        default_factory=lambda: dict(DEFAULT_ROLE_TABLE)
    )  # CH-ROLE-4
    hidden_identities: bool = True  # CH-ROLE-5
    reveal_on_death: bool = True  # CH-ROLE-5
    neutral_switch: str = "own_turn_start"  # CH-ROLE-7
    seating: str = "circle"  # CH-SEAT-1
    hero_base_range: int = 1  # CH-SEAT-6
    adjacency: str = "group_or_neighbour_heroes"  # CH-SEAT-7
    own_group_targetable: bool = False  # CH-SEAT-8
    leadership: int = 2  # CH-PREP-1
    lord_leadership: int = 4  # CH-PREP-1
    mana: int = 6  # CH-PREP-2
    lord_mana: int = 10  # CH-PREP-2
    prep_draft: str = "one_pick_per_turn"  # CH-PREP-3
    leftover_mana_source: str = "conjured"  # CH-PREP-5 ("deck" takes real 魔)
    public_discard: bool = True  # CH-DECK-6
    reshuffle_discard: bool = True  # CH-DECK-7
    turn_passing: str = "by_hero"  # CH-TURN-1 ("by_seat": by position, 跳跃 moves turns)
    draw_per_turn: int = 2  # CH-TURN-4
    ability_uses_per_turn: int | None = 1  # CH-TURN-6 (None: no limit)
    max_rounds: int | None = 60  # CH-TURN-11
    yu_heal: int = 1  # CH-CARD-3
    sword_attack_damage: int = 1  # CH-ATTACK-4
    soldier_attack_damage: int = 1  # CH-ATTACK-4
    auto_defence_first: bool = True  # CH-ATTACK-5
    block_while_disabled: bool = False  # CH-ATTACK-6
    no_save_beats_thick_hide: bool = False  # CH-ATTACK-8
    fire_arrow_is_ranged: bool = True  # CH-ATTACK-9
    magic_sources: tuple[str, ...] = ("magic_card", "fireball", "lightning_bolt", "missiles")
    stun_scope: str = "next_turn_no_cards"  # CH-STATUS-1
    curse_skips: tuple[str, ...] = ("play", "command")  # CH-STATUS-2
    poison_stacks: bool = True  # CH-STATUS-4
    status_refresh: bool = False  # CH-STATUS-5
    command_ends_on_fall: bool = True  # CH-COMMAND-4
    summoning_sickness: bool = False  # CH-COMMAND-5
    dying_can_act: bool = False  # CH-DEATH-1
    rescue_by_anyone: bool = True  # CH-DEATH-2
    rescue_windows: tuple[str, ...] = ("after_fall", "turn_end")  # CH-DEATH-3
    simultaneous_deaths: bool = True  # CH-DEATH-5
    killer: str = "last_source"  # CH-DEATH-6
    adoption_order: str = "clockwise_from_dead"  # CH-DEATH-9
    defector_wins: bool = False  # CH-WIN-5
    fireball_max_targets: int = 3  # CH-HERO-2
    mana_pool_scope: str = "hand_limit"  # CH-HERO-4
    alchemy_uses_per_turn: int | None = None  # CH-HERO-5
    spy_cost: int = 0  # CH-HERO-7
    snipe_refund_on_negate: bool = False  # CH-HERO-8
    aim_covers_soldiers: bool = False  # CH-HERO-9
    roar_hits_soldiers: bool = False  # CH-HERO-10
    mastery_optional: bool = False  # CH-HERO-11
    resist_death_heal_to: str = "max"  # CH-HERO-12
    self_destruct_damage: str = "hp_minus_1"  # CH-HERO-14 ("missing_hp")
    leap_cost: int = 0  # CH-HERO-15
    fire_arrow_cost: int = 0  # CH-HERO-16
    dark_banner_in_answer: bool = True  # CH-HERO-18
    death_throes_spends: bool = False  # CH-HERO-19
    anti_charge: str = "plain_attack"  # CH-SOLDIER-3
    burner_soldiers_first: bool = True  # CH-SOLDIER-6
    berserk_optional: bool = True  # CH-SOLDIER-11
    rally_order: str = "after_sergeant"  # CH-SOLDIER-14
    charge_damage: int = 2  # CH-SOLDIER-15
    slots: tuple[str, ...] = ("weapon", "armour", "mount", "treasure")  # CH-EQUIP-1
    default_weapon_range: int = 1  # CH-EQUIP-3
    greatsword_chain: bool = True  # CH-EQUIP-8
    abyss_vs_soldier: str = "extra_damage"  # CH-EQUIP-9
    missile_draw: str = "uniform_per_point"  # CH-EQUIP-10
    mount_slots: int = 1  # CH-EQUIP-19
    fireball_split_by: str = "target"  # CH-MAGIC-3
    swift_wind_soldiers: bool = True  # CH-MAGIC-5
    mirror_scope: str = "caster"  # CH-MAGIC-6
    disintegrate_hand: str = "random"  # CH-MAGIC-7
    freeze_targets: str = "heroes"  # CH-MAGIC-8
    rewind_turn: str = "own_previous"  # CH-MAGIC-9
    ice_storm_hits_soldiers: bool = False  # CH-MAGIC-10
    log_counter_prompts: bool = False  # CH-MAGIC-12
    # CH-UI-3: a window (rescue, counter) asks every able living hero in turn, whether or
    # not it holds a card to answer with, so the pause tells no one who holds 愈 or 魔法抵消.
    # True is the old engine shortcut (only holders are asked): it leaks hands to every
    # other seat and is kept only to replay logs made with it.
    ask_only_able: bool = False

    def __post_init__(self) -> None:
        if self.turn_passing not in TURN_PASSING:
            raise ValueError(
                f"turn_passing must be one of {', '.join(TURN_PASSING)}, "
                f"not {self.turn_passing!r} (CH-TURN-1)"
            )

    def roles_for(self, players: int) -> tuple[int, int, int, int]:
        row = player_row(
            self.role_table,
            players,
            (self.min_players, self.max_players),
            ("城堡之心", "CH-SETUP-1"),
            ("role", "CH-ROLE-4"),
            RoleTableError,
        )
        check_role_row(players, row)
        return row


def overrides(rules: Any, nested: Nested | None = None) -> dict[str, Any]:
    """The fields of a rules dataclass that differ from its defaults, JSON-able (a log
    header's ``options.rules``): a table by number of players (the role table, 城池战's
    city table) with string keys and list rows, a tuple as a list; a field named in
    ``nested`` (城池战's ``base`` CastleRules) by its own function."""
    default = type(rules)()
    out: dict[str, Any] = {}
    for f in fields(rules):
        v = getattr(rules, f.name)
        if v == getattr(default, f.name):
            continue
        if nested and f.name in nested:
            out[f.name] = nested[f.name](v)
        elif isinstance(v, dict):
            out[f.name] = {str(k): list(r) for k, r in v.items()}
        else:
            out[f.name] = list(v) if isinstance(v, tuple) else v
    return out


def from_overrides(
    cls: type[R], value: R | Mapping[str, Any] | None, what: str, nested: Nested | None = None
) -> R:
    """The inverse of :func:`overrides`: ``cls`` from itself, None (the defaults) or a
    dict of overrides (from a log), checked against the field types (a ValueError names
    ``what`` and the key)."""
    if value is None:
        return cls()
    if isinstance(value, cls):
        return value
    default = cls()
    kw: dict[str, Any] = {}
    for k, v in check_overrides(cls, value, what).items():
        if nested and k in nested:
            v = nested[k](v)
        elif isinstance(getattr(default, k), dict):
            v = {int(n): tuple(r) for n, r in v.items()}
        elif isinstance(getattr(default, k), tuple):
            v = tuple(v)
        kw[k] = v
    return cls(**kw)
