"""A fourth game, which exists only in the tests (an app under tests/games/ that
tests/settings.py adds to INSTALLED_APPS, and nothing else), plays through the same lobby,
table page, services, consumers, records and replay viewer as the site's three (issue
30): adding a game is adding its app. This file finds it as the site does, through its
app (tests/games/added_game.py), and never names it."""

import json
import re
import subprocess
from pathlib import Path
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
from tests.games import added_game, ws
from tests.games.test_hidden_information import receive_version
from tests.games.ws import ack_version, error_code

pytestmark = pytest.mark.django_db(transaction=True)

GAME = added_game.kind()
NAME = GAME.name
RULES = GAME.engine
BOT = next(iter(GAME.bots))
REPO = Path(__file__).resolve().parents[2]


def client_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def lobby_form_as_drawn(client) -> dict:
    """What a player posts who opens the lobby, chooses the game (the page swaps in its
    part of the form, fetched as the page does) and changes nothing."""
    part = client.get(reverse("lobby_options"), {"kind": NAME}).content.decode()
    fields = dict(re.findall(r'<input[^>]*name="(\w+)"[^>]*value="([^"]*)"', part))
    seats = re.search(r'<select name="seats_count".*?</select>', part, re.S).group()
    chosen = re.search(r'<option value="(\d+)" selected', seats)
    return {
        **fields,
        "kind": NAME,
        "seats_count": chosen.group(1),
        "time_limit": "0",
        "is_public": "on",
    }


