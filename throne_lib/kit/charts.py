"""Chart helpers every game's matplotlib figures share (balance panels, match reviews)."""

from __future__ import annotations

#: CJK fonts tried in order for Chinese labels (the first one installed is used).
CJK_FONTS = ("Noto Sans CJK SC", "Noto Sans CJK JP", "Noto Sans SC", "WenQuanYi Zen Hei")


def set_cjk_font() -> str | None:
    """Use a CJK font for Chinese labels when one is installed; returns its name (None:
    none of :data:`CJK_FONTS` is installed, matplotlib's default font stays)."""
    from matplotlib import font_manager, rcParams

    names = {f.name for f in font_manager.fontManager.ttflist}
    for candidate in CJK_FONTS:
        if candidate in names:
            if rcParams["font.sans-serif"][:1] != [candidate]:
                rcParams["font.sans-serif"] = [candidate, *rcParams["font.sans-serif"]]
            rcParams["axes.unicode_minus"] = False
            return candidate
    return None
