"""The others can act (issue 31): when a player is away or her time ran out, the other
players present vote to give her seat to the game's strongest bot, at any moment of the
game; a reserved table's organisers replace players themselves. Before the start the
creator frees a player's seat, and that player is told."""

import datetime

import pytest
from asgiref.sync import sync_to_async
from django.test import Client
from django.utils import timezone, translation

from games import clock, engine, kinds, services
from games.models import Decision, Game, Seat, Table
from tests.games import ws
from tests.games.presence import goes_away, seat_of

nimmt = engine.get("nimmt")
STRONGEST = kinds.get("nimmt").strongest_bot


def three_players(alice, bob, carol, *, time_limit=0, reserved=False):
    """Alice, Bob and Carol at a started two-round 6 qui prend ! table, in that order.
    `reserved`: the table is one an app (a league's club night) reserved."""
    table = services.table_create(
        user=alice,
        seats_count=3,
        options={"end": "rounds", "rounds": 2},
        time_limit=time_limit,
    )
    services.seat_join(table_id=table.pk, user=bob)
    services.seat_join(table_id=table.pk, user=carol)
    services.table_start(table_id=table.pk, user=alice)
    if reserved:
        # As a club night's seating leaves it (leagues keeps its seats for its players).
        Table.objects.filter(pk=table.pk).update(reserved=True)
    return table


@pytest.fixture
def carol(make_player):
    return make_player("carol", display_name="Carol")


def state_of(table):
    return nimmt.load(Game.objects.get(table=table).state)


def vote(table, user, position):
    return services.seat_vote_replace(table_id=table.pk, user=user, position=position)


def refusal(table, user, position):
    with pytest.raises(services.ServiceError) as refused:
        vote(table, user, position)
    return refused.value.code


def plays(table, user, position):
    """`user` makes the decisions awaited from her seat now (the first legal one each)."""
    while position in nimmt.to_act(state := state_of(table)):
        decision = nimmt.legal(state, position)[0]
        services.game_decide(table_id=table.pk, user=user, decision=decision)


def clock_plays(table):
    """The awaited seats' time (or the away wait) has long run out: the clock decides."""
    long_ago = timezone.now() - datetime.timedelta(hours=1)
    Game.objects.filter(table=table).update(point_started_at=long_ago, deadline=long_ago)
    assert clock.tick() == 1


def carol_away(alice, bob, carol, **options):
    table = three_players(alice, bob, carol, **options)
    # Her sockets closed for longer than the grace: she is away.
    goes_away(table, carol)
    return table


# --- the service ---------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_majority_of_the_players_present_gives_an_away_seat_to_the_strongest_bot(
    alice, bob, carol
):
    table = carol_away(alice, bob, carol)
    vote(table, alice, 2)
    # One vote of the two players present is no majority: Carol keeps her seat.
    seat = seat_of(table, 2)
    assert (seat.user_id, seat.replace_votes) == (carol.pk, [alice.pk])
    vote(table, bob, 2)
    seat = seat_of(table, 2)
    assert (seat.user_id, seat.bot, seat.away, seat.replace_votes) == (None, STRONGEST, False, [])
    assert STRONGEST == "expert"
    assert not Seat.objects.filter(table=table, user=carol).exists()


@pytest.mark.django_db
def test_alone_with_an_away_player_one_vote_is_the_majority(alice, bob):
    table = services.table_create(user=alice, seats_count=2, options={})
    services.seat_join(table_id=table.pk, user=bob)
    services.table_start(table_id=table.pk, user=alice)
    services.seat_remove(table_id=table.pk, user=bob)
    vote(table, alice, 1)
    assert seat_of(table, 1).bot == STRONGEST


@pytest.mark.django_db
def test_a_player_whose_last_decision_the_clock_took_can_be_voted_on(alice, bob, carol):
    table = three_players(alice, bob, carol, time_limit=30)
    assert refusal(table, alice, 2) == "not_idle"
    plays(table, alice, 0)
    plays(table, bob, 1)
    # Carol's limit (and her time bank) run out: the clock chooses her card.
    clock_plays(table)
    seat = seat_of(table, 2)
    assert (seat.away, seat.timeouts) == (False, 1)
    vote(table, alice, 2)
    vote(table, bob, 2)
    assert seat_of(table, 2).bot == STRONGEST


