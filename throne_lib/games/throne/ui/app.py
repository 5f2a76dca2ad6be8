"""The play dashboard: choose generals, decks, AI, seed and rules; then play.

``PlayApp`` shows the deck-choice panel first; 开始对局 builds a
:class:`~throne_lib.games.throne.ui.widget.MatchWidget`; 再来一局 starts the next seed with the
same choices. 「对手」 (the kit's :class:`~throne_lib.kit.ui.opponents.OpponentPicker`, in the
panel and beside 新对局) offers every agent of the kit, 信息集搜索 with a think time per
decision; a change applies from the next match. 快速对局 is the standard game with a 5-round limit (for a quick match
and the browser test); everything else is ``DEFAULT_RULES``.
"""

from __future__ import annotations

import dataclasses
import html
import json
from pathlib import Path
from typing import Any

import ipywidgets as W

from throne_lib.games.throne.cards import RACE_ZH, CardDB, load_cards
from throne_lib.games.throne.decks import load_deck, signature_deck, validate_deck
from throne_lib.games.throne.live import CardTableWatcher, TableUpdate, hot_swap
from throne_lib.games.throne.match import Match, SideSetup
from throne_lib.games.throne.rules import DEFAULT_RULES, Rules
from throne_lib.games.throne.ui.widget import AGENT_ZH, ENV_LOGS, MatchWidget
from throne_lib.kit.agents import agent_names as kit_agent_names
from throne_lib.kit.agents import make_agent
from throne_lib.kit.live import problems_html
from throne_lib.kit.log import logs_dir
from throne_lib.kit.ui.opponents import OpponentPicker

RULE_CHOICES: dict[str, Rules] = {
    "standard": DEFAULT_RULES,
    "quick": dataclasses.replace(DEFAULT_RULES, round_limit=5),
}
RULE_LABELS = [("标准对局（40 回合）", "standard"), ("快速对局（5 回合）", "quick")]
SETTINGS_FILE = "play_settings.json"  # beside the match logs: $THRONE_LOGS, else logs/


def settings_path() -> Path:
    """Where an autostarting play page keeps its last settings: the folder its match logs
    go to (``$THRONE_LOGS``, else the repository's ``logs/``), read when the page opens."""
    return logs_dir(ENV_LOGS) / SETTINGS_FILE


def agent_names() -> list[str]:
    """The agents ``throne_lib.kit.agents`` can build now (some may still be in progress)."""
    names = []
    for name in kit_agent_names("throne"):
        try:
            make_agent(name, 0)
        except (ImportError, ValueError, TypeError):
            continue
        names.append(name)
    return names or ["random"]


# the agents' Chinese names: the widget's (one table for the play page and the tower)


CHOICES = ("blue", "red", "deck_file", "red_deck_file", "agent", "think", "seed", "rules", "tempo")
THINK_S = 0.5  # 信息集搜索's default think time per decision: a responsive demo
TEMPO_CHOICES = [("节奏：标准", "standard"), ("快速", "fast")]


