"""Seeded games of 6 qui surprend between bots, through the engine's public interface.

    .venv/bin/python bench/surprise_bots.py --games 200 --bots surprise_expert surprise_random

The bots are named in seat order and cycled to fill the table (`--bots A B B B`: one A
against three B). Each bot sees only `view(state, seat)`. Game g is dealt with
seed `seed * 1_000_003 + g` and its bots seeded `game_seed * 31 + seat`, as
`games.bots.simulate` does. Printed per bot: heads per game (mean ± 95 % CI), win rate
(shared wins count), decision time (mean and p95, wall clock, each `decide` call), and
for each special how often it was used and the heads it saved on average.

"Saved" is measured so that it can be checked:
- Négatif = Positif: the heads of the cards it removed (the card and its extras), exact.
- A special attached to a card (Remplacer, 5e série, Insérer, Glisser, 7 qui surprend,
  Stop): the turn is played again from the reveal without that special (the same cards,
  the other seats' specials, the same bots answering the prompts, which are deterministic
  given their seed and view), and saved = the heads its player took in that turn without
  it minus with it. A special that could not apply (went back to the hand) is not
  counted as used. This sees only the turn the special is played in: Stop acts after
  its own card (it can only turn the same turn's higher cards away from its row), so
  what it saves on later turns, its main use, is not measured here.
"""

import argparse
import math
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.bots.surprise import BOTS  # noqa: E402
from games.engine import surprise  # noqa: E402
from games.engine.surprise.cards import HEADS, KINDS, NEGATIF  # noqa: E402

BOT_CLASSES = BOTS


class BotStats:
    def __init__(self):
        self.totals = []  # heads per game, one entry per seat-game
        self.wins = 0
        self.times = []  # seconds per decide()
        self.used = defaultdict(int)
        self.saved = defaultdict(list)


def took_heads(events, seat):
    return sum(
        sum(HEADS[card] for card in event["cards"])
        for event in events
        if event["type"] == "took" and event["seat"] == seat
    )


def finish_turn(state, bots, events, times=None):
    """Play the turn being resolved to its end, timing each decision in `times[seat]`."""
    while state.resolving:
        seat = surprise.to_act(state)[0]
        view = surprise.view(state, seat)
        started = time.perf_counter()
        decision = bots[seat].decide(view)
        if times is not None:
            times[seat].append(time.perf_counter() - started)
        state, more = surprise.apply(state, seat, decision)
        events.extend(more)
    return state


def without_special(state, seat, decision, owner):
    """The last selection of a turn again, with `owner`'s attached special taken off."""
    if owner == seat:
        return state, {**decision, "special": None}
    attached = list(state.attached)
    attached[owner] = None
    changed = state.copy()
    changed.attached = tuple(attached)
    return changed, decision


def play_game(players, game_seed, names, stats):
    state = surprise.new_game(players=players, options={}, seed=game_seed)
    bots = [BOT_CLASSES[name](seed=game_seed * 31 + seat) for seat, name in enumerate(names)]
    while not surprise.is_over(state):
        seat = surprise.to_act(state)[0]
        view = surprise.view(state, seat)
        started = time.perf_counter()
        decision = bots[seat].decide(view)
        stats[names[seat]].times.append(time.perf_counter() - started)
        last_selection = state.phase == "select" and surprise.to_act(state) == [seat]
        before = state
        state, events = surprise.apply(state, seat, decision)
        if last_selection:
            times = [stats[name].times for name in names]
            state = finish_turn(state, bots, events, times)
            measure_turn(before, seat, decision, events, bots, names, stats)
        else:
            count_reactions(events, names, stats)
    result = surprise.result(state)
    for seat, total in enumerate(result["totals"]):
        stats[names[seat]].totals.append(total)
        stats[names[seat]].wins += seat in result["winners"]


def count_reactions(events, names, stats):
    for event in events:
        if event["type"] == "removed":
            heads = HEADS[event["card"]] + sum(HEADS[card] for card in event["extras"])
            stats[names[event["seat"]]].used[NEGATIF] += 1
            stats[names[event["seat"]]].saved[NEGATIF].append(heads)
        elif event["type"] == "exchanged":
            stats[names[event["seat"]]].used["exchange"] += 1


def measure_turn(before, seat, decision, events, bots, names, stats):
    """Count the specials of a whole turn and measure what each attached one saved."""
    count_reactions(events, names, stats)
    revealed = next(event for event in events if event["type"] == "revealed")
    returned = [
        (event["seat"], event["special"]) for event in events if event["type"] == "special_returned"
    ]
    for owner, special in enumerate(revealed["specials"]):
        if special is None or (owner, special) in returned:
            continue
        changed, other = without_special(before, seat, decision, owner)
        state, cf_events = surprise.apply(changed, seat, other)
        finish_turn(state, bots, cf_events)
        saved = took_heads(cf_events, owner) - took_heads(events, owner)
        stats[names[owner]].used[special] += 1
        stats[names[owner]].saved[special].append(saved)


def p95(values):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(0.95 * len(ordered)) - 1)]


def report(stats, games):
    lines = [
        f"{'bot':<20}{'seats':>6}{'heads/game (95% CI)':>22}{'win %':>7}{'ms mean':>9}{'ms p95':>8}"
    ]
    for name, bot in stats.items():
        n = len(bot.totals)
        ci = 1.96 * statistics.stdev(bot.totals) / math.sqrt(n) if n > 1 else math.nan
        heads = f"{statistics.fmean(bot.totals):.2f} ± {ci:.2f}"
        lines.append(
            f"{name:<20}{n:>6}{heads:>22}{100 * bot.wins / n:>7.1f}"
            f"{1000 * statistics.fmean(bot.times):>9.1f}{1000 * p95(bot.times):>8.1f}"
        )
    lines.append("")
    lines.append("specials: uses per game per seat, and mean heads saved per use")
    lines.append(f"{'bot':<20}" + "".join(f"{kind:>17}" for kind in (*KINDS, "exchange")))
    for name, bot in stats.items():
        n = len(bot.totals)
        cells = []
        for kind in (*KINDS, "exchange"):
            uses = bot.used[kind] / n
            saved = bot.saved[kind]
            mean = f"{statistics.fmean(saved):+.2f}" if saved else "—"
            cells.append(f"{uses:.2f} / {mean}" if kind != "exchange" else f"{uses:.2f}")
        lines.append(f"{name:<20}" + "".join(f"{cell:>17}" for cell in cells))
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bots", nargs="+", default=["surprise_expert", *["surprise_random"] * 3])
    args = parser.parse_args()
    names = [args.bots[seat % len(args.bots)] for seat in range(args.players)]
    unknown = sorted(set(names) - set(BOT_CLASSES))
    if unknown:
        parser.error(f"unknown bots {unknown}; known: {', '.join(BOT_CLASSES)}")
    stats = {name: BotStats() for name in dict.fromkeys(names)}
    started = time.perf_counter()
    for index in range(args.games):
        play_game(args.players, args.seed * 1_000_003 + index, names, stats)
    print(
        f"6 qui surprend: {args.games} games, {args.players} players ({', '.join(names)}), "
        f"seed {args.seed}, {time.perf_counter() - started:.0f} s"
    )
    print(report(stats, args.games))


if __name__ == "__main__":
    main()
