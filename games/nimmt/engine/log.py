"""The game log: every finished turn, card by card as it was placed (RULES §1.4).

The state keeps each turn as the cards revealed and the rows chosen for too-low cards;
placing them again from the rows the round started with tells where every card went and
what each take was, a 6th card's as well as a too-low card's. Only public facts: cards
revealed, rows, takes. With `live_scores` off the heads of the round in progress stay
unannounced (RULES §1.5): their `heads` is None, the cards taken are shown.

    log(state)                  # every finished turn of the game
    log(state, since_round=3)   # from round 3 on
"""

from .cards import HEADS, ROW_LIMIT
from .core import target_row


def turn_plays(rows, cards, choices):
    """One finished turn placed again on `rows` (the rows it started on).

    `cards`: the card of each seat; `choices`: (seat, row) pairs for too-low cards.
    Returns (plays lowest card first, the rows after the turn); a play is
    {"seat", "card", "row" (0-based), "took": the cards taken or None}.
    """
    rows = [tuple(row) for row in rows]
    chosen = dict(choices)
    plays = []
    for card in sorted(cards):
        seat = cards.index(card)
        index = target_row(rows, card)
        took = None
        if index < 0:
            index = chosen[seat]  # RULES 1.4: too low, it takes the row its player chose
            took = rows[index]
        elif len(rows[index]) == ROW_LIMIT:
            took = rows[index]  # RULES 1.4: the 6th card takes the five
        rows[index] = (card,) if took else rows[index] + (card,)
        took = list(took) if took else None
        plays.append({"seat": seat, "card": card, "row": index, "took": took})
    return plays, rows


def _round(number, start_rows, turns, heads_shown):
    rows = start_rows
    entries = []
    for index, (cards, choices) in enumerate(turns, 1):
        plays, rows = turn_plays(rows, cards, choices)
        for play in plays:
            took = play["took"]
            play["heads"] = sum(HEADS[card] for card in took) if took and heads_shown else None
        entries.append({"round": number, "turn": index, "plays": plays})
    return entries


def log(state, since_round=1):
    """Every finished turn of rounds `since_round` and later, in order of play: dicts
    {"round", "turn", "plays"} (see `turn_plays`; each play also has "heads", the heads of
    what it took)."""
    entries = []
    for number, (start_rows, _hands, _picks, turns) in enumerate(state.history, 1):
        if number >= since_round:
            entries.extend(_round(number, start_rows, turns, heads_shown=True))
    if state.phase != "over" and state.round >= since_round and state.turns:
        live = state.options["live_scores"]
        entries.extend(_round(state.round, state.start_rows, state.turns, heads_shown=live))
    return entries
