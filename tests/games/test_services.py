import asyncio

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.layers import get_channel_layer

from games import engine, services
from games.models import Decision, Game, RoundScore, Seat, Table, TakenCard

pytestmark = pytest.mark.django_db
nimmt = engine.get("nimmt")


def new_table(user, seats=3, **options):
    options.setdefault("end", "rounds")
    options.setdefault("rounds", 1)
    return services.table_create(user=user, seats_count=seats, options=options)


def state_of(table):
    return nimmt.load(Game.objects.get(table=table).state)


def play_until_over(table, users):
    """Every human plays their lowest legal decision until the game ends."""
    by_seat = {seat.position: seat.user for seat in table.seats.all() if seat.user_id}
    for _ in range(2000):
        state = state_of(table)
        if nimmt.is_over(state):
            return state
        seat = next(s for s in nimmt.to_act(state) if s in by_seat)
        decision = nimmt.legal(state, seat)[0]
        services.game_decide(table_id=table.pk, user=by_seat[seat], decision=decision)
    raise AssertionError("the game did not end")


def test_a_player_and_two_bots_play_a_round_to_the_score_sheet(alice):
    table = new_table(alice)
    services.seat_add_bot(table_id=table.pk, user=alice, bot="random")
    services.seat_add_bot(table_id=table.pk, user=alice, bot="heuristic")
    services.table_start(table_id=table.pk, user=alice)
    state = play_until_over(table, [alice])
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    game = table.game
    assert game.result == nimmt.result(state)
    # The score sheet and the picked-up piles are derived from the same decisions.
    sheet = {(s.round, s.seat): s.heads for s in RoundScore.objects.filter(game=game)}
    assert sheet == {(1, seat): heads for seat, heads in enumerate(state.round_scores[0])}
    for seat in range(3):
        taken = TakenCard.objects.filter(game=game, seat=seat)
        assert sum(t.heads for t in taken) == state.round_scores[0][seat]
    # The log is the whole game: ten selections per seat, plus the row choices.
    assert game.decisions.filter(payload__type="select").count() == 30
    assert game.version == game.decisions.count()


def test_an_illegal_decision_is_refused_and_changes_nothing(alice, bob):
    table = new_table(alice, seats=2)
    services.seat_join(table_id=table.pk, user=bob)
    services.table_start(table_id=table.pk, user=alice)
    before = Game.objects.get(table=table)
    hand = nimmt.view(state_of(table), 0)["hand"]
    missing = next(card for card in range(1, 105) if card not in hand)
    with pytest.raises(services.ServiceError) as refused:
        services.game_decide(
            table_id=table.pk, user=alice, decision={"type": "select", "card": missing}
        )
    assert refused.value.code == "illegal"
    assert f"{missing}" in refused.value.message
    after = Game.objects.get(table=table)
    assert (after.version, after.state) == (before.version, before.state)
    assert not Decision.objects.exists()


def test_someone_without_a_seat_cannot_decide(alice, bob, make_player):
    carol = make_player("carol")
    table = new_table(alice, seats=2)
    services.seat_join(table_id=table.pk, user=bob)
    services.table_start(table_id=table.pk, user=alice)
    with pytest.raises(services.ServiceError) as refused:
        services.game_decide(table_id=table.pk, user=carol, decision={"type": "select", "card": 1})
    assert refused.value.code == "not_seated"


def test_a_resent_decision_is_applied_once(alice, bob):
    table = new_table(alice, seats=2)
    services.seat_join(table_id=table.pk, user=bob)
    services.table_start(table_id=table.pk, user=alice)
    card = nimmt.view(state_of(table), 0)["hand"][0]
    first = services.game_decide(
        table_id=table.pk, user=alice, decision={"type": "select", "card": card}, client_id="m1"
    )
    again = services.game_decide(
        table_id=table.pk, user=alice, decision={"type": "select", "card": card}, client_id="m1"
    )
    assert again.duplicate and again.version == first.version
    assert Decision.objects.count() == 1