@pytest.mark.django_db
def test_the_bot_takes_over_in_the_middle_of_a_round(alice, bob, carol):
    table = carol_away(alice, bob, carol)
    # Turn 1 is played, Carol's decisions by the computer (the away wait passed), up to
    # turn 2's choice of cards.
    while not ((state := state_of(table)).turn == 2 and state.phase == "select"):
        if 0 in nimmt.to_act(state):
            services.game_decide(table_id=table.pk, user=alice, decision=nimmt.legal(state, 0)[0])
        elif 1 in nimmt.to_act(state):
            services.game_decide(table_id=table.pk, user=bob, decision=nimmt.legal(state, 1)[0])
        else:
            clock_plays(table)
    plays(table, alice, 0)
    assert 2 in nimmt.to_act(state_of(table))
    version = Game.objects.get(table=table).version
    vote(table, alice, 2)
    vote(table, bob, 2)
    # The bot chose Carol's card of this turn at once, from her seat's view.
    assert 2 not in nimmt.to_act(state_of(table))
    decided = Decision.objects.filter(game__table=table, seat=2, seq__gt=version)
    assert list(decided.values_list("source", flat=True)) == ["bot"]
    while not nimmt.is_over(state_of(table)):
        plays(table, alice, 0)
        plays(table, bob, 1)
    assert seat_of(table, 2).bot == STRONGEST
    assert Table.objects.get(pk=table.pk).status == Table.Status.FINISHED


@pytest.mark.django_db
def test_what_the_computer_chose_for_her_stays_when_the_bot_takes_over(alice, bob, carol):
    table = carol_away(alice, bob, carol)
    plays(table, alice, 0)
    clock_plays(table)  # the away wait passed: the fallback chose Carol's card
    assert nimmt.to_act(state_of(table)) == [1]
    version = Game.objects.get(table=table).version
    vote(table, alice, 2)
    vote(table, bob, 2)
    assert seat_of(table, 2).bot == STRONGEST
    assert Game.objects.get(table=table).version == version


@pytest.mark.django_db
def test_votes_are_refused_where_they_have_no_place(alice, bob, carol, make_player):
    dave = make_player("dave")
    table = three_players(alice, bob, carol)
    assert refusal(table, alice, 1) == "not_idle"  # Bob is at the table
    services.seat_remove(table_id=table.pk, user=carol)
    assert refusal(table, dave, 2) == "not_seated"
    assert refusal(table, carol, 2) == "own_seat"
    assert refusal(table, alice, 7) == "not_idle"  # no such seat
    services.seat_remove(table_id=table.pk, user=bob)
    assert refusal(table, bob, 2) == "away"  # come back first
    vote(table, alice, 1)
    assert seat_of(table, 1).bot == STRONGEST  # alone present, her vote is the majority
    assert refusal(table, alice, 1) == "not_idle"  # a bot's seat now


@pytest.mark.django_db
def test_a_second_vote_of_the_same_player_counts_once(alice, bob, carol, make_player):
    dave = make_player("dave")
    table = services.table_create(user=alice, seats_count=4, options={})
    for user in (bob, carol, dave):
        services.seat_join(table_id=table.pk, user=user)
    services.table_start(table_id=table.pk, user=alice)
    services.seat_remove(table_id=table.pk, user=dave)
    vote(table, alice, 3)
    vote(table, alice, 3)
    # Two votes of three present are needed: Alice's counts once.
    seat = seat_of(table, 3)
    assert (seat.user_id, seat.replace_votes) == (dave.pk, [alice.pk])
    vote(table, carol, 3)
    assert seat_of(table, 3).bot == STRONGEST


@pytest.mark.django_db
def test_no_vote_before_the_game(alice, bob):
    table = services.table_create(user=alice, seats_count=2, options={})
    services.seat_join(table_id=table.pk, user=bob)
    assert refusal(table, alice, 1) == "not_playing"


