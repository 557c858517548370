"""Games played with real cards: score sheets and their players' answers; a night's table
switched to paper."""

import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from games import paper
from games import services as game_services
from games.models import Table
from leagues import notify
from leagues.models import (
    LeagueTable,
    Membership,
    ScoreSheet,
    SheetAnswer,
    season_id_of,
    seated_table_of,
)
from leagues.services.errors import LeagueError


def sheet_error(error) -> LeagueError:
    return LeagueError("bad_sheet", str(error))


def sheet_enter(
    *,
    season,
    user,
    players: list,
    lines,
    played_on,
    evening=None,
    round_number: int | None = None,
    table=None,
) -> ScoreSheet:
    """Enter the score sheet of a game played with real cards: a league admin, or one of
    its players where the season lets players enter sheets. Its table is played on paper
    (a seated table of an evening, `table`, switches; else a new one, in `evening`'s round
    `round_number` when given). The sheet counts once every player has confirmed it (the
    one who entered it confirms by entering it), or when a league admin confirms it for all.
    """
    league = season.league
    is_admin = league.is_admin(user)
    if not is_admin and not (season.players_enter_sheets and user in players):
        raise LeagueError(
            "not_allowed",
            _("Only the league's admins, or one of its players, can enter this game's sheet."),
        )
    if season.closed:
        raise LeagueError("season_closed", _("This season is closed."))
    if played_on > timezone.localdate():
        raise LeagueError(
            "played_later",
            _("The sheet is dated later than today: enter it once the game is played."),
        )
    if len({player.pk for player in players}) != len(players):
        raise LeagueError("twice", _("Each player is on the sheet once."))
    if len(players) not in season.game.players:
        raise LeagueError(
            "bad_count",
            _("%(game)s is played by %(low)s to %(high)s players.")
            % {
                "game": season.game.label,
                "low": season.game.players[0],
                "high": season.game.players[-1],
            },
        )
    members = set(
        Membership.objects.filter(
            league=league, user__in=players, status=Membership.Status.ACTIVE
        ).values_list("user_id", flat=True)
    )
    outsiders = sorted(p.shown_name for p in players if p.pk not in members)
    if outsiders:
        raise LeagueError(
            "not_member",
            _("Not members of the league: %(names)s.") % {"names": ", ".join(outsiders)},
        )
    try:
        season.game.paper_sheet(lines, len(players))
    except paper.SheetError as error:
        raise sheet_error(error) from None
    with transaction.atomic():
        if table is None:
            table = game_services.table_create(
                user=user,
                kind=season.kind,
                seats_count=len(players),
                options={},
                name=_("%(date)s, on paper") % {"date": date_format(played_on, "j M")},
                creator_sits=False,
                reserved=True,
            )
            LeagueTable.objects.create(table=table, season=season)
            game_services.table_paper(table_id=table.pk)
            if evening is not None:
                number = 1 + max(
                    (s.number for s in evening.seated_tables.filter(round=round_number or 1)),
                    default=0,
                )
                evening.seated_tables.create(
                    round=round_number or 1,
                    number=number,
                    table=table,
                    reserved_for=[p.pk for p in players],
                )
        else:
            table = Table.objects.select_for_update().get(pk=table.pk)
            if season_id_of(table) != season.pk or table.status == Table.Status.FINISHED:
                raise LeagueError("bad_table", _("This table is not waiting for a score sheet."))
            if not table.paper:
                game_services.table_paper(table_id=table.pk)
            if hasattr(table, "score_sheet"):
                raise LeagueError("has_sheet", _("This table's sheet is already entered."))
        game_services.paper_seats(table_id=table.pk, users=players)
        sheet = ScoreSheet.objects.create(
            table=table, season=season, played_on=played_on, lines=lines, entered_by=user
        )
        if user in players:
            SheetAnswer.objects.create(sheet=sheet, user=user, confirmed=True)
        _count_if_agreed(sheet)
        transaction.on_commit(lambda: notify.sheet_waits(sheet=sheet, by=user))
    return sheet


def sheet_players(sheet) -> list:
    return [seat.user for seat in sheet.table.seats.select_related("user").order_by("position")]


