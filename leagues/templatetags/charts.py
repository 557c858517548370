"""Small charts drawn on the server as inline SVG: no JavaScript library needed.

    {% load charts %}
    {% sparkline row.trend label=_("Heads per round") %}
    {% line_chart history label=_("Rating") %}

Only numbers reach the SVG markup; the label goes through `format_html`, escaped.
"""

from django import template
from django.utils.formats import number_format
from django.utils.html import format_html
from django.utils.safestring import mark_safe

register = template.Library()


def _points(values, width: float, height: float, pad: float) -> list[tuple[float, float]]:
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    step = (width - 2 * pad) / max(len(values) - 1, 1)
    return [
        (pad + index * step, height - pad - (value - low) / span * (height - 2 * pad))
        for index, value in enumerate(values)
    ]


def _path(points) -> str:
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in points)


@register.simple_tag
def sparkline(values, label="", width=96, height=24):
    """A line of the latest values, the last one marked; nothing for fewer than two."""
    values = [float(v) for v in values or ()]
    if len(values) < 2:
        return ""
    points = _points(values, width, height, 3)
    x, y = points[-1]
    return format_html(
        '<svg class="spark" width="{w}" height="{h}" viewBox="0 0 {w} {h}" role="img" '
        'aria-label="{label}"><title>{label}</title>'
        '<polyline fill="none" stroke="currentColor" stroke-width="1.5" points="{path}"/>'
        '<circle cx="{x}" cy="{y}" r="2.2" fill="currentColor"/></svg>',
        w=width,
        h=height,
        label=label,
        path=_path(points),
        x=f"{x:.1f}",
        y=f"{y:.1f}",
    )


@register.simple_tag
def line_chart(values, label="", width=640, height=180, digits=1):
    """A wider chart with its lowest and highest values written on the left."""
    values = [float(v) for v in values or ()]
    if not values:
        return ""
    if len(values) == 1:
        values = values * 2
    left = 44
    points = [(x + left, y) for x, y in _points(values, width - left, height, 8)]
    dots = ""
    if len(values) <= 40:
        dots = "".join(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="2.5"/>' for x, y in points)
    return format_html(
        '<svg class="chart" viewBox="0 0 {w} {h}" role="img" '
        'aria-label="{label}"><title>{label}</title>'
        '<line x1="{left}" y1="8" x2="{left}" y2="{bottom}" class="axis"/>'
        '<line x1="{left}" y1="{bottom}" x2="{w}" y2="{bottom}" class="axis"/>'
        '<text x="{tx}" y="14" text-anchor="end">{high}</text>'
        '<text x="{tx}" y="{bottom}" text-anchor="end">{low}</text>'
        '<polyline fill="none" stroke="currentColor" stroke-width="2" points="{path}"/>'
        '<g fill="currentColor">{dots}</g></svg>',
        w=width,
        h=height,
        left=left,
        bottom=height - 8,
        tx=left - 4,
        high=number_format(max(values), digits),
        low=number_format(min(values), digits),
        label=label,
        path=_path(points),
        dots=mark_safe(dots),  # built above from numbers only
    )
