"""6 qui surprend at a live table (issue 22, "The table"): the lobby's option, the table
page, every prompt of RULES §2.5 drawn for the seat asked, a game with bots played to
its end over the real sockets, refused decisions in French and English, and what each
socket may see (RULES 2.5, "Public"/"Secret": another seat's number cards, specials in
hand and attachment before the reveal never reach it). Nothing in consumers, services
or the clock names the game."""

import io
import json
import random
import re

import pytest
from asgiref.sync import sync_to_async
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from games import engine, rendering, services
from games.forms import TableForm
from games.models import Game, Seat, Table
from tests.games import ws
from tests.games.ws import ack_version, error_code

pytestmark = pytest.mark.django_db(transaction=True)

surprise = engine.get("surprise")
SPECIAL = re.compile(
    r"\b(stop|glisser|inserer|remplacer|negatif_positif|5e_serie|7_qui_surprend)\b"
)


@pytest.fixture
def carol(make_player):
    return make_player("carol", display_name="Carol")


def client_of(user, language="en") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    return client


@sync_to_async
def get_page(user, url):
    return client_of(user).get(url)


def start_table(creator, others=(), bots=(), seed=7, **kwargs) -> Table:
    table = services.table_create(
        user=creator,
        kind="surprise",
        seats_count=1 + len(others) + len(bots),
        options={"live_scores": True},
        deal_seed=seed,
        **kwargs,
    )
    for user in others:
        services.seat_join(table_id=table.pk, user=user)
    for bot in bots:
        services.seat_add_bot(table_id=table.pk, user=creator, bot=bot)
    services.table_start(table_id=table.pk, user=creator)
    return table


def state_of(table):
    return surprise.load(Game.objects.get(table=table).state)


def users_of(table) -> dict:
    return {seat.position: seat.user for seat in Seat.objects.filter(table=table) if seat.user}


def test_the_lobby_offers_6_qui_surprend_with_live_scores_only(alice):
    form = TableForm(user=alice)
    assert dict(form.fields["kind"].choices)["surprise"] == "6 qui surprend"
    data = {"kind": "surprise", "seats_count": "4", "time_limit": "0"}
    form = TableForm({**data, "live_scores": "on"}, user=alice)
    assert form.is_valid(), form.errors
    assert form.options() == {"live_scores": True}
    form = TableForm(data, user=alice)
    assert form.is_valid(), form.errors
    assert form.options() == {"live_scores": False}
    assert [value for value, _label in form.fields["seats_count"].choices] == list(range(2, 9))


def test_the_table_page_shows_rows_specials_and_piles(alice, bob, carol):
    table = start_table(alice, [bob], ["surprise_heuristic"])
    state = state_of(table)
    seat = Seat.objects.get(table=table, user=alice).position
    body = client_of(alice).get(reverse("table", args=[table.pk])).content.decode()
    assert "6 qui surprend" in body and "Your hand" in body
    assert body.count('class="row srow') == 4
    assert 'id="select-form"' in body and 'name="special"' in body
    # Each special of the hand, drawn with its tooltip; the piles and the box.
    for kind in set(state.specials[seat]):
        assert f'data-special="{kind}"' in body
    assert "Draw pile" in body and "Discard pile" in body and "Box (cards out of the game)" in body
    assert "<svg" in body and "<title>" in body
    # A spectator sees no hand and no specials of anyone, only counts.
    body = client_of(carol).get(reverse("table", args=[table.pk])).content.decode()
    assert "Your hand" not in body and 'id="select-form"' not in body
    assert "Specials in hand" in body


def test_the_table_speaks_french(alice, bob):
    table = start_table(alice, [bob])
    body = client_of(alice, "fr").get(reverse("table", args=[table.pk])).content.decode()
    assert "Votre main" in body and "Pioche" in body and "Défausse" in body
    assert "2 manches, avec cartes spéciales" in body


def _render_every_seat(table, state):
    """The whole frame of every seat and a spectator, in both languages: no template
    error, and the seat asked gets the buttons of its prompt."""
    snapshot = rendering.read_snapshot(table.pk, keep=False)
    users = users_of(table)
    frames = {}
    for language in ("en", "fr"):
        for position, user in users.items():
            frames[(position, language)] = str(rendering.live_frame(snapshot, user, language))
    return frames


PROMPT_MARKS = {
    "remplacer": 'id="keep-card"',
    "row": '"type": "row"',
    "inserer": '"type": "inserer"',
    "glisser": '"type": "glisser"',
    "stop": '"type": "stop"',
    "negatif_positif": 'id="np-form"',
    "exchange": 'id="no-exchange"',
}


