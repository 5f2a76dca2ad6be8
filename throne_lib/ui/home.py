"""The demo's home page: one card per dashboard, Chinese with English subtitles."""

from __future__ import annotations

import html

import ipywidgets as W

DASHBOARDS: tuple[tuple[str, str, str, str, str], ...] = (
    # (notebook, title, subtitle, Chinese line, English line)
    (
        "play.ipynb",
        "对战",
        "Play",
        "选将领与牌组，在棋盘上用鼠标与 AI 打一局。",
        "Play a match against the AI with the mouse.",
    ),
    (
        "tower.ipynb",
        "王座之塔",
        "Tower",
        "爬塔模式：三层塔图，战斗、商店、篝火与遗物，进度自动保存。",
        "The roguelike run: battles, shops, campfires, relics; saved as you go.",
    ),
    (
        "cards.ipynb",
        "卡牌编辑",
        "Card editor",
        "在表格里改卡牌，保存前校验，运行中的页面即时生效。",
        "Edit cards.csv in a grid; validated on save, picked up live.",
    ),
    (
        "replay.ipynb",
        "对局回放",
        "Replay",
        "逐步回看任一对局记录：棋盘、战报、血量与伤害图表。",
        "Step through any match log: board, battle log, charts.",
    ),
    (
        "balance.ipynb",
        "平衡分析",
        "Balance",
        "批量模拟对局，看胜率热图、对局长度与单卡表现。",
        "Run seeded sweeps and read win rates, lengths and card stats.",
    ),
)

CSS = """
<style>
.tp-home{font-family:'Noto Sans CJK SC','Noto Sans SC',sans-serif;max-width:980px}
.tp-home h1{font-size:28px;margin:4px 0 2px}
.tp-home .sub{color:#666;margin-bottom:16px}
.tp-grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(290px,1fr));gap:14px}
.tp-card{display:block;border:1px solid #d8dee8;border-radius:8px;padding:14px 16px;
 text-decoration:none;color:#222;background:#fbfcfe;box-shadow:0 1px 2px rgba(0,0,0,.05)}
.tp-card:hover{border-color:#2d6cdf;background:#f2f6fe}
.tp-card b{font-size:19px;color:#1d4796}.tp-card i{color:#888;font-style:normal;margin-left:6px}
.tp-card p{margin:6px 0 0;font-size:14px}.tp-card .en{color:#777;font-size:12px;margin-top:2px}
</style>
"""


def home_html() -> str:
    cards = "".join(
        f"<a class='tp-card' href='{nb}' id='tp-link-{nb.split('.')[0]}'>"
        f"<b>{html.escape(title)}</b><i>{html.escape(sub)}</i>"
        f"<p>{html.escape(zh)}</p><p class='en'>{html.escape(en)}</p></a>"
        for nb, title, sub, zh, en in DASHBOARDS
    )
    return (
        CSS + "<div class='tp-home'><h1>王座与方阵 · Throne &amp; Phalanx</h1>"
        "<div class='sub'>战术卡牌游戏的设计原型 · a design kit for a tactical card game</div>"
        f"<div class='tp-grid'>{cards}</div></div>"
    )


def home_page() -> W.HTML:
    """The home page widget (``notebooks/index.ipynb``)."""
    return W.HTML(home_html())


NAV_CSS = (
    "<style>.tp-nav{font-family:'Noto Sans CJK SC','Noto Sans SC',sans-serif;"
    "font-size:14px;margin:0 0 6px;display:flex;gap:14px;align-items:baseline;flex-wrap:wrap}"
    ".tp-nav b{font-size:18px;color:#1b1b1b;margin-right:8px}"
    ".tp-nav a{text-decoration:none;color:#1d4796}.tp-nav a:hover{text-decoration:underline}"
    ".tp-nav .here{color:#5d6778}</style>"
)


def nav_html(current: str) -> str:
    """One line on top of every dashboard: its title, a link home and to the others."""
    titles = {nb: title for nb, title, *_ in DASHBOARDS}
    title = titles.get(current, "")
    links = ["<a class='tp-home-link' href='index.ipynb'>‹ 首页</a>"]
    for nb, name in titles.items():
        if nb == current:
            links.append(f"<span class='here'>{html.escape(name)}</span>")
        else:
            links.append(f"<a href='{nb}'>{html.escape(name)}</a>")
    head = f"<b>王座与方阵 · {html.escape(title)}</b>" if title else "<b>王座与方阵</b>"
    return f"{NAV_CSS}<div class='tp-nav'>{head}{''.join(links)}</div>"
