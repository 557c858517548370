"""Rematch (issue 21): once a game is over its players may play again at a new table
like it, its bots at their seats, each player sitting when they accept."""

import datetime

import pytest
from django.template.loader import get_template
from django.utils import timezone

from games import engine, selectors, services
from games.models import Game, Seat, Table

pytestmark = pytest.mark.django_db
nimmt = engine.get("nimmt")


@pytest.fixture
def carol(make_player):
    return make_player("carol", display_name="Carol")


def table_of_three(alice, bob, **extra):
    """Alice, a heuristic bot and Bob, in that order, at a table with every option set."""
    table = services.table_create(
        user=alice,
        seats_count=4,
        options={"end": "rounds", "rounds": 1, "card_limit": True, "live_scores": False},
        time_limit=60,
        is_public=False,
        show_played=True,
        name="Mardi soir",
        **extra,
    )
    services.seat_add_bot(table_id=table.pk, user=alice, bot="heuristic")
    services.seat_join(table_id=table.pk, user=bob, invite_code=table.invite_code)
    services.table_start(table_id=table.pk, user=alice)
    return Table.objects.get(pk=table.pk)


def play_until_over(table):
    by_seat = {seat.position: seat.user for seat in table.seats.all() if seat.user_id}
    for _ in range(500):
        state = nimmt.load(Game.objects.get(table=table).state)
        if nimmt.is_over(state):
            return Table.objects.get(pk=table.pk)
        seat = next(s for s in nimmt.to_act(state) if s in by_seat)
        services.game_decide(
            table_id=table.pk, user=by_seat[seat], decision=nimmt.legal(state, seat)[0]
        )
    raise AssertionError("the game did not end")


@pytest.fixture
def finished(alice, bob):
    return play_until_over(table_of_three(alice, bob))


def seats_of(table):
    return {
        seat.position: seat.user or seat.bot for seat in Table.objects.get(pk=table.pk).seats.all()
    }


def test_a_rematch_is_a_table_like_the_finished_one_with_its_bots_and_the_asker(
    finished, alice, bob
):
    from leagues.models import season_of

    assert seats_of(finished) == {0: alice, 1: "heuristic", 2: bob}
    new = services.table_rematch(table_id=finished.pk, user=bob)
    assert new.pk != finished.pk
    same = ("kind", "seats_count", "options", "time_limit", "is_public", "show_played", "name")
    assert {f: getattr(new, f) for f in same} == {f: getattr(finished, f) for f in same}
    assert new.status == Table.Status.OPEN
    assert new.created_by == bob  # the asker runs the new table (bots, start)
    assert new.invite_code != finished.invite_code
    assert season_of(new) is None and new.deal_seed is None
    # The bot at its seat, Bob at his; Alice's seat waits for her.
    assert seats_of(new) == {1: "heuristic", 2: bob}
    assert Table.objects.get(pk=finished.pk).rematch == new


def test_the_others_sit_when_they_accept_and_asking_again_is_the_same_table(finished, alice, bob):
    new = services.table_rematch(table_id=finished.pk, user=alice)
    assert services.table_rematch(table_id=finished.pk, user=alice) == new
    assert seats_of(new) == {0: alice, 1: "heuristic"}
    assert services.rematch_accept(table_id=finished.pk, user=bob) == new
    assert services.rematch_accept(table_id=finished.pk, user=bob) == new
    assert seats_of(new) == {0: alice, 1: "heuristic", 2: bob}
    assert Table.objects.filter(rematch_of__isnull=False).count() == 1
    # Bob asking for a rematch now is accepting it: the same table.
    assert services.table_rematch(table_id=finished.pk, user=bob) == new
    assert Seat.objects.filter(table=new).count() == 3


def test_a_player_whose_old_seat_was_taken_sits_at_a_free_one(finished, alice, bob, carol):
    new = services.table_rematch(table_id=finished.pk, user=alice)
    services.seat_join(table_id=new.pk, user=carol, invite_code=new.invite_code)
    assert seats_of(new) == {0: alice, 1: "heuristic", 2: carol}
    services.rematch_accept(table_id=finished.pk, user=bob)
    assert seats_of(new) == {0: alice, 1: "heuristic", 2: carol, 3: bob}


def test_only_the_players_of_a_finished_table_ask(alice, bob, carol):
    table = table_of_three(alice, bob)
    with pytest.raises(services.ServiceError) as early:
        services.table_rematch(table_id=table.pk, user=alice)
    assert early.value.code == "not_over"
    finished = play_until_over(table)
    with pytest.raises(services.ServiceError) as stranger:
        services.table_rematch(table_id=finished.pk, user=carol)
    assert stranger.value.code == "not_player"
    with pytest.raises(services.ServiceError) as nothing_yet:
        services.rematch_accept(table_id=finished.pk, user=bob)
    assert nothing_yet.value.code == "no_rematch"
    services.table_rematch(table_id=finished.pk, user=alice)
    with pytest.raises(services.ServiceError) as stranger_accepts:
        services.rematch_accept(table_id=finished.pk, user=carol)
    assert stranger_accepts.value.code == "not_player"
    assert Table.objects.count() == 2


def test_a_rematch_already_started_is_not_joined(finished, alice, bob):
    new = services.table_rematch(table_id=finished.pk, user=alice)
    services.table_start(table_id=new.pk, user=alice)
    with pytest.raises(services.ServiceError) as late:
        services.rematch_accept(table_id=finished.pk, user=bob)
    assert late.value.code == "not_open"


