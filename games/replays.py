"""Finished games rebuilt from their decision log: the record of RULES §4, the replay viewer.

The log is the truth; rebuilding from it (rather than reading the snapshot) is what the
design promises, and the viewer exercises that promise on every page.
"""

from games import kinds
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


def seat_names(game: Game) -> list:
    """The names the table page shows: display names, and bots' labels in the page's
    language (Seat.name). A record keeps `player_names`, which do not change."""
    return [seat.name for seat in game.table.seats.named()]


def decision_steps(moments: list[int], decisions: int) -> list[int]:
    """The replay step that shows each of the log's `decisions`: the first step showing
    the game after it, `moments` giving how many decisions each step shows (ascending)."""
    steps, step = [], 0
    for count in range(1, decisions + 1):
        while step < len(moments) - 1 and moments[step] < count:
            step += 1
        steps.append(step)
    return steps
