"""Small charts drawn on the server as inline SVG: no JavaScript library needed.

    {% load charts %}
    {% sparkline row.trend label=_("Heads per round") %}
    {% line_chart history label=_("Rating") start=first_date end=last_date %}

Only numbers reach the SVG markup; the label goes through `format_html`, escaped.
"""

from django import template
from django.utils.formats import number_format
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

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
def line_chart(values, label="", start="", end="", digits=1, width=300, height=100):
    """A chart of `values` (oldest first) as a figure: the line is an SVG stretched to the
    width it is given, its lowest and highest values, its first and last dates (`start`,
    `end`) and its caption are text of the page beside it, so they keep their size on a
    phone; a screen reader reads the caption and the values. Nothing for fewer than two."""
    values = [float(v) for v in values or ()]
    if len(values) < 2:
        return ""
    points = _points(values, width, height, 4)
    dots = ""
    if len(values) <= 40:
        dot = '<path d="M{:.1f} {:.1f}h0" vector-effect="non-scaling-stroke"/>'
        dots = "".join(dot.format(x, y) for x, y in points)
    span = ""
    if start or end:
        span = format_html(
            '<div class="chart-span" aria-hidden="true"><span>{}</span><span>{}</span></div>',
            start,
            end,
        )
    return format_html(
        '<figure class="chart"><div class="chart-plot">'
        '<div class="chart-scale" aria-hidden="true"><span>{high}</span><span>{low}</span></div>'
        '<svg class="chart-line" viewBox="0 0 {w} {h}" preserveAspectRatio="none" '
        'aria-hidden="true" focusable="false">'
        '<polyline fill="none" stroke="currentColor" stroke-width="2" '
        'vector-effect="non-scaling-stroke" points="{path}"/>'
        '<g fill="none" stroke="currentColor" stroke-width="6" stroke-linecap="round">'
        "{dots}</g></svg></div>{span}"
        '<figcaption>{label}<span class="visually-hidden">{said}</span></figcaption></figure>',
        w=width,
        h=height,
        high=number_format(max(values), digits),
        low=number_format(min(values), digits),
        path=_path(points),
        dots=mark_safe(dots),  # built above from numbers only
        span=span,
        label=label,
        said=_(": %(values)s (oldest first)")
        % {"values": "; ".join(number_format(value, digits) for value in values)},
    )
