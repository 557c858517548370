"""A second game kind, registered by the tests only (tests/games/highcard/), plays through
the same lobby, table page, services, consumers, records and replay viewer as 6 qui prend !
(issue 20, item 5): adding a game touches none of them."""

import copy
import json
from types import SimpleNamespace

import pytest
from asgiref.sync import sync_to_async
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from games import engine, kinds, services
from games.bots import get_bot
from games.forms import TableForm
from games.models import Game, Table
from tests.games import ws
from tests.games.highcard import HIGHCARD, TEMPLATES
from tests.games.highcard import engine as highcard
from tests.games.ws import ack_version, error_code

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def highcard_kind(settings):
    """Higher card wins, registered for one test, its templates found in the tests' own
    folder (a template directory added through the TEMPLATES setting)."""
    templates = copy.deepcopy(settings.TEMPLATES)
    templates[0]["DIRS"] = [*templates[0]["DIRS"], TEMPLATES]
    settings.TEMPLATES = templates
    kinds.register(HIGHCARD)
    yield HIGHCARD
    kinds.unregister(HIGHCARD.name)


def client_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@sync_to_async
def open_table_from_the_lobby(alice, bob) -> Table:
    """alice opens a table of the new game in the lobby, bob joins, alice starts it."""
    alice_client = client_of(alice)
    page = alice_client.get(reverse("lobby"))
    assert 'value="highcard"' in page.content.decode()
    response = alice_client.post(
        reverse("lobby"),
        {"kind": "highcard", "seats_count": "2", "time_limit": "0", "is_public": "on"},
    )
    assert response.status_code == 302, response.content.decode()
    table = Table.objects.get()
    assert table.kind == "highcard"
    assert client_of(bob).post(reverse("table_join", args=[table.pk])).status_code == 302
    assert alice_client.post(reverse("table_start", args=[table.pk])).status_code == 302
    assert Game.objects.filter(table=table).exists()
    return table


@sync_to_async
def game_state(table):
    return highcard.load(Game.objects.get(table=table).state)


@sync_to_async
def page(user, url):
    return client_of(user).get(url)


async def play_over_websockets(table, players) -> list:
    """Each seated player decides through their own socket until the game is over."""
    sockets = {}
    for position, user in players.items():
        sockets[position] = await ws.connect(f"/ws/tables/{table.pk}/", user)
        assert 'id="live"' in await ws.receive(sockets[position])
    for _ in range(20):
        state = await game_state(table)
        if highcard.is_over(state):
            break
        seat = highcard.to_act(state)[0]
        card = highcard.legal(state, seat)[-1]["card"]
        await ws.send(
            sockets[seat], type="select", card=card, id=f"m{state.version}", version=state.version
        )
        frame = await ws.receive(sockets[seat])
        while ack_version(frame) is None:
            assert error_code(frame) is None, frame
            frame = await ws.receive(sockets[seat])
    else:
        raise AssertionError("the game did not end")
    finals = []
    for communicator in sockets.values():
        frames = await ws.drain(communicator)
        finals.append(frames[-1] if frames else communicator.frames[-1])
        await communicator.disconnect()
    return finals


async def test_a_second_game_plays_from_the_lobby_to_its_replay(
    highcard_kind, alice, bob, no_rate_limit, tmp_path
):
    table = await open_table_from_the_lobby(alice, bob)
    table_page = await page(alice, reverse("table", args=[table.pk]))
    assert table_page.status_code == 200
    assert "Higher card wins" in table_page.content.decode()

    finals = await play_over_websockets(table, {0: alice, 1: bob})

    table = await sync_to_async(Table.objects.get)(pk=table.pk)
    assert table.status == Table.Status.FINISHED
    game = await sync_to_async(Game.objects.get)(table=table)
    assert sum(game.result["totals"]) == highcard.TURNS
    assert all("Final ranking" in frame for frame in finals)

    record = await page(alice, reverse("table_record", args=[table.pk]))
    assert record.status_code == 200
    data = json.loads(record.content)
    assert data["game"] == "highcard"
    assert data["players"] == ["alice", "bob"]
    path = tmp_path / "record.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    out = await sync_to_async(_replay_command)(path)
    assert json.loads(out) == game.result

    replay = await page(bob, reverse("table_replay", args=[table.pk]) + "?step=3")
    assert replay.status_code == 200
    body = replay.content.decode()
    assert "(3/3)" in body
    for turn in data["turns"]:
        assert f"alice: {turn[0]} bob: {turn[1]}" in body


def _replay_command(path) -> str:
    import io

    out = io.StringIO()
    call_command("replay", str(path), stdout=out)
    return out.getvalue()


