"""Games played with real cards, and corrected results: a table switched to paper, its
players, its score sheet as its result, a finished game's sheet replaced."""

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import kinds, signals
from games.models import Game, RoundScore, Seat, Table, TakenCard
from games.services.common import ServiceError, _announce_on_commit
from games.services.tables import _locked_table

# --- games played on paper, and corrected results ---------------------------------------------


def table_paper(*, table_id: int) -> Table:
    """A table not finished yet is to be played with real cards: no game starts here, and
    a game under way stops (no decision, no clock); its score sheet, once entered and
    agreed (`paper_result`), is its game. For the app that runs it (leagues), which
    decides who may."""
    with transaction.atomic():
        table = _locked_table(table_id)
        if table.status == Table.Status.FINISHED:
            raise ServiceError("finished", _("This table's game is over."))
        table.paper = True
        table.save(update_fields=["paper"])
        Game.objects.filter(table=table).update(deadline=None)
        _announce_on_commit(table, lobby=True)
    return table


def paper_seats(*, table_id: int, users: list) -> None:
    """The players of a table played on paper, in seat order, in place of whoever sat there
    (its score sheet names them). For the app that enters the sheet, which checks them."""
    with transaction.atomic():
        table = _locked_table(table_id)
        if not table.paper or table.status == Table.Status.FINISHED:
            raise ServiceError("not_paper", _("This table is not waiting for a score sheet."))
        table.seats.all().delete()
        for position, user in enumerate(users):
            Seat.objects.create(table=table, position=position, user=user)
        _announce_on_commit(table, lobby=True)


def paper_result(*, table_id: int, lines, finished_at=None) -> Game:
    """End a table played on paper with its score sheet (`lines`, in the game's unit):
    the table's game, finished, whose result enters its season like a game played here.
    games.paper.SheetError when the sheet cannot be this game's."""

    with transaction.atomic():
        table = _locked_table(table_id)
        if not table.paper or table.status == Table.Status.FINISHED:
            raise ServiceError("not_paper", _("This table is not waiting for a score sheet."))
        seats = list(table.seats.order_by("position"))
        for index, seat in enumerate(seats):
            if seat.position != index:
                raise ServiceError("gaps", _("Every seat of the table must be taken, in order."))
        paper_sheet = kinds.get(table.kind).paper_sheet
        if paper_sheet is None:
            raise ServiceError("no_paper", _("This game cannot be entered on paper."))
        rows, result = paper_sheet(lines, len(seats))
        now = finished_at or timezone.now()
        game = Game.objects.select_for_update().filter(table=table).first()
        if game is None:
            game = Game(table=table, seed=0, state={})
        # A game begun here and finished on paper: the sheet is its result, whatever
        # its rounds played here had written.
        RoundScore.objects.filter(game_id=game.pk).delete()
        TakenCard.objects.filter(game_id=game.pk).delete()
        game.finished_at, game.result, game.deadline = now, result, None
        game.save()
        _score_rows(game, rows)
        table.status = Table.Status.FINISHED
        table.save(update_fields=["status"])
        signals.game_finished.send(sender=Game, game=game)
        _announce_on_commit(table, lobby=True)
    return game


def game_sheet_replace(*, game_id: int, lines) -> Game:
    """Give a finished game another score sheet (`lines`, in the game's unit): its result
    and its score sheet rows. Only the leagues' correction calls this, which keeps who,
    when and why, and recomputes the standings."""

    with transaction.atomic():
        game = Game.objects.select_for_update().select_related("table").get(pk=game_id)
        if game.finished_at is None:
            raise ServiceError("not_finished", _("Only a finished game's result is corrected."))
        paper_sheet = kinds.get(game.table.kind).paper_sheet
        if paper_sheet is None:
            raise ServiceError("no_paper", _("This game's result cannot be corrected."))
        rows, result = paper_sheet(lines, len(game.result["totals"]))
        game.result = {**game.result, **result}
        game.save(update_fields=["result"])
        RoundScore.objects.filter(game=game).delete()
        _score_rows(game, rows)
    return game


def _score_rows(game: Game, rows) -> None:
    RoundScore.objects.bulk_create(
        RoundScore(game=game, round=number, seat=seat, heads=heads)
        for number, line in enumerate(rows, start=1)
        for seat, heads in enumerate(line)
    )
