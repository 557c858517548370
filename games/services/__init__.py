"""The one door through which a table or a game changes.

Every write here runs in one transaction: lock the row, check, apply, persist, and only
then (on commit) announce "table N is at version v" on the channel layer. Announcements
carry no secret; each connection renders its own seat's view from the database.
"""

from games.services.clock import game_timeout, games_due
from games.services.common import (
    AUTOMATIC_SOURCES,
    AWAY_AFTER_TIMEOUTS,
    LOBBY_GROUP,
    Accepted,
    ServiceError,
    table_changed,
    table_group,
)
from games.services.decisions import game_decide, seat_deadline
from games.services.paper import game_sheet_replace, paper_result, paper_seats, table_paper
from games.services.presence import heartbeat_seconds, seat_seen, seats_seen, unseen_for_away
from games.services.presence import sweep as presence_sweep
from games.services.tables import (
    between_rounds,
    rematch_accept,
    runs_table,
    seat_add_bot,
    seat_assign,
    seat_join,
    seat_remove,
    seat_replace_by_bot,
    seat_return,
    table_create,
    table_rematch,
    table_runners,
    table_start,
)
from games.services.votes import replace_candidate, seat_vote_replace, votes_needed

__all__ = [
    "AUTOMATIC_SOURCES",
    "AWAY_AFTER_TIMEOUTS",
    "LOBBY_GROUP",
    "Accepted",
    "ServiceError",
    "between_rounds",
    "game_decide",
    "game_sheet_replace",
    "game_timeout",
    "games_due",
    "heartbeat_seconds",
    "paper_result",
    "paper_seats",
    "presence_sweep",
    "rematch_accept",
    "replace_candidate",
    "runs_table",
    "seat_add_bot",
    "seat_assign",
    "seat_deadline",
    "seat_join",
    "seat_remove",
    "seat_replace_by_bot",
    "seat_return",
    "seat_seen",
    "seat_vote_replace",
    "seats_seen",
    "table_changed",
    "table_create",
    "table_group",
    "table_paper",
    "table_rematch",
    "table_runners",
    "table_start",
    "unseen_for_away",
    "votes_needed",
]