def test_a_decision_from_an_old_screen_is_stale(alice, bob):
    table = new_table(alice, seats=2)
    services.seat_join(table_id=table.pk, user=bob)
    services.table_start(table_id=table.pk, user=alice)
    old_version = Game.objects.get(table=table).version
    for user, seat in ((alice, 0), (bob, 1)):
        card = nimmt.view(state_of(table), seat)["hand"][-1]
        services.game_decide(
            table_id=table.pk, user=user, decision={"type": "select", "card": card}
        )
    state = state_of(table)
    if state.phase == "choose_row":
        chooser = alice if nimmt.to_act(state) == [0] else bob
        services.game_decide(table_id=table.pk, user=chooser, decision={"type": "row", "row": 0})
        state = state_of(table)
    assert (state.phase, state.turn) == ("select", 2)
    card = nimmt.view(state, 0)["hand"][0]
    with pytest.raises(services.ServiceError) as refused:
        services.game_decide(
            table_id=table.pk,
            user=alice,
            decision={"type": "select", "card": card},
            seen_version=old_version,
        )
    assert refused.value.code == "stale"


def test_the_last_seat_goes_to_one_player_only(alice, bob, make_player):
    table = new_table(alice, seats=2)
    services.seat_join(table_id=table.pk, user=bob)
    with pytest.raises(services.ServiceError) as refused:
        services.seat_join(table_id=table.pk, user=make_player("carol"))
    assert refused.value.code == "table_full"
    assert Seat.objects.filter(table=table).count() == 2


def test_a_private_table_needs_its_invite_code(alice, bob):
    table = services.table_create(
        user=alice, seats_count=3, options={"end": "rounds", "rounds": 1}, is_public=False
    )
    with pytest.raises(services.ServiceError) as refused:
        services.seat_join(table_id=table.pk, user=bob)
    assert refused.value.code == "private"
    services.seat_join(table_id=table.pk, user=bob, invite_code=table.invite_code)
    assert table.seats.filter(user=bob).exists()


def test_only_the_creator_starts_and_only_once(alice, bob):
    table = new_table(alice, seats=2)
    services.seat_join(table_id=table.pk, user=bob)
    with pytest.raises(services.ServiceError) as refused:
        services.table_start(table_id=table.pk, user=bob)
    assert refused.value.code == "not_creator"
    services.table_start(table_id=table.pk, user=alice)
    with pytest.raises(services.ServiceError) as again:
        services.table_start(table_id=table.pk, user=alice)
    assert again.value.code == "not_open"
    assert Game.objects.filter(table=table).count() == 1


def test_a_game_needs_two_seats(alice):
    table = new_table(alice)
    with pytest.raises(services.ServiceError) as refused:
        services.table_start(table_id=table.pk, user=alice)
    assert refused.value.code == "too_few"


def test_bad_options_create_nothing(alice):
    with pytest.raises(services.ServiceError) as refused:
        services.table_create(
            user=alice, seats_count=4, options={"end": "threshold", "threshold": 0}
        )
    assert refused.value.code == "bad_options"
    assert not Table.objects.exists()


