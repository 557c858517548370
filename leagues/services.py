"""Writes of the league app. Called by games.services inside its transactions."""

from django.utils.translation import gettext as _

from leagues.models import Membership


class LeagueError(Exception):
    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


def check_can_sit(*, table, user) -> None:
    """A league table seats only active members of its league."""
    if table.season_id is None:
        return
    if not Membership.objects.filter(
        league_id=table.season.league_id, user=user, status=Membership.Status.ACTIVE
    ).exists():
        raise LeagueError("not_member", _("Only members of this league can sit at this table."))


def game_finished(*, game) -> None:
    """Enter a finished league game into its season. Runs in the transaction ending it."""
