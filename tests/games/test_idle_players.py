"""Idle players (issue 21): two decisions in a row taken by the time limit mark a player
away, and the computer then plays for them at once; the creator may give an away
player's seat to a bot between two rounds; the screens learn which seats' cards the
computer played."""

import datetime

import pytest
from django.test import Client
from django.utils import timezone

from games import clock, engine, selectors, services
from games.models import Decision, Game, Seat, Table
from tests.games.presence import seat_of, sources

pytestmark = pytest.mark.django_db
nimmt = engine.get("nimmt")


@pytest.fixture(autouse=True)
def _no_away_wait(settings):
    """Here the computer plays for an away player at once: these tests are about what it
    plays and who may replace her, the away wait is tests/games/test_presence.py's."""
    settings.SIXCLUB_AWAY_WAIT = 0


# A deal (found by trying) where Alice's highest card and Bob's lowest make the first
# three turns resolve without a row to choose: the turns of these tests are known.
SEED = 4


def two_players(alice, bob, *, rounds=1, time_limit=30, seed=SEED):
    table = services.table_create(
        user=alice,
        seats_count=2,
        options={"end": "rounds", "rounds": rounds},
        time_limit=time_limit,
        deal_seed=seed,
    )
    services.seat_join(table_id=table.pk, user=bob)
    services.table_start(table_id=table.pk, user=alice)
    return table


def state_of(table):
    return nimmt.load(Game.objects.get(table=table).state)


def view_of(table):
    return nimmt.view(state_of(table), None)


def alice_plays(table, alice):
    """Alice makes the decisions awaited from her in this turn: her highest card, the
    first row."""
    turn = (view_of(table)["round"], view_of(table)["turn"])
    while 0 in nimmt.to_act(state := state_of(table)) and (state.round, state.turn) == turn:
        if state.phase == "select":
            decision = {"type": "select", "card": state.hands[0][-1]}
        else:
            decision = nimmt.legal(state, 0)[0]
        services.game_decide(table_id=table.pk, user=alice, decision=decision)


def time_runs_out(table):
    """The deadline passes and the clock ticks once."""
    game = Game.objects.get(table=table)
    assert game.deadline is not None
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - datetime.timedelta(seconds=1))
    assert clock.tick() == 1


def test_two_timeouts_in_a_row_mark_the_player_away_and_the_computer_plays_at_once(alice, bob):
    table = two_players(alice, bob)
    alice_plays(table, alice)
    time_runs_out(table)
    bob_seat = seat_of(table, 1)
    assert sources(table, 1) == ["timeout"]
    assert (bob_seat.away, bob_seat.timeouts) == (False, 1)
    # Turn 2: Bob times out again.
    alice_plays(table, alice)
    time_runs_out(table)
    bob_seat = seat_of(table, 1)
    assert bob_seat.away
    assert bob_seat.timeouts == 0
    # Turn 3 opened in the same transaction: Bob's card is chosen at once, not at the
    # end of the time limit; only Alice is waited for.
    assert sources(table, 1) == ["timeout", "timeout", "away"]
    assert nimmt.to_act(state_of(table)) == [0]
    lowest = nimmt.view(state_of(table), 1)["my_selection"]
    assert lowest == min(state_of(table).hands[1])
    # Alice's card ends turn 3; turn 4 is on Bob's card already, and the deadline is hers.
    card = state_of(table).hands[0][-1]
    services.game_decide(table_id=table.pk, user=alice, decision={"type": "select", "card": card})
    assert view_of(table)["turn"] == 4
    assert sources(table, 1) == ["timeout", "timeout", "away", "away"]
    assert nimmt.to_act(state_of(table)) == [0]
    assert Game.objects.get(table=table).deadline is not None


def test_a_decision_of_the_player_between_two_timeouts_keeps_them_at_the_table(alice, bob):
    table = two_players(alice, bob)
    alice_plays(table, alice)
    time_runs_out(table)
    # Bob plays turn 2 himself: the count starts again.
    card = state_of(table).hands[1][-1]
    services.game_decide(table_id=table.pk, user=bob, decision={"type": "select", "card": card})
    assert seat_of(table, 1).timeouts == 0
    alice_plays(table, alice)
    if 1 in nimmt.to_act(state_of(table)) and state_of(table).phase == "choose_row":
        services.game_decide(table_id=table.pk, user=bob, decision={"type": "row", "row": 0})
    alice_plays(table, alice)
    time_runs_out(table)
    bob_seat = seat_of(table, 1)
    assert (bob_seat.away, bob_seat.timeouts) == (False, 1)
    assert sources(table, 1)[-1] == "timeout"


