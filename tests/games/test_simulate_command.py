"""`manage.py simulate` and the plain simulation loop behind it (games/bots/simulate.py)."""

import re
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from games.bots.simulate import format_report, seat_bots, simulate, table_options


def run(*args):
    out = StringIO()
    call_command("simulate", *args, stdout=out)
    return out.getvalue()


def seat_lines(output):
    return [line.split() for line in output.splitlines() if re.match(r"\s+\d+\s+[a-z]", line)]


def test_it_prints_wins_heads_with_ci_wall_and_cpu_time_per_decision_and_speed_per_seat():
    output = run("--players", "3", "--games", "4", "--bots", "heuristic,random", "--seed", "5")
    header = output.splitlines()[1]
    columns = (
        "bot", "won", "shared", "win %", "points/round (95% CI)", "points/game (95% CI)",
        "wall ms", "wall p95", "cpu ms", "cpu p95",
    )  # fmt: skip
    assert all(column in header for column in columns)
    lines = seat_lines(output)
    assert [line[1] for line in lines] == ["heuristic", "random", "heuristic"]  # cycled
    for line in lines:
        assert line[6] == line[9] == "±"  # mean ± half-width of the 95% interval
        float(line[5]), float(line[7]), float(line[8]), float(line[10])
        wall_ms, wall_p95, cpu_ms, cpu_p95 = map(float, line[11:15])
        assert min(wall_ms, wall_p95) > 0 and min(cpu_ms, cpu_p95) >= 0
        # One process deciding on one thread: CPU time never exceeds the wall time.
        assert cpu_ms <= wall_ms + 0.01 and cpu_p95 <= wall_p95 * 1.5 + 0.01
    assert sum(int(line[2]) for line in lines) >= 4  # every game has a winner, maybe shared
    assert re.search(r"\d+ rounds in [\d.]+ s: [\d.]+ rounds per second", output)


def test_it_plays_the_variants_it_is_asked_for():
    output = run(
        "--players", "5", "--games", "2", "--bots", "random", "--rounds", "2",
        "--card-limit", "--draft",
    )  # fmt: skip
    assert "'card_limit': True" in output and "'deal': 'draft'" in output
    assert "'end': 'rounds', 'rounds': 2" in output
    assert "4 rounds in" in output  # 2 games of 2 rounds
    assert len(seat_lines(output)) == 5


def test_the_same_seed_gives_the_same_games():
    def table(seed):
        report = simulate(players=4, games=3, bots=["heuristic", "random"], seed=seed)
        return [(s.wins, s.heads) for s in report.seats]

    assert table(9) == table(9)
    assert table(9) != table(10)


def test_it_refuses_unknown_bots_and_bad_options():
    with pytest.raises(CommandError, match="known bots: random, heuristic, expert"):
        run("--bots", "random,oracle")
    with pytest.raises(CommandError, match="players"):
        run("--players", "11", "--bots", "random")
    with pytest.raises(CommandError, match="threshold"):
        run("--threshold", "0", "--bots", "random")


def test_the_report_counts_shared_wins_as_wins():
    report = simulate(players=2, games=30, bots=["random"], seed=1, options=table_options(rounds=1))
    for stats in report.seats:
        assert stats.shared <= stats.wins
    total = sum(stats.wins for stats in report.seats)
    shared = sum(stats.shared for stats in report.seats)
    assert total == 30 + shared // 2  # a shared win is a win for each of the two seats
    assert "shared" in format_report(report)


def test_short_bot_lists_are_cycled_to_fill_the_table():
    assert seat_bots(["expert", "random"], 5) == ["expert", "random"] * 2 + ["expert"]


def test_six_qui_surprend_reports_each_specials_uses_and_heads_saved():
    """Issue 22: per bot, how often each special was used and the heads it saved."""
    output = run(
        "--game", "surprise", "--games", "3", "--bots", "surprise_heuristic,surprise_random"
    )
    lines = output.splitlines()
    start = lines.index("specials: uses per game per seat / mean heads saved per use")
    header = lines[start + 1].split()
    assert header[1:] == [
        "stop", "glisser", "inserer", "remplacer", "negatif_positif", "5e_serie",
        "7_qui_surprend", "exchange",
    ]  # fmt: skip
    rows = {line.split()[0]: line for line in lines[start + 2 :]}
    assert set(rows) == {"surprise_heuristic", "surprise_random"}
    cells = re.findall(r"(\d+\.\d+) / ([+-]\d+\.\d+|—)", rows["surprise_heuristic"])
    assert len(cells) == 7
    # Négatif = Positif always saves: the heads of the cards it removed.
    uses, saved = cells[4]
    assert float(uses) > 0 and float(saved) > 0
