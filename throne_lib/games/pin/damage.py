"""Damage: percentage modifiers and the absorption layers (PIN-DMG-*, PIN-TYPE-5/6).

Pure functions over a :class:`Defender` snapshot; the engine applies the result. Every
instance returns a :class:`Hit` that records which layer took what, for the 战报.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from throne_lib.games.pin.rules import AIR_TYPES, Rules


def ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def modified(base: int, percent: int) -> int:
    """⌈base × (100 + S) / 100⌉, never below 0, exact (PIN-DMG-4)."""
    return max(0, ceil_div(base * (100 + percent), 100))


@dataclass(slots=True)
class Defender:
    """The layers of one target: pools and charges left, static values (PIN-DMG-6)."""

    hp: int
    ads: int = 0
    shield: int = 0
    mshield: int = 0
    ward: int = 0
    reactive: bool = False
    armor: int = 0


@dataclass(slots=True)
class Hit:
    base: int
    dtype: str
    percent: int
    amount: int  # after modifiers
    layers: list[tuple[str, int]] = field(default_factory=list)  # (layer, points taken)
    cancelled_by: str = ""  # ADS / "魔法"护盾
    hp_loss: int = 0
    after: Defender | None = None

    def zh(self) -> str:
        """``25 爆炸 (+25% → 32)：护盾吸收10，装甲−5，生命−17``."""
        head = f"{self.base}点{self.dtype}"
        if self.percent:
            head += f"（{self.percent:+d}% → {self.amount}）"
        parts = [f"{name}吸收{pts}" if pts >= 0 else f"{name}" for name, pts in self.layers]
        if self.cancelled_by:
            parts.append(f"被{self.cancelled_by}拦截")
        else:
            parts.append(f"生命−{self.hp_loss}")
        return f"{head}：{'，'.join(parts)}"


def layer_pass(d: Defender, amount: int, dtype: str, rules: Rules) -> Hit:
    """Run one instance through the layers in the rulebook's order (PIN-DMG-6…19)."""
    hit = Hit(base=amount, dtype=dtype, percent=0, amount=amount)
    out = Defender(d.hp, d.ads, d.shield, d.mshield, d.ward, d.reactive, d.armor)
    hit.after = out
    rest = amount
    if dtype == "直接":  # PIN-DMG-3
        out.hp -= rest
        hit.hp_loss = rest
        return hit
    plasma = dtype == "电浆"
    shielded = not (dtype == "导弹" and rules.missile_passes_shields)  # PIN-DMG-17
    if out.ads > 0 and dtype in rules.ads_stops:  # PIN-DMG-7
        out.ads -= 1
        hit.cancelled_by = "ADS"
        return hit
    for name, attr in (("护盾", "shield"), ("魔法护盾", "mshield")):  # PIN-DMG-8, -9
        pool = getattr(out, attr)
        if not shielded or pool <= 0 or rest <= 0:
            continue
        if plasma:  # PIN-DMG-16: half value, double cost
            took = min(rest, ceil_div(pool, rules.plasma_pool_factor))
            setattr(out, attr, pool - min(pool, rules.plasma_pool_factor * took))
        else:
            took = min(rest, pool)
            setattr(out, attr, pool - took)
        rest -= took
        hit.layers.append((name, took))
    if shielded and out.ward > 0 and rest > 0:  # PIN-DMG-10
        out.ward = max(0, out.ward - (rules.plasma_pool_factor if plasma else 1))
        hit.cancelled_by = '"魔法"护盾'
        return hit
    if out.reactive and dtype in rules.reactive_halves and rest > 0:  # PIN-DMG-11
        kept = ceil_div(rest, 2)
        hit.layers.append(("反应装甲", rest - kept))
        rest = kept
    if out.armor and rest > 0 and not (dtype == "激光" and rules.laser_ignores_armour):
        armour = out.armor // rules.kinetic_armour_divisor if dtype == "动能" else out.armor
        took = min(rest, armour)  # PIN-DMG-12, -18
        hit.layers.append(("装甲", took))
        rest -= took
    out.hp -= rest
    hit.hp_loss = rest
    return hit


def versus_percent(rules: Rules, attacker: tuple[str, ...], target: tuple[str, ...]) -> int:
    """The 兵种相克 value: the highest over all type pairs (PIN-TYPE-6)."""
    if not attacker or not target:
        return 0
    return max(rules.versus(a, t) for a in attacker for t in target)


def is_air(types: tuple[str, ...]) -> bool:
    return any(t in AIR_TYPES for t in types)


def combat_percent(
    rules: Rules,
    attacker: tuple[str, ...],
    attacker_aa: bool,
    target: tuple[str, ...],
    dtype: str,
    target_chaos_artillery: bool,
    counter: bool,
) -> tuple[int, str]:
    """Modifier sum S and the damage type actually dealt by an attack or counter.

    ``target`` is empty for an HQ (no type: no 相克, no air rule, PIN-HQ-3)."""
    if dtype == "直接" and not rules.direct_takes_percent:
        return 0, dtype
    s = versus_percent(rules, attacker, target)  # PIN-TYPE-5
    ground_on_air = target and is_air(target) and not is_air(attacker) and not attacker_aa
    if ground_on_air and (counter or rules.ground_vs_air_on_attacks):  # PIN-ATTACK-7
        dtype = "导弹"
        s += rules.ground_vs_air_percent
    if target and is_air(target) and is_air(attacker) and dtype != "导弹":
        s += rules.air_vs_air_percent  # PIN-ATTACK-8
    if target_chaos_artillery:
        s += rules.chaos_artillery_percent  # PIN-CHAOS-4
    return s, dtype
