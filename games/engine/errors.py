"""The three ways an engine says no. Shared by every game so callers catch one class each."""


class IllegalDecision(ValueError):
    """A decision the rules do not allow now. The message is the reason, in English.

    `code` names the commonest refusals, for a caller that words them in the player's
    language: "not_in_hand" and "not_playable" (with `card`), "not_your_turn",
    "game_over"; "" otherwise.
    """

    def __init__(self, message, code="", card=None):
        super().__init__(message)
        self.code = code
        self.card = card


class OptionsError(ValueError):
    """Table options that cannot be played; the message names the option at fault."""


class RecordError(ValueError):
    """A game record (RULES §4) that cannot be re-played.

    `round` and `turn` are 1-based, as a player counts them; `seat` is 0-based, as seats
    are numbered in the record itself. Any of them is None where it does not apply (a
    malformed header has no round, a bad deal has no turn, a bad row list has no seat).
    `str(error)` is the one line `manage.py replay` prints.
    """

    def __init__(self, message, *, round=None, turn=None, seat=None, player=None):
        super().__init__(message)
        self.message = message
        self.round = round
        self.turn = turn
        self.seat = seat
        self.player = player

    def __str__(self):
        seat = "-" if self.seat is None else str(self.seat)
        if self.seat is not None and self.player is not None:
            seat += f" ({self.player})"
        round_ = "-" if self.round is None else self.round
        turn = "-" if self.turn is None else self.turn
        line = f"round {round_}, turn {turn}, seat {seat}: {self.message}"
        # One line, always: player names and messages come from the record itself.
        return " ".join(line.split())
