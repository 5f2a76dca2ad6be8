"""The UI shell every game's dashboard is built from (ipywidgets + ipycanvas).

A game brings its board renderer (canvas drawing) and its action panel (buttons, hand);
the kit brings the rest: :mod:`~throne_lib.kit.ui.canvas` (draw-op replay, a safe
``hold_canvas``), :mod:`~throne_lib.kit.ui.inspector` (a panel showing one thing in full),
:mod:`~throne_lib.kit.ui.shell` (top bar, status line, 战报 panel,
result panel), :mod:`~throne_lib.kit.ui.stepper` (the replay viewer's stepping
controls), :mod:`~throne_lib.kit.ui.log_browser` (the replay pages' log picker),
:mod:`~throne_lib.kit.ui.observation_replay` (a replay page for a game without a viewer
of its own) and :mod:`~throne_lib.kit.ui.ai` (the AI seats' turns as an asyncio task).
"""
