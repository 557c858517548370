"""Reads and renders: what a player (or spectator) is shown of tables and games.

Only `engine.view(state, seat)` reaches a template: another seat's hand or unrevealed
choice is never in a context, so it cannot leak into HTML.
"""

from collections import OrderedDict
from dataclasses import dataclass

from django.db.models import Prefetch, Q
from django.template.loader import render_to_string
from django.utils import translation

from games import engine
from games.models import BOT_CHOICES, Game, Seat, Table


@dataclass(frozen=True)
class Access:
    table: Table
    seat: Seat | None

    @property
    def seated(self) -> bool:
        return self.seat is not None and self.seat.user_id is not None


def table_access(table_id: int, user, invite_code: str = "") -> Access | None:
    """Who may look at a table: its players, and anyone signed in when it is public.

    A private table is shown to its players and to holders of its invite link only.
    """
    table = Table.objects.filter(pk=table_id).select_related("created_by").first()
    if table is None:
        return None
    seat = None
    if user.is_authenticated:
        seat = table.seats.filter(user=user).first()
    if seat is None and not table.is_public and invite_code != table.invite_code:
        return None
    return Access(table=table, seat=seat)


def _seat_names(table: Table) -> list[Seat]:
    return list(table.seats.select_related("user").order_by("position"))


def card_faces(game_engine, cards):
    return [{"number": card, "heads": game_engine.heads(card)} for card in cards]


def live_context(table: Table, game: Game | None, user, seats=None, state=None) -> dict:
    """Everything the live part of a table page shows to `user`.

    `seats` and `state` (the loaded `game.state`) may be given when already read.
    """
    seats = _seat_names(table) if seats is None else seats
    mine = next((seat for seat in seats if user.is_authenticated and seat.user_id == user.pk), None)
    context = {
        "table": table,
        "seats": seats,
        "my_seat": mine,
        "is_creator": user.is_authenticated and table.created_by_id == user.pk,
        "free_seats": table.seats_count - len(seats),
        "bot_choices": BOT_CHOICES,
        "invite_path": f"{table.get_absolute_url()}?invite={table.invite_code}",
        "game": game,
        "v": None,
    }
    if game is None:
        return context
    game_engine = engine.get(table.kind)
    state = game_engine.load(game.state) if state is None else state
    v = game_engine.view(state, mine.position if mine else None)
    players = []
    for seat in seats:
        position = seat.position
        players.append(
            {
                "seat": seat,
                "selected": v["selected"][position],
                "to_act": position in v["to_act"],
                "pile": v["piles"][position],
                "total": v["totals"][position],
                "revealed": v["revealed"][position] if v["revealed"] else None,
            }
        )
    rows = []
    for index, row in enumerate(v["rows"]):
        rows.append({"index": index, "cards": card_faces(game_engine, row)})
    last = v.get("last_turn")
    context.update(
        {
            "v": v,
            "players": players,
            "rows": rows,
            "hand": card_faces(game_engine, v["hand"] or []),
            "my_turn_to_choose": mine is not None and v["chooser"] == mine.position,
            "chooser_name": seats[v["chooser"]].name if v["chooser"] is not None else "",
            "can_select": mine is not None and v["phase"] == "select",
            "last_turn": _last_turn(game_engine, last, seats) if last else None,
            "revealed": _revealed(game_engine, v, seats),
            "draft": _draft(game_engine, v, seats, mine),
            "score_sheet": _score_sheet(v),
            "ranking": _ranking(v, seats) if v["result"] else None,
            "played": card_faces(game_engine, v["seen"]) if table.show_played else None,
            "picked_up": _picked_up(game, seats) if v["phase"] == "over" else None,
        }
    )
    return context


def _picked_up(game: Game, seats):
    """The picked-up piles of a finished game, round by round (TakenCard rows)."""
    piles = {seat.position: {"name": seat.name, "rounds": {}} for seat in seats}
    for taken in game.taken_cards.all():
        piles[taken.seat]["rounds"].setdefault(taken.round, []).append(
            {"number": taken.card, "heads": taken.heads}
        )
    return [
        {"name": pile["name"], "rounds": sorted(pile["rounds"].items())} for pile in piles.values()
    ]


def player_games(user, limit=30):
    """A player's tables, newest first, with their seat and result, for the profile page."""
    seats = (
        Seat.objects.filter(user=user)
        .select_related("table", "table__game")
        .order_by("-table__created_at")[:limit]
    )
    games = []
    for seat in seats:
        table = seat.table
        game = getattr(table, "game", None)
        result = game.result if game else None
        games.append(
            {
                "table": table,
                "total": result["totals"][seat.position] if result else None,
                "won": bool(result) and seat.position in result["winners"],
                "finished_at": game.finished_at if game else None,
            }
        )
    return games


def _last_turn(game_engine, last, seats):
    plays = [
        {
            "name": seats[seat].name,
            "card": {"number": card, "heads": game_engine.heads(card)},
            "row": last["choices"].get(str(seat)),
        }
        for seat, card in enumerate(last["cards"])
    ]
    return sorted(plays, key=lambda play: play["card"]["number"])


