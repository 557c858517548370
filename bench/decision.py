"""What one decision costs the server in this process, without the network: the service
(`game_decide`, its queries and commit) and the frames the table's sockets are sent.

    .venv/bin/python bench/decision.py [--players 5] [--turns 200]
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/sixclub_bench .venv/bin/python bench/decision.py

It creates a test database (SQLite in a temporary file by default, or a `test_` database
beside DATABASE_URL's), seats `--players` players at a table of 20 rounds, and plays
`--turns` turns of random selections through `games.services.game_decide`. After every
decision it builds what the table's consumers would send (games/consumers.py): a whole
`#live` per seat when the decision point moved, else `#players` per seat and the
decider's own `#hand` (docs/protocol.md), in English, from the snapshot read once for
the table's version.
Figures: CPU time per decision of the service and of the frames (medians over the run),
queries per decision, and the rendering of one whole frame per seat at a new point.
`BENCH_SHOW_QUERIES=1` also prints the SQL of one decision.
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=5)
    parser.add_argument("--turns", type=int, default=200)
    args = parser.parse_args()

    import django

    django.setup()
    from django.db import connection
    from django.test.utils import CaptureQueriesContext, setup_test_environment

    setup_test_environment()
    old_name = connection.settings_dict["NAME"]
    connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        run(args, connection, CaptureQueriesContext)
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


def run(args, connection, CaptureQueriesContext) -> None:
    from django.contrib.auth import get_user_model

    from games import engine, rendering, services

    users = [
        get_user_model().objects.create_user(f"bench{i}", password="x") for i in range(args.players)
    ]
    table = services.table_create(
        user=users[0], seats_count=args.players, options={"end": "rounds", "rounds": 20}
    )
    for user in users[1:]:
        services.seat_join(table_id=table.pk, user=user)
    services.table_start(table_id=table.pk, user=users[0])
    nimmt = engine.get("nimmt")
    rng = random.Random(1)
    service, frames, queries, full_frames = [], [], [], []
    point = None
    decisions = 0
    while len(full_frames) < args.turns:
        snapshot = rendering.read_snapshot(table.pk)
        state = snapshot.state
        if nimmt.is_over(state):
            break
        seat = rng.choice(nimmt.to_act(state))
        decision = rng.choice(nimmt.legal(state, seat))
        started = cpu()
        with CaptureQueriesContext(connection) as captured:
            accepted = services.game_decide(
                table_id=table.pk,
                user=users[seat],
                decision=decision,
                client_id=f"b{decisions}",
                seen_version=state.version,
            )
        service.append(cpu() - started)
        if os.environ.get("BENCH_SHOW_QUERIES") and decisions == 3:
            for query in captured.captured_queries:
                print("   ", query["sql"][:160])
        queries.append(len(captured.captured_queries))
        decisions += 1
        started = cpu()
        snapshot = rendering.read_snapshot(table.pk)  # as a process told of the version
        assert snapshot.version == accepted.version
        if snapshot.point_version != point:
            for user in users:
                rendering.live_frame(snapshot, user, "en", "token")
            point = snapshot.point_version
            full_frames.append(cpu() - started)
        else:
            for position, _user in enumerate(users):
                rendering.update_frame(snapshot, position, "en", hand=position == seat)
        frames.append(cpu() - started)

    def ms(values):
        return statistics.median(values) * 1000

    print(f"bench/decision.py: {args.players} players, {decisions} decisions, {connection.vendor}")
    print(f"service (game_decide): {ms(service):.2f} ms CPU per decision (median)")
    print(f"  queries per decision: median {statistics.median(queries)}, max {max(queries)}")
    print(
        f"frames for the table's {args.players} sockets: {ms(frames):.2f} ms CPU per decision "
        f"(median); mean {statistics.mean(frames) * 1000:.2f} ms"
    )
    print(
        f"  at a new decision point ({len(full_frames)}), a whole #live for every seat: "
        f"{ms(full_frames):.2f} ms"
    )
    print(
        f"together, mean: {(statistics.mean(service) + statistics.mean(frames)) * 1000:.2f} ms "
        f"CPU per decision; load average {os.getloadavg()[0]:.1f}"
    )


if __name__ == "__main__":
    main()
