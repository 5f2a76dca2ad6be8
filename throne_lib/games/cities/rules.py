"""Every number and every **Reading:** of RULES-CITIES.md as one frozen parameter set.

``CitiesRules`` adds the mode's parameters on top of the base game's
:class:`~throne_lib.games.castle.rules.CastleRules` (``base``), which holds unless a
CW- rule changes it. The comment on each field names the rule that sets it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from throne_lib.games.castle.rules import CastleRules, player_row

# players -> (cities in play, victory count)   CW-SETUP-3
DEFAULT_CITY_TABLE: dict[int, tuple[int, int]] = {
    3: (6, 4),
    4: (8, 4),
    5: (9, 5),
    6: (10, 5),
    7: (11, 6),
    8: (12, 6),
}


@dataclass(frozen=True)
class CitiesRules:
    """Rule parameters of 城池战; every default is the rulebook's (ID in the comment)."""

    base: CastleRules = field(default_factory=lambda: CastleRules(max_rounds=None))  # CW-SETUP-1
    base_variant: str = "none"  # CW-SETUP-1
    min_players: int = 3  # CW-SETUP-2
    max_players: int = 8  # CW-SETUP-2
    city_table: dict[int, tuple[int, int]] = field(
        default_factory=lambda: dict(DEFAULT_CITY_TABLE)
    )  # CW-SETUP-3
    # CW-SETUP-3: cities each team member beyond the first adds to the table's count (a
    # team needs as many cities beyond its starting cities as a lone player does)
    victory_per_member: int = 1
    random_seating: bool = True  # CW-SETUP-4
    city_pick: str = "random"  # CW-SETUP-5
    start_grain: int = 30  # CW-GRAIN-1
    city_grain: int = 15  # CW-GRAIN-2, CW-GRAIN-3
    round_leader: str = "first_player"  # CW-TURN-1
    prep_step: str = "turn_start"  # CW-TURN-2
    abandon_window: str = "prep_step_end"  # CW-TURN-3
    supply_recycles: bool = True  # CW-CITY-7
    grain_heal: bool = False  # CW-GRAIN-9
    attack_allied_cities: bool = False  # CW-SIEGE-1
    siege_bonus: int = 2  # CW-SIEGE-3
    city_distance: str = "seat"  # CW-SIEGE-4
    garrison: bool = False  # CW-SIEGE-5
    stop_on_break: bool = True  # CW-SIEGE-6
    owner_blocks: bool = True  # CW-SIEGE-7
    empty_city_is_player: bool = False  # CW-SIEGE-8
    city_magic: tuple[str, ...] = ("爆裂火球",)  # CW-SIEGE-9
    fireball_city_damage: int = 3  # CW-SIEGE-9
    city_skills: str = "none"  # CW-SIEGE-10
    deck_mode: str = "personal"  # CW-DECK-1 ("shared": see CitiesMode.draw for the reading)
    reset_cities_to: str = "empty_area"  # CW-DECK-3
    abandon_limit: int | None = None  # CW-ABANDON-2
    out_allies_share_win: bool = True  # CW-WIN-2
    concede_anytime: bool = True  # CW-WIN-4
    out_ends_turn: bool = True  # CW-WIN-5
    max_rounds: int | None = 40  # CW-WIN-6
    roles: bool = False  # CW-TEAM-1
    kill_reward: int = 3  # CW-TEAM-4
    revive: bool = True  # CW-TEAM-5
    dead_keep_seat: bool = True  # CW-TEAM-6
    ai_abandon_grain: int = 3  # CW-AI-5
    ai_cautious: bool = False  # CW-AI-3

    def cities_in_play(self, players: int) -> int:
        return self._row(players)[0]

    def victory_count(self, players: int, members: int = 1) -> int:
        """CW-SETUP-3: a team of ``members`` players needs its members + (the table's
        count − 1) cities (``victory_per_member`` per member beyond the first)."""
        if members < 1:
            raise ValueError(f"a team has at least one member, not {members} (CW-SETUP-3)")
        return self._row(players)[1] + (members - 1) * self.victory_per_member

    def _row(self, players: int) -> tuple[int, int]:
        return player_row(
            self.city_table,
            players,
            (self.min_players, self.max_players),
            ("城池战", "CW-SETUP-2"),
            ("city", "CW-SETUP-3"),
        )