def _stamp(path: Path) -> tuple[int, int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return (st.st_mtime_ns, st.st_size)


def _panel_widget(name: str) -> Any:
    """A widget of the deck-choice panel, which is built on first use."""
    return property(lambda self: self._panel_widgets()[name])


class PlayApp(W.VBox):
    """Deck choice, then the match.

    The deck-choice panel (42 of the page's 124 widget models) is built the first
    time it is shown or touched: a page that opens on the board with the last settings
    (``autostart``) sends the browser only the board's widgets. Until then the choices
    live in a plain dict, checked against the same options the panel offers."""

    blue = _panel_widget("blue")
    red = _panel_widget("red")
    deck_file = _panel_widget("deck_file")
    red_deck_file = _panel_widget("red_deck_file")
    seed = _panel_widget("seed")
    rules = _panel_widget("rules")
    tempo = _panel_widget("tempo")
    start_btn = _panel_widget("start_btn")
    message = _panel_widget("message")
    setup = _panel_widget("setup")

    def __init__(
        self,
        db: CardDB | None = None,
        seed: int = 1,
        ai_mode: str = "async",
        tempo: str = "standard",
        rules: str = "standard",
        watcher: CardTableWatcher | None = None,
        autostart: bool = False,
        settings: Path | None = None,
    ) -> None:
        """``autostart``: show the board at once with the last settings (saved in
        :func:`settings_path` whenever a match starts); 换将领/牌组 opens the
        choice panel."""
        self.watcher = watcher
        # Only a dashboard that starts by itself remembers its choices.
        self.settings_path = settings if settings is not None or not autostart else settings_path()
        if db is None:
            db = watcher.db if watcher is not None else load_cards()
        self.db = db
        self.ai_mode = ai_mode
        self.match_widget: MatchWidget | None = None
        self._agents = agent_names()
        # 对手 and 思考时间: on the board too (beside 新对局), so they are built at once
        self.opponents = OpponentPicker(
            "throne", THINK_S, "tp-opponents",
            options=[(AGENT_ZH.get(n, n), n) for n in self._agents],
            value="standard" if "standard" in self._agents else self._agents[0],
            width="220px",
        )  # fmt: skip
        generals = self._generals()
        self._values: dict[str, Any] = {
            "blue": generals[0][1],
            "red": next((c.id for c in self.db.of("general", "demon")), generals[-1][1]),
            "deck_file": "",
            "red_deck_file": "",
            "seed": seed,
            "rules": rules,
            "tempo": tempo,
        }
        self._widgets: dict[str, Any] | None = None
        self._error = ""  # a failed start's message, before the panel exists
        self._settings_read: str | None = None  # the settings file as last read
        self._cards_stamp = _stamp(watcher.path) if watcher is not None else None
        self.back_btn = W.Button(description="换将领/牌组")
        self.back_btn.on_click(lambda _: self.show_setup())
        self.table_panel = W.HTML()  # live card table: swaps and errors (cards.csv edits)
        self.table_panel.add_class("tp-table-panel")
        self.setup_btn = W.Button(description="换将领/牌组", icon="cog")
        self.setup_btn.add_class("tp-setup-btn")
        self.setup_btn.layout = W.Layout(width="120px")
        self.setup_btn.on_click(lambda _: self.show_setup())
        # 新对局 with the seed shown next to it: the next seed by default, any seed typed
        self.next_seed = W.IntText(
            value=seed, description="种子", layout=W.Layout(width="150px"),
            style={"description_width": "32px"},
        )  # fmt: skip
        self.next_seed.add_class("tp-next-seed")
        self.new_btn = W.Button(description="新对局", icon="refresh", layout=W.Layout(width="90px"))
        self.new_btn.add_class("tp-new-match")
        self.new_btn.on_click(lambda _: self.start(int(self.next_seed.value)))
        super().__init__(self._top())
        if watcher is not None:
            watcher.subscribe(self.on_table)
        if autostart:
            if self.load_settings():  # a new match, not the last one again
                self.choose("seed", int(self.value("seed")) + 1)
            if self.start() is None:
                self.show_setup()
        else:
            self.show_setup()

    # --- the choices ---------------------------------------------------------------------

    @property
    def agent(self) -> W.Dropdown:
        """The 对手 dropdown (an agent name of the kit)."""
        return self.opponents.kind

    @property
    def think(self) -> W.FloatSlider:
        """思考时间: seconds per decision of 信息集搜索."""
        return self.opponents.seconds

    def _generals(self) -> list[tuple[str, str]]:
        return [(f"{c.name}（{RACE_ZH.get(c.race, c.race)}）", c.id) for c in self.db.of("general")]

    def _offered(self, key: str, value: object) -> bool:
        """Whether the panel offers ``value`` for ``key`` (a saved choice may be stale)."""
        if key in ("blue", "red"):
            return value in {gid for _, gid in self._generals()}
        if key == "agent":
            return value in self._agents
        if key == "think":  # seconds within the slider's range
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                return False
            return bool(self.think.min <= value <= self.think.max)
        if key == "rules":
            return value in RULE_CHOICES
        if key == "tempo":
            return value in {v for _, v in TEMPO_CHOICES}
        if key == "seed":
            return isinstance(value, int) and not isinstance(value, bool)
        return isinstance(value, str)

    def value(self, key: str) -> Any:
        """The current choice ``key`` (one of :data:`CHOICES`)."""
        if key in ("agent", "think"):
            return getattr(self, key).value
        if self._widgets is not None:
            return self._widgets[key].value
        return self._values[key]

    def choose(self, key: str, value: object) -> bool:
        """Set choice ``key``; False (and nothing changed) when it is not offered."""
        if not self._offered(key, value):
            return False
        if key in ("agent", "think"):
            getattr(self, key).value = value
        elif self._widgets is not None:
            self._widgets[key].value = value
        else:
            self._values[key] = value
        return True

    def _panel_widgets(self) -> dict[str, Any]:
        """The deck-choice panel's widgets, built on first use from the current choices."""
        if self._widgets is not None:
            return self._widgets
        style = {"description_width": "72px"}
        wide = W.Layout(width="300px")
        v = self._values
        generals = self._generals()
        w: dict[str, Any] = {
            "blue": W.Dropdown(
                options=generals, value=v["blue"], description="你（蓝方）", style=style,
                layout=wide,
            ),
            "red": W.Dropdown(
                options=generals, value=v["red"], description="AI（红方）", style=style,
                layout=wide,
            ),
            "deck_file": W.Text(
                value=v["deck_file"], placeholder="可选：蓝方牌组文件路径（替代招牌牌组）",
                description="蓝方牌组", style=style, layout=W.Layout(width="370px"),
            ),
            "red_deck_file": W.Text(
                value=v["red_deck_file"], placeholder="可选：红方牌组文件路径",
                description="红方牌组", style=style, layout=W.Layout(width="370px"),
            ),
            "seed": W.IntText(
                value=v["seed"], description="种子", style=style, layout=W.Layout(width="180px")
            ),
            "rules": W.Dropdown(
                options=RULE_LABELS, value=v["rules"], description="规则", style=style,
                layout=wide,
            ),
            "tempo": W.ToggleButtons(options=TEMPO_CHOICES, value=v["tempo"]),
        }  # fmt: skip
        for key, cls in (
            ("blue", "tp-blue"),
            ("red", "tp-red"),
            ("seed", "tp-seed"),
            ("rules", "tp-rules"),
            ("tempo", "tp-tempo-setup"),
            ("deck_file", "tp-deck-file"),
            ("red_deck_file", "tp-red-deck-file"),
        ):
            w[key].add_class(cls)
        start_btn = W.Button(description="开始对局", button_style="primary", icon="play")
        start_btn.add_class("tp-start")
        start_btn.on_click(lambda _: self.start())
        message = W.HTML(self._error)
        setup = W.VBox(
            [
                W.HTML(
                    "<h3 style='margin:4px 0'>选择将领与牌组</h3>"
                    "<div style='color:#5d6778'>两方都使用所选将领的招牌牌组（R-DECK-7），"
                    "也可以指定牌组文件（deck 格式见 throne_lib/games/throne/decks.py）。</div>"
                ),
                W.HBox([w["blue"], w["red"]]),
                W.HBox([w["deck_file"], w["red_deck_file"]]),
                W.HBox([w["seed"], self.opponents]),
                W.HBox([w["rules"], w["tempo"]]),
                W.HBox([start_btn, message], layout=W.Layout(align_items="center")),
            ],
            layout=W.Layout(border="1px solid #ccd3dd", padding="10px", width="760px"),
        )
        setup.add_class("tp-setup")
        self._widgets = {**w, "start_btn": start_btn, "message": message, "setup": setup}
        return self._widgets

    def _say(self, message: str) -> None:
        self._error = message
        if self._widgets is not None:
            self._widgets["message"].value = message

    def load_settings(self) -> bool:
        """The choices of the last match started here (values no longer offered, or an
        unreadable file, leave the defaults); True when its seed was read (the page
        then plays the next one)."""
        if self.settings_path is None:
            return False
        try:
            text = self.settings_path.read_text(encoding="utf-8")
        except OSError:
            return False
        self._settings_read = text
        try:
            saved = json.loads(text)
        except ValueError:
            return False
        if not isinstance(saved, dict):
            return False
        seeded = False
        for key in CHOICES:
            if key in saved:
                taken = self.choose(key, saved[key])  # a stale value keeps the default
                seeded = seeded or (key == "seed" and taken)
        return seeded

    def save_settings(self) -> None:
        if self.settings_path is None:
            return
        values = {key: self.value(key) for key in CHOICES}
        text = json.dumps(values, ensure_ascii=False)
        try:
            self.settings_path.parent.mkdir(parents=True, exist_ok=True)
            tmp = self.settings_path.with_suffix(".tmp")
            tmp.write_text(text, encoding="utf-8")
            tmp.replace(self.settings_path)
            self._settings_read = text
        except OSError:
            pass  # the settings are a convenience: a read-only folder changes nothing

    def on_visit(self) -> None:
        """The page was built before its visitor came (a preheated kernel, see
        :func:`throne_lib.ui.demo.wait_for_visitor`): if the last settings or cards.csv
        changed meanwhile, start the board again from them. Costs two ``stat`` calls and
        a small read when nothing changed."""
        stale = False
        if self.watcher is not None and _stamp(self.watcher.path) != self._cards_stamp:
            self._cards_stamp = _stamp(self.watcher.path)
            self.watcher.reload()  # subscribers (on_table) get the new table or its errors
            stale = True
        if self.settings_path is not None and self.match_widget is not None:
            try:
                text: str | None = self.settings_path.read_text(encoding="utf-8")
            except OSError:
                text = None
            if text != self._settings_read:
                if self.load_settings():  # another page's last match: play the next seed
                    self.choose("seed", int(self.value("seed")) + 1)
                stale = True
        if stale and self.match_widget is not None:
            self.start()
            if self.watcher is not None and not self.watcher.errors:
                self.table_panel.value = ""

    def _top(self) -> list[W.Widget]:
        """The live-table panel, shown when the app follows cards.csv."""
        return [self.table_panel] if self.watcher is not None else []

    def on_table(self, update: TableUpdate) -> None:
        """A new valid table: new matches use it, the running match hot-swaps it (cards in
        hand, deck and graveyard take the new definitions; units on the board keep their
        stats; the swap is in the log). A broken table: the last valid one stays in force
        and every problem is listed."""
        if update.errors:
            self.table_panel.value = problems_html(
                "cards.csv 有错误，仍使用上一个有效版本：", update.errors
            )
            return
        if not update.changed:
            self.table_panel.value = ""
            return
        self.db = update.db
        note = f"卡牌表已更新（{update.db.hash[:8]}）"
        widget = self.match_widget
        if widget is not None and not widget.match.is_over:
            try:
                ev = hot_swap(widget.match, update.db)
                widget.refresh()
                note += f"：当前对局已换用新表（{html.escape(ev.note.split(' ', 1)[-1])}）"
            except ValueError as error:
                note += f"；当前对局继续使用旧表（{html.escape(str(error))}）"
        self.table_panel.value = f"<div style='color:#1e8449;padding:4px 0'>{note}</div>"

    def setups(self) -> tuple[SideSetup, SideSetup]:
        """Each side: its deck file if given (validated, R-DECK-*), else the signature
        deck of the chosen general (R-DECK-7)."""
        out = []
        for general, box in (("blue", "deck_file"), ("red", "red_deck_file")):
            path = str(self.value(box)).strip()
            if not path:
                out.append(signature_deck(self.db, self.value(general)))
                continue
            setup = load_deck(path)
            problems = validate_deck(self.db, setup)
            if problems:
                raise ValueError(f"{path}：" + "；".join(str(p) for p in problems))
            out.append(setup)
        return out[0], out[1]

    def start(self, seed: int | None = None) -> MatchWidget | None:
        if seed is not None:
            self.choose("seed", seed)
        try:
            blue, red = self.setups()
            rules = RULE_CHOICES[self.value("rules")]
            match = Match.new(self.db, blue, red, int(self.value("seed")), rules)
            # 信息集搜索 with the think time now; any other agent by its name
            agent = self.opponents.agent(
                match.seed, 1, lambda seed, _seat: make_agent(self.value("agent"), seed + 1)
            )
        except (OSError, ValueError) as error:
            self._say(f"<span style='color:#b03a2e'>{html.escape(str(error))}</span>")
            return None
        self._say("")
        if self.match_widget is not None:
            self.match_widget.stop_ai()  # its search must not go on beside the new match's
        widget = MatchWidget(
            match,
            agent,
            human=0,
            tempo=self.value("tempo"),
            ai_mode=self.ai_mode,
            on_again=self.again,
            agent_name=AGENT_ZH.get(self.value("agent"), self.value("agent")),
        )
        widget.result_buttons.children = (*widget.result_buttons.children, self.back_btn)
        self.next_seed.value = match.seed + 1
        seed_now = W.HTML(
            f"<span class='tp-seed-now' style='color:#5d6778'>本局种子 {match.seed}</span>"
        )
        widget.buttons.children = (
            *widget.buttons.children, self.setup_btn, seed_now, self.next_seed, self.new_btn,
            self.opponents,
        )  # fmt: skip
        self.match_widget = widget
        self.save_settings()
        self.children = [*self._top(), widget]
        return widget

    def again(self) -> None:
        self.start(int(self.value("seed")) + 1)

    def show_setup(self) -> None:
        if self.match_widget is not None:
            self.match_widget.stop_ai()
        self.match_widget = None
        self.children = [*self._top(), self.setup]

    def __repr__(self) -> str:
        return f"<PlayApp {self.match_widget.match if self.match_widget else 'setup'}>"
