"""Finished games rebuilt from their decision log: the record of RULES §4, the replay viewer.

The log is the truth; rebuilding from it (rather than reading the snapshot) is what the
design promises, and the viewer exercises that promise on every page.
"""

from games import engine, kinds
from games.models import Game


def player_names(game: Game) -> list[str]:
    seats = game.table.seats.select_related("user").order_by("position")
    return [seat.user.username if seat.user_id else f"bot:{seat.bot}" for seat in seats]


def rebuild(game: Game):
    """Yield (state, events) after each decision of the log, from the game's seed."""
    game_engine = kinds.get(game.table.kind).engine
    players = game.table.seats.count()
    state = game_engine.new_game(players=players, options=game.table.options, seed=game.seed)
    yield state, []
    for seat, payload in game.decisions.order_by("seq").values_list("seat", "payload"):
        state, events = game_engine.apply(state, seat, payload)
        yield state, events


def game_record(game: Game) -> dict:
    """The record of a finished game, in its kind's format (RULES §4 for 6 qui prend !)."""
    kind = kinds.get(game.table.kind)
    return kind.write_record(kind.engine.load(game.state), player_names(game))


def replay_context(game: Game, step: int) -> dict:
    """The context of the replay page at `step`, as the game's kind builds it."""
    return kinds.get(game.table.kind).replay_context(game, step)


def replay_template(game: Game) -> str:
    return kinds.get(game.table.kind).template("replay.html")


def nimmt_replay_context(game: Game, step: int) -> dict:
    """6 qui prend !: the table after `step` finished turns (0: the first deal), seen by
    everyone."""
    game_engine = engine.get(game.table.kind)
    frames = []
    previous = None
    for state, _events in rebuild(game):
        view = game_engine.view(state, None)
        point = (view["round"], view["turn"], view["phase"])
        # One frame per turn: the board as it stood when a new turn (or the end) came.
        if view["phase"] in ("select", "over") and point != previous:
            frames.append((state, view))
            previous = point
    step = max(0, min(step, len(frames) - 1))
    state, view = frames[step]
    hands = [list(hand) for hand in state.hands] if hasattr(state, "hands") else []
    names = player_names(game)
    return {
        "game": game,
        "table": game.table,
        "step": step,
        "steps": len(frames) - 1,
        "view": view,
        "names": names,
        "rows": [
            [{"number": card, "heads": game_engine.heads(card)} for card in row]
            for row in view["rows"]
        ],
        # The game is over: every hand may be shown now.
        "hands": [
            {
                "name": names[seat],
                "cards": [{"number": c, "heads": game_engine.heads(c)} for c in hand],
            }
            for seat, hand in enumerate(hands)
        ],
        "plays": _plays(game_engine, view.get("last_turn"), names),
        "totals": [{"name": names[seat], "total": t} for seat, t in enumerate(view["totals"])],
        "previous": step - 1 if step > 0 else None,
        "next": step + 1 if step < len(frames) - 1 else None,
    }


def _plays(game_engine, last_turn, names):
    if not last_turn:
        return []
    plays = [
        {
            "name": names[seat],
            "card": {"number": card, "heads": game_engine.heads(card)},
            "row": last_turn["choices"].get(str(seat)),
        }
        for seat, card in enumerate(last_turn["cards"])
    ]
    return sorted(plays, key=lambda play: play["card"]["number"])
