"""What one seat (or a spectator) may see of a game: the only state a template or bot gets.

Secrets are another seat's hand and another seat's unrevealed selection (RULES §1.3).
Everything else on the table is public: rows, revealed cards, pile sizes, draft picks
(§1.7: they are made face up). With `live_scores` off, heads of the round in progress
are hidden (§1.5): pile heads are None and totals stop at the last finished round.
"""

from .cards import HEADS
from .rules import KIND, result, to_act


def view(state, seat):
    """A JSON-safe dict of what `seat` may see; `seat=None` is a spectator."""
    if seat is not None and (type(seat) is not int or not 0 <= seat < state.players):
        raise ValueError(f"seat {seat!r} is not at this table")
    phase = state.phase
    live = state.options["live_scores"]
    placing = phase == "choose_row"
    selections = state.selections

    # Heads of the round in progress are public only with live scores (RULES 1.5); once the
    # game is over every pile is shown, and `totals` already holds the last round.
    in_round = phase != "over"
    piles = []
    totals = list(state.totals)
    for index, pile in enumerate(state.piles):
        heads = sum(HEADS[card] for card in pile)
        piles.append({"cards": len(pile), "heads": heads if live or not in_round else None})
        if in_round and live:
            totals[index] += heads

    my_selection = None if seat is None else _mine(state, seat)

    return {
        "kind": KIND,
        "seat": seat,
        "players": state.players,
        "options": dict(state.options),
        "version": state.version,
        "phase": phase,
        "round": state.round,
        "turn": state.turn,
        "rows": [list(row) for row in state.rows],
        "hand": None if seat is None else list(state.hands[seat]),
        # Who has selected, never what (RULES 1.3).
        "selected": [bool(card) for card in selections],
        "my_selection": my_selection,
        "revealed": list(selections) if placing else None,
        "resolving": list(state.pending),
        "chooser": state.chooser,
        "piles": piles,
        "round_scores": [list(scores) for scores in state.round_scores],
        "totals": totals,
        "seen": _seen(state),
        "last_turn": _last_turn(state),
        "draft": _draft(state),
        "to_act": to_act(state),
        "result": result(state) if phase == "over" else None,
    }


def _mine(state, seat):
    """The card `seat` selected this turn, until the turn is revealed (its own secret)."""
    if state.phase == "select" and state.selections[seat]:
        return state.selections[seat]
    return None


def _seen(state):
    """Cards this round made public: the starting rows and every revealed card."""
    if state.phase in ("draft", "over"):
        return []
    seen = [row[0] for row in state.start_rows]
    for cards, _ in state.turns:
        seen.extend(cards)
    if state.phase == "choose_row":
        seen.extend(state.selections)
    return sorted(seen)


def _last_turn(state):
    """The last finished turn, so a table can show what just happened."""
    if state.turns:
        cards, choices = state.turns[-1]
    elif state.history:
        # A new round is dealt at once: its first turn still shows the last one played.
        cards, choices = state.history[-1][3][-1]
    else:
        return None
    return {"cards": list(cards), "choices": {str(seat): row for seat, row in choices}}


def _draft(state):
    """The draft, public as it happens (RULES §1.7); kept all round in a draft game."""
    if state.options["deal"] != "draft" or state.phase == "over":
        return None
    first = state.first_picker
    players = state.players
    return {
        "pool": list(state.pool),
        "picks": [[(first + k) % players, card] for k, card in enumerate(state.picks)],
        "to_pick": state.to_pick,
    }
