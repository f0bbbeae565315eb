"""The cards drawn as SVG: all 30 kinds and the back, by one function for every use (the
terminal's ``cherki cards --svg DIR``, the docs, a browser).

What the drawings keep from real Ceki cards [003]
-------------------------------------------------
* Long narrow cards in black and white; a thick black frame around the centre whose
  pattern changes with the value, "more or less as numeral indices do", so that cards of
  one value are matched by their frames. White Flower and Red Flower have the frame of the
  1s; Old Thousand has no frame. Plain backs.
* Red stamps on the 9 of Strings, the Red Flower and the Old Thousand only.
* Coins show coins; the 1 of Coins three rows of small dots (what tells it from the White
  Flower); Strings show strings of cash under a big dot (what tells the 9 of Strings from
  the Red Flower); Myriads state their value by a small Chinese numeral above 萬.

Our specifications (the sources show the cards, not how to draw them)
---------------------------------------------------------------------
* A card is 60 × 168 units. The frame's pattern is ``rank`` white bars across each of its
  long sides (one to nine), the same for every suit, so a person can count a card's value
  from its frame alone, as the sources say players do.
* The centre: ``rank`` coins (a circle with a square hole) for Coins; ``rank`` strings of
  cash (a cord with knots) under a big dot for Strings; the numeral above 萬 for Myriads;
  a flower for the two Flowers (the Red one filled red); 千 in a circle over a tablet for
  the Old Thousand. The characters are drawn as strokes, not set in a font, so they show
  on any screen.
* The red stamp is a small red square seal at the foot of the card.
* A small index label (``C7``, ``RF``…) in the top corner, which ``index=False`` leaves
  out. Each drawing has a ``<title>`` with the card's name for screen readers.
"""

from __future__ import annotations

from html import escape
from pathlib import Path

from cherki.core.cards import CODES, IS_RED, LOCAL_NAMES, N_KINDS, NAMES, OT, RANK, RF, WF

WIDTH, HEIGHT = 60, 168
INK = "#1b1b1b"
RED = "#c8102e"
PAPER = "#fbf8f0"
BACK = "#2f5d8a"
#: the Chinese numerals 1-9 the Myriads print, 萬 and 千, as strokes on a 10 × 10 grid
#: (drawn, not set in a font, so they show on a screen without CJK fonts)
Stroke = tuple[tuple[float, float], ...]
NUMERALS: tuple[tuple[Stroke, ...], ...] = (
    (((1, 5), (9, 5)),),
    (((2, 3), (8, 3)), ((1, 7.5), (9, 7.5))),
    (((2, 2), (8, 2)), ((3, 5), (7, 5)), ((1, 8.5), (9, 8.5))),
    (((1, 2), (9, 2), (9, 9), (1, 9), (1, 2)), ((4, 2), (3.6, 6.5)),
     ((6, 2), (6, 5.5), (7.5, 6.5))),
    (((2, 1.5), (8, 1.5)), ((4.5, 1.5), (3.5, 8.5)), ((2.5, 5), (7.5, 5), (7, 8.5)),
     ((1, 8.5), (9, 8.5))),
    (((5, 0.5), (5.6, 2)), ((1, 3.5), (9, 3.5)), ((4, 5.5), (2, 9)), ((6, 5.5), (8, 9))),
    (((1, 5.2), (9, 4)), ((4, 1), (4, 8), (5, 9), (9, 9))),
    (((4, 2), (1, 9)), ((6, 2), (9, 9))),
    (((1, 4), (6, 4), (6, 8), (7, 9), (9, 9), (9, 7.5)), ((4, 1), (3.6, 6), (1, 9))),
)  # fmt: skip
WAN: tuple[Stroke, ...] = (
    ((1, 1.5), (9, 1.5)), ((3.5, 0.5), (3.5, 3)), ((6.5, 0.5), (6.5, 3)),
    ((2.5, 3.5), (7.5, 3.5), (7.5, 6), (2.5, 6), (2.5, 3.5)), ((5, 3.5), (5, 6)),
    ((2.5, 4.75), (7.5, 4.75)),
    ((1.5, 9.5), (1.5, 6.8), (8.5, 6.8), (8.5, 9.5), (7.5, 9.5)),
    ((5, 6), (5, 8.2)), ((3.5, 8.4), (6.5, 7.6)),
)  # fmt: skip
QIAN: tuple[Stroke, ...] = (((7.5, 1), (2.5, 2.5)), ((1, 5), (9, 5)), ((5, 2), (5, 9.5)))
#: the frame: outer rectangle, its thickness, the inner window
FRAME = (6.0, 22.0, 48.0, 124.0)  # x, y, width, height of the frame's outside
THICK = 5.0


