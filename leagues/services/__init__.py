"""Writes of the league app: memberships, results entering seasons, seatings, the night,
score sheets, corrections.

`league_table_open`, `league_table_rematch`, `check_can_sit` and `game_finished` are
called by games.services inside its own transactions (through games.signals and
leagues.receivers); everything else is called by views, the admin, tasks and management
commands.
"""

from leagues.services.changes import result_correct, result_void
from leagues.services.errors import LeagueError
from leagues.services.memberships import (
    check_can_sit,
    league_admins_join,
    league_new_invite_code,
    membership_approve,
    membership_leave,
    membership_request,
)
from leagues.services.night import night_remove, night_replace, night_start, night_swap
from leagues.services.results import (
    game_finished,
    season_close,
    season_games,
    season_recompute,
)
from leagues.services.seatings import seating_generate
from leagues.services.sheets import (
    sheet_answer,
    sheet_confirm_all,
    sheet_enter,
    sheet_fix,
    sheet_players,
    table_to_paper,
)
from leagues.services.tables import league_table_open, league_table_rematch, table_season_set
from leagues.services.tournaments import (
    tournament_check_in,
    tournament_register,
    tournament_withdraw,
)

__all__ = [
    "LeagueError",
    "check_can_sit",
    "game_finished",
    "league_admins_join",
    "league_new_invite_code",
    "league_table_open",
    "league_table_rematch",
    "membership_approve",
    "membership_leave",
    "membership_request",
    "night_remove",
    "night_replace",
    "night_start",
    "night_swap",
    "result_correct",
    "result_void",
    "season_close",
    "season_games",
    "season_recompute",
    "seating_generate",
    "sheet_answer",
    "sheet_confirm_all",
    "sheet_enter",
    "sheet_fix",
    "sheet_players",
    "table_season_set",
    "table_to_paper",
    "tournament_check_in",
    "tournament_register",
    "tournament_withdraw",
]