def test_a_league_rematch_stays_in_its_season_while_it_is_open(alice, bob):
    from leagues.models import League, Membership, Season, season_of

    league = League.objects.create(name="Club", slug="club")
    for user in (alice, bob):
        Membership.objects.create(league=league, user=user, status=Membership.Status.ACTIVE)
    season = Season.objects.create(
        league=league, name="2026", starts_on=timezone.localdate() - datetime.timedelta(days=1)
    )
    first = play_until_over(table_of_three(alice, bob, season=season))
    assert season_of(services.table_rematch(table_id=first.pk, user=alice)) == season
    second = play_until_over(table_of_three(alice, bob, season=season))
    season.closed = True
    season.save()
    # A closed season takes no new table: the rematch is a friendly game.
    assert season_of(services.table_rematch(table_id=second.pk, user=alice)) is None


# --- views -------------------------------------------------------------------------------


def test_htmx_goes_to_the_new_table_and_a_plain_post_is_redirected(client, finished, alice, bob):
    client.force_login(bob)
    response = client.post(f"/tables/{finished.pk}/rematch/", HTTP_HX_REQUEST="true")
    new = Table.objects.get(pk=finished.pk).rematch
    assert response.status_code == 200
    assert response["HX-Redirect"] == f"/tables/{new.pk}/"
    client.force_login(alice)
    response = client.post(f"/tables/{finished.pk}/rematch/accept/")
    assert response.status_code == 302
    assert response.url == f"/tables/{new.pk}/"
    assert seats_of(new) == {0: alice, 1: "heuristic", 2: bob}
    # The new table's page shows to both (it is private: they sit there).
    assert client.get(response.url).status_code == 200


def test_a_refusal_comes_back_as_the_notice(client, alice, bob, carol):
    table = table_of_three(alice, bob)
    client.force_login(alice)
    response = client.post(
        f"/tables/{table.pk}/rematch/", HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE="en"
    )
    assert response.status_code == 200
    assert 'data-code="not_over"' in response.content.decode()
    assert "HX-Redirect" not in response
    response = client.post(f"/tables/{table.pk}/rematch/")
    assert response.status_code == 302 and response.url == f"/tables/{table.pk}/"
    assert client.get(f"/tables/{table.pk}/rematch/").status_code == 405
    client.force_login(carol)
    response = client.post(f"/tables/{table.pk}/rematch/accept/", HTTP_HX_REQUEST="true")
    assert 'data-code="not_player"' in response.content.decode()


def end_actions(table, user, csrf_token="token"):
    table = Table.objects.get(pk=table.pk)
    context = {
        "table": table,
        "my_seat": table.seats.filter(user=user).first(),
        "csrf_token": csrf_token,
        **selectors.rematch_state(table, user),
    }
    return get_template("games/live.html#end_actions").render(context)


def test_the_end_actions_offer_a_rematch_then_to_join_it(finished, alice, bob, carol):
    html = end_actions(finished, alice)
    assert f'action="/tables/{finished.pk}/rematch/"' in html
    assert 'href="/tables/"' in html  # back to the lobby
    assert "rematch/accept" not in html
    # A player's way to her review (games.reviews), which the table's page shows.
    assert f'href="/tables/{finished.pk}/?review#review"' in html
    # A spectator: only the way back to the lobby.
    assert "<form" not in end_actions(finished, carol)
    assert "review" not in end_actions(finished, carol)
    new = services.table_rematch(table_id=finished.pk, user=alice)
    assert f'href="/tables/{new.pk}/"' in end_actions(finished, alice)
    html = end_actions(finished, bob)
    assert f'action="/tables/{finished.pk}/rematch/accept/"' in html
    assert 'id="join-rematch"' in html
    # The rematch is private, as the table was: no link for a spectator.
    assert f"/tables/{new.pk}/" not in end_actions(finished, carol)
    services.rematch_accept(table_id=finished.pk, user=bob)
    assert f'href="/tables/{new.pk}/"' in end_actions(finished, bob)


def test_the_end_actions_draw_nothing_during_the_game(alice, bob):
    table = table_of_three(alice, bob)
    assert end_actions(table, alice).strip() == ""


def test_rematch_state_reads_one_query(finished, alice, bob, django_assert_num_queries):
    services.table_rematch(table_id=finished.pk, user=alice)
    table = Table.objects.get(pk=finished.pk)
    with django_assert_num_queries(1):
        state = selectors.rematch_state(table, bob)
    assert state["rematch_table"] == table.rematch and not state["in_rematch"]
    with django_assert_num_queries(1):
        assert selectors.rematch_state(table, alice)["in_rematch"]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("attempt", range(3))
def test_two_players_ask_at_once_and_one_table_is_made(alice, bob, attempt):
    from tests.games.test_races import race

    finished = play_until_over(table_of_three(alice, bob))
    outcomes = race(
        lambda: services.table_rematch(table_id=finished.pk, user=alice),
        lambda: services.table_rematch(table_id=finished.pk, user=bob),
    )
    assert all(isinstance(o, Table) for o in outcomes), outcomes
    assert outcomes[0].pk == outcomes[1].pk
    assert Table.objects.count() == 2
    assert seats_of(outcomes[0]) == {0: alice, 1: "heuristic", 2: bob}


def test_rematch_seats_serve_every_viewer_of_a_snapshot(
    finished, alice, bob, django_assert_num_queries
):
    table = Table.objects.get(pk=finished.pk)
    with django_assert_num_queries(0):
        assert selectors.rematch_seats(table) == (None, frozenset())
    new = services.table_rematch(table_id=finished.pk, user=alice)
    table = Table.objects.get(pk=finished.pk)
    with django_assert_num_queries(2):
        assert selectors.rematch_seats(table) == (new, frozenset({alice.pk}))