def _revealed(game_engine, v, seats):
    if not v["revealed"]:
        return None
    plays = [
        {
            "name": seats[seat].name,
            "card": {"number": card, "heads": game_engine.heads(card)},
            "placed": card not in v["resolving"],
        }
        for seat, card in enumerate(v["revealed"])
    ]
    return sorted(plays, key=lambda play: play["card"]["number"])


def _draft(game_engine, v, seats, mine):
    draft = v.get("draft")
    if not draft or v["phase"] != "draft":
        return None
    return {
        "pool": card_faces(game_engine, draft["pool"]),
        "picks": [{"name": seats[seat].name, "card": card} for seat, card in draft["picks"]],
        "picker": seats[draft["to_pick"]].name,
        "my_pick": mine is not None and draft["to_pick"] == mine.position,
    }


def _score_sheet(v):
    return [{"round": number, "heads": heads} for number, heads in enumerate(v["round_scores"], 1)]


def _ranking(v, seats):
    totals = v["result"]["totals"]
    order = sorted(range(len(totals)), key=lambda seat: totals[seat])
    ranking = []
    for seat in order:
        # RULES 1.6: equal totals share the rank.
        rank = 1 + sum(1 for other in totals if other < totals[seat])
        ranking.append(
            {
                "rank": rank,
                "name": seats[seat].name,
                "total": totals[seat],
                "winner": seat in v["result"]["winners"],
            }
        )
    return ranking


@dataclass(frozen=True)
class _Snapshot:
    version: int
    table: Table
    game: Game
    seats: list
    state: object


# Every seat of a table renders the same table, game and seats at a given version: the
# first render of a version in this process reads them, the table's other seats reuse them
# (docs/performance.md). Snapshots are only read, never changed, once stored.
_SNAPSHOTS_KEPT = 2000
_snapshots: "OrderedDict[int, _Snapshot]" = OrderedDict()


def _read_table(table_id: int, at_least: int | None):
    """(table, game, seats, state) at version `at_least` or later; None if the table is gone.

    Without `at_least` (a first frame, a resync, a change that moved no version, such as
    a seat taken before the game) everything is read from the database.
    """
    snapshot = _snapshots.get(table_id) if at_least is not None else None
    if snapshot is not None and snapshot.version >= at_least:
        return snapshot.table, snapshot.game, snapshot.seats, snapshot.state
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        return None
    game = Game.objects.filter(table=table).first()
    seats = _seat_names(table)
    if game is None:
        return table, None, seats, None
    state = remember_snapshot(table, game, seats)
    return table, game, seats, state


def remember_snapshot(table: Table, game: Game, seats: list):
    """Keep a just committed (or just read) game for the renders of its version.

    Called by the service on commit, before the change is announced, so that no seat of
    the table reads it again. Returns the loaded engine state.
    """
    state = engine.get(table.kind).load(game.state)
    kept = _snapshots.get(table.pk)
    if kept is None or kept.version <= game.version:
        _snapshots[table.pk] = _Snapshot(game.version, table, game, seats, state)
        _snapshots.move_to_end(table.pk)
        while len(_snapshots) > _SNAPSHOTS_KEPT:
            _snapshots.popitem(last=False)
    return state


def render_live(
    table_id: int, user, language: str, csrf_token: str = "", at_least: int | None = None
):
    """The live frame for one connection: (html, version), or None if the table is gone.

    `at_least`: the version announced (or acknowledged); a snapshot of this process at
    that version or later is rendered instead of reading the database again.
    """
    found = _read_table(table_id, at_least)
    if found is None:
        return None
    table, game, seats, state = found
    context = live_context(table, game, user, seats=seats, state=state)
    # Forms in a pushed frame post with the page's CSRF cookie, like those of the page.
    context["csrf_token"] = csrf_token
    with translation.override(language):
        html = render_to_string(f"games/{table.kind}/table.html#live", context)
    return html, (game.version if game else None)


def lobby_tables(user) -> dict:
    open_tables = (
        Table.objects.filter(status=Table.Status.OPEN, is_public=True)
        .select_related("created_by")
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user")))
        .order_by("-created_at")[:50]
    )
    mine = []
    if user.is_authenticated:
        mine = (
            Table.objects.filter(seats__user=user)
            .filter(Q(status=Table.Status.OPEN) | Q(status=Table.Status.PLAYING))
            .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user")))
            .order_by("-created_at")[:20]
        )
    playing = (
        Table.objects.filter(status=Table.Status.PLAYING, is_public=True)
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user")))
        .order_by("-created_at")[:20]
    )
    return {"open_tables": open_tables, "my_tables": mine, "playing_tables": playing}


def render_lobby_tables(user, language: str) -> str:
    with translation.override(language):
        return render_to_string("games/lobby.html#tables", lobby_tables(user))
