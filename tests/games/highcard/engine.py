"""Higher card wins: a 2-player game that exists only to show that a game plugs into the
site without touching its live layer (issue 20). Its engine implements docs/engines.md.

Each player is dealt TURNS cards of 1..10. Every turn both select a card in secret; when
both have, the cards are revealed and the lower card scores 1 point (fewer wins).
"""

import random
from dataclasses import dataclass, replace

from games.engine import IllegalDecision, OptionsError, RecordError

KIND = "highcard"
DECISIONS = {"select": {"card": int}}
PLAYERS = 2
TURNS = 3


@dataclass(frozen=True)
class State:
    seed: int
    options: dict
    hands: tuple  # per seat, sorted
    selections: tuple = (0, 0)  # 0: nothing selected yet
    points: tuple = (0, 0)
    turn: int = 1
    played: tuple = ()  # the cards of each finished turn, by seat
    version: int = 0
    players: int = PLAYERS


def normalize_options(options, players):
    if players != PLAYERS:
        raise OptionsError(f"higher card wins is played by {PLAYERS}, not {players!r}")
    if options:
        raise OptionsError(f"unknown options: {', '.join(sorted(options))}")
    return {}


def new_game(*, players, options, seed):
    options = normalize_options(options, players)
    deck = random.Random(seed).sample(range(1, 11), PLAYERS * TURNS)
    hands = tuple(tuple(sorted(deck[s * TURNS : (s + 1) * TURNS])) for s in range(PLAYERS))
    return State(seed=seed, options=options, hands=hands)


def is_over(state):
    return state.turn > TURNS


def to_act(state):
    return [] if is_over(state) else [s for s in range(PLAYERS) if not state.selections[s]]


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
    loser = selections.index(min(selections))
    points = tuple(p + (s == loser) for s, p in enumerate(state.points))
    hands = tuple(
        tuple(c for c in hand if c != card)
        for hand, card in zip(state.hands, selections, strict=True)
    )
    state = replace(
        state,
        hands=hands,
        points=points,
        selections=(0, 0),
        turn=state.turn + 1,
        played=(*state.played, tuple(selections)),
    )
    events.append({"type": "revealed", "cards": list(selections)})
    if is_over(state):
        events.append({"type": "round_over", "round": 1, "heads": list(points)})
        events.append({"type": "game_over", **_ending(points)})
    return state, events


def _ending(points):
    return {
        "totals": list(points),
        "winners": [s for s, p in enumerate(points) if p == min(points)],
    }


def result(state):
    return {"rounds": [list(state.points)], **_ending(state.points)}


def heads(card):
    return 1


def view(state, seat, public=None):
    over = is_over(state)
    return {
        "kind": KIND,
        "seat": seat,
        "players": PLAYERS,
        "options": state.options,
        "version": state.version,
        "phase": "over" if over else "select",
        "round": 1,
        "turn": None if over else state.turn,
        "rows": [],
        "hand": list(state.hands[seat]) if seat is not None else None,
        "selected": [bool(card) for card in state.selections],
        "my_selection": (state.selections[seat] or None) if seat is not None else None,
        "revealed": None,
        "resolving": [],
        "chooser": None,
        "piles": [{"cards": 0, "heads": p} for p in state.points],
        "round_scores": [list(state.points)] if over else [],
        "totals": list(state.points),
        "seen": [],
        "last_turn": {"cards": list(state.played[-1]), "choices": {}} if state.played else None,
        "draft": None,
        "to_act": to_act(state),
        "result": result(state) if over else None,
    }


def dump(state):
    return {
        "seed": state.seed,
        "options": state.options,
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
        hands=tuple(tuple(hand) for hand in data["hands"]),
        selections=tuple(data["selections"]),
        points=tuple(data["points"]),
        turn=data["turn"],
        played=tuple(tuple(cards) for cards in data["played"]),
        version=data["version"],
    )


# --- its record: the seed and the cards of each turn -----------------------------------------


def record(state, players):
    played = [list(cards) for cards in state.played]
    return {"game": KIND, "players": players, "seed": state.seed, "turns": played}


def replay(record, *, allow_unfinished=False):
    seat = None
    try:
        state = new_game(players=PLAYERS, options={}, seed=record["seed"])
        for cards in record["turns"]:
            for seat, card in enumerate(cards):
                state, _events = apply(state, seat, {"type": "select", "card": card})
    except IllegalDecision as error:
        raise RecordError(str(error), round=1, turn=state.turn, seat=seat) from None
    except (KeyError, TypeError) as error:
        raise RecordError(f"not a record of higher card wins ({error})") from None
    if not is_over(state) and not allow_unfinished:
        raise RecordError("the record stops before the game's end")
    return result(state)
