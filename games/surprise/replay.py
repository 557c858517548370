"""6 qui surprend's replay viewer: each reveal and each answer, once the game is over."""

from games import engine
from games.models import Game
from games.replays import rebuild, seat_names


def surprise_replay_context(game: Game, step: int) -> dict:
    """6 qui surprend: the game at each reveal and after each decision a turn's resolution
    asked for (Remplacer, a row, Insérer, Glisser, Stop, the reactions), with what it did
    in words, every hand and special shown: the game is over. Step 0 is the first deal;
    a selection that reveals nothing yet is not a step."""
    from games.surprise.templatetags.surprise import turn_lines  # the live table's words

    game_engine = engine.get(game.table.kind)
    names = [str(name) for name in seat_names(game)]
    steps = []
    for state, events in rebuild(game):
        if steps and all(event["type"] == "selected" for event in events):
            continue
        steps.append((state, turn_lines(events, names)))
    step = max(0, min(step, len(steps) - 1))
    state, lines = steps[step]
    view = game_engine.view(state, None)
    return {
        "game": game,
        "table": game.table,
        "step": step,
        "steps": len(steps) - 1,
        "v": view,
        "lines": lines,
        "names": names,
        "hands": [
            {"name": names[seat], "cards": list(hand), "specials": list(state.specials[seat])}
            for seat, hand in enumerate(state.hands)
        ],
        "totals": [
            {
                "name": names[seat],
                "pile": view["piles"][seat]["heads"],
                "total": total,
                "winner": seat in (view["result"] or {}).get("winners", ()),
            }
            for seat, total in enumerate(view["totals"])
        ],
        "previous": step - 1 if step > 0 else None,
        "next": step + 1 if step < len(steps) - 1 else None,
    }
