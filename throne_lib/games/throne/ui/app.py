"""The play dashboard: choose generals, decks, AI, seed and rules; then play.

``PlayApp`` shows the deck-choice panel first; 开始对局 builds a
:class:`~throne_lib.games.throne.ui.widget.MatchWidget`; 再来一局 starts the next seed with the
same choices. 快速对局 is the standard game with a 5-round limit (for a quick match
and the browser test); everything else is ``DEFAULT_RULES``.
"""

from __future__ import annotations

import dataclasses
import html
import json
from pathlib import Path

import ipywidgets as W

from throne_lib.games.throne.cards import RACE_ZH, CardDB, load_cards
from throne_lib.games.throne.decks import load_deck, signature_deck, validate_deck
from throne_lib.games.throne.live import CardTableWatcher, TableUpdate, hot_swap
from throne_lib.games.throne.match import Match, SideSetup
from throne_lib.games.throne.rules import DEFAULT_RULES, Rules
from throne_lib.games.throne.ui.widget import MatchWidget
from throne_lib.kit.agents import agent_names as kit_agent_names
from throne_lib.kit.agents import make_agent

RULE_CHOICES: dict[str, Rules] = {
    "standard": DEFAULT_RULES,
    "quick": dataclasses.replace(DEFAULT_RULES, round_limit=5),
}
RULE_LABELS = [("标准对局（40 回合）", "standard"), ("快速对局（5 回合）", "quick")]
SETTINGS = Path(__file__).resolve().parents[4] / "logs" / "play_settings.json"


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


AGENT_ZH = {"random": "随机", "standard": "标准 AI", "search": "搜索 AI"}


