"""Corrections and voids: the only ways a finished result changes."""

from django.db import transaction
from django.utils.translation import gettext as _

from games import paper
from games import services as game_services
from leagues.models import (
    LeagueGame,
    ResultChange,
    ScoreSheet,
)
from leagues.services.errors import LeagueError
from leagues.services.sheets import sheet_error


def result_correct(*, game, lines, reason: str, user) -> ResultChange:
    """Give a finished league game another score sheet, with a reason: kept with who and
    when (ResultChange); the season's standings and ratings are then recomputed."""
    if not reason.strip():
        raise LeagueError("no_reason", _("Say why the result changes."))
    with transaction.atomic():
        before = list(game.result["rounds"]) if game.result else []
        try:
            game = game_services.game_sheet_replace(game_id=game.pk, lines=lines)
        except paper.SheetError as error:
            raise sheet_error(error) from None
        except game_services.ServiceError as error:
            raise LeagueError(error.code, error.message) from None
        ScoreSheet.objects.filter(table_id=game.table_id).update(lines=lines)
        _site_ratings_again(game)
        return ResultChange.objects.create(
            game=game,
            action=ResultChange.Action.CORRECT,
            reason=reason.strip(),
            before=before,
            after=game.result["rounds"],
            changed_by=user,
        )


def result_void(*, game, reason: str, user) -> ResultChange:
    """Take a finished league game out of its season, with a reason: it stays listed as
    void, counts in nothing, and the change is kept (ResultChange)."""
    if not reason.strip():
        raise LeagueError("no_reason", _("Say why the game is voided."))
    with transaction.atomic():
        entry = LeagueGame.objects.select_for_update().filter(game=game).first()
        if entry is None:
            raise LeagueError("not_league", _("Only a league game's result is voided."))
        if entry.void:
            raise LeagueError("void", _("This game is void already."))
        entry.void = True
        entry.save(update_fields=["void"])
        _site_ratings_again(game)
        return ResultChange.objects.create(
            game=game,
            action=ResultChange.Action.VOID,
            reason=reason.strip(),
            before=list(game.result["rounds"]) if game.result else [],
            after=None,
            changed_by=user,
        )


def _site_ratings_again(game) -> None:
    """A finished result changed: queue the rebuild of its game's site ratings."""
    from leagues import tasks  # leagues.tasks imports this package

    tasks.start_site_recompute(game.table.kind)