@pytest.mark.django_db
def test_the_organisers_replace_players_at_a_reserved_table(alice, bob, carol):
    table = carol_away(alice, bob, carol, reserved=True)
    with translation.override("en"), pytest.raises(services.ServiceError) as refused:
        vote(table, alice, 2)
    assert refused.value.code == "reserved"
    assert refused.value.message == "The organisers replace players at this table."
    assert seat_of(table, 2).user_id == carol.pk


@pytest.mark.django_db
def test_the_votes_are_void_when_she_comes_back(alice, bob, carol):
    table = carol_away(alice, bob, carol)
    vote(table, alice, 2)
    services.seat_return(table_id=table.pk, user=carol)
    assert seat_of(table, 2).replace_votes == []
    goes_away(table, carol)
    vote(table, alice, 2)
    # Her own decision brings her back too.
    plays(table, carol, 2)
    seat = seat_of(table, 2)
    assert (seat.away, seat.replace_votes) == (False, [])
    assert refusal(table, bob, 2) == "not_idle"


# --- the page ------------------------------------------------------------------------------


def page(client, user, table):
    client.force_login(user)
    return client.get(f"/tables/{table.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()


@pytest.mark.django_db
def test_the_table_page_offers_the_vote_and_counts_it(client, alice, bob, carol):
    table = carol_away(alice, bob, carol)
    assert "Give Carol's seat to a bot (0 of 2 votes)" in page(client, bob, table)
    assert "Carol is away." in page(client, alice, table)
    client.force_login(alice)
    url = f"/tables/{table.pk}/seats/2/vote/"
    response = client.post(url, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert 'id="notice"' in response.content.decode()
    assert 'data-code=""' in response.content.decode()
    # Alice has voted: the count, no button; Bob may still vote.
    mine = page(client, alice, table)
    assert "Votes to give the seat to a bot: 1 of 2." in mine
    assert "data-vote=" not in mine
    assert "Give Carol's seat to a bot (1 of 2 votes)" in page(client, bob, table)
    # Without htmx: back to the table.
    client.force_login(bob)
    response = client.post(url)
    assert (response.status_code, response.url) == (302, f"/tables/{table.pk}/")
    assert seat_of(table, 2).bot == STRONGEST
    assert "replace-votes" not in page(client, alice, table)


@pytest.mark.django_db
def test_the_vote_view_answers_a_refusal_in_the_notice(client, alice, bob, carol):
    table = three_players(alice, bob, carol)
    client.force_login(alice)
    url = f"/tables/{table.pk}/seats/1/vote/"
    assert client.get(url).status_code == 405
    response = client.post(url, HTTP_HX_REQUEST="true")
    assert 'data-code="not_idle"' in response.content.decode()


@pytest.mark.django_db
def test_no_vote_is_offered_at_a_reserved_table(client, alice, bob, carol):
    table = carol_away(alice, bob, carol, reserved=True)
    assert "replace-votes" not in page(client, bob, table)


# --- before the start: the creator frees a player's seat -------------------------------------


@pytest.mark.django_db(transaction=True)
async def test_the_creator_removes_a_seated_player_whose_page_says_so(alice, bob):
    table = await sync_to_async(services.table_create)(user=alice, seats_count=3, options={})
    await sync_to_async(services.seat_join)(table_id=table.pk, user=bob)
    creator, removed = await ws.watching(table, alice, bob)
    assert 'id="join"' not in removed.frames[-1]
    # The creator's seats offer to remove Bob; she does, as her "Remove" button posts.
    remove = f"/tables/{table.pk}/seats/1/remove/"
    assert f'hx-post="{remove}"' in creator.frames[-1]
    client = Client()
    await sync_to_async(client.force_login)(alice)
    response = await sync_to_async(client.post)(remove, HTTP_HX_REQUEST="true")
    assert 'data-code=""' in response.content.decode()
    frames = await ws.drain(removed)
    notices = [frame for frame in frames if ws.error_code(frame) == "seat_removed"]
    assert notices and "removed you from your seat" in notices[0]
    # His page shows the seats without him, and offers to sit again.
    live = [frame for frame in frames if 'id="live"' in frame]
    assert live and 'id="join"' in live[-1]
    # The creator's own page is not told anything of the kind.
    assert all(ws.error_code(frame) is None for frame in await ws.drain(creator))
    for socket in (creator, removed):
        await socket.disconnect()
