"""The post-game review where a page shows it: the finished table page's section
(`your_review`) and the replay's decisions at a step (`review_at`). Both read
`reviews.review_shown`, the one rule of who may read a review and when. Pages only: a
live frame is rendered without the database (games.rendering), and a player who saw the
game end finds her review when she opens the table again."""

from django import template

from games import kinds, reviews
from games.models import Table

register = template.Library()


def _lines(table: Table, shown, step=None) -> list[dict]:
    kind = kinds.get(table.kind)
    names = {seat.position: seat.name for seat in table.seats.named()}
    lines = []
    for review in shown.reviews:
        line = reviews.review_lines(review, kind, step=step)
        line["name"] = names.get(review.seat, "")
        lines.append(line)
    return lines


def _section(table: Table, viewer) -> dict:
    shown = reviews.review_shown(table, viewer)
    lines = _lines(table, shown) if shown.status == "ready" else []
    return {"table": table, "status": shown.status, "lines": lines, "several": len(lines) > 1}


@register.inclusion_tag("games/review.html", takes_context=True)
def your_review(context, table: Table):
    """The viewer's review of a finished table (a superuser's: every player's), "being
    prepared" while the task computes it."""
    return _section(table, context["request"].user)


@register.inclusion_tag("games/review_step.html", takes_context=True)
def review_at(context, table: Table, step: int):
    """The viewer's decisions that the replay shows at `step`, with their estimates."""
    shown = reviews.review_shown(table, context["request"].user)
    lines = [line for line in _lines(table, shown, step=step) if line["decisions"]]
    return {"table": table, "lines": lines, "several": len(shown.reviews) > 1}
