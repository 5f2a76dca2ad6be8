"""Every number and every **Reading:** of RULES-PIN.md as one frozen value (PIN-PARAM-1).

A variant is ``dataclasses.replace(PIN_RULES, round_limit=20)``; the engine reads only
this object. Field comments name the rule each parameter belongs to.
"""

from __future__ import annotations

from dataclasses import dataclass, field

# Type names (PIN-TYPE-1) and their default range / actions (PIN-TYPE-2).
GROUND_TYPES = ("步兵", "装甲", "炮兵", "悬停")
AIR_TYPES = ("战机", "轰炸机")
TYPES = GROUND_TYPES + AIR_TYPES
SIZES = ("连", "营", "团", "旅", "师")  # PIN-MOVE-4, smallest first
RARITIES = ("普通", "限定", "特殊", "精英", "精锐", "衍生")
DAMAGE_TYPES = ("普通", "爆炸", "激光", "电浆", "导弹", "动能", "直接")  # PIN-DMG-2
WHOLE_BOARD = 99  # range 全

_DEFAULT_MATRIX: tuple[tuple[str, str, int], ...] = (  # PIN-TYPE-5
    ("步兵", "装甲", -25),
    ("步兵", "炮兵", 25),
    ("装甲", "步兵", 25),
    ("装甲", "炮兵", 25),
    ("炮兵", "步兵", 25),
    ("炮兵", "悬停", -25),
    ("悬停", "炮兵", 25),
    ("战机", "轰炸机", 50),
    ("轰炸机", "装甲", 25),
)


