"""What the live frames of one table cost to render, in this process, without a database.

    .venv/bin/python bench/render.py [--players 5] [--repeat 2000]

A table of `--players` seats (one bot, one away) in the middle of a round of 6 qui prend !,
its models built in memory (nothing is saved: rendering reads no database). For one
version it prints the CPU time (µs, median of `--repeat`) of:
- a whole `#live` frame for one seat at a new version (nothing of that version rendered
  yet) and for each further seat (the sections every seat sees alike already rendered);
- an update frame (`#players` and the seat's `#hand`) at a new version and for a further
  seat; and the same for a seat choosing a row (its own buttons).
"""

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")


def cpu() -> float:
    return time.thread_time()


def table_at(players: int, phase: str):
    """Users, table, seats and a state of a game in the middle of its first round."""
    from django.contrib.auth import get_user_model

    from games import engine
    from games.models import Seat, Table

    nimmt = engine.get("nimmt")
    user_model = get_user_model()
    users = [user_model(pk=i + 1, username=f"bench{i}") for i in range(players)]
    table = Table(
        pk=1,
        kind="nimmt",
        created_by=users[0],
        seats_count=players,
        options=nimmt.normalize_options({"end": "rounds", "rounds": 20}, players),
        show_played=True,
        time_limit=30,
        status="playing",
    )
    seats = [
        Seat(table=table, position=i, bot="heuristic")
        if i == players - 1
        else Seat(table=table, position=i, user=users[i], away=i == players - 2)
        for i in range(players)
    ]
    rng = random.Random(3)
    state = nimmt.new_game(players=players, options=table.options, seed=3)
    # Play turns until the wanted phase comes mid-round (a last turn and a score sheet
    # to show, a few selections made).
    decisions = 0
    while True:
        chosen = sum(1 for card in state.selections if card)
        mid_round = decisions > 4 * players and state.turn >= 4
        if mid_round and state.phase == phase and (phase != "select" or chosen == 2):
            break
        seat = rng.choice(nimmt.to_act(state))
        state, _events = nimmt.apply(state, seat, rng.choice(nimmt.legal(state, seat)))
        decisions += 1
    return users, table, seats, state


def snapshot_of(table, seats, state):
    from django.utils import timezone

    from games import engine, rendering
    from games.models import Game

    game = Game(
        pk=1,
        table_id=table.pk,
        state=engine.get("nimmt").dump(state),
        version=state.version,
        point_version=state.version,
        deadline=timezone.now(),
    )
    return rendering.Snapshot(table=table, game=game, seats=seats, state=state)


def measure(repeat: int, render) -> float:
    times = []
    for _ in range(repeat):
        started = cpu()
        render()
        times.append(cpu() - started)
    return statistics.median(times) * 1e6


def bench_phase(phase: str, players: int, repeat: int) -> None:
    from games import rendering

    users, table, seats, state = table_at(players, phase)
    me = 0 if phase == "select" else state.chooser
    other = (me + 1) % (players - 1)

    def fresh_live():
        # A new version: nothing of it rendered yet in this process.
        rendering.live_frame(snapshot_of(table, seats, state), users[me], "en", "token")

    def fresh_update():
        rendering.update_frame(snapshot_of(table, seats, state), me, "en", True)

    kept = snapshot_of(table, seats, state)
    rendering.live_frame(kept, users[me], "en", "token")
    rendering.update_frame(kept, me, "en", True)
    figures = {
        "view of the version (engine.view + shared context)": lambda: snapshot_of(
            table, seats, state
        ).shared(),
        "whole #live, first seat of a version": fresh_live,
        "whole #live, a further seat": lambda: rendering.live_frame(kept, users[other], "en", "t"),
        "update (#players + #hand), first seat of a version": fresh_update,
        "update (#players + #hand), a further seat": lambda: rendering.update_frame(
            kept, other, "en", True
        ),
    }
    print(f"{phase} (seat {me} {'chooses a row' if phase == 'choose_row' else 'selects'}):")
    for label, render in figures.items():
        print(f"  {label + ':':<54}{measure(repeat, render):8.0f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=2000)
    args = parser.parse_args()

    import django

    django.setup()
    print(f"bench/render.py: {args.players} players, median of {args.repeat}, µs CPU")
    for phase in ("select", "choose_row"):
        bench_phase(phase, args.players, args.repeat)


if __name__ == "__main__":
    main()
