"""bench/head_to_head.py: the hint without the agent's checkout, the turn history it
gives the agent (the agent's own terms, from public information), and, with a checkout
named by SIXCLUB_AGENT, one game through the bridge."""

import importlib.util
import os
from pathlib import Path

import pytest

from games.nimmt import engine as nimmt
from games.nimmt.bots import HeuristicBot

ROOT = Path(__file__).resolve().parents[2]


def load_bench():
    spec = importlib.util.spec_from_file_location("head_to_head", ROOT / "bench/head_to_head.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_without_a_checkout_it_says_how_to_get_one_and_succeeds(capsys, tmp_path):
    bench = load_bench()
    assert bench.main([]) == 0
    assert bench.main(["--agent", str(tmp_path / "missing")]) == 0
    out = capsys.readouterr().out
    assert out.count("git clone https://github.com/ThingsAI-io/6-nimmt-agent") == 2
    assert "npm ci" in out


def test_the_agents_turn_history_replays_the_rows_and_the_takes():
    bench = load_bench()
    options = nimmt.normalize_options({"end": "rounds", "rounds": 2}, 4)
    state = nimmt.new_game(players=4, options=options, seed=11)
    bots = [HeuristicBot(seed) for seed in range(4)]
    checked = 0
    while not nimmt.is_over(state):
        if state.phase == "select" and state.turns:
            entries = bench.history(state.start_rows, state.turns)
            assert [e["turn"] for e in entries] == list(range(1, len(state.turns) + 1))
            assert entries[-1]["boardAfter"] == [list(row) for row in state.rows]
            for seat, pile in enumerate(state.piles):  # RULES 1.5: what each seat took
                taken = [
                    card
                    for entry in entries
                    for r in entry["resolutions"]
                    if r["playerId"] == f"p{seat}"
                    for card in r.get("collectedCards", ())
                ]
                assert sorted(taken) == sorted(pile)
            checked += 1
        seat = nimmt.to_act(state)[0]
        state, _ = nimmt.apply(state, seat, bots[seat].decide(nimmt.view(state, seat)))
    assert checked >= 18


@pytest.mark.skipif(
    not os.environ.get("SIXCLUB_AGENT"), reason="SIXCLUB_AGENT names no 6-nimmt-agent checkout"
)
def test_one_game_with_the_agent_through_the_bridge():
    bench = load_bench()
    players = [bench.Player(name) for name in ("expert", "agent", "heuristic", "heuristic")]
    bridge = bench.Bridge(Path(os.environ["SIXCLUB_AGENT"]))
    try:
        bench.play(bridge, 1, 5, "mcs", players)
    finally:
        bridge.close()
    agent = players[1]
    assert len(agent.shares) == 1 and agent.heads
    assert len(agent.cpu_ms) >= 10 * len(agent.heads) and min(agent.cpu_ms) >= 0
