"""A decision whose `version` is ahead of the game is refused like a stale one (issue 29).

docs/protocol.md, "Client → server": `version` is the version the player's screen shows.
A version the game has not reached was never on any screen: the decision is refused as
`stale`, and nothing changes.
"""

import pytest
from asgiref.sync import sync_to_async

from games import engine, services
from games.models import Decision, Game
from tests.games import ws
from tests.games.ws import ack_version, error_code, game_state, setup_table

nimmt = engine.get("nimmt")


def _started(alice, bob):
    table = services.table_create(user=alice, seats_count=2, options={"end": "rounds", "rounds": 1})
    services.seat_join(table_id=table.pk, user=bob)
    services.table_start(table_id=table.pk, user=alice)
    return table


def _state(table):
    return nimmt.load(Game.objects.get(table=table).state)


@pytest.mark.django_db
@pytest.mark.parametrize("ahead", [1, 2, 1000])
def test_a_decision_from_a_version_not_reached_yet_is_stale(alice, bob, ahead):
    table = _started(alice, bob)
    card = nimmt.view(_state(table), 0)["hand"][0]
    services.game_decide(table_id=table.pk, user=bob, decision=nimmt.legal(_state(table), 1)[0])
    before = Game.objects.get(table=table)
    with pytest.raises(services.ServiceError) as refused:
        services.game_decide(
            table_id=table.pk,
            user=alice,
            decision={"type": "select", "card": card},
            seen_version=before.version + ahead,
        )
    assert refused.value.code == "stale"
    after = Game.objects.get(table=table)
    assert (after.version, after.state) == (before.version, before.state)
    assert Decision.objects.filter(game=after).count() == 1


@pytest.mark.django_db
def test_the_current_version_and_the_decision_point_s_own_are_accepted(alice, bob):
    # Within one decision point every version from its opening to the current one is on
    # some screen: Bob's selection moved the version, Alice's screen may still show 0.
    table = _started(alice, bob)
    services.game_decide(
        table_id=table.pk, user=bob, decision=nimmt.legal(_state(table), 1)[0], seen_version=0
    )
    accepted = services.game_decide(
        table_id=table.pk, user=alice, decision=nimmt.legal(_state(table), 0)[0], seen_version=0
    )
    assert accepted.version == Game.objects.get(table=table).version >= 2


@pytest.mark.django_db(transaction=True)
async def test_over_a_socket_a_version_ahead_is_answered_stale(alice, bob):
    table = await setup_table(alice, others=[bob])
    communicator = await ws.connect(f"/ws/tables/{table.pk}/", alice)
    assert ws.live_version(await ws.receive(communicator)) == 0
    hand = (await game_state(table)).hands[0]

    await ws.send(communicator, type="select", card=hand[0], id="a1", version=1)
    frame = await ws.receive(communicator)
    assert error_code(frame) == "stale", frame
    assert 'data-request="a1"' in frame
    assert await sync_to_async(Decision.objects.filter(game__table=table).count)() == 0
    assert (await game_state(table)).version == 0

    # The socket stays open, and the version its screen shows is accepted.
    await ws.send(communicator, type="select", card=hand[0], id="a2", version=0)
    assert ack_version(await ws.receive(communicator)) == 1
    await communicator.disconnect()
