"""What the table page tells players about what just happened (issue 21): the last turn
of a round stays visible at the next round's start with the round's summary (bug 1), every
take is shown, a 6th card's too (bug 3, RULES §1.4), the game log, the winner's banner."""

import re

import pytest

from games import engine, replays, services
from games.models import Game, Table
from games.nimmt.engine import rules

pytestmark = pytest.mark.django_db
nimmt = engine.get("nimmt")


def section(html, marker):
    """From `marker` (an element's id attribute) to the end of its section."""
    start = html.index(marker)
    return html[start : html.index("</section>", start)]


def play_until(table, user, done):
    """Alice's fallback decisions (a bot holds the other seat) until `done(state)`."""
    for _ in range(500):
        state = nimmt.load(Game.objects.get(table=table).state)
        if done(state):
            return state
        services.game_decide(table_id=table.pk, user=user, decision=nimmt.fallback(state, 0))
    raise AssertionError("never reached")


def against_a_bot(alice, rounds):
    table = services.table_create(
        user=alice, seats_count=2, options={"end": "rounds", "rounds": rounds}
    )
    services.seat_add_bot(table_id=table.pk, user=alice, bot="random")
    services.table_start(table_id=table.pk, user=alice)
    return table


def test_a_new_round_still_shows_the_last_turn_of_the_round_before_and_its_summary(
    alice_client, alice
):
    table = against_a_bot(alice, rounds=2)
    state = play_until(table, alice, lambda s: s.round == 2)
    assert state.turns == () and state.phase == "select"
    html = alice_client.get(f"/tables/{table.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    last = html[html.index('id="last-turn"') :]
    assert "Last turn (round 1, turn 10)" in last
    summary = section(html, 'id="round-summary"')
    assert "End of round 1" in summary
    heads = state.round_scores[0]
    # Both players' heads of round 1 and their totals, the leader marked.
    for value in heads:
        assert f'<td class="num">{value}</td>' in summary
    assert "leads" in summary


def test_a_sixth_card_s_take_shows_who_took_which_row_and_its_heads(alice_client, alice, bob):
    table = services.table_create(user=alice, seats_count=2, options={"end": "rounds", "rounds": 1})
    services.seat_join(table_id=table.pk, user=bob)
    services.table_start(table_id=table.pk, user=alice)
    game = Game.objects.get(table=table)
    state = rules.with_deal(
        nimmt.new_game(players=2, options=nimmt.load(game.state).options, seed=1),
        [10, 30, 50, 70],
        [(11, 12, 13, 14, 15, 81, 82, 83, 84, 85), (31, 32, 33, 34, 35, 91, 92, 93, 94, 95)],
    )
    # Four turns fill row 1 with 10..14 (and row 2 with 30..34); the 5th card of each hand
    # is then a 6th card: 15 takes 10, 11, 12, 13, 14 (RULES 1.4).
    for turn in range(5):
        state, _ = nimmt.apply(state, 0, {"type": "select", "card": 11 + turn})
        state, _ = nimmt.apply(state, 1, {"type": "select", "card": 31 + turn})
    game.state = nimmt.dump(state)
    game.save()
    html = alice_client.get(f"/tables/{table.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    last = section(html, 'id="last-turn"')
    assert re.search(r"Alice .*15.*takes row 1", last, re.S)
    assert re.search(r"Bob .*35.*takes row 2", last, re.S)
    # 10..14: 3+1+1+1+5 heads (11 is a double: 5), 30..34: 3+1+1+5+1 heads (33: 5).
    heads = [nimmt.heads(c) for c in (10, 11, 12, 13, 14)]
    assert f"{sum(heads)} heads" in last
    log = html[html.index('id="log-current"') :]
    assert log.count('class="took"') == 2
    assert "Turn 5" in log


def test_the_log_of_a_finished_game_shows_every_take_the_engine_made(alice_client, alice):
    table = against_a_bot(alice, rounds=2)
    play_until(table, alice, nimmt.is_over)
    game = Game.objects.get(table=table)
    takes = [e for _s, events in replays.rebuild(game) for e in events if e["type"] == "took"]
    assert takes, "a game of two rounds always has takes"
    html = alice_client.get(f"/tables/{table.pk}/log/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'id="log-round-1"' in html and 'id="log-round-2"' in html
    assert html.count('class="took"') == len(takes)
    assert html.count("Turn 10") == 2


def test_a_finished_game_opens_with_the_winner_s_banner(alice_client, alice):
    table = against_a_bot(alice, rounds=1)
    state = play_until(table, alice, nimmt.is_over)
    html = alice_client.get(f"/tables/{table.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    banner = html.index('id="winner-banner"')
    assert banner < html.index('id="rows"')
    names = {0: "Alice", 1: "Random bot"}
    winners = [names[seat] for seat in nimmt.result(state)["winners"]]
    assert ", ".join(winners) in html[banner : html.index("</p>", banner)]


def test_the_log_is_not_shown_to_who_may_not_see_the_table(client, alice, bob):
    table = against_a_bot(alice, rounds=1)
    Table.objects.filter(pk=table.pk).update(is_public=False)
    client.force_login(bob)
    assert client.get(f"/tables/{table.pk}/log/").status_code == 404


def test_a_finished_game_offers_a_rematch_and_then_to_join_it(alice, bob, client):
    table = services.table_create(user=alice, seats_count=2, options={"end": "rounds", "rounds": 1})
    services.seat_join(table_id=table.pk, user=bob)
    services.table_start(table_id=table.pk, user=alice)
    for _ in range(100):
        state = nimmt.load(Game.objects.get(table=table).state)
        if nimmt.is_over(state):
            break
        for seat, user in ((0, alice), (1, bob)):
            if seat in nimmt.to_act(state):
                decision = nimmt.fallback(state, seat)
                services.game_decide(table_id=table.pk, user=user, decision=decision)
                state = nimmt.load(Game.objects.get(table=table).state)
    client.force_login(bob)
    page = client.get(f"/tables/{table.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'id="end-actions"' in page and 'id="rematch"' in page
    rematch = services.table_rematch(table_id=table.pk, user=alice)
    page = client.get(f"/tables/{table.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'id="join-rematch"' in page
    services.rematch_accept(table_id=table.pk, user=bob)
    page = client.get(f"/tables/{table.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert rematch.get_absolute_url() in page and "Go to the rematch" in page