def sheet_answer(*, sheet, user, confirmed: bool, reason: str = "") -> ScoreSheet:
    """A player of the sheet's game confirms it, or disputes it with a reason (the sheet
    then waits for the league admin)."""
    with transaction.atomic():
        sheet = ScoreSheet.objects.select_for_update().get(pk=sheet.pk)
        if user.pk not in {p.pk for p in sheet_players(sheet)}:
            raise LeagueError("not_player", _("Only the game's players answer its sheet."))
        if sheet.status == ScoreSheet.Status.CONFIRMED:
            raise LeagueError("confirmed", _("This sheet is confirmed already."))
        if not confirmed and not reason.strip():
            raise LeagueError("no_reason", _("Say what is wrong with the sheet."))
        SheetAnswer.objects.update_or_create(
            sheet=sheet, user=user, defaults={"confirmed": confirmed, "reason": reason.strip()}
        )
        if not confirmed:
            sheet.status = ScoreSheet.Status.DISPUTED
            sheet.save(update_fields=["status"])
        else:
            _count_if_agreed(sheet)
    return sheet


def sheet_fix(*, sheet, user, lines) -> ScoreSheet:
    """A league admin writes a pending or disputed sheet again: its players answer anew."""
    with transaction.atomic():
        sheet = ScoreSheet.objects.select_for_update().get(pk=sheet.pk)
        if not sheet.season.league.is_admin(user):
            raise LeagueError("not_allowed", _("Only the league's admins fix a sheet."))
        if sheet.status == ScoreSheet.Status.CONFIRMED:
            raise LeagueError("confirmed", _("A confirmed sheet is corrected, not fixed."))
        try:
            sheet.season.game.paper_sheet(lines, len(sheet_players(sheet)))
        except paper.SheetError as error:
            raise sheet_error(error) from None
        sheet.lines = lines
        sheet.status = ScoreSheet.Status.PENDING
        sheet.save(update_fields=["lines", "status"])
        sheet.answers.all().delete()
        transaction.on_commit(lambda: notify.sheet_waits(sheet=sheet, by=user, again=True))
    return sheet


def sheet_confirm_all(*, sheet, user) -> ScoreSheet:
    """A league admin confirms a sheet for all its players: it counts now."""
    with transaction.atomic():
        sheet = ScoreSheet.objects.select_for_update().get(pk=sheet.pk)
        if not sheet.season.league.is_admin(user):
            raise LeagueError("not_allowed", _("Only the league's admins confirm for all."))
        if sheet.status == ScoreSheet.Status.CONFIRMED:
            return sheet
        for player in sheet_players(sheet):
            SheetAnswer.objects.update_or_create(
                sheet=sheet, user=player, defaults={"confirmed": True}
            )
        _count_if_agreed(sheet)
    return sheet


def _count_if_agreed(sheet) -> None:
    """Every player has confirmed (a disputed sheet too, once whoever disputed it agrees,
    or a league admin confirms it for all): the sheet becomes its table's game, which
    enters the season (games.services.paper_result, through games.signals.game_finished)
    on the day it was played. Call with the sheet's row locked: it counts once."""
    players = {p.pk for p in sheet_players(sheet)}
    agreed = set(sheet.answers.filter(confirmed=True).values_list("user_id", flat=True))
    if sheet.status == ScoreSheet.Status.CONFIRMED or not players <= agreed:
        return
    try:
        game_services.paper_result(
            table_id=sheet.table_id, lines=sheet.lines, finished_at=_played_at(sheet)
        )
    except paper.SheetError as error:
        raise sheet_error(error) from None
    except game_services.ServiceError as error:
        raise LeagueError(error.code, error.message) from None
    sheet.status = ScoreSheet.Status.CONFIRMED
    sheet.save(update_fields=["status"])


def _played_at(sheet) -> datetime.datetime:
    """When a game played on paper is dated, for the standings and "last played": the
    club's time on the day written on its sheet, at the start time of its evening or
    tournament when its table is one of theirs, the event has a start time and the sheet's
    day is the event's date; else at noon. Now, if that moment is still to come."""
    slot = seated_table_of(sheet.table)
    start = slot.event.starts() if slot is not None else None
    if start is None or slot.event.date != sheet.played_on:
        noon = datetime.datetime.combine(sheet.played_on, datetime.time(12))
        start = timezone.make_aware(noon, timezone.get_default_timezone())
    return min(start, timezone.now())


def table_to_paper(*, event, slot_id: int) -> None:
    """A seated table of the night is played with real cards (before its game or during
    it): its sheet is entered instead."""
    with transaction.atomic():
        slot = event.seated_tables.filter(pk=slot_id).first()
        if slot is None:
            raise LeagueError("no_table", _("This table is not one of this event's."))
        try:
            game_services.table_paper(table_id=slot.table_id)
        except game_services.ServiceError as error:
            raise LeagueError(error.code, error.message) from None