@sync_to_async
def open_table_from_the_lobby(alice, bob) -> Table:
    """alice opens a table of the game in the lobby, bob joins, alice starts it."""
    alice_client = client_of(alice)
    assert f'value="{NAME}"' in alice_client.get(reverse("lobby")).content.decode()
    data = lobby_form_as_drawn(alice_client)
    assert data["target"] == str(RULES.DEFAULTS["target"])
    response = alice_client.post(reverse("lobby"), {**data, "seats_count": "2", "target": "3"})
    assert response.status_code == 302, response.content.decode()
    table = Table.objects.get()
    assert (table.kind, table.options) == (NAME, {"target": 3})
    # The lobby's list names the game and says what its summary says.
    listed = alice_client.get(reverse("lobby"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    item = re.search(r'<li class="table-item.*?</li>', listed, re.S).group()
    assert "Higher card wins · first to 3 points" in item
    assert client_of(bob).post(reverse("table_join", args=[table.pk])).status_code == 302
    assert alice_client.post(reverse("table_start", args=[table.pk])).status_code == 302
    assert Game.objects.filter(table=table).exists()
    return table


@sync_to_async
def game_state(table):
    return RULES.load(Game.objects.get(table=table).state)


@sync_to_async
def page(user, url):
    return client_of(user).get(url)


async def play_over_websockets(table, players) -> dict:
    """Each seated player decides through their own socket until the game is over; every
    frame each socket received, by seat."""
    sockets = {}
    for position, user in players.items():
        sockets[position] = await ws.connect(f"/ws/tables/{table.pk}/", user)
        assert 'id="live"' in await ws.receive(sockets[position])
    for _ in range(4 * RULES.TURNS):
        state = await game_state(table)
        if RULES.is_over(state):
            break
        seat = RULES.to_act(state)[0]
        card = RULES.legal(state, seat)[-1]["card"]
        await ws.send(
            sockets[seat], type="select", card=card, id=f"m{state.version}", version=state.version
        )
        frame = await ws.receive(sockets[seat])
        while ack_version(frame) is None:
            assert error_code(frame) is None, frame
            frame = await ws.receive(sockets[seat])
        # The other screens show this decision before the next one is made: otherwise a
        # busy machine renders two decisions as one whole frame, never a selection's update.
        for other, communicator in sockets.items():
            if other != seat:
                await receive_version(communicator, ack_version(frame))
    else:
        raise AssertionError("the game did not end")
    for communicator in sockets.values():
        await ws.drain(communicator)
        await communicator.disconnect()
    return {position: communicator.frames for position, communicator in sockets.items()}


async def test_the_added_game_plays_from_the_lobby_to_its_replay(
    alice, bob, no_rate_limit, tmp_path
):
    table = await open_table_from_the_lobby(alice, bob)
    table_page = await page(alice, reverse("table", args=[table.pk]))
    assert table_page.status_code == 200
    body = table_page.content.decode()
    assert "Higher card wins" in body and 'id="faces"' in body
    dealt = await game_state(table)

    frames = await play_over_websockets(table, {0: alice, 1: bob})

    table = await sync_to_async(Table.objects.get)(pk=table.pk)
    assert table.status == Table.Status.FINISHED
    game = await sync_to_async(Game.objects.get)(table=table)
    assert max(game.result["totals"]) == 3
    for seat, received in frames.items():
        other = dealt.hands[1 - seat]
        whole = [frame for frame in received if 'id="live"' in frame]
        # Its own board, not rows of cards with heads; its reveal hook on each new turn.
        assert all('id="rows"' not in frame and "heads" not in frame for frame in received)
        turns = {int(n) for frame in whole for n in re.findall(r'data-reveal="(\d+)"', frame)}
        assert turns == set(range(1, sum(game.result["totals"]) + 1))  # a point a turn
        # Within a turn a selection is pushed as an update: the players' section first.
        assert any(frame.startswith('<section class="card players"') for frame in received)
        # Never the other seat's hand.
        hands = [re.search(r'<section class="card hand".*?</section>', f, re.S) for f in whole]
        shown = {
            int(n) for found in hands if found for n in re.findall(r">(\d+)</button>", found[0])
        }
        assert shown and not shown & set(other)
        # Its own end screen.
        assert '<section class="card ranking first-to" id="ranking"' in received[-1]
        assert "got to 3 points first." in received[-1]

    record = await page(alice, reverse("table_record", args=[table.pk]))
    assert record.status_code == 200
    data = json.loads(record.content)
    assert data["game"] == NAME
    assert data["players"] == ["alice", "bob"]
    assert data["options"] == {"target": 3}
    path = tmp_path / "record.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    out = await sync_to_async(_replay_command)(path)
    assert json.loads(out) == game.result

    steps = len(data["turns"])
    replay = await page(bob, reverse("table_replay", args=[table.pk]) + f"?step={steps}")
    assert replay.status_code == 200
    body = replay.content.decode()
    assert f"({steps}/{steps})" in body
    for turn in data["turns"]:
        assert f"alice: {turn[0]} bob: {turn[1]}" in body


def _replay_command(path) -> str:
    import io

    out = io.StringIO()
    call_command("replay", str(path), stdout=out)
    return out.getvalue()


def test_its_app_registered_it_and_its_templates_are_its_apps():
    assert kinds.get(NAME) is GAME and engine.get(NAME) is RULES
    folder = Path(added_game.app().path)
    assert Path(RULES.__file__).parent == folder
    assert (folder / "templates" / GAME.template("live.html")).exists()
    # No table page of its own: the one every game has.
    assert not (folder / "templates" / GAME.template("table.html")).exists()


def test_its_required_option_left_out_is_refused_next_to_it(alice):
    client = client_of(alice)
    data = lobby_form_as_drawn(client)
    del data["target"]
    response = client.post(reverse("lobby"), data, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    assert list(response.context["form"].errors) == ["target"]
    box = re.search(
        r'<div[^>]*>\s*<label for="id_target".*?</div>', response.content.decode(), re.S
    )
    assert "This field is required." in box.group()
    assert not Table.objects.exists()


def test_the_creator_adds_the_games_bot(alice):
    table = services.table_create(user=alice, kind=NAME, seats_count=2, options={})
    seat = services.seat_add_bot(table_id=table.pk, user=alice, bot=BOT)
    assert seat.bot == BOT


def test_a_bot_of_the_game_is_found_by_its_name():
    state = RULES.new_game(players=2, options={}, seed=4)
    decision = get_bot(BOT, seed=1).decide(RULES.view(state, 0))
    assert decision in RULES.legal(state, 0)


def test_the_lobby_offers_each_registered_game_with_its_own_options(alice):
    nimmt_form = TableForm(user=alice)
    assert dict(nimmt_form.fields["kind"].choices) == {
        "nimmt": "6 qui prend !",
        "six": "Six",
        "surprise": "6 qui surprend",
        NAME: "Higher card wins",
    }
    assert "threshold" in nimmt_form.fields
    data = {"kind": NAME, "seats_count": "2", "time_limit": "0", "target": "1"}
    form = TableForm(data, user=alice)
    assert form.is_valid(), form.errors
    assert "threshold" not in form.fields
    assert [value for value, _label in form.fields["seats_count"].choices] == [2, 3, 4]
    assert form.options() == {"target": 1}


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


def test_a_game_leaves_no_trace_once_unregistered():
    kinds.unregister(NAME)
    try:
        with pytest.raises(KeyError, match=f"unknown game '{NAME}'"):
            kinds.get(NAME)
        with pytest.raises(KeyError):
            engine.get(NAME)
    finally:
        kinds.register(GAME)
    assert engine.get(NAME) is RULES


def other_kind(name: str, bots: dict) -> kinds.Kind:
    rules = SimpleNamespace(KIND=name, record=RULES.record, replay=RULES.replay)
    return kinds.Kind(
        name=name,
        label="x",
        engine=rules,
        options_form=kinds.OptionsForm,
        players=range(2, 3),
        bots=bots,
    )


def test_a_game_cannot_take_another_games_bot_names():
    with pytest.raises(ValueError, match="bot names already used"):
        kinds.register(other_kind(NAME + "2", GAME.bots))
    with pytest.raises(KeyError):
        kinds.get(NAME + "2")


def test_a_game_cannot_name_a_bot_longer_than_a_seat_keeps():
    bots = {"b" * 33: GAME.bots[BOT]}
    with pytest.raises(ValueError, match="longer than a seat keeps"):
        kinds.register(other_kind(NAME + "3", bots))


def test_a_record_of_the_game_that_breaks_its_rules_names_the_turn():
    state = RULES.new_game(players=2, options={}, seed=9)
    record = {"game": NAME, "players": ["a", "b"], "seed": 9, "turns": [[99, 1]]}
    with pytest.raises(engine.RecordError) as error:
        GAME.read_record(record)
    assert (error.value.turn, error.value.seat) == (1, 0)
    # Seat 0 plays its cards highest first, seat 1 lowest first: 0 wins the first turns.
    played = [[high, low] for high, low in zip(state.hands[0][::-1], state.hands[1], strict=True)]
    result = GAME.read_record({**record, "turns": played[: RULES.DEFAULTS["target"]]})
    assert max(result["totals"]) == RULES.DEFAULTS["target"]


def test_every_registered_bot_fits_a_seat(alice):
    """surprise_heuristic is 18 letters: a seat keeps it (PostgreSQL checks the length)."""
    from games.models import Seat, Table

    table = Table.objects.create(created_by=alice, seats_count=8, kind="surprise")
    for position, name in enumerate(n for kind in kinds.registered() for n in kind.bots):
        Seat.objects.create(table=table, position=position, bot=name)
    assert table.seats.filter(bot="surprise_heuristic").exists()


# --- the shared layer knows no game ----------------------------------------------------------


def test_its_view_has_only_what_every_game_has_and_its_own():
    """games.rendering reads what every game has; the rest comes from the game's Kind. The
    game plays (above) with a view that has none of 6 qui prend !'s entries, and its
    engine no `heads(card)`, as Six's has none."""
    view = RULES.view(RULES.new_game(players=2, options={}, seed=1), None)
    assert {"version", "phase", "round", "to_act", "totals", "result"} <= set(view)
    nimmt_only = {"rows", "chooser", "draft", "piles", "revealed", "resolving", "seen"}
    assert not nimmt_only & set(view) and "last_turn" not in view
    assert not hasattr(RULES, "heads") and not hasattr(kinds.get("six").engine, "heads")


def test_no_file_outside_its_folder_names_the_game():
    """Adding the game changed no file outside its folder but the test settings'
    INSTALLED_APPS: no other file of the repository (tracked, or new and not ignored)
    names it. makemessages notes where each string was found (`#:` lines of a catalogue,
    tests included): those name the files of its folder, not the game."""
    if not (REPO / ".git").exists():
        pytest.skip("not a git checkout")
    found = subprocess.run(
        ["git", "grep", "-n", "-i", "-I", "--untracked", "-e", NAME],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    assert found.returncode in (0, 1), found.stderr
    folder = Path(added_game.app().path).relative_to(REPO).as_posix() + "/"
    naming = []
    for line in found.stdout.splitlines():
        path, _number, text = line.split(":", 2)
        if path.startswith(folder) or path == "tests/settings.py":
            continue
        if path.endswith(".po") and text.startswith("#:"):
            continue
        naming.append(line)
    assert naming == []