def test_every_prompt_is_drawn_for_the_seat_asked_and_only_for_it(alice, bob, carol):
    # Three humans play random legal decisions through the services; at every decision
    # point each page renders, in English and French, and the seat asked (only it) has
    # its prompt's controls.
    dave = type(alice).objects.create_user("dave", password="x")
    seen = set()
    for seed in (3, 11, 29):
        Table.objects.all().delete()
        table = start_table(alice, [bob, carol, dave], seed=seed)
        users = users_of(table)
        rng = random.Random(seed)
        state = state_of(table)
        while not surprise.is_over(state):
            frames = _render_every_seat(table, state)
            if state.prompt is not None:
                asked, kind, _taken = state.prompt
                seen.add(kind)
                for (position, _language), frame in frames.items():
                    if position == asked:
                        assert PROMPT_MARKS[kind] in frame, (kind, frame[:3000])
                    else:
                        assert PROMPT_MARKS[kind] not in frame, kind
            seat = rng.choice(surprise.to_act(state))
            decision = rng.choice(surprise.legal(state, seat))
            services.game_decide(table_id=table.pk, user=users[seat], decision=decision)
            state = state_of(table)
        _render_every_seat(table, state)
    assert seen >= {"remplacer", "row", "inserer", "glisser", "stop", "negatif_positif", "exchange"}


def frame_version(frame: str) -> int | None:
    match = re.search(r'id="(?:live|players|hand|ack)"[^>]*?data-version="(\d*)"', frame)
    return int(match.group(1) or 0) if match else None


CARD_FACE = re.compile(r"<b>(\d+)</b>")
SENT_CARD = re.compile(r'"card":\s*"?(\d+)')
DATA_CARD = re.compile(r'data-card="(\d+)"')
VALUE = re.compile(r'(?<![\w-])value="(\d+)"')


def numbers_shown(html: str) -> set[int]:
    found = set()
    for pattern in (CARD_FACE, SENT_CARD, DATA_CARD, VALUE):
        found |= {int(number) for number in pattern.findall(html)}
    return found


def hand_section(frame: str) -> str:
    match = re.search(r'<section[^>]*\bid="hand"[^>]*>.*?</section>', frame, flags=re.DOTALL)
    return match.group(0) if match else ""


def leaks(frame: str, receiver, state) -> list[str]:
    """What `frame` shows that `receiver` (None: a spectator) must not see at `state`:
    a number card in another seat's hand or its unrevealed selection, or (in the hand
    section, the only place that draws a seat's own specials) a special or an
    attachment that is not the receiver's own."""
    problems = []
    secret = {}
    for seat in range(state.players):
        if seat == receiver:
            continue
        for card in state.hands[seat]:
            secret[card] = f"a card in seat {seat}'s hand"
        if state.phase == "select" and state.selections[seat]:
            secret[state.selections[seat]] = f"seat {seat}'s unrevealed selection"
    for card in sorted(numbers_shown(frame) & set(secret)):
        problems.append(f"card {card} is shown: {secret[card]}")
    hand = hand_section(frame)
    if receiver is None:
        if hand:
            problems.append("a spectator got a hand")
    else:
        shown = set(SPECIAL.findall(re.sub(r'data-special="[^"]*"', "", hand)))
        own = set(state.specials[receiver]) | {state.attached[receiver]} - {None}
        if shown - own - {"negatif_positif"}:
            problems.append(f"#hand names specials not held: {shown - own}")
    if state.phase == "select":
        # Before the reveal nobody learns whether another seat attached a special.
        others_attached = any(
            state.attached[seat] for seat in range(state.players) if seat != receiver
        )
        if others_attached and "revealed_specials" in frame:
            problems.append("an attachment is named before the reveal")
    return problems


async def _play_over_sockets(table, sockets, refuse=True):
    """The humans play the bots' game to its end over the sockets, each decision a
    random legal one (the seat asked answers); returns the states at every version."""
    state = await sync_to_async(state_of)(table)
    states = {state.version: state}
    rng = random.Random(table.pk)
    refused = {}
    for _ in range(2000):
        if surprise.is_over(state):
            break
        waiting = [seat for seat in surprise.to_act(state) if seat in sockets]
        assert waiting, f"nothing awaited from the humans at {state!r}"
        seat = rng.choice(waiting)
        if refuse and not refused:
            # A card not in hand, and a prompt's decision nobody asked for: refused in
            # the player's language, nothing changes.
            foreign = next(card for card in range(1, 105) if card not in state.hands[seat])
            await ws.send(sockets[seat], type="select", card=foreign, special=None, id="bad1")
            frame = await ws.receive(sockets[seat], timeout=10)
            while error_code(frame) is None:
                frame = await ws.receive(sockets[seat], timeout=10)
            refused["select"] = frame
            await ws.send(sockets[seat], type="stop", row=0, id="bad2")
            frame = await ws.receive(sockets[seat], timeout=10)
            while error_code(frame) is None:
                frame = await ws.receive(sockets[seat], timeout=10)
            refused["stop"] = frame
            assert (await sync_to_async(state_of)(table)).version == state.version
        decision = dict(rng.choice(surprise.legal(state, seat)))
        for field in surprise.DECISIONS[decision["type"]]:
            decision.setdefault(field, None)  # the protocol wants every declared field
        await ws.send(sockets[seat], id=f"m{state.version}", version=state.version, **decision)
        frame = await ws.receive(sockets[seat], timeout=10)
        while ack_version(frame) is None:
            assert error_code(frame) is None, (decision, frame)
            frame = await ws.receive(sockets[seat], timeout=10)
        state = await sync_to_async(state_of)(table)
        states[state.version] = state
    else:
        raise AssertionError("the game did not end")
    return states, refused