def test_the_creator_adds_the_second_games_bot(highcard_kind, alice):
    table = services.table_create(user=alice, kind="highcard", seats_count=2, options={})
    seat = services.seat_add_bot(table_id=table.pk, user=alice, bot="highcard-random")
    assert seat.bot == "highcard-random"


def test_a_bot_of_the_second_game_is_found_by_its_name(highcard_kind):
    state = highcard.new_game(players=2, options={}, seed=4)
    decision = get_bot("highcard-random", seed=1).decide(highcard.view(state, 0))
    assert decision in highcard.legal(state, 0)


def test_the_lobby_offers_each_registered_game_with_its_own_options(highcard_kind, alice):
    nimmt_form = TableForm(user=alice)
    assert dict(nimmt_form.fields["kind"].choices) == {
        "nimmt": "6 qui prend !",
        "six": "Six",
        "surprise": "6 qui surprend",
        "highcard": "Higher card wins",
    }
    assert "threshold" in nimmt_form.fields
    form = TableForm({"kind": "highcard", "seats_count": "2", "time_limit": "0"}, user=alice)
    assert form.is_valid(), form.errors
    assert "threshold" not in form.fields
    assert [value for value, _label in form.fields["seats_count"].choices] == [2]
    assert form.options() == {}


def test_an_unknown_game_in_the_lobby_is_refused_and_creates_nothing(alice):
    form = TableForm({"kind": "chess", "seats_count": "4", "time_limit": "0"}, user=alice)
    assert not form.is_valid()
    assert "kind" in form.errors
    assert not Table.objects.exists()


def test_with_one_game_the_lobby_does_not_ask_which(alice):
    others = [kind for kind in kinds.registered() if kind.name != kinds.default()]
    for kind in others:
        kinds.unregister(kind.name)
    try:
        form = TableForm(user=alice)
        assert form.fields["kind"].widget.input_type == "hidden"
    finally:
        for kind in others:
            kinds.register(kind)


def test_a_game_leaves_no_trace_once_unregistered(highcard_kind):
    assert engine.get("highcard") is highcard
    kinds.unregister("highcard")
    with pytest.raises(KeyError, match="unknown game 'highcard'"):
        kinds.get("highcard")
    with pytest.raises(KeyError):
        engine.get("highcard")
    kinds.register(HIGHCARD)  # for the fixture to take out


def test_a_game_cannot_take_another_games_bot_names(highcard_kind):
    rules = SimpleNamespace(KIND="highcard2", record=highcard.record, replay=highcard.replay)
    other = kinds.Kind(
        name="highcard2",
        label="x",
        engine=rules,
        options_form=kinds.OptionsForm,
        players=range(2, 3),
        bots=HIGHCARD.bots,
    )
    with pytest.raises(ValueError, match="bot names already used"):
        kinds.register(other)
    with pytest.raises(KeyError):
        kinds.get("highcard2")


def test_a_record_of_the_second_game_that_breaks_its_rules_names_the_turn(highcard_kind):
    state = highcard.new_game(players=2, options={}, seed=9)
    record = {"game": "highcard", "players": ["a", "b"], "seed": 9, "turns": [[99, 1]]}
    with pytest.raises(engine.RecordError) as error:
        HIGHCARD.read_record(record)
    assert (error.value.turn, error.value.seat) == (1, 0)
    played = [[state.hands[0][i], state.hands[1][i]] for i in range(highcard.TURNS)]
    result = HIGHCARD.read_record({**record, "turns": played})
    assert sum(result["totals"]) == highcard.TURNS


def test_a_game_cannot_name_a_bot_longer_than_a_seat_keeps(highcard_kind):
    rules = SimpleNamespace(KIND="highcard3", record=highcard.record, replay=highcard.replay)
    name = "b" * 33
    other = kinds.Kind(
        name="highcard3",
        label="x",
        engine=rules,
        options_form=kinds.OptionsForm,
        players=range(2, 3),
        bots={name: next(iter(HIGHCARD.bots.values()))},
    )
    with pytest.raises(ValueError, match="longer than a seat keeps"):
        kinds.register(other)


@pytest.mark.django_db
def test_every_registered_bot_fits_a_seat(alice):
    """surprise_heuristic is 18 letters: a seat keeps it (PostgreSQL checks the length)."""
    from games.models import Seat, Table

    table = Table.objects.create(created_by=alice, seats_count=8, kind="surprise")
    for position, name in enumerate(n for kind in kinds.registered() for n in kind.bots):
        Seat.objects.create(table=table, position=position, bot=name)
    assert table.seats.filter(bot="surprise_heuristic").exists()
