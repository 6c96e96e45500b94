"""The report's map: places laid out from their roads, each frame's rulers, coasts and faction
badges, as one inline SVG with a ``<g>`` per recorded turn.

The layout is a deterministic force-directed one (:func:`layout`), then spread so that no two
places' boxes (the name above, the badges below; room for names a little larger than drawn,
as a phone draws them) overlap (:func:`spread`). Each place's badges
sit in rows of up to three under it, so eight factions at one place take three short rows; the
names are drawn last, over roads and badges. Every badge and place carries its details in
``data-tip`` (the report shows them on a tap or click) and in a ``<title>`` (on hover).

>>> g = {"a": ["b"], "b": ["a", "c"], "c": ["b"]}
>>> layout(g) == layout(g), all(0 <= v <= 1 for p in layout(g).values() for v in p)
(True, True)
"""

from __future__ import annotations

import html
import math

import numpy as np

from factionsim.core.presentation import MapFrame

from .charts import ink_on

BADGE_W, BADGE_H, BADGE_GAP, BADGES_PER_ROW = 44, 15, 3, 3
RADIUS = 10
MARGIN = 24


def layout(adjacency: dict[str, list[str]], seed: int = 7,
           steps: int = 400) -> dict[str, tuple[float, float]]:
    """A deterministic force-directed layout (Fruchterman-Reingold) in the unit square."""
    ids = list(adjacency)
    n = len(ids)
    if n == 1:
        return {ids[0]: (0.5, 0.5)}
    index = {k: i for i, k in enumerate(ids)}
    rng = np.random.default_rng(seed)
    angle = np.linspace(0, 2 * math.pi, n, endpoint=False)
    pos = np.stack([np.cos(angle), np.sin(angle)], 1) * 0.5 + rng.normal(0, 0.02, (n, 2))
    edges = {(min(index[a], index[b]), max(index[a], index[b]))
             for a, ns in adjacency.items() for b in ns if b in index and a != b}
    k = math.sqrt(1.0 / n)
    temp = 0.1
    for _ in range(steps):
        delta = pos[:, None, :] - pos[None, :, :]
        dist = np.maximum(np.linalg.norm(delta, axis=-1), 1e-3)
        force = (delta / dist[..., None]) * (k * k / dist)[..., None]
        disp = force.sum(1)
        for i, j in edges:
            d = pos[i] - pos[j]
            dl = max(float(np.linalg.norm(d)), 1e-3)
            f = d / dl * (dl * dl / k)
            disp[i] -= f
            disp[j] += f
        length = np.maximum(np.linalg.norm(disp, axis=-1), 1e-9)
        pos += disp / length[:, None] * np.minimum(length, temp)[:, None]
        temp = max(temp * 0.985, 0.002)
    lo, hi = pos.min(0), pos.max(0)
    span = np.where(hi - lo < 1e-9, 1.0, hi - lo)
    pos = (pos - lo) / span
    return {ids[i]: (float(pos[i, 0]), float(pos[i, 1])) for i in range(n)}


def _box(name: str, badges: int) -> tuple[float, float, float]:
    """A place's box around its circle: half width, height above, height below."""
    rows = math.ceil(badges / BADGES_PER_ROW)
    cols = min(badges, BADGES_PER_ROW)
    half = max(len(name) * 4.4 + 4, cols * (BADGE_W + BADGE_GAP) / 2, RADIUS + 4)
    return half, RADIUS + 20, RADIUS + 6 + rows * (BADGE_H + BADGE_GAP)


def spread(pos: dict[str, tuple[float, float]], boxes: dict[str, tuple[float, float, float]],
           width: float, rounds: int = 200) -> dict[str, tuple[float, float]]:
    """Pixel positions: the unit layout scaled to ``width`` (small: the places start crowded),
    then boxes pushed apart until none overlap, which spreads them as far as they need and no
    further (deterministic)."""
    ids = sorted(pos)
    p = {k: [pos[k][0] * width, pos[k][1] * width * 0.7] for k in ids}
    for _ in range(rounds):
        moved = False
        for i, a in enumerate(ids):
            for b in ids[i + 1:]:
                (ax, ay), (bx, by) = p[a], p[b]
                wa, ua, da = boxes[a]
                wb, ub, db = boxes[b]
                ox = wa + wb + 6 - abs(ax - bx)
                # vertical overlap: a's bottom vs b's top, whichever is above
                oy = (da + ub + 4 - (by - ay)) if ay <= by else (db + ua + 4 - (ay - by))
                if ox <= 0 or oy <= 0:
                    continue
                moved = True
                if ox < oy:
                    s = 0.5 * ox * (1 if ax >= bx else -1)
                    p[a][0] += s
                    p[b][0] -= s
                else:
                    s = 0.5 * oy * (1 if ay >= by else -1)
                    p[a][1] += s
                    p[b][1] -= s
        if not moved:
            break
    return {k: (v[0], v[1]) for k, v in p.items()}


