"""What leagues answer when games speak (games/signals.py): a league table seats only
members, a finished league game enters its season, the lobby offers the open seasons, a table
opened for one of them (or the rematch of a league table) counts in it and names it on its
page, a table shows its players' ratings and season ranks, a members-only league's tables
are closed to outsiders, a finished game of two humans or more moves their site ratings
(leagues.ratings). And one of its own: a league's admins are its members.

Connected in LeaguesConfig.ready: games never imports leagues.
"""

from games.services import ServiceError
from leagues import ratings, selectors, services
from leagues.models import League, season_id_of, season_of


def refuse_non_members(sender, *, table, user, **kwargs) -> None:
    try:
        services.check_can_sit(table=table, user=user)
    except services.LeagueError as error:
        raise ServiceError(error.code, error.message) from None


def enter_league_result(sender, *, game, **kwargs) -> None:
    services.game_finished(game=game)


def rate_site_game(sender, *, game, **kwargs) -> None:
    ratings.game_rated(game=game)


def link_league_table(sender, *, table, user, season=None, rematch_of=None, **kwargs) -> None:
    """A table opened for a season counts in it (refused unless the lobby offers that
    season to whoever opened it); a rematch keeps its league table's season while the
    lobby still offers it, else it is a friendly game."""
    try:
        if season is not None:
            services.league_table_open(table=table, user=user, season=season)
        elif rematch_of is not None:
            services.league_table_rematch(table=table, user=user, old=rematch_of)
    except services.LeagueError as error:
        raise ServiceError(error.code, error.message) from None


def season_shown(sender, *, table, **kwargs) -> str | None:
    season = season_of(table)
    return str(season) if season is not None else None


def open_seasons(sender, *, user, kind, **kwargs):
    """The lobby offers a league game only for a game that leagues can score."""
    if not kind.in_leagues:
        return None
    return selectors.seasons_open_for(user, kind.name)


def close_members_only_tables(sender, *, viewer, **kwargs):
    return selectors.tables_closed_to(viewer)


def seat_standings(sender, *, table, users, **kwargs) -> dict:
    return selectors.seat_standings(table=table, users=users)


def league_admins_run_tables(sender, *, table, **kwargs) -> list[int]:
    """A table seated for a club night or a tournament is run by its league's admins (and
    the site's superusers, games.services.runs_table), not by the player seated first."""
    season_id = season_id_of(table)
    if season_id is None:
        return []
    admins = League.admins.through.objects.filter(league__seasons=season_id)
    return list(admins.values_list("user_id", flat=True))


def admins_are_members(sender, *, instance, action, reverse, pk_set, **kwargs) -> None:
    """Whoever is made a league's admin, however (admin, shell, fixtures), is its member."""
    if action != "post_add" or not pk_set:
        return
    if reverse:  # user.administered_leagues.add(league…)
        services.league_admins_join(league_ids=sorted(pk_set), user_ids=[instance.pk])
    else:  # league.admins.add(user…)
        services.league_admins_join(league_ids=[instance.pk], user_ids=sorted(pk_set))
