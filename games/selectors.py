"""Reads of tables and games, and who may see them: the queries and access checks behind
the pages, the sockets and the profiles. Nothing here renders (games/rendering.py does,
with these)."""

from dataclasses import dataclass

from django.db.models import Exists, OuterRef, Prefetch, Q, Value

from games import kinds
from games.models import Decision, Game, Seat, Table


@dataclass(frozen=True)
class DealInPlay:
    """Other tables dealt the same cards (a duplicate round) have not all finished."""

    # The viewer sits at one of them: every other table of the deal shows their own cards.
    seated: bool


def deals_in_play():
    """The deal seeds some table has not finished playing (or not yet started): the
    finished games dealt from them still hold the hands of a game being played."""
    return (
        Table.objects.filter(deal_seed__isnull=False)
        .exclude(status=Table.Status.FINISHED)
        .values("deal_seed")
    )


def deal_in_play_elsewhere(table: Table, user=None) -> DealInPlay | None:
    """Is `table`'s deal still being played at another table? None if not (a table
    without `deal_seed` has no other: no query), else whether `user` sits at one of
    those tables. One query."""
    if table.deal_seed is None:
        return None
    others = deals_in_play().filter(deal_seed=table.deal_seed).exclude(pk=table.pk)
    if user is not None and user.is_authenticated:
        seated = Exists(Seat.objects.filter(table=OuterRef("pk"), user=user.pk))
    else:
        seated = Value(False)
    found = list(others.annotate(seated=seated).values_list("seated", flat=True))
    if not found:
        return None
    return DealInPlay(seated=any(found))


@dataclass(frozen=True)
class Access:
    table: Table
    seat: Seat | None
    # Set while the table's deal is still being played at another table (and the viewer
    # is not a superuser): its finished game's hands, record and piles stay closed.
    deal: DealInPlay | None = None

    @property
    def seated(self) -> bool:
        return self.seat is not None and self.seat.user_id is not None

    @property
    def deal_closed(self) -> bool:
        """Nothing of a finished game may be shown that is not shown while it is played."""
        return self.deal is not None

    @property
    def plays_the_deal_elsewhere(self) -> bool:
        """The viewer plays these very cards at another table: this one is closed to them."""
        return self.deal is not None and self.deal.seated and not self.seated


def table_access(table_id: int, user, invite_code: str = "") -> Access | None:
    """Who may look at a table (the page and its socket): its players, and anyone signed
    in when it is public; None for the others.

    A private table is shown to its players and to holders of its invite link only. A
    table of a duplicate round is not shown to the players of another table of the round
    still playing it (`table_look`)."""
    access = table_look(table_id, user, invite_code)
    if access is None or access.plays_the_deal_elsewhere:
        return None
    return access


def table_look(table_id: int, user, invite_code: str = "") -> Access | None:
    """`table_access` with the reason why a duplicate round closes the table: None only
    when the table is missing or private to the user; else the Access, whose `deal`
    says whether the table's deal is still played elsewhere (superusers see it all)."""
    table = Table.objects.filter(pk=table_id).select_related("created_by").first()
    if table is None:
        return None
    seat = None
    if user.is_authenticated:
        seat = table.seats.filter(user=user).first()
    if seat is None and not table.is_public and invite_code != table.invite_code:
        return None
    deal = None
    if not (user.is_authenticated and user.is_superuser):
        deal = deal_in_play_elsewhere(table, user)
    return Access(table=table, seat=seat, deal=deal)


def listed_to(viewer, table: str = "table") -> Q:
    """The tables a list (a profile) may name to `viewer`, through the lookup path `table`
    to a Table: the public ones, and the private ones the viewer sits at. An invite link
    opens a private table, but never puts it in anyone's list."""
    public = Q(**{f"{table}__is_public": True})
    if viewer is None or not viewer.is_authenticated:
        return public
    return public | Q(Exists(Seat.objects.filter(table=OuterRef(table), user=viewer.pk)))


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


def player_games(user, viewer=None, limit=30):
    """A player's tables, newest first, with their seat and result, for the profile page:
    those `viewer` may see listed (`listed_to`)."""
    seats = (
        Seat.objects.filter(user=user)
        .filter(listed_to(viewer))
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
                "kind": kinds.get(table.kind),
                "total": result["totals"][seat.position] if result else None,
                "won": bool(result) and seat.position in result["winners"],
                "finished_at": game.finished_at if game else None,
            }
        )
    return games


def lobby_tables(user) -> dict:
    open_tables = (
        Table.objects.filter(status=Table.Status.OPEN, is_public=True, reserved=False)
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


# --- cards the computer played for a player ---------------------------------------------

# Decisions the computer made for a player: the time limit ran out, or the player is away
# (a bot's own decisions are not marked: a bot is the computer).
COMPUTER_SOURCES = (Decision.Source.TIMEOUT, Decision.Source.AWAY)


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
