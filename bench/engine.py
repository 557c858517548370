"""How fast the 6 qui prend ! engine plays random rounds, on one core.

    .venv/bin/python bench/engine.py [--players 5] [--runs 9] [--rounds 400]
    .venv/bin/python bench/engine.py --game surprise [--players 4] [--runs 9]
    .venv/bin/python bench/engine.py --game six [--players 4] [--runs 9]

Figures in rounds per second (CPU time of this one process):
- public: whole games through `new_game` / `to_act` / `apply`, every decision checked and
  turned into a new immutable state plus its events, as the server and the replay drive
  it. The random player reads its hand from the state (`state.hands[seat]`) and picks a
  card uniformly; a too-low card's player picks a row uniformly.
- public + legal(): the same, but the player draws from `legal(state, seat)`.
- core: `games.nimmt.engine.core.random_round`, the mutable list-based core that bots use
  for rollouts (deal, shuffle each hand, play it out).

With `--game surprise`, 6 qui surprend (games/surprise/engine), in games per second:
- public + legal(): whole 2-round games through `new_game` / `to_act` / `legal` /
  `apply`, every decision drawn uniformly from `legal(state, seat)` (so specials are
  attached and every prompt comes up);
- public, no specials: the same, but a selection is a uniformly random card of the hand
  with no special (prompts still drawn from `legal`);
- bots' table: `games.surprise.bots.table.Table`, the mutable table the surprise bots
  roll out on, playing both rounds' number cards at random (no specials);
- and the milliseconds to `replay` the record of a whole random 2-round game.

With `--game six`, Six (games/six/engine), to 30 points on 40 cards:
- public + legal(): whole games through `new_game` / `to_act` / `legal` / `apply`, each
  card drawn uniformly from `legal(state, seat)` (passes are the engine's own), games/s;
- deals: `new_game` alone (the first hand dealt), random and balanced, deals/s.

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

from games.nimmt.engine import apply, core, is_over, legal, new_game, to_act  # noqa: E402

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


def surprise_games(players, games, use_specials):
    from games.surprise import engine as surprise

    rng = random.Random(1)
    started = time.process_time()
    for seed in range(1, games + 1):
        state = surprise.new_game(players=players, options={}, seed=seed)
        while not surprise.is_over(state):
            seat = surprise.to_act(state)[0]
            if state.phase == "select" and not use_specials:
                hand = state.hands[seat]
                decision = {"type": "select", "card": hand[int(rng.random() * len(hand))]}
            else:
                decisions = surprise.legal(state, seat)
                decision = decisions[int(rng.random() * len(decisions))]
            state, _ = surprise.apply(state, seat, decision)
    return games / (time.process_time() - started)


def surprise_table_games(players, games):
    from games.surprise.bots.table import Table

    rng = random.Random(1)
    cards = list(range(1, 105))
    started = time.process_time()
    for _ in range(games):
        for _round in range(2):
            rng.shuffle(cards)
            hands = [cards[12 * seat : 12 * seat + 12] for seat in range(players)]
            rows = [[card] for card in cards[12 * players : 12 * players + 4]]
            table = Table(rows, [False] * 4, [False] * 4)
            for turn in range(12):
                table.play([(hand[turn], seat, None) for seat, hand in enumerate(hands)])
    return games / (time.process_time() - started)


def surprise_replay_ms(players, games):
    """Median milliseconds to replay the record of a random 2-round game."""
    from games.surprise import engine as surprise

    times = []
    for seed in range(1, games + 1):
        rng = random.Random(seed)
        state = surprise.new_game(players=players, options={}, seed=seed)
        while not surprise.is_over(state):
            seat = surprise.to_act(state)[0]
            state, _ = surprise.apply(state, seat, rng.choice(surprise.legal(state, seat)))
        record = surprise.record(state, [f"p{seat}" for seat in range(players)])
        started = time.process_time()
        surprise.replay(record)
        times.append(1000 * (time.process_time() - started))
    return statistics.median(times), max(times)


def surprise_main(players, runs):
    cases = [
        ("public + legal()", lambda: surprise_games(players, 20, True)),
        ("public, no specials", lambda: surprise_games(players, 20, False)),
        ("bots' table, no specials", lambda: surprise_table_games(players, 500)),
    ]
    print(f"6 qui surprend engine: {players} players, random play, one core, games/s")
    print(f"{'':32}{'median':>10}{'best':>10}")
    for name, run in cases:
        median, best = measure(runs, run)
        print(f"{name:32}{median:>10,.0f}{best:>10,.0f}")
    median, worst = surprise_replay_ms(players, 50)
    print(f"replay of a whole 2-round game (50 games): median {median:.1f} ms, worst {worst:.1f}")


def six_games(players, games, options):
    from games.six import engine as six

    rng = random.Random(1)
    started = time.process_time()
    for seed in range(games):
        state = six.new_game(players=players, options=options, seed=seed)
        while not six.is_over(state):
            seat = six.to_act(state)[0]
            decisions = six.legal(state, seat)
            state, _ = six.apply(state, seat, decisions[int(rng.random() * len(decisions))])
    return games / (time.process_time() - started)


def six_deals(players, deals, options):
    from games.six import engine as six

    started = time.process_time()
    for seed in range(deals):
        six.new_game(players=players, options=options, seed=seed)
    return deals / (time.process_time() - started)


def six_main(players, runs):
    balanced = {"balanced": True} if players == 4 else {}
    cases = [
        ("public + legal(), games/s", lambda: six_games(players, 20, {})),
        ("deals/s, random", lambda: six_deals(players, 2000, {})),
    ]
    if balanced:
        cases.append(("deals/s, balanced", lambda: six_deals(players, 2000, balanced)))
    print(f"Six engine: {players} players, 40 cards, to 30, random play, one core")
    print(f"{'':32}{'median':>10}{'best':>10}")
    for name, run in cases:
        median, best = measure(runs, run)
        print(f"{name:32}{median:>10,.0f}{best:>10,.0f}")


def measure(runs, run):
    rates = [run() for _ in range(runs)]
    return statistics.median(rates), max(rates)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", choices=["nimmt", "surprise", "six"], default="nimmt")
    parser.add_argument("--players", type=int, help="default 5 (nimmt), 4 (surprise, six)")
    parser.add_argument("--runs", type=int, default=9, help="short runs per figure")
    parser.add_argument("--rounds", type=int, default=400, help="rounds per public run")
    args = parser.parse_args()
    if args.game == "surprise":
        surprise_main(args.players or 4, args.runs)
        return
    if args.game == "six":
        six_main(args.players or 4, args.runs)
        return
    players, rounds = args.players or 5, args.rounds
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