@dataclass(frozen=True, slots=True)
class Rules:
    """The parameters of a PIN match. Immutable and hashable."""

    # DECK
    deck_size: int = 50  # PIN-DECK-1
    ally_max: int = 16  # PIN-DECK-3
    rarity_limits: tuple[tuple[str, int], ...] = (
        ("普通", 5),
        ("限定", 4),
        ("特殊", 3),
        ("精英", 2),
        ("精锐", 1),
    )  # PIN-DECK-4
    neutral_cards: bool = False  # PIN-DECK-2 Reading
    hq_of_main_nation: bool = True  # PIN-DECK-1 Reading
    mixed_ground_air_refused: bool = True  # PIN-CARD-3 Reading
    # SETUP
    opening_hand: int = 6  # PIN-SETUP-2
    mulligan_to_bottom: bool = True  # PIN-SETUP-3 Reading (False: shuffled in)
    reveal_any_after_tie: bool = True  # PIN-SETUP-5 Reading
    reveal_ties_max: int = 10  # PIN-SETUP-5 Reading
    # BOARD
    mirror_board: bool = False  # PIN-BOARD-3 Reading
    # STACK
    slots_per_cell: int = 2  # PIN-STACK-1
    deploy_retreat_to_cell_triggers_deploy: bool = True  # PIN-STACK-4 Reading
    # CP
    cp_rise: int = 2  # PIN-CP-2
    cp_auto_cap: int = 16  # PIN-CP-2
    cp_max_cap: int = 24  # PIN-CP-3 (max and current via effects)
    cp_max_effect_raises_current: bool = False  # PIN-CP-3 Reading
    leftover_cp_for_counters: bool = True  # PIN-CP-4 Reading
    # TURN
    draws_per_turn: int = 1  # PIN-TURN-3
    paid_draw_cost: int = 2  # PIN-TURN-3
    hand_limit: int = 10  # PIN-TURN-6
    round_limit: int = 30  # PIN-TURN-7 Reading
    # DEPLOY / ACT
    activate_on_deploy_turn: bool = True  # PIN-DEPLOY-3 Reading
    cost_per_attack: bool = False  # PIN-ACT-4 Reading
    interleaved_activations: bool = True  # PIN-ACT-5 Reading
    # MOVE
    enter_enemy_max_size: str = "营"  # PIN-MOVE-2, -4
    ignore_stop_max_size: str = "旅"  # PIN-MOVE-3, -4
    hover_moves_as: str = "营"  # PIN-MOVE-5 Reading
    air_ignores_stop: bool = True  # PIN-MOVE-6 Reading
    special_after_stop: bool = False  # PIN-MOVE-3: after the stop, attack only (「只能进行攻击」)
    enemy_line_enterable: bool = True  # PIN-MOVE-7 Reading
    # TYPE
    type_range: tuple[tuple[str, int], ...] = (
        ("步兵", 1),
        ("装甲", 1),
        ("炮兵", 2),
        ("悬停", 2),
        ("战机", WHOLE_BOARD),
        ("轰炸机", WHOLE_BOARD),
    )  # PIN-TYPE-2 (seed 7-3)
    type_actions: tuple[tuple[str, int], ...] = (
        ("步兵", 2),
        ("装甲", 2),
        ("炮兵", 1),
        ("悬停", 2),
        ("战机", 2),
        ("轰炸机", 1),
    )  # PIN-TYPE-2 Reading
    standoff_distance: int = 2  # PIN-TYPE-4 Reading
    matrix: tuple[tuple[str, str, int], ...] = _DEFAULT_MATRIX  # PIN-TYPE-5 Reading
    # ATTACK
    guard_protects_units: bool = True  # PIN-ATTACK-2 Reading
    guard_ignorers: tuple[str, ...] = ("炮兵", "轰炸机")  # PIN-ATTACK-2
    zero_attack_may_attack: bool = False  # PIN-ATTACK-3 Reading
    ground_vs_air_percent: int = -50  # PIN-ATTACK-7
    ground_vs_air_on_attacks: bool = True  # PIN-ATTACK-7 Reading
    air_vs_air_percent: int = -50  # PIN-ATTACK-8
    # DMG
    direct_takes_percent: bool = False  # PIN-DMG-3 Reading
    ads_stops: tuple[str, ...] = ("导弹", "爆炸")  # PIN-DMG-7 Reading
    shield_refills: bool = True  # PIN-DMG-8 Reading
    reactive_halves: tuple[str, ...] = ("导弹", "爆炸")  # PIN-DMG-11 Reading
    splash_percent: int = 50  # PIN-DMG-14 Reading
    laser_ignores_armour: bool = True  # PIN-DMG-15 Reading
    plasma_pool_factor: int = 2  # PIN-DMG-16 Reading (cost to pools; ward charges)
    missile_passes_shields: bool = True  # PIN-DMG-17
    kinetic_armour_divisor: int = 2  # PIN-DMG-18 Reading
    # RETREAT
    retreat_to_hand_from_own_line: bool = True  # PIN-RETREAT-2
    # CHAOS (PIN-CHAOS-4 Reading)
    chaos_infantry_direct: int = 10
    chaos_artillery_percent: int = 25
    chaos_hover_actions: int = 1
    # HQ
    hq_hp: int = 160  # PIN-HQ-1 / seed 1-1
    both_hq_fall_draw: bool = True  # PIN-HQ-4 Reading
    # KW
    guard_radius: int = 1  # PIN-KW-2: friendly units adjacent to the 守护 (own cell counts)
    guard_hq_radius: int = 0  # PIN-KW-2: its side's HQ only from the HQ's own cell
    air_superiority_radius: int = 1  # PIN-KW-11 Reading
    # COUNTER
    counters_per_side_per_event: int = 1  # PIN-COUNTER-4 Reading
    # PIN-COUNTER-5 Reading: a window asks its side at every trigger, whether or not it
    # holds a counter it can play, so the pause tells the opponent nothing. True is the
    # old engine shortcut (only a side that can answer is asked): it leaks the hand.
    ask_only_able: bool = False
    extra: tuple[tuple[str, int], ...] = field(default=())

    def size_rank(self, size: str) -> int:
        return SIZES.index(size)

    def rarity_limit(self, rarity: str) -> int | None:
        return dict(self.rarity_limits).get(rarity)

    def versus(self, attacker: str, target: str) -> int:
        """兵种相克 percent for one (attacker type, target type) pair (PIN-TYPE-5)."""
        for a, t, pct in self.matrix:
            if a == attacker and t == target:
                return pct
        return 0

    def to_dict(self) -> dict[str, object]:
        return {name: getattr(self, name) for name in self.__dataclass_fields__}


PIN_RULES = Rules()
