"""What leagues answer when games speak (games/signals.py): a league table seats only
members, a finished league game enters its season, the lobby offers the open seasons, a table
shows its players' ratings and season ranks.

Connected in LeaguesConfig.ready: games never imports leagues.
"""

from games.services import ServiceError
from leagues import selectors, services


def refuse_non_members(sender, *, table, user, **kwargs) -> None:
    try:
        services.check_can_sit(table=table, user=user)
    except services.LeagueError as error:
        raise ServiceError(error.code, error.message) from None


def enter_league_result(sender, *, game, **kwargs) -> None:
    services.game_finished(game=game)


def open_seasons(sender, *, user, kind, **kwargs):
    """The lobby offers a league game only for a game that leagues can score."""
    if not kind.in_leagues:
        return None
    return selectors.seasons_open_for(user, kind.name)


def seat_standings(sender, *, table, users, **kwargs) -> dict:
    return selectors.seat_standings(table=table, users=users)
