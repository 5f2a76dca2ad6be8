"""The demo's home page: every registered game with one card per dashboard, Chinese
with English subtitles (the games and their dashboards come from the registry)."""

from __future__ import annotations

import html

import ipywidgets as W

from throne_lib.kit import registry

CSS = """
<style>
.tp-home{font-family:'Noto Sans CJK SC','Noto Sans SC',sans-serif;max-width:980px}
.tp-home h1{font-size:28px;margin:4px 0 2px}
.tp-home h2{font-size:20px;margin:14px 0 8px;color:#333}
.tp-home .sub{color:#666;margin-bottom:16px}
.tp-grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(290px,1fr));gap:14px}
.tp-card{display:block;border:1px solid #d8dee8;border-radius:8px;padding:14px 16px;
 text-decoration:none;color:#222;background:#fbfcfe;box-shadow:0 1px 2px rgba(0,0,0,.05)}
.tp-card:hover{border-color:#2d6cdf;background:#f2f6fe}
.tp-card b{font-size:19px;color:#1d4796}.tp-card i{color:#888;font-style:normal;margin-left:6px}
.tp-card p{margin:6px 0 0;font-size:14px}.tp-card .en{color:#777;font-size:12px;margin-top:2px}
</style>
"""


def _card(d: registry.Dashboard) -> str:
    return (
        f"<a class='tp-card' href='{d.notebook}' id='tp-link-{d.notebook.split('.')[0]}'>"
        f"<b>{html.escape(d.title)}</b><i>{html.escape(d.subtitle)}</i>"
        f"<p>{html.escape(d.zh)}</p><p class='en'>{html.escape(d.en)}</p></a>"
    )


def home_html() -> str:
    sections = "".join(
        f"<h2 id='tp-game-{g.name}'>{html.escape(g.title)} · {html.escape(g.title_en)}</h2>"
        f"<div class='tp-grid'>{''.join(_card(d) for d in g.dashboards)}</div>"
        for g in registry.games()
    )
    return (
        CSS + "<div class='tp-home'><h1>王座与方阵 · Throne &amp; Phalanx</h1>"
        "<div class='sub'>战术卡牌游戏的设计原型 · a design kit for tactical card games</div>"
        f"{sections}</div>"
    )


def home_page() -> W.VBox:
    """The home page widget (``notebooks/index.ipynb``): the dashboards of every game,
    then the 新建牌局 form (a playtest for several people, docs/playtests.md)."""
    from throne_lib.kit.playtest.form import PlaytestForm

    form = PlaytestForm()
    form.widget.layout.max_width = "980px"
    return W.VBox([W.HTML(home_html()), form.widget])


NAV_CSS = (
    "<style>.tp-nav{font-family:'Noto Sans CJK SC','Noto Sans SC',sans-serif;"
    "font-size:14px;margin:0 0 6px;display:flex;gap:14px;align-items:baseline;flex-wrap:wrap}"
    ".tp-nav b{font-size:18px;color:#1b1b1b;margin-right:8px}"
    ".tp-nav a{text-decoration:none;color:#1d4796}.tp-nav a:hover{text-decoration:underline}"
    ".tp-nav .here{color:#5d6778}</style>"
)


def nav_html(current: str) -> str:
    """One line on top of every dashboard: its game's title, the page's title, a link
    to the home page and to the game's other dashboards (from the registry)."""
    up = "../" * current.count("/")  # a game's notebooks may sit in a subfolder
    game = next(
        (g for g in registry.games() if any(d.notebook == current for d in g.dashboards)), None
    )
    boards = game.dashboards if game is not None else ()
    here = next((d.title for d in boards if d.notebook == current), "")
    links = [f"<a class='tp-home-link' href='{up}index.ipynb'>‹ 首页</a>"]
    for d in boards:
        if d.notebook == current:
            links.append(f"<span class='here'>{html.escape(d.title)}</span>")
        else:
            links.append(f"<a href='{up}{d.notebook}'>{html.escape(d.title)}</a>")
    name = game.title if game is not None else "王座与方阵"
    if here.startswith(name):  # "城堡之心 · 复盘" names its game already
        name = here
    elif here:  # "PIN 对战" names it by its first word: 「PIN 架空战争 · 对战」
        name = f"{name} · {here.removeprefix(name.split(' ', 1)[0] + ' ')}"
    head = f"<b>{html.escape(name)}</b>"
    return f"{NAV_CSS}<div class='tp-nav'>{head}{''.join(links)}</div>"
