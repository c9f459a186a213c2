"""Each member's cumulative net by night as small multiples drawn server-side (SVG), readable
at forty members on a phone: one small panel per member, all on the same scale (so panels
compare), a zero line, a dot per counted night the member's total moved, and the name and
final total as text beside the panel (not inside the SVG, so it wraps and scales with the
page's text).

Pure drawing from integers: ``cumulative`` is the member's total (minor units) after each
counted night, as :meth:`ledger.clubs.standings.Standings.cumulative` gives it.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from markupsafe import Markup

WIDTH, HEIGHT, PAD = 160, 64, 6


@dataclass(frozen=True, slots=True)
class Panel:
    """One member's small chart: ``svg`` (inline, decorative; the caption carries the words)."""

    member: str
    member_id: int
    final_minor: int
    svg: Markup


def _scale(values: Sequence[int]) -> tuple[int, int]:
    low, high = min([0, *values]), max([0, *values])
    return (low, high) if high > low else (low - 1, high + 1)


def panels(lines: Sequence[tuple[str, int, Sequence[int]]]) -> list[Panel]:
    """``[(member, member_id, cumulative)]`` → one :class:`Panel` each, on a shared scale."""
    every = [v for _name, _id, values in lines for v in values]
    low, high = _scale(every)
    span = high - low

    def y(value: int) -> float:
        return round(PAD + (HEIGHT - 2 * PAD) * (high - value) / span, 2)

    out = []
    for name, member_id, values in lines:
        points = [0, *values]  # the season starts at zero
        step = (WIDTH - 2 * PAD) / max(len(points) - 1, 1)
        xy = [(round(PAD + i * step, 2), y(v)) for i, v in enumerate(points)]
        final = points[-1]
        tone = "pos" if final > 0 else "neg" if final < 0 else "zero"
        path = " ".join(f"{'M' if i == 0 else 'L'}{x},{yy}" for i, (x, yy) in enumerate(xy))
        dots = "".join(f'<circle cx="{x}" cy="{yy}" r="2"/>' for x, yy in xy[1:])
        svg = (f'<svg class="spark spark-{tone}" viewBox="0 0 {WIDTH} {HEIGHT}" preserveAspectRatio="none" '
               f'aria-hidden="true" focusable="false">'
               f'<line class="spark-axis" x1="{PAD}" x2="{WIDTH - PAD}" y1="{y(0)}" y2="{y(0)}"/>'
               f'<path class="spark-line" d="{path}"/><g class="spark-dots">{dots}</g></svg>')
        out.append(Panel(member=name, member_id=member_id, final_minor=final, svg=Markup(svg)))  # noqa: S704 - numbers only
    return out