def _frame(rank: int) -> list[str]:
    """The thick frame with ``rank`` white bars across each long side."""
    x, y, w, h = FRAME
    out = [
        f'<rect x="{x}" y="{y}" width="{w}" height="{h}" fill="{INK}"/>',
        f'<rect x="{x + THICK}" y="{y + THICK}" width="{w - 2 * THICK}" '
        f'height="{h - 2 * THICK}" fill="{PAPER}"/>',
    ]
    gap = (h - 2 * THICK) / (rank + 1)
    for i in range(1, rank + 1):
        by = y + THICK + gap * i - 1.2
        for bx in (x, x + w - THICK):
            out.append(
                f'<rect class="rank-mark" x="{bx + 0.8}" y="{by:.2f}" width="{THICK - 1.6}" '
                f'height="2.4" fill="{PAPER}"/>'
            )
    return out


def _centre() -> tuple[float, float, float, float]:
    x, y, w, h = FRAME
    return x + THICK, y + THICK, w - 2 * THICK, h - 2 * THICK


def _coins(rank: int) -> list[str]:
    cx0, cy0, cw, ch = _centre()
    out: list[str] = []
    if rank == 1:
        # three rows of small dots above one large coin [003]
        for row in range(3):
            for col in range(5):
                out.append(
                    f'<circle cx="{cx0 + 5 + col * 6.5:.1f}" cy="{cy0 + 8 + row * 5}" r="1.3" '
                    f'fill="{INK}"/>'
                )
        return out + _coin(cx0 + cw / 2, cy0 + ch * 0.62, 11)
    cols = 1 if rank <= 4 else 2
    rows = -(-rank // cols)
    r = min(cw / (2 * cols) - 1.5, ch / (2 * rows) - 1.5)
    for i in range(rank):
        col, row = (i % cols, i // cols) if cols == 2 else (0, i)
        left = rank % 2 == 1 and cols == 2 and i == rank - 1
        cx = cx0 + cw / 2 if cols == 1 or left else cx0 + cw / 4 + col * cw / 2
        cy = cy0 + ch * (row + 0.5) / rows
        out += _coin(cx, cy, r)
    return out


def _coin(cx: float, cy: float, r: float) -> list[str]:
    s = r * 0.42
    return [
        f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{r:.1f}" fill="none" stroke="{INK}" '
        f'stroke-width="1.6"/>',
        f'<rect x="{cx - s / 2:.1f}" y="{cy - s / 2:.1f}" width="{s:.1f}" height="{s:.1f}" '
        f'fill="none" stroke="{INK}" stroke-width="1.2"/>',
    ]


def _strings(rank: int) -> list[str]:
    cx0, cy0, cw, ch = _centre()
    out = [f'<circle cx="{cx0 + cw / 2:.1f}" cy="{cy0 + 9}" r="5.5" fill="{INK}"/>']
    top = cy0 + 19
    height = ch - 24
    cols = 1 if rank <= 3 else 2 if rank <= 6 else 3
    rows = -(-rank // cols)
    for i in range(rank):
        col, row = i % cols, i // cols
        x = cx0 + cw * (col + 0.5) / cols
        y1 = top + height * row / rows + 2
        y2 = top + height * (row + 1) / rows - 2
        out.append(
            f'<line x1="{x:.1f}" y1="{y1:.1f}" x2="{x:.1f}" y2="{y2:.1f}" stroke="{INK}" '
            f'stroke-width="1.4"/>'
        )
        knots = max(2, int((y2 - y1) // 7))
        for k in range(knots):
            ky = y1 + (y2 - y1) * (k + 0.5) / knots
            out.append(f'<ellipse cx="{x:.1f}" cy="{ky:.1f}" rx="2.6" ry="1.6" fill="{INK}"/>')
    return out


def _glyph(strokes: tuple[Stroke, ...], x: float, y: float, size: float, width: float) -> str:
    """Strokes of a 10 × 10 grid drawn at (x, y), ``size`` wide."""
    k = size / 10
    lines = "".join(
        '<polyline points="'
        + " ".join(f"{x + px * k:.1f},{y + py * k:.1f}" for px, py in s)
        + '"/>'
        for s in strokes
    )
    return (
        f'<g fill="none" stroke="{INK}" stroke-width="{width}" stroke-linecap="round" '
        f'stroke-linejoin="round">{lines}</g>'
    )


def _myriads(rank: int) -> list[str]:
    cx0, cy0, cw, ch = _centre()
    mid = cx0 + cw / 2
    return [
        _glyph(NUMERALS[rank - 1], mid - 10, cy0 + 10, 20, 2.0),
        f'<line x1="{cx0 + 6}" y1="{cy0 + ch / 2}" x2="{cx0 + cw - 6}" y2="{cy0 + ch / 2}" '
        f'stroke="{INK}" stroke-width="1"/>',
        _glyph(WAN, mid - 13, cy0 + ch - 40, 26, 2.2),
    ]


def _flower(red: bool) -> list[str]:
    cx0, cy0, cw, ch = _centre()
    cx, cy = cx0 + cw / 2, cy0 + ch / 2
    fill = RED if red else PAPER
    out = [
        f'<line x1="{cx:.1f}" y1="{cy + 8:.1f}" x2="{cx:.1f}" y2="{cy0 + ch - 6:.1f}" '
        f'stroke="{INK}" stroke-width="1.6"/>',
        f'<ellipse cx="{cx - 7:.1f}" cy="{cy + 26:.1f}" rx="6" ry="2.6" fill="{INK}" '
        f'transform="rotate(-30 {cx - 7:.1f} {cy + 26:.1f})"/>',
    ]
    for i in range(6):
        out.append(
            f'<ellipse cx="{cx:.1f}" cy="{cy - 9:.1f}" rx="4.2" ry="9" fill="{fill}" '
            f'stroke="{INK}" stroke-width="1.2" transform="rotate({i * 60} {cx:.1f} {cy:.1f})"/>'
        )
    out.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="3.6" fill="{INK}"/>')
    return out


def _old_thousand() -> list[str]:
    mid = WIDTH / 2
    return [
        f'<circle cx="{mid}" cy="62" r="15" fill="none" stroke="{INK}" stroke-width="2"/>',
        _glyph(QIAN, mid - 9, 53, 18, 2.2),
        f'<rect x="{mid - 13}" y="92" width="26" height="34" rx="3" fill="none" '
        f'stroke="{INK}" stroke-width="2"/>',
        f'<line x1="{mid - 8}" y1="100" x2="{mid + 8}" y2="100" stroke="{INK}" stroke-width="2"/>',
        f'<line x1="{mid - 8}" y1="109" x2="{mid + 8}" y2="109" stroke="{INK}" stroke-width="2"/>',
        f'<line x1="{mid - 8}" y1="118" x2="{mid + 8}" y2="118" stroke="{INK}" stroke-width="2"/>',
    ]


def card_title(kind: int) -> str:
    local = LOCAL_NAMES.get(kind)
    return f"{NAMES[kind]} ({local})" if local else NAMES[kind]


def card_svg(kind: int | None, *, index: bool = True, css_class: str = "cherki-card") -> str:
    """One card as a standalone SVG document: ``kind`` 0-29 (``C1`` … ``OT``), or None for
    the back. ``index`` adds the small label (``C7``) in the top corner."""
    if kind is not None and (type(kind) is not int or not 0 <= kind < N_KINDS):
        raise ValueError(f"no card kind {kind!r}: 0 to {N_KINDS - 1}")
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'width="{WIDTH}" height="{HEIGHT}" class="{escape(css_class)}" role="img">'
    )
    return head + _drawing(kind, index=index) + "</svg>"


def _drawing(kind: int | None, *, index: bool) -> str:
    """A card's title and shapes, in the units of a card (``WIDTH`` × ``HEIGHT``)."""
    card = (
        f'<rect x="0.5" y="0.5" width="{WIDTH - 1}" height="{HEIGHT - 1}" rx="5" '
        f'fill="{PAPER if kind is not None else BACK}" stroke="{INK}" stroke-width="1"/>'
    )
    if kind is None:
        inner = (
            f'<rect x="5" y="5" width="{WIDTH - 10}" height="{HEIGHT - 10}" rx="3" fill="none" '
            f'stroke="{PAPER}" stroke-width="1" opacity="0.6"/>'
        )
        return f"<title>The back of a card</title>{card}{inner}"
    parts: list[str] = []
    if kind == OT:
        parts += _old_thousand()
    else:
        parts += _frame(RANK[kind])
        if kind in (WF, RF):
            parts += _flower(kind == RF)
        elif kind < 9:
            parts += _coins(RANK[kind])
        elif kind < 18:
            parts += _strings(RANK[kind])
        else:
            parts += _myriads(RANK[kind])
    if IS_RED[kind]:
        parts.append(
            f'<rect class="red-stamp" x="{WIDTH / 2 - 7}" y="{HEIGHT - 19}" width="14" '
            f'height="12" rx="1.5" fill="{RED}"/>'
        )
    if index:
        colour = RED if IS_RED[kind] else INK
        parts.append(
            f'<text class="index" x="4" y="14" font-size="11" font-family="sans-serif" '
            f'font-weight="bold" fill="{colour}">{CODES[kind]}</text>'
        )
    title = f"<title>{escape(card_title(kind))}</title>"
    return title + card + "".join(parts)


#: the cards of the icon, back to front, and each one's turn about the foot of the fan
ICON_CARDS: tuple[tuple[int | None, float], ...] = ((None, -22.0), (OT, -3.0), (RF, 16.0))


def icon_svg(size: int = 64) -> str:
    """The site's icon (the browser tab's, a phone's home screen): three cards fanned, the
    back, the Old Thousand and the Red Flower with their red stamps, on a square of
    ``size`` pixels."""
    side = 168
    cards = []
    for kind, turn in ICON_CARDS:
        # each card, 0.76 of its size, turned about the middle of its foot at (80, 150)
        cards.append(
            f'<g transform="translate(80 150) rotate({turn}) scale(0.76) '
            f'translate({-WIDTH / 2} {-HEIGHT})">{_drawing(kind, index=False)}</g>'
        )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {side} {side}" '
        f'width="{size}" height="{size}"><title>Cherki</title>{"".join(cards)}</svg>'
    )


def write_svgs(folder: str | Path, *, index: bool = True) -> list[Path]:
    """Every card (``C1.svg`` … ``OT.svg``) and ``back.svg`` into ``folder``."""
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for kind in range(N_KINDS):
        path = out / f"{CODES[kind]}.svg"
        path.write_text(card_svg(kind, index=index) + "\n", encoding="utf-8")
        written.append(path)
    back = out / "back.svg"
    back.write_text(card_svg(None) + "\n", encoding="utf-8")
    return [*written, back]
