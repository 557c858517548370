"""What one seat (or a spectator) may see of a 6 qui surprend game (RULES §2.5, "Public").

Secret: another seat's number cards, its specials in hand (only their count is public),
its selection, and whether it attached a special, until the reveal; the order of the
draw pile. Public: rows with their Stops and caps, every revealed card and special (also
one that went back to its owner's hand), the draw pile's size, the discard pile face up,
the removed cards (the box), pile sizes (their heads only with `live_scores`, §1.5).
"""

from .cards import row_heads
from .records import decision_entry
from .rules import KIND, result, to_act


def view(state, seat):
    """A JSON-safe dict of what `seat` may see; `seat=None` is a spectator."""
    if seat is not None and (type(seat) is not int or not 0 <= seat < state.players):
        raise ValueError(f"seat {seat!r} is not at this table")
    phase = state.phase
    live = state.options["live_scores"]
    in_round = phase != "over"
    resolving = state.resolving

    piles = []
    totals = list(state.totals)
    for index, pile in enumerate(state.piles):
        heads = row_heads(pile)
        piles.append({"cards": len(pile), "heads": heads if live or not in_round else None})
        if in_round and live:
            totals[index] += heads

    mine = seat is not None
    selecting = phase == "select"
    prompt = None
    if state.prompt is not None:
        asked, kind, taken = state.prompt
        prompt = {"seat": asked, "kind": kind, "taken": list(taken)}

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
        "stops": list(state.stops),
        "caps": list(state.caps),
        "hand": list(state.hands[seat]) if mine else None,
        "specials": list(state.specials[seat]) if mine else None,
        "special_counts": [len(hand) for hand in state.specials],
        # Who has selected, never what, nor whether a special goes with it (RULES 2.5).
        "selected": [bool(card) for card in state.selections],
        "my_selection": (state.selections[seat] or None) if mine and selecting else None,
        "my_special": state.attached[seat] if mine and selecting else None,
        "revealed": list(state.selections) if resolving else None,
        "revealed_specials": list(state.attached) if resolving else None,
        "cards": list(state.cards) if resolving else None,
        "resolving": list(state.pending),
        "prompt": prompt,
        "chooser": prompt["seat"] if phase == "choose_row" else None,
        "piles": piles,
        "my_pile": list(state.piles[seat]) if mine else None,
        "box": list(state.box),
        "draw": len(state.draw),
        "discard": list(state.discard),
        "round_scores": [list(scores) for scores in state.round_scores],
        "totals": totals,
        "seen": _seen(state),
        "last_turn": _last_turn(state),
        "draft": None,
        "to_act": to_act(state),
        "result": result(state) if phase == "over" else None,
    }


def _seen(state):
    """Number cards this round made public: the starting rows, every revealed card and
    every card a Remplacer brought in."""
    if state.phase == "over":
        return []
    seen = [row[0] for row in state.start_rows]
    for cards, _specials, decisions in state.turns:
        seen.extend(cards)
        seen.extend(value for _seat, kind, value in decisions if kind == "remplacer" and value)
    if state.resolving:
        seen.extend(state.selections)
        seen.extend(value for _seat, kind, value in state.answers if kind == "remplacer" and value)
    return sorted(set(seen))


def _last_turn(state):
    """The last finished turn: cards and specials as revealed, the decisions in record
    form (RULES §4.2), and the too-low row choices as 6 qui prend ! shows them."""
    if state.turns:
        cards, specials, decisions = state.turns[-1]
    elif state.history:
        cards, specials, decisions = state.history[-1][3][-1]
    else:
        return None
    return {
        "cards": list(cards),
        "specials": list(specials),
        "decisions": [decision_entry(entry) for entry in decisions],
        "choices": {str(seat): value for seat, kind, value in decisions if kind == "row"},
    }
