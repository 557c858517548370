"""What every game's record reader shares (RULES §4): where the reading stands (round,
turn), the one-line error naming them, and the header every record has.

An engine's `replay` subclasses `RecordReader`, reads the header with `read_header`, then
its own rounds.
"""

from .errors import OptionsError, RecordError

FORMAT = "sixclub-record/1"
HEADER = ("format", "game", "options", "players", "rounds")


def json_type(value) -> str:
    """How a refusal names what it found instead: "an object", "null", "a number"..."""
    names = {dict: "an object", list: "a list", str: "a string", bool: "a boolean"}
    if value is None:
        return "null"
    if type(value) in names:
        return names[type(value)]
    if isinstance(value, int | float):
        return "a number"
    return type(value).__name__


class RecordReader:
    def __init__(self, record):
        self.record = record
        self.names = None
        self.round = None
        self.turn = None

    def fail(self, message, seat=None):
        player = None
        if seat is not None and self.names is not None and 0 <= seat < len(self.names):
            player = self.names[seat]
        raise RecordError(message, round=self.round, turn=self.turn, seat=seat, player=player)

    def read_header(self, *, kind, players, normalize_options, extra=()) -> dict:
        """Check the header (a JSON object with every field of HEADER and `extra`, this
        format and game, a list of player names within `players`) and return the options
        as `normalize_options` makes them. Sets `names`."""
        record = self.record
        if not isinstance(record, dict):
            self.fail(f"a record is a JSON object, not {json_type(record)}")
        for key in (*HEADER[:4], *extra, HEADER[4]):
            if key not in record:
                self.fail(f"the record has no {key!r}")
        if record["format"] != FORMAT:
            self.fail(f"format must be {FORMAT!r}, not {record['format']!r}")
        if record["game"] != kind:
            self.fail(f"game must be {kind!r} for this engine, not {record['game']!r}")
        names = record["players"]
        if not isinstance(names, list) or len(names) not in players:
            self.fail(f"players must be a list of {players[0]} to {players[-1]} names")
        for seat, name in enumerate(names):
            if not isinstance(name, str):
                self.fail(f"a player's name is a string, not {json_type(name)}", seat)
        self.names = names
        try:
            return normalize_options(record["options"], len(names))
        except OptionsError as error:
            self.fail(f"options: {error}")
