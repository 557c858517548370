"""Reads of tables and games, and who may see them: the queries and access checks behind
the pages, the sockets and the profiles. Nothing here renders (games/rendering.py does,
with these)."""

from dataclasses import dataclass

from django.db.models import Count, Exists, F, OuterRef, Prefetch, Q, Subquery, Value

from games import engine, kinds, signals
from games.models import Decision, Game, Seat, Table, number_bots


def deals_in_play():
    """The deal seeds some table has not finished playing (or not yet started): the
    finished games dealt from them still hold the hands of a game being played."""
    return (
        Table.objects.filter(deal_seed__isnull=False)
        .exclude(status__in=(Table.Status.FINISHED, Table.Status.ABANDONED))
        .values("deal_seed")
    )


def deal_in_play_elsewhere(table: Table) -> bool:
    """Is `table`'s deal (a duplicate round) still being played at another table? A table
    without `deal_seed` has no other: no query; else one."""
    if table.deal_seed is None:
        return False
    return deals_in_play().filter(deal_seed=table.deal_seed).exclude(pk=table.pk).exists()


def _closed_by_apps(viewer) -> Q | None:
    """The tables other apps close to `viewer` (games.signals.tables_closed), or None."""
    closed = None
    for _receiver, answer in signals.tables_closed.send(sender=Table, viewer=viewer):
        if answer is not None:
            closed = answer if closed is None else closed | answer
    return closed


def shown_to(viewer, table: str = "table") -> Q:
    """The secrecy rule, as a filter through the lookup path `table` to a Table ("" for
    Table itself): the tables of which anything may be shown to `viewer` (a page, a frame,
    a log, a record, a score, a rating, a figure).

    Closed are a table whose deal (a duplicate round) another table still plays, and a
    table another app closes to the viewer (a members-only league's, to outsiders). A
    table's own players see it as usual, and superusers see everything."""
    if viewer is not None and viewer.is_authenticated and viewer.is_superuser:
        return Q()
    path = f"{table}__" if table else ""
    sibling_playing = (
        Table.objects.filter(deal_seed=OuterRef(f"{path}deal_seed"))
        .exclude(pk=OuterRef(f"{path}pk"))
        .exclude(status__in=(Table.Status.FINISHED, Table.Status.ABANDONED))
    )
    closed = Q(Exists(sibling_playing))
    by_apps = _closed_by_apps(viewer)
    if by_apps is not None:
        closed |= Q(**{f"{path}pk__in": Table.objects.filter(by_apps).values("pk")})
    if viewer is None or not viewer.is_authenticated:
        return ~closed
    seated = Exists(Seat.objects.filter(table=OuterRef(f"{path}pk"), user=viewer.pk))
    return ~closed | Q(seated)


@dataclass(frozen=True)
class Access:
    table: Table
    seat: Seat | None
    # The table's deal (a duplicate round) is still being played at another table, and
    # the viewer is not a superuser: the finished game's record and replay stay closed,
    # and the whole table to anyone not seated there (`shown_to`).
    deal_in_play: bool = False

    @property
    def seated(self) -> bool:
        return self.seat is not None and self.seat.user_id is not None

    @property
    def deal_closed(self) -> bool:
        """Nothing of a finished game may be shown that is not shown while it is played."""
        return self.deal_in_play

    @property
    def closed(self) -> bool:
        """The table is closed to this viewer until every table of its deal has finished."""
        return self.deal_in_play and not self.seated


def table_access(table_id: int, user, invite_code: str = "") -> Access | None:
    """Who may look at a table (its page, log, chat and socket): None for the viewers
    `table_look` turns away and for those its deal closes it to."""
    access = table_look(table_id, user, invite_code)
    if access is None or access.closed:
        return None
    return access


def table_look(table_id: int, user, invite_code: str = "") -> Access | None:
    """`table_access` with the reason why a duplicate round closes the table
    (`Access.closed`): None only when the table is missing, private to the user (its
    players and holders of its invite link see it), or closed to them by another app
    (`shown_to`)."""
    table = Table.objects.filter(pk=table_id).select_related("created_by").first()
    if table is None:
        return None
    seat = None
    if user.is_authenticated:
        seat = table.seats.filter(user=user).first()
    superuser = user.is_authenticated and user.is_superuser
    if seat is None:
        if not table.is_public and invite_code != table.invite_code:
            return None
        by_apps = None if superuser else _closed_by_apps(user)
        if by_apps is not None and Table.objects.filter(by_apps, pk=table_id).exists():
            return None
    deal_in_play = not superuser and deal_in_play_elsewhere(table)
    return Access(table=table, seat=seat, deal_in_play=deal_in_play)


