"""6 qui prend ! head to head: sixclub's bots and the published agent at one table.

    .venv/bin/python bench/head_to_head.py --agent /tmp/agent --games 400 [--strategy mcs]

The agent is ThingsAI-io/6-nimmt-agent (TypeScript), not copied into this project: give
the path of a local checkout with its dependencies installed (see `HINT`). Its strategies
are driven by bench/agent_bridge.mts, one JSON line per decision, with that seat's visible
state in the agent's own terms (hand, rows, scores, this round's plays, player count,
round, turn; and for a too-low card the row choice, RULES §1.4).

Games are played by sixclub's engine (games.nimmt.engine, base rules, to 66 heads) between
the expert, the agent's strategy and two heuristics; the seats rotate from game to game and
the deals are seeded. Per player it prints the win share (a tie shares the win) and heads
per round, each with its 95 % confidence interval, and CPU ms per decision, mean and p95:
ours from time.process_time around decide(), the agent's from process.cpuUsage in the
bridge around chooseCard/chooseRow.
"""

import argparse
import json
import math
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.nimmt import engine as nimmt  # noqa: E402
from games.nimmt.bots import BOTS  # noqa: E402
from games.nimmt.engine.placing import target_row  # noqa: E402

BRIDGE = Path(__file__).resolve().parent / "agent_bridge.mts"
HINT = """\
The head to head needs a local checkout of the published agent, with its dependencies:

    git clone https://github.com/ThingsAI-io/6-nimmt-agent /tmp/agent
    cd /tmp/agent && npm ci        # Node 20+; only tsx is needed to run its engine

then: .venv/bin/python bench/head_to_head.py --agent /tmp/agent --games 400"""

AGENT = "agent"
PLAYERS = ["expert", AGENT, "heuristic", "heuristic"]


class Bridge:
    """The bridge process, one request and one answer at a time."""

    def __init__(self, checkout: Path):
        tsx = checkout / "node_modules" / ".bin" / "tsx"
        command = [str(tsx)] if tsx.exists() else [shutil.which("npx") or "npx", "tsx"]
        self.process = subprocess.Popen(
            [*command, str(BRIDGE), str(checkout)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=checkout,
        )

    def ask(self, **request) -> dict:
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError("the agent bridge stopped")
        answer = json.loads(line)
        if "error" in answer:
            raise RuntimeError(f"agent bridge: {answer['error']}")
        return answer

    def close(self) -> None:
        self.process.stdin.close()
        self.process.wait(timeout=10)


def pid(seat: int) -> str:
    return f"p{seat}"


def history(start_rows, turns) -> list[dict]:
    """A round's finished turns as the agent's TurnHistoryEntry list (all public)."""
    rows = [list(row) for row in start_rows]
    entries = []
    for number, (cards, choices) in enumerate(turns, start=1):
        chosen = dict(choices)
        plays = [{"playerId": pid(seat), "card": card} for seat, card in enumerate(cards)]
        resolutions, picks = [], []
        for card, seat in sorted((card, seat) for seat, card in enumerate(cards)):
            index = target_row(rows, card)
            if index < 0:
                index = chosen[seat]
                picks.append(
                    {"playerId": pid(seat), "rowIndex": index, "collectedCards": rows[index]}
                )
                resolutions.append(
                    {"playerId": pid(seat), "card": card, "rowIndex": index,
                     "causedOverflow": False, "collectedCards": rows[index]}
                )  # fmt: skip
                rows[index] = [card]
            elif len(rows[index]) == 5:
                resolutions.append(
                    {"playerId": pid(seat), "card": card, "rowIndex": index,
                     "causedOverflow": True, "collectedCards": rows[index]}
                )  # fmt: skip
                rows[index] = [card]
            else:
                resolutions.append(
                    {"playerId": pid(seat), "card": card, "rowIndex": index,
                     "causedOverflow": False}
                )  # fmt: skip
                rows[index] = [*rows[index], card]
        entries.append(
            {"turn": number, "plays": plays, "resolutions": resolutions, "rowPicks": picks,
             "boardAfter": [list(row) for row in rows]}
        )  # fmt: skip
    return entries


class AgentSeat:
    """One seat played by the agent: feeds its strategy the round and turn events it
    would have seen, then asks it for the decision."""

    def __init__(self, bridge: Bridge, key: str, seat: int, players: int, seed: int, spec):
        self.bridge, self.key, self.seat = bridge, key, seat
        self.round, self.sent = 0, 0
        self.cpu_ms: list[float] = []
        bridge.ask(op="start", id=key, strategy=spec, players=players, seat=pid(seat), seed=seed)

    def _sync(self, state) -> list[dict]:
        if state.round != self.round:
            if self.round and state.history:  # the last turns of the round before
                start_rows, _, _, turns = state.history[-1]
                for entry in history(start_rows, turns)[self.sent :]:
                    self.bridge.ask(op="turn", id=self.key, resolution=entry)
            self.round, self.sent = state.round, 0
            self.bridge.ask(
                op="round", id=self.key, round=state.round,
                hand=list(state.start_hands[self.seat]),
                board=[list(row) for row in state.start_rows],
            )  # fmt: skip
        entries = history(state.start_rows, state.turns)
        for entry in entries[self.sent :]:
            self.bridge.ask(op="turn", id=self.key, resolution=entry)
        self.sent = len(entries)
        return entries

    def decide(self, state) -> dict:
        entries = self._sync(state)
        common = {
            "board": [list(row) for row in state.rows],
            "playerScores": {pid(s): total for s, total in enumerate(state.totals)},
            "playerCount": state.players,
            "round": state.round,
            "turn": len(state.turns) + 1,
            "turnHistory": entries,
        }
        hand = list(state.hands[self.seat])
        if state.phase == "select":
            agent_state = {
                **common,
                "hand": hand,
                "initialBoardCards": [list(row) for row in state.start_rows],
            }
            answer = self.bridge.ask(op="card", id=self.key, state=agent_state)
            decision = {"type": "select", "card": answer["card"]}
        else:
            mine = state.selections[self.seat]
            revealed = sorted((card, seat) for seat, card in enumerate(state.selections))
            agent_state = {
                **common,
                "triggeringCard": mine,
                "revealedThisTurn": [{"playerId": pid(s), "card": c} for c, s in revealed],
                "resolutionIndex": 0,
                "hand": sorted([*hand, mine]),
            }
            answer = self.bridge.ask(op="row", id=self.key, state=agent_state)
            decision = {"type": "row", "row": answer["row"]}
        self.cpu_ms.append(answer["cpu_ms"])
        return decision

    def close(self) -> None:
        self.bridge.ask(op="end", id=self.key)


class Player:
    """What one bot (or the agent) did over all games, whatever its seat."""

    def __init__(self, name: str):
        self.name = name
        self.shares: list[float] = []  # per game: 1, 1/k for a k-way tie, or 0
        self.heads: list[int] = []  # per round
        self.cpu_ms: list[float] = []  # per decision


def ci95(values: list[float]) -> tuple[float, float]:
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, math.nan
    return mean, 1.96 * statistics.stdev(values) / math.sqrt(len(values))


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(0.95 * len(ordered)) - 1)] if ordered else 0.0