def test_an_away_player_who_comes_back_is_waited_for_again(alice, bob):
    table = two_players(alice, bob)
    for _turn in range(2):
        alice_plays(table, alice)
        time_runs_out(table)
    assert seat_of(table, 1).away
    services.seat_return(table_id=table.pk, user=bob)
    bob_seat = seat_of(table, 1)
    assert (bob_seat.away, bob_seat.timeouts) == (False, 0)
    # Turn 3's card was chosen while he was away; turn 4 waits for him again, and one
    # more timeout does not send him away.
    alice_plays(table, alice)
    assert 1 in nimmt.to_act(state_of(table))
    time_runs_out(table)
    bob_seat = seat_of(table, 1)
    assert (bob_seat.away, bob_seat.timeouts) == (False, 1)


def test_the_own_decision_of_an_away_player_brings_them_back(alice, bob):
    table = two_players(alice, bob)
    for _turn in range(2):
        alice_plays(table, alice)
        time_runs_out(table)
    assert seat_of(table, 1).away
    # Bob changes the card the computer chose for him.
    card = state_of(table).hands[1][-1]
    services.game_decide(table_id=table.pk, user=bob, decision={"type": "select", "card": card})
    assert not seat_of(table, 1).away
    assert nimmt.view(state_of(table), 1)["my_selection"] == card


def test_a_player_alone_with_a_bot_who_times_out_twice_lets_the_computer_finish(alice):
    table = services.table_create(
        user=alice, seats_count=2, options={"end": "rounds", "rounds": 1}, time_limit=30
    )
    services.seat_add_bot(table_id=table.pk, user=alice, bot="random")
    services.table_start(table_id=table.pk, user=alice)
    time_runs_out(table)
    assert seat_of(table, 0).timeouts == 1
    time_runs_out(table)
    # Alice is away: the fallback and the bot play the game out at once.
    assert seat_of(table, 0).away
    assert seat_of(table, 1).timeouts == 0
    assert Table.objects.get(pk=table.pk).status == Table.Status.FINISHED
    assert Game.objects.get(table=table).deadline is None


# --- the cards the computer played, for the screens ---------------------------------------


def marks_of(table):
    return selectors.computer_played_log(Game.objects.get(table=table))


def log_items(table, user):
    """The game log's plays as the table page shows them to `user`: (turn, seat, marked)."""
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(user)
    page = client.get(table.get_absolute_url()).content.decode()
    current = page[page.index('id="log-current"') :]
    items = []
    for turn, block in enumerate(current.split('<ol class="turn-plays">')[1:]):
        block = block[: block.index("</ol>")]
        for item in block.split("<li ")[1:]:
            seat = int(item.split('data-seat="')[1].split('"')[0])
            items.append((turn, seat, "computer</span>" in item))
    return items


def test_the_log_marks_the_cards_the_computer_played_for_a_player(alice, bob, make_player):
    table = two_players(alice, bob)
    assert marks_of(table) == frozenset()
    alice_plays(table, alice)
    # Alice's card is chosen (by her), Bob's by the clock: turn 0's card of seat 1.
    time_runs_out(table)
    assert marks_of(table) == {(0, 1)}
    # Turn 2 by the clock again: Bob is away, and turn 3's card is the computer's at once.
    alice_plays(table, alice)
    time_runs_out(table)
    assert seat_of(table, 1).away
    assert marks_of(table) == {(0, 1), (1, 1)}
    # Bob is back and changes his card before the reveal: it is his own.
    card = state_of(table).hands[1][-1]
    services.game_decide(table_id=table.pk, user=bob, decision={"type": "select", "card": card})
    alice_plays(table, alice)
    assert view_of(table)["turn"] == 4
    assert marks_of(table) == {(0, 1), (1, 1)}
    # The table page's log marks exactly those plays, for a player and a spectator alike.
    expected = [
        (0, 0, False),
        (0, 1, True),
        (1, 0, False),
        (1, 1, True),
        (2, 0, False),
        (2, 1, False),
    ]
    assert sorted(log_items(table, alice)) == expected
    assert sorted(log_items(table, bob)) == expected


