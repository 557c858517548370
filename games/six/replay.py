"""Six's replay viewer: the game card by card, once it is over."""

from games import engine
from games.models import Game
from games.replays import rebuild, seat_names


def six_replay_context(game: Game, step: int) -> dict:
    """Six: the game after each card played (0: the first deal), every hand shown: the
    game is over. A step shows the table, the hands, the plays of the hand in play and
    the points."""
    game_engine = engine.get(game.table.kind)
    states = [state for state, _events in rebuild(game)]
    step = max(0, min(step, len(states) - 1))
    view = game_engine.view(states[step], None)
    names = seat_names(game)
    hands = states[step].hands
    return {
        "game": game,
        "table": game.table,
        "step": step,
        "steps": len(states) - 1,
        "v": view,
        "names": names,
        "hands": [{"name": names[seat], "cards": list(hand)} for seat, hand in enumerate(hands)],
        "plays": [{"name": names[seat], "card": card} for seat, card in view["turns"]],
        "totals": [
            {
                "name": names[seat],
                "total": total,
                "winner": seat in (view["result"] or {}).get("winners", ()),
            }
            for seat, total in enumerate(view["totals"])
        ],
        "previous": step - 1 if step > 0 else None,
        "next": step + 1 if step < len(states) - 1 else None,
    }
