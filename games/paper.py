"""Score sheets of games played with real cards, or corrected by a league admin.

A sheet is what players write: one line per round (or hand), a number per seat, in the
game's own unit (heads, or points: whatever the game counts). A game's
registration (games.kinds.Kind.paper_sheet) checks a sheet and turns it into what a game
played here leaves: the score sheet rows (`RoundScore.heads`, one list per round) and the
result (`Game.result`).
"""

from django.utils.translation import gettext as _


class SheetError(ValueError):
    """A sheet that cannot be a game's: the message says what to fix, in the reader's words."""


def sheet_lines(lines, players: int) -> list[list[int]]:
    """Whole numbers, `players` of them on each line, at least one line."""
    if not isinstance(lines, list) or not lines:
        raise SheetError(_("Write at least one round."))
    checked = []
    for number, line in enumerate(lines, start=1):
        if not isinstance(line, list) or len(line) != players:
            raise SheetError(
                _("Round %(round)s: write one score for each of the %(n)s players.")
                % {"round": number, "n": players}
            )
        if any(type(value) is not int for value in line):
            raise SheetError(_("Round %(round)s: write whole numbers.") % {"round": number})
        checked.append(list(line))
    return checked


def heads_sheet(lines, players: int, *, most: int) -> tuple[list[list[int]], dict]:
    """A sheet of heads per round (fewer is better): each from 0 to `most`, the heads a
    round can hold for this many players; the rows are the lines."""
    lines = sheet_lines(lines, players)
    for number, line in enumerate(lines, start=1):
        if any(not 0 <= heads <= most for heads in line) or sum(line) > most:
            raise SheetError(
                _("Round %(round)s: heads go from 0 to %(most)s, and no more in all.")
                % {"round": number, "most": most}
            )
    totals = [sum(column) for column in zip(*lines, strict=True)]
    best = min(totals)
    result = {
        "rounds": lines,
        "totals": totals,
        "winners": [seat for seat, total in enumerate(totals) if total == best],
    }
    return lines, result
