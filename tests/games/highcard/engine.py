"""Higher card wins: a game for 2 to 4 players that exists only in the tests, to show
that a game plugs into the site as an app of its own and nothing else (tests/settings.py
installs it). Its engine implements docs/engines.md.

The cards 1 to 5 × players are shuffled and dealt, five each. Every turn each player
selects a card in secret; once all have, the cards are turned face up and the highest
wins the turn, a point. The first to `target` points (1 to 3) wins, or, when the five
turns are played before anyone gets there, whoever has the most. No rows, no heads:
points, the highest wins.
"""

import random
from dataclasses import dataclass, replace

from games.engine import IllegalDecision, OptionsError, RecordError

KIND = "highcard"
DECISIONS = {"select": {"card": int}}
MIN_PLAYERS, MAX_PLAYERS = 2, 4
TURNS = 5
TARGETS = range(1, 4)
DEFAULTS = {"target": 2}


@dataclass(frozen=True)
class State:
    seed: int
    options: dict
    players: int
    hands: tuple  # per seat, sorted
    selections: tuple  # per seat, 0: nothing selected yet this turn
    points: tuple
    turn: int = 1
    played: tuple = ()  # the cards of each finished turn, by seat
    version: int = 0


def normalize_options(options, players):
    if type(players) is not int or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise OptionsError(f"higher card wins is played by 2 to 4, not {players!r}")
    unknown = set(options) - set(DEFAULTS)
    if unknown:
        raise OptionsError(f"unknown options: {', '.join(sorted(unknown))}")
    target = options.get("target", DEFAULTS["target"])
    if type(target) is not int or target not in TARGETS:
        raise OptionsError(f"target: {TARGETS[0]} to {TARGETS[-1]} points, not {target!r}")
    return {"target": target}


def new_game(*, players, options, seed):
    options = normalize_options(options, players)
    deck = random.Random(seed).sample(range(1, players * TURNS + 1), players * TURNS)
    hands = tuple(tuple(sorted(deck[s * TURNS : (s + 1) * TURNS])) for s in range(players))
    return State(
        seed=seed,
        options=options,
        players=players,
        hands=hands,
        selections=(0,) * players,
        points=(0,) * players,
    )


def is_over(state):
    return max(state.points) >= state.options["target"] or state.turn > TURNS


def to_act(state):
    return [] if is_over(state) else [s for s in range(state.players) if not state.selections[s]]


def legal(state, seat):
    if seat not in to_act(state):
        return []
    return [{"type": "select", "card": card} for card in state.hands[seat]]


def fallback(state, seat):
    options = legal(state, seat)
    if not options:
        raise IllegalDecision(f"nothing is expected from seat {seat} now")
    return options[0]


def apply(state, seat, decision):
    if decision not in legal(state, seat):
        raise IllegalDecision(f"seat {seat} may not play {decision!r} now")
    selections = list(state.selections)
    selections[seat] = decision["card"]
    events = [{"type": "selected", "seat": seat}]
    state = replace(state, selections=tuple(selections), version=state.version + 1)
    if 0 in selections:
        return state, events
    winner = selections.index(max(selections))
    points = tuple(p + (s == winner) for s, p in enumerate(state.points))
    hands = tuple(
        tuple(c for c in hand if c != card)
        for hand, card in zip(state.hands, selections, strict=True)
    )
    state = replace(
        state,
        hands=hands,
        points=points,
        selections=(0,) * state.players,
        turn=state.turn + 1,
        played=(*state.played, tuple(selections)),
    )
    events.append({"type": "revealed", "cards": list(selections), "winner": winner})
    if is_over(state):
        events.append({"type": "round_over", "round": 1, "heads": list(points)})
        events.append({"type": "game_over", **_ending(points)})
    return state, events


def _ending(points):
    return {
        "totals": list(points),
        "winners": [s for s, p in enumerate(points) if p == max(points)],
    }


def result(state):
    return {"rounds": [list(state.points)], **_ending(state.points)}


def view(state, seat):
    over = is_over(state)
    mine = seat is not None
    return {
        "kind": KIND,
        "seat": seat,
        "players": state.players,
        "options": dict(state.options),
        "version": state.version,
        "phase": "over" if over else "select",
        "round": 1,
        "turn": None if over else state.turn,
        "to_act": to_act(state),
        "target": state.options["target"],
        "hand": list(state.hands[seat]) if mine else None,
        "my_selection": (state.selections[seat] or None) if mine else None,
        "selected": [bool(card) for card in state.selections],
        # Every finished turn, face up: the two cards and the seat whose card won.
        "turns": [
            {"cards": list(cards), "winner": cards.index(max(cards))} for cards in state.played
        ],
        "totals": list(state.points),
        "round_scores": [list(state.points)] if over else [],
        "result": result(state) if over else None,
    }


def dump(state):
    return {
        "seed": state.seed,
        "options": state.options,
        "players": state.players,
        "hands": [list(hand) for hand in state.hands],
        "selections": list(state.selections),
        "points": list(state.points),
        "turn": state.turn,
        "played": [list(cards) for cards in state.played],
        "version": state.version,
    }


def load(data):
    return State(
        seed=data["seed"],
        options=data["options"],
        players=data["players"],
        hands=tuple(tuple(hand) for hand in data["hands"]),
        selections=tuple(data["selections"]),
        points=tuple(data["points"]),
        turn=data["turn"],
        played=tuple(tuple(cards) for cards in data["played"]),
        version=data["version"],
    )


# --- its record: the seed, the options and the cards of each turn --------------------------


def record(state, players):
    played = [list(cards) for cards in state.played]
    return {
        "game": KIND,
        "players": players,
        "seed": state.seed,
        "options": state.options,
        "turns": played,
    }


def replay(record, *, allow_unfinished=False):
    seat = None
    try:
        players = len(record["players"])
        state = new_game(players=players, options=record.get("options", {}), seed=record["seed"])
        for cards in record["turns"]:
            for seat, card in enumerate(cards):
                state, _events = apply(state, seat, {"type": "select", "card": card})
    except IllegalDecision as error:
        raise RecordError(str(error), round=1, turn=state.turn, seat=seat) from None
    except (KeyError, TypeError, OptionsError) as error:
        raise RecordError(f"not a record of higher card wins ({error})") from None
    if not is_over(state) and not allow_unfinished:
        raise RecordError("the record stops before the game's end")
    return result(state)