def listed_to(viewer, table: str = "table") -> Q:
    """The tables a list (a profile, the lobby) may name to `viewer`, through the lookup
    path `table` to a Table: the public ones and the private ones the viewer sits at, of
    those `shown_to` the viewer. An invite link opens a private table, but never puts it
    in anyone's list."""
    public = Q(**{f"{table}__is_public": True})
    if viewer is not None and viewer.is_authenticated:
        public |= Q(Exists(Seat.objects.filter(table=OuterRef(table), user=viewer.pk)))
    return public & shown_to(viewer, table)


def picked_up(game: Game, seats):
    """The picked-up piles of a finished game, round by round (TakenCard rows)."""
    piles = {seat.position: {"name": seat.name, "rounds": {}} for seat in seats}
    for taken in game.taken_cards.all():
        piles[taken.seat]["rounds"].setdefault(taken.round, []).append(
            {"number": taken.card, "heads": taken.heads}
        )
    return [
        {"name": pile["name"], "rounds": sorted(pile["rounds"].items())} for pile in piles.values()
    ]


def lobby_tables(user, kind: str | None = None) -> dict:
    """The lobby's lists: open public tables, the user's own, and public games in play,
    of those `shown_to` the user; only the game `kind`'s when it is named. Each table comes
    with the one it is the rematch of (`rematch_of`), if any."""
    shown = shown_to(user, table="")
    tables = Table.objects.select_related("rematch_of")
    if kind is not None:
        tables = tables.filter(kind=kind)
    open_tables = (
        tables.filter(status=Table.Status.OPEN, is_public=True, reserved=False)
        .filter(shown)
        .select_related("created_by")
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user")))
        .order_by("-created_at")[:50]
    )
    mine = []
    if user.is_authenticated:
        mine = (
            tables.filter(seats__user=user)
            .filter(Q(status=Table.Status.OPEN) | Q(status=Table.Status.PLAYING))
            .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user")))
            .order_by("-created_at")[:20]
        )
    playing = (
        tables.filter(status=Table.Status.PLAYING, is_public=True)
        .filter(shown)
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user")))
        .order_by("-created_at")[:20]
    )
    return {
        "open_tables": _seats_named(open_tables),
        "my_tables": _seats_named(mine),
        "playing_tables": _seats_named(playing),
    }


def _seats_named(tables) -> list[Table]:
    """The tables, their prefetched seats' bots numbered (number_bots) for the list."""
    tables = list(tables)
    for table in tables:
        number_bots(table.seats.all())
    return tables


# --- cards the computer played for a player ---------------------------------------------

# Decisions the computer made for a player: the time limit ran out, or the player is away
# (a bot's own decisions are not marked: a bot is the computer).
COMPUTER_SOURCES = (Decision.Source.TIMEOUT, Decision.Source.AWAY)


def played_for(game: Game, positions) -> dict[int, int]:
    """{position: how many decisions the computer made for that seat's player since her
    last own decision}: what an away player is told when she comes back. One query."""
    if not positions:
        return {}
    last_own = (
        Decision.objects.filter(game=game, seat=OuterRef("seat"), source=Decision.Source.PLAYER)
        .order_by("-seq")
        .values("seq")[:1]
    )
    rows = (
        game.decisions.filter(seat__in=positions, source__in=COMPUTER_SOURCES)
        .annotate(last_own=Subquery(last_own))
        .filter(Q(last_own__isnull=True) | Q(seq__gt=F("last_own")))
        .values("seat")
        .annotate(count=Count("pk"))
        .order_by()
    )
    return {row["seat"]: row["count"] for row in rows}