def test_a_row_chosen_by_the_clock_marks_that_seats_play_of_the_turn(alice, bob):
    # A deal where Bob's lowest card is too low on turn 1: the clock chooses his row.
    for seed in range(1, 500):
        options = nimmt.normalize_options({"end": "rounds", "rounds": 1}, 2)
        state = nimmt.new_game(players=2, options=options, seed=seed)
        state, _ = nimmt.apply(state, 0, {"type": "select", "card": state.hands[0][-1]})
        state, _ = nimmt.apply(state, 1, nimmt.fallback(state, 1))
        if state.phase == "choose_row" and state.chooser == 1:
            break
    table = two_players(alice, bob, seed=seed)
    card = state_of(table).hands[1][0]
    services.game_decide(table_id=table.pk, user=bob, decision={"type": "select", "card": card})
    alice_plays(table, alice)
    view = view_of(table)
    assert view["revealed"] and view["chooser"] == 1
    # Revealed, his own card: not marked.
    assert marks_of(table) == frozenset()
    time_runs_out(table)
    assert marks_of(table) == {(0, 1)}
    assert sources(table, 1) == ["player", "timeout"]


# --- a bot for an away player, between rounds ----------------------------------------------


def away_in_two_rounds(alice, bob):
    table = two_players(alice, bob, rounds=2, time_limit=0)
    services.seat_remove(table_id=table.pk, user=bob)
    assert seat_of(table, 1).away
    return table


def play_to_round_two(table, alice):
    while view_of(table)["round"] == 1:
        alice_plays(table, alice)
    assert services.between_rounds(view_of(table))


def test_the_creator_gives_an_away_players_seat_to_a_bot_between_rounds(alice, bob):
    table = away_in_two_rounds(alice, bob)
    alice_plays(table, alice)  # turn 1 is played: round 1 is under way
    with pytest.raises(services.ServiceError) as refused:
        services.seat_replace_by_bot(table_id=table.pk, user=alice, position=1, bot="heuristic")
    assert refused.value.code == "not_between_rounds"
    play_to_round_two(table, alice)
    version = Game.objects.get(table=table).version
    seat = services.seat_replace_by_bot(table_id=table.pk, user=alice, position=1, bot="heuristic")
    seat = Seat.objects.get(pk=seat.pk)
    assert (seat.user_id, seat.bot, seat.away, seat.position) == (None, "heuristic", False, 1)
    assert not Seat.objects.filter(table=table, user=bob).exists()
    # The card the fallback chose for Bob in this turn stays; the bot plays from the next.
    assert Game.objects.get(table=table).version == version
    assert nimmt.to_act(state_of(table)) == [0]
    # The bot plays the rest of the game; Bob has nothing left to decide.
    with pytest.raises(services.ServiceError) as not_his:
        services.game_decide(table_id=table.pk, user=bob, decision={"type": "select", "card": 1})
    assert not_his.value.code == "not_seated"
    while not nimmt.is_over(state_of(table)):
        alice_plays(table, alice)
    assert set(
        Decision.objects.filter(game__table=table, seat=1, seq__gt=version).values_list(
            "source", flat=True
        )
    ) == {"bot"}
    assert Table.objects.get(pk=table.pk).status == Table.Status.FINISHED


def test_the_first_turn_of_the_game_is_between_rounds_too(alice, bob):
    table = away_in_two_rounds(alice, bob)
    services.seat_replace_by_bot(table_id=table.pk, user=alice, position=1, bot="random")
    assert seat_of(table, 1).bot == "random"


