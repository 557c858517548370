"""Whole pages of a table: the live part at page load, the log of past rounds, the
lobby's lists."""

from django.template.loader import render_to_string
from django.utils import translation
from django.utils.safestring import mark_safe

from games import kinds, selectors
from games.models import Table
from games.rendering.frames import _render, live_frame
from games.rendering.snapshots import Snapshot, read_snapshot


def past_rounds(snapshot: Snapshot) -> list[dict]:
    """The log of the rounds finished before the one in play (all of them once the game is
    over), grouped by round: the table page's "Earlier rounds" (games.views.table_log)."""
    turn_log = kinds.get(snapshot.table.kind).turn_log
    if snapshot.game is None or turn_log is None:
        return []
    v = snapshot.shared()["v"]
    turns = turn_log(snapshot.state, snapshot.seats, 1, snapshot.computer)
    rounds = {}
    for entry in turns:
        if entry["round"] < v["round"] or v["phase"] == "over":
            rounds.setdefault(entry["round"], []).append(entry)
    return [{"round": number, "turns": entries} for number, entries in rounds.items()]


def page_live(table: Table, user, language: str, csrf_token: str, invite: str = ""):
    """The `#live` element of a table page (an HTTP request): read afresh, not kept."""
    snapshot = read_snapshot(table.pk, keep=False)
    return live_frame(snapshot, user, language, csrf_token, invite)


def page_log(table: Table, language: str) -> str:
    """The log of the rounds finished before the one in play (the `log_past` partial of the
    table's kind; "" for a kind without one): shown under `#live`, fetched again by the
    page when a round ends."""
    snapshot = read_snapshot(table.pk, keep=False)
    if snapshot is None:
        return ""
    upto = ""
    if snapshot.game is not None:
        v = snapshot.shared()["v"]
        # As the page compares it with `#live`'s data-round (static/js/live.js).
        upto = f"{v.get('round', '')}{'over' if v['phase'] == 'over' else ''}"
    context = {"table": table, "upto": upto, "past_rounds": past_rounds(snapshot)}
    with translation.override(language):
        return mark_safe(_render(snapshot, "log_past", context))


def render_lobby_tables(user, language: str) -> str:
    with translation.override(language):
        return render_to_string("games/lobby.html#tables", selectors.lobby_tables(user))