def play(bridge: Bridge, game: int, seed: int, spec: str, players: list[Player]) -> None:
    size = len(PLAYERS)
    names = [PLAYERS[(seat + game) % size] for seat in range(size)]  # seats rotate
    of_seat = [players[(seat + game) % size] for seat in range(size)]
    game_seed = seed * 1_000_003 + game
    options = nimmt.normalize_options({"end": "threshold", "threshold": 66}, size)
    state = nimmt.new_game(players=size, options=options, seed=game_seed)
    bots = []
    for seat, name in enumerate(names):
        if name == AGENT:
            bots.append(AgentSeat(bridge, f"g{game}s{seat}", seat, size, game_seed, spec))
        else:
            bots.append(BOTS[name](seed=game_seed * 31 + seat))
    while not nimmt.is_over(state):
        seat = nimmt.to_act(state)[0]
        if names[seat] == AGENT:
            decision = bots[seat].decide(state)
        else:
            view = nimmt.view(state, seat)
            started = time.process_time()
            decision = bots[seat].decide(view)
            of_seat[seat].cpu_ms.append(1000 * (time.process_time() - started))
        state, _ = nimmt.apply(state, seat, decision)
    result = nimmt.result(state)
    for seat, player in enumerate(of_seat):
        player.shares.append(1 / len(result["winners"]) if seat in result["winners"] else 0.0)
        player.heads.extend(scores[seat] for scores in result["rounds"])
        if names[seat] == AGENT:
            player.cpu_ms.extend(bots[seat].cpu_ms)
            bots[seat].close()


def report(players: list[Player], games: int, seconds: float, spec: str) -> str:
    lines = [
        f"{games} games, 4 players to 66 heads, seats rotated; agent strategy {spec!r}",
        f"{'player':<16} {'win share (95% CI)':<22} {'heads/round (95% CI)':<22} "
        f"{'cpu ms mean':>11} {'cpu ms p95':>10} {'decisions':>9}",
    ]
    seen = set()
    for player in players:
        if id(player) in seen:
            continue
        seen.add(id(player))
        share, share_ci = ci95(player.shares)
        heads, heads_ci = ci95(player.heads)
        lines.append(
            f"{player.name:<16} {f'{100 * share:.1f} ± {100 * share_ci:.1f} %':<22} "
            f"{f'{heads:.2f} ± {heads_ci:.2f}':<22} "
            f"{statistics.fmean(player.cpu_ms):>11.1f} {p95(player.cpu_ms):>10.1f} "
            f"{len(player.cpu_ms):>9}"
        )
    lines.append(f"{seconds:.0f} s wall clock")
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--agent", type=Path, help="a local checkout of 6-nimmt-agent")
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--strategy", default="mcs", help="the agent's strategy, e.g. mcs-prior")
    args = parser.parse_args(argv)
    if args.agent is None or not (args.agent / "src" / "engine").is_dir():
        print(HINT)
        return 0
    heuristics = Player("heuristic (×2)")
    players = [Player("expert"), Player(f"agent {args.strategy}"), heuristics, heuristics]
    bridge = Bridge(args.agent.resolve())
    started = time.perf_counter()
    try:
        for game in range(args.games):
            play(bridge, game, args.seed, args.strategy, players)
            if (game + 1) % 50 == 0:
                print(f"... {game + 1} games", file=sys.stderr, flush=True)
    finally:
        bridge.close()
    print(report(players, args.games, time.perf_counter() - started, args.strategy))
    return 0


if __name__ == "__main__":
    sys.exit(main())
