"""Paper and screen for a club night: a round's printable sheet, the results of an evening
or tournament, and the club room's TV. Each page is shown to whoever may see the league
(the TV to those signed in: it shows games as a spectator does)."""

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import render
from django.utils import translation

from leagues import paper, tv
from leagues.views import _event_or_404


def _event(request, slug, event, pk):
    model = tv.EVENTS.get(event)
    if model is None:
        raise Http404
    return _event_or_404(request, slug, model, pk)


def round_sheet(request, slug, event, pk, number):
    """The sheet handed to each table of a round: seat order and an empty score grid."""
    league, event = _event(request, slug, event, pk)
    number = int(number)
    tables = paper.round_sheet(event, number)
    if not tables:
        raise Http404
    context = {"league": league, "event": event, "number": number, "tables": tables}
    return render(request, "leagues/round_sheet.html", context)


def results(request, slug, event, pk):
    """Every table's final ranking and the best score of the evening or tournament."""
    league, event = _event(request, slug, event, pk)
    context = {"league": league, "event": event, "results": paper.event_results(event)}
    return render(request, "leagues/results.html", context)


@login_required
def tv_view(request, slug, event, pk):
    """The club room's screen: it rotates by itself and follows the games over its socket."""
    word = event
    league, event = _event(request, slug, event, pk)
    context = tv.context(event, translation.get_language())
    context["socket"] = f"/ws/leagues/{league.slug}/{word}/{event.pk}/tv/"
    context["seconds"] = _seconds(request.GET.get("seconds", ""))
    return render(request, "leagues/tv.html", context)


def _seconds(asked: str) -> int:
    """How long each panel shows: ?seconds= (5 to 120), else 15."""
    try:
        return min(max(int(asked), 5), 120)
    except ValueError:
        return tv.PANEL_SECONDS
