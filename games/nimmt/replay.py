"""6 qui prend !'s replay viewer: the game step by step, once it is over."""

from games import engine
from games.models import Game
from games.replays import rebuild, seat_names


def nimmt_replay_context(game: Game, step: int) -> dict:
    """6 qui prend !: the game step by step, seen by everyone once it is over: each round's
    deal, each of its ten turns (the cards played, where each went, the rows taken, the
    board, hands and scores after the turn), then the end of the game."""
    game_engine = engine.get(game.table.kind)
    steps = nimmt_steps(game_engine, rebuild(game))
    step = max(0, min(step, len(steps) - 1))
    current = steps[step]
    names = seat_names(game)

    def faces(cards):
        return [{"number": card, "heads": game_engine.heads(card)} for card in cards]

    return {
        "game": game,
        "table": game.table,
        "step": step,
        "steps": len(steps) - 1,
        # "deal", "turn" or "end"; round and turn are 1-based (None where they do not apply).
        "kind": current["kind"],
        "round": current["round"],
        "turn": current["turn"],
        "names": names,
        "rows": [faces(row) for row in current["rows"]],
        # The game is over: every hand may be shown now.
        "hands": [
            {"name": names[seat], "cards": faces(hand)}
            for seat, hand in enumerate(current["hands"])
        ],
        # In the order they were placed (lowest first); rows counted from 1.
        "plays": [
            {
                "seat": play["seat"],
                "name": names[play["seat"]],
                "card": faces([play["card"]])[0],
                "row": play["row"] + 1,
                "took": faces(play["took"]) if play["took"] is not None else None,
                "heads": play["heads"],
            }
            for play in current["plays"]
        ],
        "totals": [
            {
                "name": names[seat],
                "round": current["heads"][seat],
                "total": total,
                "winner": seat in current["winners"],
            }
            for seat, total in enumerate(current["totals"])
        ],
        "previous": step - 1 if step > 0 else None,
        "next": step + 1 if step < len(steps) - 1 else None,
    }


def nimmt_steps(game_engine, rebuilt) -> list[dict]:
    """The replay's steps from `rebuild(game)`'s (state, events), read from the events.

    A turn's step is taken when its last card is placed: the decision that places it may
    also end the round and deal the next one (docs/engines.md, "Events"), so the state
    after it already shows the next round. Each step is a dict: `kind` ("deal", "turn",
    "end"), `round`, `turn`, `rows` and `hands` after it, `plays` (the turn's cards, lowest
    first: seat, card, row 0-based, `took` the cards taken or None, `heads` of the take),
    `heads` taken this round per seat, `totals` (earlier rounds and this one),
    `winners` (at the end) and `at`, how many decisions of the log it shows.
    """
    steps = []
    state, _events = next(rebuilt)
    players = state.players
    number, turn = state.round, 0
    before = [0] * players  # totals of the rounds before this one
    heads = [0] * players
    rows = [list(row) for row in state.rows]
    hands = [list(hand) for hand in state.hands]
    plays = []
    at = 0

    def add(kind, **fields):
        steps.append(
            {
                "kind": kind,
                "round": number,
                "turn": None,
                "rows": [list(row) for row in rows],
                "hands": [list(hand) for hand in hands],
                "plays": [],
                "heads": list(heads),
                "totals": [a + b for a, b in zip(before, heads, strict=True)],
                "winners": [],
                "at": at,
                **fields,
            }
        )

    def dealt(state):
        nonlocal rows, hands, heads, turn
        rows = [list(row) for row in state.rows]
        hands = [list(hand) for hand in state.hands]
        heads, turn = [0] * players, 0
        add("deal")

    if state.phase == "select":  # a random deal; a draft's rows are laid by its last pick
        dealt(state)
    for at, (state, events) in enumerate(rebuilt, start=1):  # noqa: B007 (read by add)
        for event in events:
            kind = event["type"]
            if kind == "revealed":
                plays = []
                for seat, card in enumerate(event["cards"]):
                    hands[seat].remove(card)
            elif kind == "took":
                taken = event["cards"]
                # Shown whatever `live_scores` was: the game is over.
                heads[event["seat"]] += sum(map(game_engine.heads, taken))
                plays.append(
                    {
                        "seat": event["seat"],
                        "row": event["row"],
                        "took": list(taken),
                        "heads": sum(map(game_engine.heads, taken)),
                    }
                )
                rows[event["row"]] = []
            elif kind == "placed":
                seat, row = event["seat"], event["row"]
                if plays and plays[-1].get("card") is None and plays[-1]["seat"] == seat:
                    plays[-1]["card"] = event["card"]  # the card that took (`took` first)
                else:
                    plays.append(
                        {
                            "seat": seat,
                            "row": row,
                            "card": event["card"],
                            "took": None,
                            "heads": None,
                        }
                    )
                rows[row].append(event["card"])
                if len(plays) == players:  # the turn's last card
                    turn += 1
                    add("turn", turn=turn, plays=plays)
                    plays = []
            elif kind == "round_over":
                before = [a + b for a, b in zip(before, event["heads"], strict=True)]
                heads = [0] * players
            elif kind == "round_started":
                number = event["round"]
            elif kind == "game_over":
                add("end", round=None, winners=list(event["winners"]))
        if (
            events
            and events[-1]["type"] in ("round_started", "rows_laid")
            and state.phase == "select"
        ):
            dealt(state)
    return steps
