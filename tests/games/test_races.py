"""Concurrent requests for the same thing: exactly one wins, the others get a clear answer.

Each contender runs in its own thread with its own database connection, released together
by a barrier, so on PostgreSQL the row locks of games.services really are what decides.
"""

import datetime
import threading

import pytest
from django.conf import settings
from django.db import connection

from games import engine, services
from games.models import Decision, Game, Seat

pytestmark = pytest.mark.django_db(transaction=True)
nimmt = engine.get("nimmt")


def race(*calls):
    """Run the calls at the same moment; returns each one's result or ServiceError."""
    barrier = threading.Barrier(len(calls))
    outcomes = [None] * len(calls)

    def run(index, call):
        try:
            barrier.wait()
            outcomes[index] = call()
        except services.ServiceError as error:
            outcomes[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, call)) for i, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return outcomes


@pytest.mark.parametrize("attempt", range(3))
def test_two_players_race_for_the_last_seat(alice, bob, make_player, attempt):
    carol, dave = make_player("carol"), make_player("dave")
    table = services.table_create(user=alice, seats_count=3, options={})
    services.seat_join(table_id=table.pk, user=bob)
    outcomes = race(
        lambda: services.seat_join(table_id=table.pk, user=carol),
        lambda: services.seat_join(table_id=table.pk, user=dave),
    )
    refused = [o for o in outcomes if isinstance(o, services.ServiceError)]
    assert len(refused) == 1 and refused[0].code == "table_full"
    assert Seat.objects.filter(table=table).count() == 3
    assert sorted(Seat.objects.filter(table=table).values_list("position", flat=True)) == [0, 1, 2]


@pytest.mark.parametrize("attempt", range(3))
def test_two_start_clicks_deal_once(alice, bob, attempt):
    table = services.table_create(user=alice, seats_count=2, options={})
    services.seat_join(table_id=table.pk, user=bob)
    outcomes = race(
        lambda: services.table_start(table_id=table.pk, user=alice),
        lambda: services.table_start(table_id=table.pk, user=alice),
    )
    refused = [o for o in outcomes if isinstance(o, services.ServiceError)]
    assert len(refused) == 1 and refused[0].code == "not_open"
    assert Game.objects.filter(table=table).count() == 1


def test_a_burst_of_duplicate_submissions_is_applied_once(alice, bob):
    table = services.table_create(user=alice, seats_count=2, options={})
    services.seat_join(table_id=table.pk, user=bob)
    services.table_start(table_id=table.pk, user=alice)
    card = nimmt.load(Game.objects.get(table=table).state).hands[0][0]

    def submit():
        return services.game_decide(
            table_id=table.pk,
            user=alice,
            decision={"type": "select", "card": card},
            client_id="same-message",
        )

    outcomes = race(*[submit] * 6)
    assert all(isinstance(o, services.Accepted) for o in outcomes), outcomes
    assert sum(not o.duplicate for o in outcomes) == 1
    assert Decision.objects.filter(seat=0).count() == 1
    assert {o.version for o in outcomes} == {1}


def test_concurrent_different_submissions_for_one_seat_are_serialised(alice, bob):
    table = services.table_create(user=alice, seats_count=2, options={})
    services.seat_join(table_id=table.pk, user=bob)
    services.table_start(table_id=table.pk, user=alice)
    hand = nimmt.load(Game.objects.get(table=table).state).hands[0]

    def submit(card, key):
        return lambda: services.game_decide(
            table_id=table.pk, user=alice, decision={"type": "select", "card": card}, client_id=key
        )

    outcomes = race(*[submit(card, f"m{card}") for card in hand[:5]])
    assert all(isinstance(o, services.Accepted) for o in outcomes), outcomes
    # Each change of selection is its own version, none lost, none twice (RULES 1.3).
    assert sorted(o.version for o in outcomes) == [1, 2, 3, 4, 5]
    game = Game.objects.get(table=table)
    last = Decision.objects.get(game=game, seq=5).payload["card"]
    assert nimmt.view(nimmt.load(game.state), 0)["my_selection"] == last


def test_a_player_and_the_clock_race_and_the_turn_is_decided_once(alice, bob):
    from django.utils import timezone

    table = services.table_create(user=alice, seats_count=2, options={}, time_limit=15)
    services.seat_join(table_id=table.pk, user=bob)
    services.table_start(table_id=table.pk, user=alice)
    game = Game.objects.get(table=table)
    hand = nimmt.load(game.state).hands[0]
    # Time is data: the turn opened longer ago than the limit and the time banks.
    opened = timezone.now() - datetime.timedelta(seconds=15 + settings.SIXCLUB_TIME_BANK)
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now(), point_started_at=opened)
    outcomes = race(
        lambda: services.game_decide(
            table_id=table.pk,
            user=alice,
            decision={"type": "select", "card": hand[-1]},
            seen_version=game.version,
        ),
        lambda: services.game_timeout(game_id=game.pk),
    )
    # A clock that found the game locked skipped it (SKIP LOCKED): its next tick comes.
    services.game_timeout(game_id=game.pk)
    # Whoever came second found turn 1 decided: Alice's click is refused as stale rather
    # than played on turn 2, or the clock only played Bob's fallback.
    assert Decision.objects.filter(game=game, seat=0).count() == 1
    assert Decision.objects.filter(game=game, seat=1).count() == 1
    if isinstance(outcomes[0], services.ServiceError):
        assert outcomes[0].code == "stale"
        assert Decision.objects.get(game=game, seat=0).source == "timeout"
    else:
        assert Decision.objects.get(game=game, seat=0).payload["card"] == hand[-1]
