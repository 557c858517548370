"""League tables: a table opened or rematched in a season, or moved to another."""

from django.utils.translation import gettext as _

from games import kinds
from leagues import selectors
from leagues.models import (
    LeagueTable,
    Season,
    season_id_of,
)
from leagues.services.errors import LeagueError


def league_table_open(*, table, user, season) -> LeagueTable:
    """Count the table `user` has just opened in the season they chose (a Season or its
    pk): one the lobby offers them for the table's game (`_offered`), else refused. Called
    inside the transaction that creates the table, so a refusal leaves no table."""
    season_id = getattr(season, "pk", season)
    if not _offered(user=user, table=table, season_id=season_id):
        if Season.objects.filter(pk=season_id, closed=True).exists():
            raise LeagueError("season_closed", _("This season is closed."))
        raise LeagueError("not_offered", _("A new table of this game cannot count in this season."))
    if not _turn_based_allowed(table=table, season_id=season_id):
        raise LeagueError(
            "turn_based_not_allowed",
            _("This season does not allow turn-based games: choose a shorter time per decision."),
        )
    return LeagueTable.objects.create(table=table, season_id=season_id)


def league_table_rematch(*, table, user, old) -> LeagueTable | None:
    """The rematch `table` of the finished table `old` counts in `old`'s season while the
    lobby would still offer it to `user`; else it is a friendly game (None)."""
    season_id = season_id_of(old)
    if season_id is None or not _offered(user=user, table=table, season_id=season_id):
        return None
    if not _turn_based_allowed(table=table, season_id=season_id):
        return None
    return LeagueTable.objects.create(table=table, season_id=season_id)


def _turn_based_allowed(*, table, season_id) -> bool:
    """A live table counts in any season; a turn-based one only in a season that allows
    turn-based games."""
    if not table.turn_based:
        return True
    return Season.objects.filter(pk=season_id, allow_turn_based=True).exists()


def _offered(*, user, table, season_id) -> bool:
    """Whether the lobby offers `season_id` to `user` for a new table of `table`'s game
    (leagues.receivers.open_seasons)."""
    if not kinds.get(table.kind).in_leagues:
        return False
    return selectors.seasons_open_for(user, table.kind).filter(pk=season_id).exists()


def table_season_set(*, table, season) -> None:
    """Count a table in `season` from now on, or in none (None): the admin's choice, for a
    table not finished (a finished one's result is in its season's standings)."""
    if season is None:
        LeagueTable.objects.filter(table=table).delete()
    else:
        LeagueTable.objects.update_or_create(table=table, defaults={"season": season})