def test_a_player_who_leaves_is_played_by_the_fallback_until_they_return(alice, bob, settings):
    settings.SIXCLUB_AWAY_WAIT = 0  # played at once: the away wait is test_presence.py's
    table = new_table(alice, seats=2)
    services.seat_join(table_id=table.pk, user=bob)
    services.table_start(table_id=table.pk, user=alice)
    lowest = nimmt.view(state_of(table), 1)["hand"][0]
    services.seat_remove(table_id=table.pk, user=bob)
    # RULES 1.8: the lowest card is selected for the absent player at once.
    decision = Decision.objects.get(seat=1)
    assert decision.source == Decision.Source.AWAY
    assert decision.payload == {"type": "select", "card": lowest}
    services.seat_return(table_id=table.pk, user=bob)
    assert not Seat.objects.get(table=table, user=bob).away
    card = nimmt.view(state_of(table), 0)["hand"][0]
    services.game_decide(table_id=table.pk, user=alice, decision={"type": "select", "card": card})
    if nimmt.to_act(state_of(table)) == [0]:  # Alice's card was too low: she takes a row
        services.game_decide(table_id=table.pk, user=alice, decision={"type": "row", "row": 0})
    # Back at the table, Bob is waited for again: nothing more is decided for him.
    assert 1 in nimmt.to_act(state_of(table))
    assert Decision.objects.filter(seat=1).count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_seat_changed_outside_the_services_is_seen_by_the_next_decision(alice, bob, settings):
    # The services keep the seats they read with a decision (games.services._seats); a
    # seat saved by anyone else (here as the admin would) must not be missed: RULES §1.8,
    # the fallback plays for a player marked away.
    settings.SIXCLUB_AWAY_WAIT = 0  # at once: the away wait is test_presence.py's
    table = new_table(alice, seats=2)
    services.seat_join(table_id=table.pk, user=bob)
    services.table_start(table_id=table.pk, user=alice)
    hand = state_of(table).hands[0]
    services.game_decide(
        table_id=table.pk, user=alice, decision={"type": "select", "card": hand[0]}
    )
    seat = Seat.objects.get(table=table, user=bob)
    seat.away = True
    seat.save()
    services.game_decide(
        table_id=table.pk, user=alice, decision={"type": "select", "card": hand[1]}
    )
    sources = list(Decision.objects.order_by("seq").values_list("seat", "source"))
    # Bob's card is played for him, which ends the turn; he stays away (for a row to take,
    # for the next turn's card).
    assert sources[:3] == [(0, "player"), (0, "player"), (1, "away")]
    assert set(sources[3:]) <= {(1, "away")}


@pytest.mark.django_db(transaction=True)
def test_a_player_renamed_mid_game_shows_under_the_new_name(alice, bob):
    from games import rendering

    table = new_table(alice, seats=2)
    services.seat_join(table_id=table.pk, user=bob)
    services.table_start(table_id=table.pk, user=alice)
    card = state_of(table).hands[0][0]
    services.game_decide(table_id=table.pk, user=alice, decision={"type": "select", "card": card})
    names = [seat.name for seat in rendering.read_snapshot(table.pk).seats]
    assert names == ["Alice", "Bob"]
    # A login saves the player without renaming them: the kept seats stay good.
    version = Game.objects.get(table=table).seats_version
    bob.save(update_fields=["last_login"])
    assert Game.objects.get(table=table).seats_version == version
    bob.display_name = "Robert"
    bob.save()
    assert [seat.name for seat in rendering.read_snapshot(table.pk).seats] == ["Alice", "Robert"]


def test_an_announcement_says_only_which_version_the_table_is_at(
    alice, bob, settings, django_capture_on_commit_callbacks
):
    # Issue 20: announcements carry no game content (no move, no state, no selection);
    # each process reads the announced version from the database.
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    table = new_table(alice, seats=2)
    services.seat_join(table_id=table.pk, user=bob)
    services.table_start(table_id=table.pk, user=alice)
    card = nimmt.view(state_of(table), 0)["hand"][0]

    def decide():
        with django_capture_on_commit_callbacks(execute=True):
            return services.game_decide(
                table_id=table.pk, user=alice, decision={"type": "select", "card": card}
            )

    async def decide_and_listen():
        layer = get_channel_layer()
        channel = await layer.new_channel()
        await layer.group_add(services.table_group(table.pk), channel)
        accepted = await sync_to_async(decide)()
        return accepted, await asyncio.wait_for(layer.receive(channel), 2)

    accepted, message = async_to_sync(decide_and_listen)()
    message = {key: value for key, value in message.items() if not key.startswith("__asgi")}
    assert message == {"type": "table.changed", "table": table.pk, "version": accepted.version}
