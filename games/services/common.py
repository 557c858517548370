"""What every service shares: the refusal, the answer to a decision, the table's group,
the announcement on commit."""

from dataclasses import dataclass, field

from games.announce import announce_on_commit
from games.models import Decision, Table

LOBBY_GROUP = "lobby"
# Decisions made for a seat without asking its player: bots, absent players, time-outs.
AUTOMATIC_SOURCES = (Decision.Source.BOT, Decision.Source.AWAY, Decision.Source.TIMEOUT)
# A player for whom the time limit decided so many times in a row is marked away: from
# then on the computer plays for them at once instead of waiting out each limit.
AWAY_AFTER_TIMEOUTS = 2


class ServiceError(Exception):
    """A request the service refuses; `code` is for programs, the message for people."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class Accepted:
    """A committed decision: the game's version after it. A decision applied now (not a
    resend) also carries what the game reached, read and written in its transaction (the
    table, the game, its seats as `Seat.objects.named()` gives them, the engine state), so
    that the deciding process renders that version without reading it again."""

    version: int
    duplicate: bool = False
    table: Table | None = None
    game: object = None
    seats: list = field(default_factory=list)
    state: object = None


# --- announcements -----------------------------------------------------------------------


def table_group(table_id) -> str:
    """The channel-layer group of a table's sockets (games.consumers joins it)."""
    return f"table.{table_id}"


def table_changed(table_id: int, version: int | None = None) -> dict:
    """The message "table N is at version v": nothing else, no card, no move. Each process
    reads that version from the database and renders it for its sockets."""
    return {"type": "table.changed", "table": table_id, "version": version}


def _announce_on_commit(
    table: Table, version: int | None = None, lobby: bool = False, table_too: bool = True
) -> None:
    """Once committed, tell the table's sockets (unless `table_too` is False: the caller
    tells them itself) and, with `lobby`, the lobby's."""
    if table_too:
        announce_on_commit(table_group(table.pk), table_changed(table.pk, version))
    if lobby:
        announce_on_commit(LOBBY_GROUP, {"type": "lobby.changed"})
