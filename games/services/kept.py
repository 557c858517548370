"""The live state of the tables this process decides for, kept between their decisions.

After a decision commits, the process keeps the game, table, seats and engine state it
reached (an engine's `apply` never changes the state it is given: docs/engines.md). The
table's next decision in this process starts from copies of them once one statement has
locked the game row and found the database unchanged since: the same game at the same
`version` and `seats_version` (every save of a seat or of the table bumps it:
games.signals). Otherwise, it reads them afresh under the lock (games.services.decisions).
A decision that saved a seat itself (a player back, a time bank spent) leaves a kept
`seats_version` behind the database's: the next one reads afresh. Nothing is kept for
turn-based tables (a decision a day), nor once a game is over.
"""

import copy
import threading
from collections import OrderedDict

# Tables kept per process, the least recently decided for dropped first.
KEPT_TABLES = 2000


class KeptTables:
    def __init__(self, size: int = KEPT_TABLES):
        self.size = size
        self._entries: OrderedDict[int, tuple] = OrderedDict()
        self._lock = threading.Lock()  # decisions run on several threads

    def take(self, table_id: int):
        """Copies of the kept (game, table, seats by position) and the kept state, or
        None: the decision that takes them changes the models, the kept ones stay as their
        commit left them."""
        with self._lock:
            entry = self._entries.get(table_id)
        if entry is None:
            return None
        game, table, seats, state = entry
        table = copy.copy(table)
        copies = {}
        for position, seat in seats.items():
            copies[position] = seat = copy.copy(seat)
            seat.table = table
        return copy.copy(game), table, copies, state

    def keep(self, game, table, seats: dict, state) -> None:
        """Keep what a committed decision wrote (unless a later version is kept)."""
        with self._lock:
            kept = self._entries.get(table.pk)
            if kept is not None and kept[0].pk == game.pk and kept[0].version > game.version:
                return
            self._entries[table.pk] = (game, table, seats, state)
            self._entries.move_to_end(table.pk)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()


tables = KeptTables()