def test_only_the_creator_replaces_and_only_an_away_player(alice, bob, make_player):
    carol = make_player("carol")
    table = services.table_create(user=alice, seats_count=3, options={"end": "rounds", "rounds": 2})
    services.seat_join(table_id=table.pk, user=bob)
    services.seat_join(table_id=table.pk, user=carol)
    services.table_start(table_id=table.pk, user=alice)
    services.seat_remove(table_id=table.pk, user=carol)

    def refused(user, position, bot="random"):
        with pytest.raises(services.ServiceError) as error:
            services.seat_replace_by_bot(table_id=table.pk, user=user, position=position, bot=bot)
        return error.value.code

    assert refused(bob, 2) == "not_creator"
    assert refused(alice, 1) == "not_away"  # Bob is at the table
    assert refused(alice, 5) == "not_away"  # no such seat
    assert refused(alice, 2, bot="nobody") == "bad_bot"
    services.seat_replace_by_bot(table_id=table.pk, user=alice, position=2, bot="random")
    assert refused(alice, 2) == "not_away"  # a bot's seat now


def test_no_replacement_before_or_after_the_game(alice, bob):
    table = services.table_create(user=alice, seats_count=2, options={"end": "rounds", "rounds": 1})
    services.seat_join(table_id=table.pk, user=bob)
    with pytest.raises(services.ServiceError) as before:
        services.seat_replace_by_bot(table_id=table.pk, user=alice, position=1, bot="random")
    assert before.value.code == "not_playing"


def test_the_replace_view_answers_htmx_with_the_notice(client, alice, bob):
    table = away_in_two_rounds(alice, bob)
    url = f"/tables/{table.pk}/seats/1/bot/"
    client.force_login(bob)
    response = client.post(url, {"bot": "random"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert 'data-code="not_creator"' in response.content.decode()
    client.force_login(alice)
    assert client.get(url).status_code == 405
    response = client.post(url, {"bot": "random"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert 'data-code=""' in response.content.decode()
    assert seat_of(table, 1).bot == "random"
    # Without htmx: back to the table.
    response = client.post(url, {"bot": "random"})
    assert response.status_code == 302
    assert response.url == f"/tables/{table.pk}/"


def test_a_league_game_scores_a_replaced_seat_as_the_bots(alice, bob):
    from leagues.models import League, Membership, Placing, Season, Standing

    league = League.objects.create(name="Club", slug="club")
    for user in (alice, bob):
        Membership.objects.create(league=league, user=user, status=Membership.Status.ACTIVE)
    season = Season.objects.create(
        league=league,
        name="2026",
        starts_on=timezone.localdate() - datetime.timedelta(days=1),
        min_games=1,
    )
    table = services.table_create(
        user=alice, seats_count=2, options={"end": "rounds", "rounds": 2}, season=season
    )
    services.seat_join(table_id=table.pk, user=bob)
    services.table_start(table_id=table.pk, user=alice)
    services.seat_remove(table_id=table.pk, user=bob)
    play_to_round_two(table, alice)
    services.seat_replace_by_bot(table_id=table.pk, user=alice, position=1, bot="expert")
    while not nimmt.is_over(state_of(table)):
        alice_plays(table, alice)
    # Bob keeps nothing of the seat: no result, no standing; Alice's game counts.
    assert not Placing.objects.filter(user=bob).exists()
    assert not Standing.objects.filter(user=bob).exists()
    assert Standing.objects.get(season=season, user=alice).games == 1
    assert Placing.objects.filter(user=alice).count() == 1


def test_between_rounds_is_the_draft_and_the_first_turn_before_its_reveal():
    options = nimmt.normalize_options({"end": "rounds", "rounds": 2, "deal": "draft"}, 2)
    state = nimmt.new_game(players=2, options=options, seed=SEED)
    assert nimmt.view(state, None)["phase"] == "draft"
    while state.phase == "draft":
        assert services.between_rounds(nimmt.view(state, None))
        (seat,) = nimmt.to_act(state)
        state, _ = nimmt.apply(state, seat, nimmt.fallback(state, seat))
    # Rows laid, turn 1: a choice made is not revealed yet.
    state, _ = nimmt.apply(state, 0, nimmt.fallback(state, 0))
    assert services.between_rounds(nimmt.view(state, None))
    state, _ = nimmt.apply(state, 1, nimmt.fallback(state, 1))
    while state.phase == "choose_row":
        assert not services.between_rounds(nimmt.view(state, None))
        state, _ = nimmt.apply(state, state.chooser, nimmt.fallback(state, state.chooser))
    assert nimmt.view(state, None)["turn"] == 2
    assert not services.between_rounds(nimmt.view(state, None))