async def test_a_game_with_bots_plays_to_its_end_and_hides_what_is_secret(
    alice, bob, carol, no_rate_limit, tmp_path
):
    table = await sync_to_async(start_table)(
        alice, [bob], ["surprise_heuristic", "surprise_random"], seed=5
    )
    users = await sync_to_async(users_of)(table)
    sockets = {}
    for position, user in users.items():
        sockets[position] = await ws.connect(f"/ws/tables/{table.pk}/", user)
        assert 'id="live"' in await ws.receive(sockets[position], timeout=10)
    spectator = await ws.connect(f"/ws/tables/{table.pk}/", carol)
    await ws.receive(spectator, timeout=10)

    states, refused = await _play_over_sockets(table, sockets)
    assert "not in your hand" in refused["select"]
    assert error_code(refused["stop"]) is not None

    for communicator in [*sockets.values(), spectator]:
        while not any("Final ranking" in frame for frame in communicator.frames):
            await ws.receive(communicator, timeout=10)
        await ws.drain(communicator, timeout=0.2)
    problems = []
    for who, communicator in [*sockets.items(), (None, spectator)]:
        for frame in communicator.frames:
            version = frame_version(frame)
            if version is None:
                continue
            assert version in states, f"a frame at version {version}, never left at"
            frame = re.sub(r'<div id="notice"[^>]*data-request="bad\d"[^>]*>.*?</div>', "", frame)
            problems += [f"to {who}, v{version}: {p}" for p in leaks(frame, who, states[version])]
    assert not problems, "\n".join(problems[:20])
    # And the check can fail: a seat's own frame, had it gone to its neighbour or the
    # spectator, shows cards of another hand.
    mine = next(frame for frame in sockets[0].frames if 'id="hand"' in frame)
    for stranger in (1, None):
        found = leaks(mine, stranger, states[frame_version(mine)])
        assert any("hand" in problem for problem in found), found
    # The log told the specials' effects in words.
    words = "".join(frame for frame in spectator.frames)
    assert "Cards revealed:" in words and "takes row" in words
    for communicator in [*sockets.values(), spectator]:
        await communicator.disconnect()

    game = await sync_to_async(Game.objects.get)(table=table)
    assert (await sync_to_async(Table.objects.get)(pk=table.pk)).status == Table.Status.FINISHED
    record = await get_page(bob, reverse("table_record", args=[table.pk]))
    data = json.loads(record.content)
    assert data["game"] == "surprise" and len(data["rounds"]) == 2
    path = tmp_path / "surprise.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    out = io.StringIO()
    await sync_to_async(call_command)("replay", str(path), stdout=out)
    assert json.loads(out.getvalue()) == game.result
    # The replay viewer steps through the reveals and every decision of a turn.
    replay_url = reverse("table_replay", args=[table.pk])
    page = await get_page(carol, replay_url + "?step=1")
    assert page.status_code == 200 and "Cards revealed:" in page.content.decode()
    last = await get_page(carol, replay_url + "?step=100000")
    assert "End of the game" in last.content.decode()


async def test_refusals_are_worded_in_french(alice, bob, no_rate_limit):
    table = await sync_to_async(start_table)(alice, [bob])
    users = await sync_to_async(users_of)(table)
    seat, user = next(iter(users.items()))
    state = await sync_to_async(state_of)(table)
    socket = await ws.connect(f"/ws/tables/{table.pk}/", user, language="fr")
    await ws.receive(socket, timeout=10)
    foreign = next(card for card in range(1, 105) if card not in state.hands[seat])
    await ws.send(socket, type="select", card=foreign, special=None, id="bad1")
    frame = await ws.receive(socket, timeout=10)
    assert error_code(frame) is not None
    assert f"La carte {foreign} n’est pas dans votre main" in frame or "main" in frame, frame
    await ws.send(socket, type="select", card=state.hands[seat][0], id="bad2")
    frame = await ws.receive(socket, timeout=10)
    assert error_code(frame) == "bad_field" and "special" in frame
    await socket.disconnect()
