"""Frames: the sections of the live table rendered from a Snapshot, once a version and
language for what every viewer shares, per seat for the hand and its buttons."""

import functools
import threading
from collections import OrderedDict

from django.core.signals import setting_changed
from django.dispatch import receiver
from django.template import TemplateDoesNotExist
from django.template.loader import get_template
from django.utils import translation
from django.utils.html import escape
from django.utils.safestring import mark_safe

from games import kinds, services
from games.models import Table
from games.rendering.snapshots import Snapshot


def _template(table: Table) -> str:
    return kinds.get(table.kind).template("live.html")


# The sections every game shares (the players' table, the seats before the game, the
# round summary, the score sheet, the ranking, the seat's and the game's end buttons).
SHARED_LIVE = "games/live.html"


def _render(snapshot: Snapshot, name: str, context: dict) -> str:
    """The partial `name` of the table's kind's live.html, or else of the shared
    games/live.html; "" if neither has such a section (a kind defines only the sections
    its game has, docs/engines.md)."""
    partial = _partial(_template(snapshot.table), name)
    if partial is None:
        return ""
    # Stripped: a frame's first element must start it (the load generator and the tests
    # read its id there), and the indentation of the partials is not worth sending.
    return partial.render(context).strip()


@functools.cache
def _partial(template: str, name: str):
    """The template of section `name` for a kind's live.html `template`, or None. Looked
    up once: a template not found is an exception whose traceback holds the render's
    context in a reference cycle."""
    try:
        return get_template(f"{template}#{name}")
    except TemplateDoesNotExist:
        get_template(template)  # a kind without its live.html is an error, not a blank
    try:
        return get_template(f"{SHARED_LIVE}#{name}")
    except TemplateDoesNotExist:
        return None


# Every section the live layer draws, by its partial's name.
SECTIONS = (
    "header", "seats", "players", "player", "hand", "actions", "end_actions", "log_past",
    "round_summary", "draft", "rows", "revealed", "last_turn", "turns", "played",
    "score_sheet", "ranking", "announce",
)  # fmt: skip


def find_sections(kind: str) -> None:
    """Look up every section of a kind's table once (each is looked up once per process
    anyway, at its first render)."""
    above, below = _sections(kinds.get(kind))
    for name in dict.fromkeys((*SECTIONS, *above, *below)):
        _partial(kinds.get(kind).template("live.html"), name)


@receiver(setting_changed)
def _templates_changed(setting, **kwargs):
    if setting in ("TEMPLATES", "INSTALLED_APPS"):
        _partial.cache_clear()
        _layout.cache_clear()


class Kept(OrderedDict):
    """Sections that outlive a version (the header, a seat's buttons, a game's log turns),
    kept per process under everything they are drawn from; the least recently used go
    first."""

    def __init__(self, size: int):
        super().__init__()
        self.size = size
        # The event loop renders frames, the request threads pages.
        self.lock = threading.Lock()

    def get_or_render(self, key, render) -> str:
        with self.lock:
            html = self.get(key)
            if html is not None:
                self.move_to_end(key)
                return html
        html = render()
        with self.lock:
            self[key] = html
            if len(self) > self.size:
                self.popitem(last=False)
        return html


_headers = Kept(1024)


_actions = Kept(4096)


def _header(snapshot: Snapshot, language: str) -> str:
    # The table's name and options: the same for every version of a game.
    table = snapshot.table
    key = (
        table.pk,
        table.kind,
        language,
        str(table),
        table.seats_count,
        repr(sorted(table.options.items())),
        table.time_limit,
        table.is_public,
    )
    return _headers.get_or_render(key, lambda: _render(snapshot, "header", {"table": table}))


def _seat_actions(snapshot: Snapshot, position: int, csrf_token: str, language: str) -> str:
    # The leave/back form: it changes with the seat's absence, the game's end and the
    # votes to give a seat to a bot only.
    seat = snapshot.seat_at(position)
    ranking = snapshot.shared()["ranking"] if snapshot.game is not None else None
    table = snapshot.table
    votes = _replace_votes(snapshot, seat) if not ranking else []
    key = (table.pk, table.kind, language, seat.away, bool(ranking), csrf_token, _frozen(votes))

    def render():
        context = {"table": snapshot.table, "my_seat": seat, "ranking": ranking}
        context["replace_votes"] = votes
        return _render(snapshot, "actions", {**context, "csrf_token": csrf_token})

    return _actions.get_or_render(key, render)