def computer_played_log(game: Game) -> frozenset:
    """The plays of the game log the computer made for their player, as (turn, seat)
    pairs: `turn` counts the game's finished turns from 0, in the order of the engine's
    log (each turn ends with the decision that revealed its cards). A card the computer
    chose and the player then changed before the reveal is the player's; a row the
    computer chose for a too-low card marks that seat's play of the turn. One query when
    the computer played nothing, two otherwise."""
    if not game.decisions.filter(source__in=COMPUTER_SOURCES).exists():
        return frozenset()
    turn, marks, chosen = 0, set(), {}
    rows = game.decisions.order_by("seq").values_list("seat", "payload", "source", "reveals")
    for seat, payload, source, reveals in rows:
        kind = (payload or {}).get("type")
        if kind == "select":
            chosen[seat] = source in COMPUTER_SOURCES
        elif kind == "row" and source in COMPUTER_SOURCES:
            marks.add((turn - 1, seat))
        if reveals:
            marks.update((turn, who) for who, computer in chosen.items() if computer)
            turn, chosen = turn + 1, {}
    return frozenset(marks)


# --- rematch ------------------------------------------------------------------------------


def rematch_state(table: Table, user) -> dict:
    """What the end of a finished table offers `user` (the `end_actions` partial of a
    kind's live.html): `rematch_table`, the table's rematch or None, and `in_rematch`,
    whether the user sits there already. One query; none without a rematch."""
    if table.rematch_id is None:
        return {"rematch_table": None, "in_rematch": False}
    seated = Value(False)
    if user.is_authenticated:
        seated = Exists(Seat.objects.filter(table=OuterRef("pk"), user=user.pk))
    rematch = Table.objects.filter(pk=table.rematch_id).annotate(seated=seated).first()
    return {"rematch_table": rematch, "in_rematch": bool(rematch and rematch.seated)}


def rematch_seats(table: Table) -> tuple[Table | None, frozenset]:
    """The table's rematch and the ids of the users seated there, read once for every
    viewer (a snapshot shared by a table's sockets): a viewer's `in_rematch` is then
    `user.pk in` the set, with no query of its own. Two queries; none without a rematch."""
    if table.rematch_id is None:
        return None, frozenset()
    rematch = Table.objects.filter(pk=table.rematch_id).first()
    if rematch is None:
        return None, frozenset()
    users = Seat.objects.filter(table=rematch, user__isnull=False).values_list("user", flat=True)
    return rematch, frozenset(users)


# --- a player's games ("My games") --------------------------------------------------------


def waiting_count(user) -> int:
    """How many of the player's tables wait for a decision of hers (turn-based tables
    mark it on her seat: services.decisions). One query."""
    return Seat.objects.filter(
        user=user, awaited_since__isnull=False, table__status=Table.Status.PLAYING
    ).count()


def my_games(user, finished: int = 10) -> dict:
    """The player's tables: `current`, her open and playing ones, those waiting for her
    first (the longest wait first), then the newest; `finished`, her last finished ones.
    Each is a dict: the table, its game (Kind), its seats named, whose turn it is, the
    deadline, and since when it waits for her (None: it does not)."""
    seats_named = Prefetch("table__seats", queryset=Seat.objects.select_related("user"))
    mine = (
        Seat.objects.filter(user=user)
        .select_related("table", "table__game")
        .prefetch_related(seats_named)
    )
    current = list(
        mine.filter(table__status__in=(Table.Status.OPEN, Table.Status.PLAYING)).order_by(
            F("awaited_since").asc(nulls_last=True), "-table__created_at"
        )[:50]
    )
    done = list(
        mine.filter(table__status=Table.Status.FINISHED).order_by(
            F("table__game__finished_at").desc(nulls_last=True)
        )[:finished]
    )
    entries = []
    for seat in current:
        table = seat.table
        seats = number_bots(table.seats.all())
        game = getattr(table, "game", None)
        to_act = []
        if game is not None and table.status == Table.Status.PLAYING:
            game_engine = engine.get(table.kind)
            to_act = game_engine.to_act(game_engine.load(game.state))
        entries.append(
            {
                "table": table,
                "kind": kinds.get(table.kind),
                "seats": seats,
                "to_act": [s.name for s in seats if s.position in to_act],
                "deadline": game.deadline if game is not None else None,
                "waiting_since": seat.awaited_since,
            }
        )
    finished_entries = []
    for seat in done:
        table = seat.table
        game = getattr(table, "game", None)
        result = game.result if game is not None else None
        finished_entries.append(
            {
                "table": table,
                "kind": kinds.get(table.kind),
                "seats": number_bots(table.seats.all()),
                "finished_at": game.finished_at if game is not None else None,
                "total": result["totals"][seat.position] if result else None,
                "won": bool(result) and seat.position in result["winners"],
            }
        )
    return {"current": entries, "finished": finished_entries}