def map_svg(frames: list[MapFrame], colors: dict[str, str], fnames: dict[str, str]) -> str:
    """The map at every recorded turn (one ``<g class="frame">`` per frame, the last shown)."""
    last = frames[-1]
    lnames = {p.id: p.name for p in last.places}
    adj: dict[str, list[str]] = {p.id: [] for p in last.places}
    for p in last.places:
        for n in p.neighbors:
            adj[p.id].append(n)
            adj.setdefault(n, []).append(p.id)
    most = {lid: max((len(f.badges.get(lid, ())) for f in frames), default=0) for lid in adj}
    boxes = {lid: _box(lnames.get(lid, lid), most[lid]) for lid in adj}
    width = 110.0 * math.sqrt(len(adj))
    raw = spread(layout(adj), boxes, width)
    x0 = min(raw[k][0] - boxes[k][0] for k in raw) - MARGIN
    y0 = min(raw[k][1] - boxes[k][1] for k in raw) - MARGIN
    pos = {k: (v[0] - x0, v[1] - y0) for k, v in raw.items()}
    w = max(pos[k][0] + boxes[k][0] for k in pos) + MARGIN
    h = max(pos[k][1] + boxes[k][2] for k in pos) + MARGIN
    parts = [f'<svg id="map" viewBox="0 0 {w:.0f} {h:.0f}" role="img" aria-label="map">']
    seen: set[tuple[str, str]] = set()
    for a, ns in adj.items():
        for b in ns:
            if (b, a) in seen or (a, b) in seen or b not in pos:
                continue
            seen.add((a, b))
            parts.append(f'<line x1="{pos[a][0]:.1f}" y1="{pos[a][1]:.1f}" x2="{pos[b][0]:.1f}" '
                         f'y2="{pos[b][1]:.1f}" class="road"/>')
    for fi, frame in enumerate(frames):
        parts.append(f'<g class="frame" data-frame="{fi}"'
                     + ("" if fi == len(frames) - 1 else ' style="display:none"') + ">")
        parts += _frame(frame, pos, lnames, colors, fnames)
        parts.append("</g>")
    for lid, (px, py) in pos.items():  # names last: over roads and badges
        parts.append(f'<text x="{px:.1f}" y="{py - RADIUS - 6:.1f}" class="plabel" '
                     f'text-anchor="middle">{html.escape(lnames.get(lid, lid))}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _frame(frame: MapFrame, pos: dict[str, tuple[float, float]], lnames: dict[str, str],
           colors: dict[str, str], fnames: dict[str, str]) -> list[str]:
    parts = []
    rulers = {p.id: p.ruler for p in frame.places}
    coasts = {p.id for p in frame.places if p.coastal}
    for lid, (px, py) in pos.items():
        ruler = rulers.get(lid)
        fill = colors.get(ruler, "#ffffff") if ruler else "#ffffff"
        badges = [b for b in frame.badges.get(lid, ()) if lid in pos]
        tip = (lnames.get(lid, lid) + (f", ruled by {fnames.get(ruler, ruler)}" if ruler else "")
               + ("; coastal" if lid in coasts else ""))
        full = tip + "".join(f"\n{b.tip}" for b in badges)
        parts.append(f'<g class="place" tabindex="0" data-tip="{html.escape(full)}">'
                     f'<title>{html.escape(tip)}</title>'
                     f'<circle cx="{px:.1f}" cy="{py:.1f}" r="{RADIUS}" fill="#fff"/>'
                     f'<circle cx="{px:.1f}" cy="{py:.1f}" r="{RADIUS}" fill="{fill}" '
                     f'fill-opacity="{0.55 if ruler else 1}" class="node'
                     f'{" coast" if lid in coasts else ""}"/></g>')
        for k, badge in enumerate(badges):
            row, col = divmod(k, BADGES_PER_ROW)
            in_row = min(len(badges) - row * BADGES_PER_ROW, BADGES_PER_ROW)
            bx = px - in_row * (BADGE_W + BADGE_GAP) / 2 + col * (BADGE_W + BADGE_GAP) + 1.5
            by = py + RADIUS + 5 + row * (BADGE_H + BADGE_GAP)
            colour = colors.get(badge.faction, "#888888")
            parts.append(f'<g class="badge" tabindex="0" data-tip="{html.escape(lnames.get(lid, lid))}'
                         f': {html.escape(badge.tip)}"><title>{html.escape(badge.tip)}</title>'
                         f'<rect x="{bx:.1f}" y="{by:.1f}" width="{BADGE_W}" height="{BADGE_H}" '
                         f'rx="3" fill="{colour}"/><text x="{bx + BADGE_W / 2:.1f}" '
                         f'y="{by + 11.2:.1f}" class="blabel" fill="{ink_on(colour)}" '
                         f'text-anchor="middle">{html.escape(badge.label)}</text></g>')
    return parts
