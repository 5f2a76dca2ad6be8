"""Pure drawing of a run's current floor: a Run -> canvas ops, and click hit-testing.

Ops follow :mod:`throne_lib.games.throne.ui.render`: ``(method, *args)`` for an ipycanvas
``Canvas`` method or ``("set", attribute, value)``. Nothing here imports ipycanvas.
Row 1 is at the bottom, the boss at the top; reachable nodes are ringed in gold,
the visited path is drawn thick, the current node ringed in blue.
"""

from __future__ import annotations

from throne_lib.games.throne.tower.map import KIND_ZH, Node
from throne_lib.games.throne.tower.run import Run

Op = tuple[object, ...]

STEP_X = 78
STEP_Y = 62
MARGIN_X = 40
MARGIN_TOP = 56
RADIUS = 23
FONT = "'Noto Sans CJK SC', 'Noto Sans SC', 'Microsoft YaHei', sans-serif"
KIND_COLOUR = {  # dark enough for white labels (contrast ≥ 4.5 : 1)
    "battle": "#4d5a6b",
    "elite": "#a93226",
    "campfire": "#a04000",
    "shop": "#0e6655",
    "event": "#6c3483",
    "chest": "#7d6608",
    "boss": "#641e16",
}


def size(run: Run) -> tuple[int, int]:
    r = run.tmap.rules
    return (2 * MARGIN_X + (r.columns - 1) * STEP_X, MARGIN_TOP + (r.rows - 1) * STEP_Y + 40)


def centre(run: Run, node: Node) -> tuple[float, float]:
    rows = run.tmap.rules.rows
    return (MARGIN_X + node.col * STEP_X, MARGIN_TOP + (rows - 1 - node.row) * STEP_Y)


def visited(run: Run) -> list[str]:
    """Ids of the nodes visited on the current floor, in order."""
    return [s.node for s in run.steps if s.floor == run.floor and s.node]


def map_ops(run: Run) -> list[Op]:
    w, h = size(run)
    floor = run.floor
    nodes = [n for n in run.tmap if n.floor == floor]
    path = visited(run)
    on_path = set(zip(path, path[1:], strict=False))
    reach = {n.id for n in run.reachable()}
    ops: list[Op] = [
        ("clear_rect", 0, 0, w, h),
        ("set", "fill_style", "#f6f1e7"),
        ("fill_rect", 0, 0, w, h),
    ]
    ops += [
        ("set", "font", f"bold 20px {FONT}"),
        ("set", "fill_style", "#3b2f1e"),
        ("set", "text_align", "left"),
        ("set", "text_baseline", "middle"),
        ("fill_text", f"王座之塔 · 第 {floor + 1}/{run.tmap.rules.floors} 层", 12, 22),
    ]
    for n in nodes:
        for child in run.tmap.children(n.id):
            x0, y0 = centre(run, n)
            x1, y1 = centre(run, child)
            walked = (n.id, child.id) in on_path
            ops += [
                ("set", "stroke_style", "#2c3e50" if walked else "#b8ac96"),
                ("set", "line_width", 5 if walked else 2),
                ("stroke_line", x0, y0, x1, y1),
            ]
    ops += [("set", "text_align", "center"), ("set", "font", f"bold 13px {FONT}")]
    for n in nodes:
        x, y = centre(run, n)
        radius = RADIUS + (6 if n.kind == "boss" else 0)
        faded = n.id not in reach and n.id not in path
        ops += [
            ("set", "global_alpha", 0.55 if faded and reach else 1.0),
            ("set", "fill_style", KIND_COLOUR[n.kind]),
            ("fill_circle", x, y, radius),
            ("set", "stroke_style", "rgba(0, 0, 0, 0.55)"),
            ("set", "line_width", 3),
            ("stroke_text", KIND_ZH[n.kind], x, y),
            ("set", "fill_style", "#ffffff"),
            ("fill_text", KIND_ZH[n.kind], x, y),
            ("set", "global_alpha", 1.0),
        ]
        if n.id in reach:
            ops += [
                ("set", "stroke_style", "#f1c40f"),
                ("set", "line_width", 5),
                ("stroke_circle", x, y, radius + 4),
            ]
        elif n.id == run.node:
            ops += [
                ("set", "stroke_style", "#1f4fa3"),
                ("set", "line_width", 5),
                ("stroke_circle", x, y, radius + 4),
            ]
        elif n.id in path:
            ops += [
                ("set", "stroke_style", "#2c3e50"),
                ("set", "line_width", 3),
                ("stroke_circle", x, y, radius + 2),
            ]
    return ops


# What each node kind holds (R-TOWER-2..6), for the map's tooltip.
KIND_TIP = {
    "battle": "普通战斗：胜利得金币，并从 3 张卡中选 1 张",
    "elite": "精英战：对手更强，胜利必得遗物",
    "campfire": "篝火：恢复王座生命",
    "shop": "商店：买卡、移除卡，也能恢复王座生命",
    "event": "事件：随机遭遇，做出选择",
    "chest": "宝箱：打开领取奖励",
    "boss": "首领战：胜利得遗物并开启下一层",
}
COLUMNS = "abcdefghij"


def node_under(run: Run, x: float, y: float) -> Node | None:
    """Any node of the current floor under the pointer (canvas pixels), or None."""
    for n in run.tmap:
        if n.floor != run.floor:
            continue
        cx, cy = centre(run, n)
        if (x - cx) ** 2 + (y - cy) ** 2 <= (RADIUS + 8) ** 2:
            return n
    return None


def node_tip(run: Run, node: Node) -> str:
    """The tooltip of a map node: its kind and place, what it holds, and whether the
    player can go there now (「战斗（第 2 行 · b 列）：… · 可前往，点击进入」)."""
    if node.id in {n.id for n in run.reachable()}:
        state = "可前往，点击进入"
    elif node.id == run.node:
        state = "当前位置"
    elif node.id in visited(run):
        state = "已走过"
    else:
        state = "现在到不了"
    where = f"第 {node.row + 1} 行 · {COLUMNS[node.col]} 列"
    return f"{KIND_ZH[node.kind]}（{where}）：{KIND_TIP[node.kind]} · {state}"


def node_at(run: Run, x: float, y: float) -> str | None:
    """The reachable node under a click (canvas pixels), or None."""
    for n in run.reachable():
        cx, cy = centre(run, n)
        if (x - cx) ** 2 + (y - cy) ** 2 <= (RADIUS + 8) ** 2:
            return n.id
    return None
