"""How fast the 6 qui prend ! engine plays random rounds, on one core.

    .venv/bin/python bench/engine.py [--players 5] [--runs 9] [--rounds 400]

Figures in rounds per second (CPU time of this one process):
- public: whole games through `new_game` / `to_act` / `apply`, every decision checked and
  turned into a new immutable state plus its events, as the server and the replay drive
  it. The random player reads its hand from the state (`state.hands[seat]`) and picks a
  card uniformly; a too-low card's player picks a row uniformly.
- public + legal(): the same, but the player draws from `legal(state, seat)`.
- core: `games.engine.nimmt.core.random_round`, the mutable list-based core that bots use
  for rollouts (deal, shuffle each hand, play it out).

Each figure is the median of several short runs, which keeps it steady on a machine busy
with other work; the best run is shown beside it.
"""

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine.nimmt import apply, core, is_over, legal, new_game, to_act  # noqa: E402

# Decisions are read, never changed, by the engine, so one dict per card can be reused.
SELECT = [{"type": "select", "card": card} for card in range(105)]
ROW = [{"type": "row", "row": index} for index in range(4)]


def public_rounds(players, rounds, options, use_legal):
    random_float = random.Random(1).random
    played = 0
    seed = 0
    started = time.process_time()
    while played < rounds:
        seed += 1
        state = new_game(players=players, options=options, seed=seed)
        while not is_over(state):
            seats = to_act(state)
            phase = state.phase
            if use_legal:
                for seat in seats:
                    decisions = legal(state, seat)
                    state, _ = apply(state, seat, decisions[int(random_float() * len(decisions))])
            elif phase == "select":
                # Hands do not change while a turn's cards are being selected.
                hands = state.hands
                for seat in seats:
                    hand = hands[seat]
                    card = hand[int(random_float() * len(hand))]
                    state, _ = apply(state, seat, SELECT[card])
            elif phase == "choose_row":
                (seat,) = seats
                state, _ = apply(state, seat, ROW[int(random_float() * 4)])
            else:  # a draft pick
                (seat,) = seats
                pool = state.pool
                card = pool[int(random_float() * len(pool))]
                state, _ = apply(state, seat, {"type": "pick", "card": card})
        played += state.round
    return played / (time.process_time() - started)


def core_rounds(players, rounds, card_limit):
    rng = random.Random(1)
    started = time.process_time()
    for _ in range(rounds):
        core.random_round(rng, players, card_limit)
    return rounds / (time.process_time() - started)


def measure(runs, run):
    rates = [run() for _ in range(runs)]
    return statistics.median(rates), max(rates)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=5)
    parser.add_argument("--runs", type=int, default=9, help="short runs per figure")
    parser.add_argument("--rounds", type=int, default=400, help="rounds per public run")
    args = parser.parse_args()
    players, rounds = args.players, args.rounds
    # Twenty fixed rounds a game, so every game adds the same number of rounds.
    fixed = {"end": "rounds", "rounds": 20}
    pro = {**fixed, "deal": "draft", "card_limit": True}
    cases = [
        ("public, random deal", lambda: public_rounds(players, rounds, fixed, False)),
        ("public + legal(), random deal", lambda: public_rounds(players, rounds, fixed, True)),
        ("public, draft + card_limit", lambda: public_rounds(players, rounds, pro, False)),
        ("core, random deal", lambda: core_rounds(players, rounds * 10, False)),
    ]
    print(f"6 qui prend ! engine: {players} players, random play, one core, rounds/s")
    print(f"{'':32}{'median':>10}{'best':>10}")
    for name, run in cases:
        median, best = measure(args.runs, run)
        print(f"{name:32}{median:>10,.0f}{best:>10,.0f}")


if __name__ == "__main__":
    main()
