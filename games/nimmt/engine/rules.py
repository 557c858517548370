"""6 qui prend ! as pure functions: a state and a decision in, a new state and events out.

Everything RULES §1 says about dealing, drafting, selecting, placing, taking, scoring and
ending is encoded here. Every public function leaves the state it is given untouched.
"""

from games.engine.errors import IllegalDecision

from .cards import HAND_SIZE, HEADS, HIGHEST, ROW_COUNT, ROW_LIMIT, deck
from .core import cheapest_row, target_row
from .dealing import draw, round_key
from .options import MAX_PLAYERS, normalize_options
from .state import State

KIND = "nimmt"
# Each decision and the type of each of its fields (games.protocol checks a message's).
DECISIONS = {"select": {"card": int}, "row": {"row": int}, "pick": {"card": int}}

# Tuples built once and shared (they are immutable): a row restarted by a card, and the
# empty selections of a new turn. Fewer allocations is most of what makes `apply` fast.
_ALONE = tuple((card,) for card in range(HIGHEST + 1))
_NO_SELECTIONS = [(0,) * players for players in range(MAX_PLAYERS + 1)]


# --- starting a game and a round -------------------------------------------------------


def new_game(*, players, options, seed):
    """A game ready for its first decision: round 1 dealt, or its draft open."""
    options = normalize_options(options, players)
    if type(seed) is not int:
        raise TypeError(f"seed must be an integer, not {seed!r}")
    state = State(
        players=players,
        options=options,
        seed=seed,
        version=0,
        round=1,
        phase="select",
        rows=(),
        hands=(),
        selections=(),
        pending=(),
        choices=(),
        turns=(),
        piles=(),
        round_scores=(),
        totals=(0,) * players,
        pool=(),
        picks=(),
        start_rows=(),
        start_hands=(),
        history=(),
    )
    _open_round(state, [])
    return state


def _open_round(s, events):
    """Deal round `s.round` into the fresh state `s` (RULES §1.2, or the §1.7 draft)."""
    players = s.players
    empty = ((),) * players
    s.selections = (0,) * players
    s.pending = ()
    s.choices = ()
    s.turns = ()
    s.piles = empty
    s.picks = ()
    cards = deck(players, s.options["card_limit"])
    if s.options["deal"] == "draft":
        # RULES 1.7: the cards in play lie face up; rows come once everybody holds ten.
        s.phase = "draft"
        s.pool = cards
        s.hands = empty
        s.rows = ()
        s.start_rows = ()
        s.start_hands = ()
    else:
        # RULES 1.2: ten cards each, then four face up; the rest stays unused.
        dealt = draw(round_key(s.seed, s.round, "deal"), cards, HAND_SIZE * players + ROW_COUNT)
        s.phase = "select"
        s.pool = ()
        dealt_hands = range(0, HAND_SIZE * players, HAND_SIZE)
        s.hands = tuple([tuple(sorted(dealt[i : i + HAND_SIZE])) for i in dealt_hands])
        s.rows = tuple([(card,) for card in dealt[HAND_SIZE * players :]])
        s.start_rows = s.rows
        s.start_hands = s.hands
    events.append({"type": "round_started", "round": s.round})


def _close_draft(s):
    """Lay out the rows once every seat holds ten cards (RULES §1.7)."""
    if s.options["card_limit"]:
        # Exactly four cards are left over, and they start the rows (seed 001, Variante pro).
        rows = s.pool
    else:
        # Four cards drawn at random from those nobody picked.
        rows = draw(round_key(s.seed, s.round, "rows"), s.pool, ROW_COUNT)
    s.rows = tuple((card,) for card in rows)
    s.pool = ()
    s.phase = "select"
    s.start_rows = s.rows
    s.start_hands = s.hands


# --- what is awaited ---------------------------------------------------------------------


def to_act(state):
    """The seats whose decision is awaited now (for deadlines, bots, fallbacks)."""
    phase = state.phase
    if phase == "select":
        return [seat for seat, card in enumerate(state.selections) if not card]
    if phase == "choose_row":
        return [state.chooser]
    if phase == "draft":
        return [state.to_pick]
    return []


def legal(state, seat):
    """Every decision `seat` may make now; empty when nothing is awaited from it.

    During selection that includes seats that already selected: a selection may be
    changed until the last seat has selected (RULES §1.3).
    """
    phase = state.phase
    if type(seat) is not int or not 0 <= seat < state.players:
        return []
    if phase == "select":
        return [{"type": "select", "card": card} for card in state.hands[seat]]
    if phase == "choose_row":
        if seat != state.chooser:
            return []
        return [{"type": "row", "row": index} for index in range(len(state.rows))]
    if phase == "draft":
        if seat != state.to_pick:
            return []
        return [{"type": "pick", "card": card} for card in state.pool]
    return []


