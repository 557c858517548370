"""What one seat (or a spectator) may see of a game of Six.

The only secrets are the other seats' hands: a seat sees its own hand, everybody sees
how many cards each seat holds, the table, every turn of the hand (plays and passes) and
the scores. A spectator sees no hand at all.

Points read the other way round from 6 qui prend !: **higher is better**, and they may be
negative (RULES 3.3, 3.5); the view says so in `scoring`.
"""

from .cards import RANKS, SUITS, name, sort_key
from .rules import KIND, playable, result, to_act


def view(state, seat):
    """A JSON-safe dict of what `seat` may see; `seat=None` is a spectator."""
    if seat is not None and (type(seat) is not int or not 0 <= seat < state.players):
        raise ValueError(f"seat {seat!r} is not at this table")
    over = state.phase == "over"
    counts = [len(hand) for hand in state.hands]
    rows = _rows(state)
    mine = seat is not None and not over and seat == state.to_move
    return {
        "kind": KIND,
        "seat": seat,
        "players": state.players,
        "options": dict(state.options),
        "version": state.version,
        "phase": state.phase,
        "round": state.round,
        "turn": state.turn,
        "to_act": to_act(state),
        "opener": state.opener,
        "hand": None if seat is None else list(state.hands[seat]),
        # Own playable cards, on own turn only (to raise them); [] otherwise.
        "playable": playable(state, seat) if mine else [],
        "counts": counts,
        # The four suit sequences, oros, copas, espadas, bastos, each lowest card first
        # ([] until its 6 is down); `sequences` gives the same as [lowest, highest] ranks.
        "rows": rows,
        "suits": list(SUITS),
        "sequences": {
            suit: list(state.table[index]) if state.table[index] else None
            for index, suit in enumerate(SUITS)
        },
        "turns": [[who, card] for who, card in state.turns],
        "last_turn": _last_turn(state),
        "last_hand": _last_hand(state),
        "seen": sorted((card for row in rows for card in row), key=sort_key),
        # Six has no penalty piles: the generic per-seat entry carries the cards in hand.
        "piles": [{"cards": count, "heads": None} for count in counts],
        "round_scores": [list(points) for points in state.round_scores],
        "totals": list(state.totals),
        "scoring": "higher",  # totals and round_scores are points: the highest total wins
        # How the game ends: at a target of points, or after a number of hands (RULES §5).
        "target": state.options.get("target"),
        "hands": state.options.get("hands"),
        # The end of the last hand is shown through the new hand's first turn round the
        # table (its first turns may be passes), not only its first turn.
        "summary_turns": state.players,
        # Entries of the generic view that Six does not have (turns are public, one seat
        # at a time: nothing is selected in secret, nobody chooses a row, no draft).
        "selected": [False] * state.players,
        "my_selection": None,
        "revealed": None,
        "resolving": [],
        "chooser": None,
        "draft": None,
        "result": result(state) if over else None,
    }


def _rows(state):
    deck = state.options["deck"]
    rows = []
    for index, suit in enumerate(SUITS):
        sequence = state.table[index]
        if not sequence:
            rows.append([])
            continue
        low, high = sequence
        rows.append([name(rank, suit) for rank in RANKS[deck] if low <= rank <= high])
    return rows


def _last_turn(state):
    """The last turn played, `{"seat", "card"}` (card None for a pass), or None."""
    if state.turns:
        seat, card = state.turns[-1]
    elif state.history:
        seat, card = state.history[-1][1][-1]
    else:
        return None
    return {"seat": seat, "card": card}


def _last_hand(state):
    """The last finished hand: who won it, the cards left in each hand, the points."""
    if not state.history:
        return None
    start_hands, turns = state.history[-1]
    winner = turns[-1][0]
    played = [0] * state.players
    for seat, card in turns:
        if card is not None:
            played[seat] += 1
    return {
        "round": len(state.history),
        "winner": winner,
        "left": [len(hand) - count for hand, count in zip(start_hands, played, strict=True)],
        "points": list(state.round_scores[-1]),
    }