def _replace_votes(snapshot: Snapshot, seat) -> list[dict]:
    """The seats the others may vote to give to a bot (services.seat_vote_replace), as the
    player at `seat` sees them: the `replace_vote` partial's lines. None at a reserved
    table, whose organisers replace players. From the seats read already: no query."""
    if snapshot.table.reserved:
        return []
    lines = []
    for target in snapshot.seats:
        if not services.replace_candidate(target):
            continue
        needed, present = services.votes_needed(snapshot.seats, target)
        lines.append(
            {
                "position": target.position,
                "name": str(target.name),
                "away": target.away,
                "votes": len(present.intersection(target.replace_votes)),
                "needed": needed,
                "own": target.pk == seat.pk,
                "may_vote": seat.user_id in present and seat.user_id not in target.replace_votes,
            }
        )
    return lines


# The sections of a game on, in the order of the frame, by their partial's name in
# games/<kind>/live.html: those before the seat's hand, then those after it (unless the
# kind lists its own, Kind.sections).
@functools.cache
def _layout(template: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The sections above and below the hand, in their order: the `layout` partial of the
    kind's live.html (or the shared one), "above … | below …"."""
    text = _partial(template, "layout").render({})
    above, _bar, below = text.partition("|")
    return tuple(above.split()), tuple(below.split())


def _sections(kind: kinds.Kind) -> tuple[tuple[str, ...], tuple[str, ...]]:
    return _layout(kind.template("live.html"))


# A game over opens with its result: the winner's banner and the final ranking.
_OVER_FIRST = ("ranking",)


# Sections whose partial draws nothing unless the context has something under the same
# name (`{% if draft %}` in games/<kind>/live.html): most whole frames have no draft, no
# revealed cards, no ranking, and a template render of nothing still costs a render.
_ONLY_WHEN_SHOWN = {
    "round_summary",
    "draft",
    "revealed",
    "last_turn",
    "turns",
    "score_sheet",
    "ranking",
}


def _part(snapshot: Snapshot, name: str, language: str, actor: bool = False) -> str:
    """A section every viewer of this version sees alike (but for the one who must
    choose a row or pick a card: `actor`), rendered once per version, process and
    language: the snapshot keeps the string for the table's other sockets."""
    key = (language, name, actor)
    html = snapshot.parts.get(key)
    if html is None:
        html = snapshot.parts[key] = _render_part(snapshot, name, actor)
    return html


def _render_part(snapshot: Snapshot, name: str, actor: bool) -> str:
    context = {**snapshot.shared(), "actor": actor}
    # The players' table, sent for every version, needs only the shared context; the
    # rest (rows, turns, score sheet) is built when a whole frame is.
    if snapshot.game is not None and name != "players":
        context.update(snapshot.board())
    if name == "players" and snapshot.game is not None:
        context["player_rows"] = _player_rows(snapshot)
    if name in _ONLY_WHEN_SHOWN and not context.get(name):
        return ""
    return _render(snapshot, name, context)


_rows_kept = Kept(8192)


def _player_rows(snapshot: Snapshot) -> list[str]:
    """Each seat's row of the players' table (the `player` partial), kept per process
    under everything the partial is given: within a turn a selection changes one row."""
    phase = snapshot.shared()["v"]["phase"]
    template = _template(snapshot.table)
    rows = []
    for player in snapshot.shared()["players"]:
        # A bot's name in the frame's language: read here, under its translation.
        shown = {key: value for key, value in player.items() if key != "seat"}
        shown["name"] = player["seat"].name
        key = (template, translation.get_language(), phase, _frozen(shown))
        context = {"player": shown, "phase": phase}
        rows.append(
            _rows_kept.get_or_render(
                key, lambda c=context: mark_safe(_render(snapshot, "player", c))
            )
        )
    return rows


def _frozen(value):
    """`value` (dicts, lists, scalars) as a key."""
    if isinstance(value, dict):
        return tuple(sorted((key, _frozen(item)) for key, item in value.items()))
    if isinstance(value, list | tuple):
        return tuple(_frozen(item) for item in value)
    return value


def _hand(snapshot: Snapshot, position: int, language: str) -> str:
    """The seat's `#hand` partial, from its own view of the game only."""
    view = snapshot.seat_view(position)
    context = {
        "v": snapshot.shared()["v"],
        # The seat's own view (its hand, what it may play): never another seat's.
        "mine": view,
        "my_seat": snapshot.seat_at(position),
        # The decision's countdown, which the hand's first line shows wherever the page is
        # scrolled (issue 31).
        "deadline": snapshot.game.deadline if snapshot.game is not None else None,
    }
    own = kinds.get(snapshot.table.kind).hand_context
    if own is not None:
        context.update(own(view))
    return _render(snapshot, "hand", context)


def _open_tag(snapshot: Snapshot, position: int | None) -> str:
    # Written out: it opens every whole frame (format_html cost more than the rest of it).
    phase = snapshot.shared()["v"]["phase"] if snapshot.game else snapshot.table.status
    version = "" if snapshot.version is None else int(snapshot.version)
    me = "" if position is None else int(position)
    # The round in play: the page fetches the log of earlier rounds when it changes.
    number = snapshot.shared()["v"].get("round", "") if snapshot.game else ""
    return (
        f'<div id="live" data-version="{version}" data-phase="{escape(phase)}" data-me="{me}"'
        f' data-round="{escape(number)}">'
    )


def live_frame(snapshot: Snapshot, user, language: str, csrf_token: str = "", invite: str = ""):
    """The whole `#live` element for `user` (a player or a spectator).

    `csrf_token`: the forms of the frame post with the page's CSRF cookie, like the page's
    own forms. Renders nothing that needs the database: it may run on the event loop.
    """
    position = snapshot.position_of(user)
    with translation.override(language):
        html = [_open_tag(snapshot, position), _header(snapshot, language)]
        if snapshot.table.status == Table.Status.ABANDONED:
            # Nobody came back to it (services.presence): what it was, nothing to do.
            html.append(_render(snapshot, "abandoned", {}))
            if snapshot.game is None:
                html.append("</div>")
                return mark_safe("".join(html))
            position = None  # no hand, no buttons: shown as a spectator sees it
        if snapshot.game is None:
            table = snapshot.table
            context = {
                **snapshot.shared(),
                "my_seat": None if position is None else snapshot.seat_at(position),
                "seat_rows": [
                    (seat, snapshot.standings.get(seat.position)) for seat in snapshot.seats
                ],
                # The creator's controls, for whoever runs the table (services.runs_table).
                "is_creator": services.runs_table(table, user, snapshot.runners),
                "free_seats": table.seats_count - len(snapshot.seats),
                "bot_choices": kinds.get(table.kind).bot_choices,
                "bot_menu": kinds.get(table.kind).bot_menu(),
                "invite_path": f"{table.get_absolute_url()}?invite={table.invite_code}",
                "invite": invite,
                "csrf_token": csrf_token,
            }
            html.append(_render(snapshot, "seats", context))
        else:
            actor = position is not None and position == snapshot.shared()["actor_position"]
            first = _OVER_FIRST if snapshot.shared()["ranking"] else ()
            if position is not None and snapshot.seat_at(position).away:
                html.append(_away_banner(snapshot, position, csrf_token))
            above, below = _sections(kinds.get(snapshot.table.kind))
            for name in first + above:
                html.append(_part(snapshot, name, language, actor))
            html.append(_part(snapshot, "players", language))
            if position is not None:
                html.append(_hand(snapshot, position, language))
            for name in below:
                if name not in first:
                    html.append(_part(snapshot, name, language))
            if position is not None:
                html.append(_seat_actions(snapshot, position, csrf_token, language))
            if first:
                html.append(_end_actions(snapshot, user, position, csrf_token))
            # What is new at this decision point in words, hidden: the page reads it out
            # in its live region (static/js/live.js). A kind without the partial says
            # nothing.
            html.append(_part(snapshot, "announce", language))
        html.append("</div>")
    return mark_safe("".join(html))


def _away_banner(snapshot: Snapshot, position: int, csrf_token: str) -> str:
    """At the top of an away player's table: what the computer played for her, and her
    "I'm back" (while the game is on). Rare: rendered when drawn, never kept."""
    context = {
        "table": snapshot.table,
        "played": snapshot.played_for.get(position, 0),
        "over": bool(snapshot.shared()["ranking"]),
        "csrf_token": csrf_token,
    }
    return _render(snapshot, "away_banner", context)


def _end_actions(snapshot: Snapshot, user, position, csrf_token: str) -> str:
    """Rematch, join it, or back to the lobby: the end of a finished game's frame."""
    rematch_table, seated = snapshot.rematch
    context = {
        "table": snapshot.table,
        "my_seat": None if position is None else snapshot.seat_at(position),
        "rematch_table": rematch_table,
        "in_rematch": user.is_authenticated and user.pk in seated,
        "csrf_token": csrf_token,
    }
    return _render(snapshot, "end_actions", context)


def update_frame(snapshot: Snapshot, position: int | None, language: str, hand: bool) -> str:
    """What changes within one decision point (a selection, a bot's, an absence): the
    players' section, and the seat's own hand when `hand` (docs/protocol.md)."""
    with translation.override(language):
        html = _part(snapshot, "players", language)
        if hand and position is not None:
            html += _hand(snapshot, position, language)
    return html


def selection_of(snapshot: Snapshot, position: int | None):
    """What `position` has chosen within this decision point, as its game says
    (Kind.selection; None if nothing, or not seated): a change sends it its hand again."""
    if position is None or snapshot.game is None:
        return None
    selection = kinds.get(snapshot.table.kind).selection
    return None if selection is None else selection(snapshot.seat_view(position))