def fallback(state, seat):
    """The decision RULES §1.8 takes for a seat that timed out or left the table.

    Lowest card for a selection or a draft pick; for a row choice, the row with the fewest
    heads, lowest index on a tie. Raises IllegalDecision when nothing is awaited from it.
    """
    if seat not in to_act(state):
        raise IllegalDecision(f"nothing is expected from seat {seat} now")
    phase = state.phase
    if phase == "select":
        return {"type": "select", "card": state.hands[seat][0]}
    if phase == "choose_row":
        return {"type": "row", "row": cheapest_row(state.rows)}
    return {"type": "pick", "card": state.pool[0]}


def is_over(state):
    return state.phase == "over"


def result(state):
    """Scores so far, the RULES §4 replay output; `winners` stays empty until the end.

    Only finished rounds count: a round in progress has no score yet (RULES §1.5).
    """
    winners = []
    if state.phase == "over":
        # RULES 1.6: the lowest total wins; equal totals share the rank.
        best = min(state.totals)
        winners = [seat for seat, total in enumerate(state.totals) if total == best]
    return {
        "rounds": [list(scores) for scores in state.round_scores],
        "totals": list(state.totals),
        "winners": winners,
    }


# --- applying a decision -----------------------------------------------------------------
#
# Speed matters here (docs/benchmarks.md, "Engine speed"): a round is some sixty calls,
# and most of each call's time goes to allocating the new state and its events. Hence
# one copy per decision and few temporary objects. The placing rule of RULES §1.4 is
# `core.target_row`, shared with the bots' rollouts.


def apply(state, seat, decision):
    """Apply `seat`'s decision; returns `(new_state, events)` and never changes `state`.

    Raises IllegalDecision with the reason when the rules do not allow it now.
    """
    if type(seat) is not int or not 0 <= seat < state.players:
        raise IllegalDecision(f"seat {seat!r} is not at this table")
    if type(decision) is not dict:
        raise IllegalDecision("a decision is a mapping with a 'type'")
    kind = decision.get("type")
    if kind == "select":
        if state.phase != "select":
            raise IllegalDecision(f"nothing is expected from seat {seat} now", "not_your_turn")
        card = decision.get("card")
        if card.__class__ is not int:
            raise IllegalDecision(f"a card is a whole number, not {card!r}")
        if card not in state.hands[seat]:
            raise IllegalDecision(f"card {card} is not in your hand", "not_in_hand", card)
        # RULES 1.3: a seat may select again, replacing its choice, until all have chosen.
        selections = list(state.selections)
        selections[seat] = card
        new = state.copy()
        new.version = state.version + 1
        if 0 in selections:
            new.selections = tuple(selections)
            return new, [{"type": "selected", "seat": seat}]
        # The last selection: every card is revealed at once (RULES 1.3) and leaves its hand.
        events = [{"type": "selected", "seat": seat}, {"type": "revealed", "cards": selections}]
        new.selections = selections = tuple(selections)
        hands = []
        for hand, played in zip(state.hands, selections, strict=False):
            index = hand.index(played)
            if index == 0:
                hands.append(hand[1:])
            else:
                hands.append(hand[:index] + hand[index + 1 :])
        new.hands = tuple(hands)
        new.pending = tuple(sorted(selections))
        _resolve(new, events)
        return new, events
    if kind == "row":
        return _choose_row(state, seat, decision.get("row"))
    if kind == "pick":
        card = decision.get("card")
        if type(card) is not int:
            raise IllegalDecision(f"a card is a whole number, not {card!r}")
        return _pick(state, seat, card)
    raise IllegalDecision(f"unknown decision type {kind!r} (select, row or pick)")


def _choose_row(state, seat, row):
    if state.phase != "choose_row" or state.chooser != seat:
        raise IllegalDecision("it is not your turn to choose a row", "not_your_turn")
    if type(row) is not int or not 0 <= row < len(state.rows):
        raise IllegalDecision(f"row {row} does not exist (rows are 0 to {len(state.rows) - 1})")
    new = state.copy()
    new.version = state.version + 1
    new.choices = state.choices + ((seat, row),)
    events = []
    _resolve(new, events, chosen=row)
    return new, events