class PlayApp(W.VBox):
    """Deck choice, then the match."""

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
        ``logs/play_settings.json`` whenever a match starts); 换将领/牌组 opens the
        choice panel."""
        self.watcher = watcher
        # Only a dashboard that starts by itself remembers its choices.
        self.settings_path = settings if settings is not None or not autostart else SETTINGS
        if db is None:
            db = watcher.db if watcher is not None else load_cards()
        self.db = db
        self.ai_mode = ai_mode
        self.match_widget: MatchWidget | None = None
        generals = [
            (f"{c.name}（{RACE_ZH.get(c.race, c.race)}）", c.id) for c in self.db.of("general")
        ]
        style = {"description_width": "72px"}
        wide = W.Layout(width="300px")
        self.blue = W.Dropdown(options=generals, description="你（蓝方）", style=style, layout=wide)
        self.red = W.Dropdown(
            options=generals,
            value=next((c.id for c in self.db.of("general", "demon")), generals[-1][1]),
            description="AI（红方）",
            style=style,
            layout=wide,
        )
        self.deck_file = W.Text(
            placeholder="可选：蓝方牌组文件路径（替代招牌牌组）",
            description="蓝方牌组",
            style=style,
            layout=W.Layout(width="370px"),
        )
        self.red_deck_file = W.Text(
            placeholder="可选：红方牌组文件路径",
            description="红方牌组",
            style=style,
            layout=W.Layout(width="370px"),
        )
        names = agent_names()
        self.agent = W.Dropdown(
            options=[(AGENT_ZH.get(n, n), n) for n in names],
            value="standard" if "standard" in names else names[0],
            description="AI 对手",
            style=style,
            layout=wide,
        )
        self.seed = W.IntText(
            value=seed, description="种子", style=style, layout=W.Layout(width="180px")
        )
        self.rules = W.Dropdown(
            options=RULE_LABELS, value=rules, description="规则", style=style, layout=wide
        )
        self.tempo = W.ToggleButtons(
            options=[("节奏：标准", "standard"), ("快速", "fast")], value=tempo
        )
        for widget, cls in (
            (self.blue, "tp-blue"),
            (self.red, "tp-red"),
            (self.agent, "tp-agent"),
            (self.seed, "tp-seed"),
            (self.rules, "tp-rules"),
            (self.tempo, "tp-tempo-setup"),
            (self.deck_file, "tp-deck-file"),
            (self.red_deck_file, "tp-red-deck-file"),
        ):
            widget.add_class(cls)
        self.start_btn = W.Button(description="开始对局", button_style="primary", icon="play")
        self.start_btn.add_class("tp-start")
        self.start_btn.on_click(lambda _: self.start())
        self.message = W.HTML()
        self.setup = W.VBox(
            [
                W.HTML(
                    "<h3 style='margin:4px 0'>选择将领与牌组</h3>"
                    "<div style='color:#5d6778'>两方都使用所选将领的招牌牌组（R-DECK-7），"
                    "也可以指定牌组文件（deck 格式见 throne_lib/games/throne/decks.py）。</div>"
                ),
                W.HBox([self.blue, self.red]),
                W.HBox([self.deck_file, self.red_deck_file]),
                W.HBox([self.agent, self.seed]),
                W.HBox([self.rules, self.tempo]),
                W.HBox([self.start_btn, self.message], layout=W.Layout(align_items="center")),
            ],
            layout=W.Layout(border="1px solid #ccd3dd", padding="10px", width="760px"),
        )
        self.setup.add_class("tp-setup")
        self.back_btn = W.Button(description="换将领/牌组")
        self.back_btn.on_click(lambda _: self.show_setup())
        self.table_panel = W.HTML()  # live card table: swaps and errors (cards.csv edits)
        self.table_panel.add_class("tp-table-panel")
        self.setup_btn = W.Button(description="换将领/牌组", icon="cog")
        self.setup_btn.add_class("tp-setup-btn")
        self.setup_btn.layout = W.Layout(width="120px")
        self.setup_btn.on_click(lambda _: self.show_setup())
        super().__init__([*self._top(), self.setup])
        if watcher is not None:
            watcher.subscribe(self.on_table)
        if autostart:
            self.load_settings()
            if self.start() is None:
                self.show_setup()

    def _controls(self) -> dict[str, W.ValueWidget]:
        return {
            "blue": self.blue,
            "red": self.red,
            "deck_file": self.deck_file,
            "red_deck_file": self.red_deck_file,
            "agent": self.agent,
            "seed": self.seed,
            "rules": self.rules,
            "tempo": self.tempo,
        }

    def load_settings(self) -> None:
        """The choices of the last match started here (values no longer offered, or an
        unreadable file, leave the defaults)."""
        if self.settings_path is None:
            return
        try:
            saved = json.loads(self.settings_path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return
        if not isinstance(saved, dict):
            return
        for key, widget in self._controls().items():
            if key in saved:
                try:
                    widget.value = saved[key]
                except Exception:  # noqa: BLE001 - a stale value keeps the default
                    continue

    def save_settings(self) -> None:
        if self.settings_path is None:
            return
        values = {key: widget.value for key, widget in self._controls().items()}
        try:
            self.settings_path.parent.mkdir(parents=True, exist_ok=True)
            tmp = self.settings_path.with_suffix(".tmp")
            tmp.write_text(json.dumps(values, ensure_ascii=False), encoding="utf-8")
            tmp.replace(self.settings_path)
        except OSError:
            pass  # the settings are a convenience: a read-only folder changes nothing

    def _top(self) -> list[W.Widget]:
        """The live-table panel, shown when the app follows cards.csv."""
        return [self.table_panel] if self.watcher is not None else []

    def on_table(self, update: TableUpdate) -> None:
        """A new valid table: new matches use it, the running match hot-swaps it (cards in
        hand, deck and graveyard take the new definitions; units on the board keep their
        stats; the swap is in the log). A broken table: the last valid one stays in force
        and every problem is listed."""
        if update.errors:
            items = "".join(f"<li><code>{html.escape(p)}</code></li>" for p in update.errors)
            self.table_panel.value = (
                "<div style='border:1px solid #e0b4b4;background:#fff6f6;color:#9f3a38;"
                "padding:6px 10px'><b>cards.csv 有错误，仍使用上一个有效版本：</b>"
                f"<ul style='margin:4px 0'>{items}</ul></div>"
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
        for general, box in ((self.blue, self.deck_file), (self.red, self.red_deck_file)):
            path = box.value.strip()
            if not path:
                out.append(signature_deck(self.db, general.value))
                continue
            setup = load_deck(path)
            problems = validate_deck(self.db, setup)
            if problems:
                raise ValueError(f"{path}：" + "；".join(str(p) for p in problems))
            out.append(setup)
        return out[0], out[1]

    def start(self, seed: int | None = None) -> MatchWidget | None:
        if seed is not None:
            self.seed.value = seed
        try:
            blue, red = self.setups()
            rules = RULE_CHOICES[self.rules.value]
            match = Match.new(self.db, blue, red, int(self.seed.value), rules)
            agent = make_agent(self.agent.value, int(self.seed.value) + 1)
        except (OSError, ValueError) as error:
            self.message.value = f"<span style='color:#b03a2e'>{html.escape(str(error))}</span>"
            return None
        self.message.value = ""
        widget = MatchWidget(
            match,
            agent,
            human=0,
            tempo=self.tempo.value,
            ai_mode=self.ai_mode,
            on_again=self.again,
            agent_name=AGENT_ZH.get(self.agent.value, self.agent.value),
        )
        widget.result_buttons.children = (*widget.result_buttons.children, self.back_btn)
        widget.buttons.children = (*widget.buttons.children, self.setup_btn)
        self.match_widget = widget
        self.save_settings()
        self.children = [*self._top(), widget]
        return widget

    def again(self) -> None:
        self.start(int(self.seed.value) + 1)

    def show_setup(self) -> None:
        self.match_widget = None
        self.children = [*self._top(), self.setup]

    def __repr__(self) -> str:
        return f"<PlayApp {self.match_widget.match if self.match_widget else 'setup'}>"
