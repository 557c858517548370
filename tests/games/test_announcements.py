"""What a table's frame says in words for screen readers (issue 31, "Keyboard and screen
readers"): each game's `announce` partial, a hidden #announce-text at the end of #live
whose lines (each with its data-key) the page reads out once in its polite live region;
and the names of the board's rows and cards."""

import re

import pytest

from games import engine, rendering, services
from games.models import Game

pytestmark = pytest.mark.django_db


def announced(frame: str) -> list[tuple[str, str]]:
    match = re.search(r'<div id="announce-text" hidden>(.*?)</div>', frame, re.S)
    assert match, "no #announce-text in the frame"
    return re.findall(r'<p data-key="([^"]+)">(.*?)</p>', match.group(1), re.S)


def table_with_bots(alice, kind, options, bots, seed=4):
    table = services.table_create(
        user=alice,
        kind=kind,
        seats_count=1 + len(bots),
        options=options,
        time_limit=0,
        deal_seed=seed,
    )
    for bot in bots:
        services.seat_add_bot(table_id=table.pk, user=alice, bot=bot)
    services.table_start(table_id=table.pk, user=alice)
    return table


def answer(table, alice, kind, decisions):
    """Alice makes `decisions` decisions (her game's fallback), the bots answer at once."""
    game_engine = engine.get(kind)
    for _ in range(decisions):
        state = game_engine.load(Game.objects.get(table=table).state)
        services.game_decide(table_id=table.pk, user=alice, decision=game_engine.fallback(state, 0))


def test_a_turn_of_6_qui_prend_is_said_play_by_play_and_the_rows_and_cards_have_names(alice):
    table = table_with_bots(alice, "nimmt", {"end": "rounds", "rounds": 1}, ["random", "random"])
    frame = rendering.live_frame(rendering.read_snapshot(table.pk), alice, "en")
    assert announced(frame) == []  # nothing played yet
    answer(table, alice, "nimmt", 1)
    frame = rendering.live_frame(rendering.read_snapshot(table.pk), alice, "en")
    lines = announced(frame)
    if lines and lines[0][0].startswith("revealed-"):  # Alice's card took a row to choose
        assert re.fullmatch(r"Cards revealed: .* is choosing a row\.", lines[0][1]), lines
    else:
        assert [key for key, _ in lines] == ["1-1-1", "1-1-2", "1-1-3"]
        for _key, text in lines:
            assert re.fullmatch(
                r"\w[\w ]* plays \d+ (on row [1-4]|and takes row [1-4]: \d+ heads?)\.", text
            ), text
    rows = re.findall(
        r'<div class="row[^"]*" data-row="(\d)" role="group" aria-label="([^"]+)"', frame
    )
    assert [number for number, _ in rows] == ["1", "2", "3", "4"]
    for number, label in rows:
        assert re.fullmatch(rf"Row {number}: \d+(, \d+)*; \d+ heads?", label), label
    assert re.search(
        r'<span class="card h\d" title="\d+" role="img" aria-label="\d+, \d heads?">', frame
    )


def test_a_play_of_six_is_said_with_the_cards_name(alice):
    table = table_with_bots(alice, "six", {"deck": 40, "target": 30}, ["six_random", "six_random"])
    answer(table, alice, "six", 2)
    frame = rendering.live_frame(rendering.read_snapshot(table.pk), alice, "en")
    lines = announced(frame)
    assert lines, "no play said"
    for _key, text in lines:
        assert re.fullmatch(
            r"\w[\w ]* (plays (\d+|sota|caballo|rey) of (oros|copas|espadas|bastos)|passes)\.", text
        ), text
    assert len({key for key, _ in lines}) == len(lines)
    assert re.search(
        r'class="scard s-\w+" title="[^"]+" data-card="[^"]+" role="img" aria-label="\w+ of \w+"',
        frame,
    )


def test_a_turn_of_6_qui_surprend_is_said_as_its_log_says_it(alice):
    table = table_with_bots(
        alice, "surprise", {"live_scores": True}, ["surprise_heuristic", "surprise_heuristic"]
    )
    answer(table, alice, "surprise", 1)
    frame = rendering.live_frame(rendering.read_snapshot(table.pk), alice, "en")
    lines = announced(frame)
    assert lines, "nothing said of the turn"
    keys = [key for key, _ in lines]
    assert len(set(keys)) == len(keys)
    assert all(re.fullmatch(r"1-1-\d+", key) for key in keys), keys
    assert all(text.strip() for _, text in lines)
