"""How fast the bots decide, and how many rollouts per second the expert simulates.

    .venv/bin/python bench/bots.py [--games 20] [--players 4] [--seed 0]

Figures are CPU time of this one process (numpy runs on one core), so that other work on
the machine does not skew them:
- rollout core: whole rounds from a fresh deal played out by `games.nimmt.bots.rollout.Tables`
  in batches of 1,000 worlds, with the expert's rollout players (player 0 weighs its next
  3 cards, the others 2) and with purely random players. Median of 5 one-second runs.
- in play: seeded games of expert, heuristic, random, random... through the public engine;
  per bot, decisions made and decision time (mean, median, 95th percentile, max); for the
  expert, the rounds or round remainders it simulated per second of its thinking time.
"""

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.bots import get_bot  # noqa: E402
from games.engine import nimmt  # noqa: E402
from games.nimmt.bots.expert import OPPONENT_LOOK, OWN_LOOK  # noqa: E402
from games.nimmt.bots.rollout import Tables  # noqa: E402


def core_throughput(players: int, looks: list[int], worlds: int = 1000, runs: int = 5) -> float:
    rng = np.random.default_rng(0)
    deals = rng.random((worlds, 104)).argsort(axis=1)[:, : 10 * players + 4] + 1
    rates = []
    for _ in range(runs):
        done, started = 0, time.process_time()
        while time.process_time() - started < 1.0:
            tables = Tables([[int(card)] for card in deals[0, -4:]], worlds, players)
            sequence = deals[:, : 10 * players].reshape(worlds, 10, players).copy()
            tables.play_turns(sequence, choice=looks, unseen=104 - 10 - 4, fixed_first=True)
            done += worlds
        rates.append(done / (time.process_time() - started))
    return statistics.median(rates)


def in_play(players: int, games: int, seed: int) -> None:
    names = (["expert", "heuristic"] + ["random"] * players)[:players]
    options = nimmt.normalize_options({}, players)
    times: dict[str, list[float]] = {name: [] for name in names}
    rollouts = 0
    for game in range(games):
        bots = [get_bot(name, seed=seed * 1000 + game * 16 + s) for s, name in enumerate(names)]
        state = nimmt.new_game(players=players, options=options, seed=seed * 1000 + game)
        while not nimmt.is_over(state):
            seat = nimmt.to_act(state)[0]
            view = nimmt.view(state, seat)
            started = time.process_time()
            decision = bots[seat].decide(view)
            times[names[seat]].append(time.process_time() - started)
            state, _ = nimmt.apply(state, seat, decision)
        rollouts += sum(getattr(bot, "rollouts", 0) for bot in bots)
    print(f"in play: {games} games of {players} players ({', '.join(names)}), threshold 66")
    print(f"  {'bot':<10} {'decisions':>9} {'mean ms':>8} {'median':>7} {'p95':>7} {'max':>7}")
    for name, spent in times.items():
        ms = sorted(1000 * t for t in spent)
        p95 = ms[int(0.95 * (len(ms) - 1))]
        print(
            f"  {name:<10} {len(ms):>9} {statistics.fmean(ms):>8.2f} "
            f"{statistics.median(ms):>7.2f} {p95:>7.2f} {ms[-1]:>7.2f}"
        )
    thinking = sum(times["expert"])
    print(
        f"  expert: {rollouts} rollouts (rounds or remainders) in {thinking:.1f} s of thinking: "
        f"{rollouts / thinking:,.0f} per second"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    players = args.players
    expert_looks = [OWN_LOOK] + [OPPONENT_LOOK] * (players - 1)
    print(f"rollout core, {players} players, whole rounds per second (batches of 1,000):")
    print(f"  expert's rollout players: {core_throughput(players, expert_looks):,.0f}")
    print(f"  random players:           {core_throughput(players, [1] * players):,.0f}")
    in_play(players, args.games, args.seed)


if __name__ == "__main__":
    main()