def _resolve(s, events, chosen=-1):
    """Place the pending cards lowest first, until a too-low card needs its player.

    With `chosen`, the first pending card is a too-low card whose player chose that row.
    """
    pending = s.pending
    selections = s.selections
    rows = list(s.rows)
    piles = s.piles
    live = s.options["live_scores"]
    append = events.append
    placed = 0
    for card in pending:
        seat = selections.index(card)
        if chosen >= 0:
            index = chosen
            chosen = -1
            takes_row = True  # RULES 1.4: a too-low card takes the row its player chose
        else:
            index = target_row(rows, card)  # RULES 1.4, written once in core
            if index < 0:
                # RULES 1.4: too low; its player chooses now, seeing the rows as they stand.
                s.phase = "choose_row"
                append({"type": "choosing", "seat": seat, "card": card})
                break
            takes_row = len(rows[index]) == ROW_LIMIT  # RULES 1.4: a 6th card takes the five
        if takes_row:
            row = rows[index]
            if piles.__class__ is tuple:
                piles = list(piles)
            piles[seat] += row
            rows[index] = _ALONE[card]
            append(
                {
                    "type": "took",
                    "seat": seat,
                    "row": index,
                    "cards": list(row),
                    # RULES 1.5: with live scores off, heads stay unannounced until round end.
                    "heads": sum(map(HEADS.__getitem__, row)) if live else None,
                }
            )
        else:
            rows[index] = rows[index] + _ALONE[card]
        append({"type": "placed", "seat": seat, "card": card, "row": index})
        placed += 1
    s.rows = tuple(rows)
    s.piles = tuple(piles)
    if placed < len(pending):
        s.pending = pending[placed:]
        return
    # The turn is over.
    s.phase = "select"
    s.pending = ()
    s.turns = s.turns + ((selections, s.choices),)
    s.selections = _NO_SELECTIONS[len(selections)]
    s.choices = ()
    if len(s.turns) == HAND_SIZE:  # RULES 1.5: every hand is empty after ten turns
        _end_round(s, events)


def _end_round(s, events):
    # RULES 1.5: a round's score is the heads in what each player took that round.
    scores = tuple([sum(map(HEADS.__getitem__, pile)) for pile in s.piles])
    s.round_scores = s.round_scores + (scores,)
    s.totals = tuple(map(int.__add__, s.totals, scores))
    picks = s.picks if s.options["deal"] == "draft" else None
    s.history = s.history + ((s.start_rows, s.start_hands, picks, s.turns),)
    events.append({"type": "round_over", "round": s.round, "heads": list(scores)})
    if _game_ends(s):
        s.phase = "over"
        outcome = result(s)
        events.append(
            {"type": "game_over", "totals": outcome["totals"], "winners": outcome["winners"]}
        )
    else:
        s.round += 1
        _open_round(s, events)


def _game_ends(s):
    """RULES 1.6, checked only at the end of a round."""
    options = s.options
    if options["end"] == "rounds":
        return s.round >= options["rounds"]
    return max(s.totals) >= options["threshold"]


def _pick(state, seat, card):
    if state.phase != "draft" or seat != state.to_pick:
        raise IllegalDecision("it is not your turn to pick", "not_your_turn")
    pool = state.pool
    if card not in pool:
        raise IllegalDecision(f"card {card} is not in the draft pool")
    index = pool.index(card)
    new = state.copy()
    new.version += 1
    new.pool = pool[:index] + pool[index + 1 :]
    new.picks = state.picks + (card,)
    hands = list(state.hands)
    hands[seat] = tuple(sorted(hands[seat] + (card,)))
    new.hands = tuple(hands)
    events = [{"type": "picked", "seat": seat, "card": card}]
    if len(new.picks) == HAND_SIZE * state.players:
        _close_draft(new)
        events.append({"type": "rows_laid", "rows": [list(row) for row in new.rows]})
    return new, events


# --- used by records.replay to play a recorded deal instead of a seeded one ---------------


def with_deal(state, rows, hands=None):
    """A copy of `state`, at the start of a round's play, with the given rows (and hands).

    The replay of a record (RULES §4) plays the recorded deal, not a seeded one; it checks
    the deal itself before calling this.
    """
    if state.phase != "select" or state.turns or any(state.selections):
        raise ValueError("a deal can only be replaced before the round's first turn")
    new = state.copy()
    new.rows = tuple((card,) for card in rows)
    new.start_rows = new.rows
    if hands is not None:
        new.hands = tuple(tuple(sorted(hand)) for hand in hands)
        new.start_hands = new.hands
    return new
