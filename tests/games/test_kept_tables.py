"""A process keeps the live state of a table between its decisions (games.services.kept):
a decision starts from it only while the database still has it, and reads afresh when a
seat, the table or the game changed since, wherever the change was made.

Transactional tests: what a decision keeps is kept once it commits.
"""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import engine, services
from games.models import Decision, Game, Seat, Table
from games.services import kept

pytestmark = pytest.mark.django_db(transaction=True)
nimmt = engine.get("nimmt")


@pytest.fixture
def table(alice, bob, make_player):
    kept.tables.clear()
    carol = make_player("carol", display_name="Carol")
    table = services.table_create(user=alice, seats_count=3, options={})
    services.seat_join(table_id=table.pk, user=bob)
    services.seat_join(table_id=table.pk, user=carol)
    services.table_start(table_id=table.pk, user=alice)
    yield table
    kept.tables.clear()


def hand(table, seat):
    return nimmt.load(Game.objects.get(table=table).state).hands[seat]


def select(table, user, card):
    """Decide, and say whether the game was read afresh under its lock."""
    with CaptureQueriesContext(connection) as queries:
        accepted = services.game_decide(
            table_id=table.pk, user=user, decision={"type": "select", "card": card}
        )
    read = any("FOR UPDATE" in query["sql"] for query in queries.captured_queries)
    return accepted, read, len(queries.captured_queries)


def test_the_next_decision_starts_from_what_the_last_one_kept(table, alice, bob):
    first, read_first, statements_first = select(table, alice, hand(table, 0)[0])
    second, read_second, statements_second = select(table, bob, hand(table, 1)[0])
    assert read_first and not read_second
    assert statements_second == statements_first - 1
    # What it wrote is the same as from a fresh read: both selections, two versions.
    game = Game.objects.get(table=table)
    assert game.version == second.version == first.version + 1 == 2
    state = nimmt.load(game.state)
    assert state.selections[0] and state.selections[1] and not state.selections[2]
    assert list(Decision.objects.filter(game=game).values_list("seq", "seat")) == [(1, 0), (2, 1)]


def test_a_decision_made_in_another_process_is_read_again(table, alice, bob, make_player):
    select(table, alice, hand(table, 0)[0])
    # What this process kept after Alice's decision, while Bob's is made "elsewhere":
    # the process's entry is then one version behind the database.
    behind = kept.tables.take(table.pk)
    bob_card = hand(table, 1)[0]
    select(table, bob, bob_card)
    kept.tables.clear()
    kept.tables.keep(*behind)
    carol = Seat.objects.get(table=table, position=2).user
    accepted, read, _statements = select(table, carol, hand(table, 2)[0])
    assert read
    state = nimmt.load(Game.objects.get(table=table).state)
    # Bob's selection was not lost: the turn was revealed with all three cards.
    assert accepted.version == 3
    assert bob_card not in state.hands[1]
    assert Decision.objects.filter(game__table=table).count() == 3


def test_a_seat_saved_elsewhere_is_read_again(table, alice, bob):
    select(table, alice, hand(table, 0)[0])
    # The admin gives Bob's seat more time: a save, wherever it is made.
    seat = Seat.objects.get(table=table, user=bob)
    seat.bank = 77
    seat.save()
    accepted, read, _statements = select(table, bob, hand(table, 1)[0])
    assert read
    assert [s.bank for s in accepted.seats if s.user_id == bob.pk] == [77]


def test_a_table_abandoned_elsewhere_refuses_the_next_decision(table, alice, bob):
    select(table, alice, hand(table, 0)[0])
    abandoned = Table.objects.get(pk=table.pk)
    abandoned.status = Table.Status.ABANDONED
    abandoned.save(update_fields=["status"])
    with pytest.raises(services.ServiceError) as refused:
        select(table, bob, hand(table, 1)[0])
    assert refused.value.code == "abandoned"
    assert Decision.objects.filter(game__table=table).count() == 1


def test_a_refused_decision_leaves_what_was_kept(table, alice, bob):
    select(table, alice, hand(table, 0)[0])
    not_hers = hand(table, 1)[0]
    with pytest.raises(services.ServiceError) as refused:
        select(table, alice, not_hers)
    assert refused.value.code == "illegal"
    accepted, read, _statements = select(table, bob, not_hers)
    assert not read and accepted.version == 2


def test_a_player_back_from_away_saves_her_seat_and_the_next_decision_reads_again(
    table, alice, bob
):
    select(table, alice, hand(table, 0)[0])
    Seat.objects.filter(table=table, user=bob).update(away=True)  # not a save: no bump
    Game.objects.filter(table=table).update(seats_version=50)  # as a save would
    accepted, read, _statements = select(table, bob, hand(table, 1)[0])
    assert read
    # Her own decision brought her back, and saved her seat: the one kept is behind.
    assert not Seat.objects.get(table=table, user=bob).away
    carol = Seat.objects.get(table=table, position=2).user
    _accepted, read_again, _statements = select(table, carol, hand(table, 2)[0])
    assert read_again
