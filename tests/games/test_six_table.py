"""Six at a live table (issue 23, "The table"): the lobby's options, two players and two
bots playing a game to its target over the real sockets, what each socket may see of the
hands (RULES §3: a hand is its seat's alone), refused decisions, the record and the
replay viewer. Nothing in consumers, services or the clock names the game."""

import json
import re

import pytest
from asgiref.sync import sync_to_async
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from games import engine, services
from games.forms import TableForm
from games.models import Game, Table
from tests.games import ws
from tests.games.ws import ack_version, error_code

pytestmark = pytest.mark.django_db(transaction=True)

six = engine.get("six")
# A card of the Spanish deck wherever a frame names it: a card face's data-card, the values
# a button sends, any attribute or text.
CARD = re.compile(r"\b(?:1[0-2]|[1-9])-(?:oros|copas|espadas|bastos)\b")


@pytest.fixture
def carol(make_player):
    return make_player("carol", display_name="Carol")


OWN_REFUSAL = re.compile(r'<div id="notice"[^>]*data-request="bad\d"[^>]*>[^<]*</div>')


def client_of(user) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(user)
    return client


def test_the_lobby_offers_six_with_its_options(alice):
    form = TableForm(user=alice)
    assert dict(form.fields["kind"].choices)["six"] == "Six"
    data = {"kind": "six", "seats_count": "4", "time_limit": "0", "deck": "48", "target": "10"}
    form = TableForm({**data, "balanced": "on"}, user=alice)
    assert form.is_valid(), form.errors
    assert form.options() == {"deck": 48, "end": "target", "target": 10, "balanced": True}
    assert [value for value, _label in form.fields["seats_count"].choices] == list(range(2, 9))


@pytest.mark.parametrize(
    "bad", [{"target": "4"}, {"target": "201"}, {"deck": "52"}, {"target": "ten"}]
)
def test_bad_six_options_are_refused_and_create_nothing(alice, bad):
    data = {"kind": "six", "seats_count": "4", "time_limit": "0", "deck": "40", "target": "30"}
    response = client_of(alice).post(reverse("lobby"), {**data, **bad, "is_public": "on"})
    assert response.status_code == 400
    assert 'class="errorlist' in response.content.decode()
    assert not Table.objects.exists()


@sync_to_async
def open_six_table(alice, bob) -> Table:
    """alice opens a table of Six in the lobby (4 seats, to 10 points), adds two bots, bob
    joins, alice starts it."""
    alice_client = client_of(alice)
    response = alice_client.post(
        reverse("lobby"),
        {
            "kind": "six",
            "seats_count": "4",
            "time_limit": "0",
            "is_public": "on",
            "deck": "40",
            "target": "10",
        },
    )
    assert response.status_code == 302, response.content.decode()
    table = Table.objects.get()
    assert table.kind == "six"
    assert table.options == {"deck": 40, "end": "target", "target": 10, "balanced": False}
    services.seat_add_bot(table_id=table.pk, user=alice, bot="six_heuristic")
    services.seat_add_bot(table_id=table.pk, user=alice, bot="six_random")
    assert client_of(bob).post(reverse("table_join", args=[table.pk])).status_code == 302
    assert alice_client.post(reverse("table_start", args=[table.pk])).status_code == 302
    return table


@sync_to_async
def get_page(user, url):
    return client_of(user).get(url)


@sync_to_async
def game_state(table):
    return six.load(Game.objects.get(table=table).state)


@sync_to_async
def seat_of(table, user) -> int:
    return Game.objects.get(table=table).table.seats.get(user=user).position


def frame_version(frame: str) -> int | None:
    """The version a frame was rendered at (version 0 is an empty attribute)."""
    match = re.search(r'id="(?:live|players|hand|ack)"[^>]*?data-version="(\d*)"', frame)
    return int(match.group(1) or 0) if match else None


def assert_hides(frames, hands_at, seat, where):
    """No frame shows a card held in another seat's hand at the version it was rendered
    at. `hands_at`: the hands at every version the table was left at after a decision
    (the only versions it renders: bots decide within the same transaction)."""
    for frame in frames:
        # The answer to the test's own refused decisions names the card that seat sent.
        frame = OWN_REFUSAL.sub("", frame)
        version = frame_version(frame)
        if version is None:
            assert not CARD.search(frame), f"{where}: a card outside a game frame: {frame}"
            continue
        assert version in hands_at, f"{where}: a frame at version {version}, never left at"
        hands = hands_at[version]
        others = {card for other, hand in enumerate(hands) if other != seat for card in hand}
        leaked = others & set(CARD.findall(frame))
        assert not leaked, f"{where} saw {sorted(leaked)} of another seat's hand: {frame}"


async def test_six_plays_from_the_lobby_to_its_replay(alice, bob, carol, no_rate_limit, tmp_path):
    table = await open_six_table(alice, bob)
    page = await get_page(alice, reverse("table", args=[table.pk]))
    body = page.content.decode()
    assert page.status_code == 200
    assert "Your hand" in body and body.count('class="suit-row"') == 4

    seats = {await seat_of(table, alice): alice, await seat_of(table, bob): bob}
    sockets = {}
    for position, user in seats.items():
        sockets[position] = await ws.connect(f"/ws/tables/{table.pk}/", user)
        assert 'id="live"' in await ws.receive(sockets[position], timeout=10)
    spectator = await ws.connect(f"/ws/tables/{table.pk}/", carol)
    await ws.receive(spectator, timeout=10)

    refused = False
    hands_at = {}
    for _ in range(400):
        state = await game_state(table)
        hands_at[state.version] = state.hands
        if six.is_over(state):
            break
        seat = six.to_act(state)[0]
        assert seat in seats, "the bots play their own turns"
        if not refused:
            # A card not in hand, then a move out of turn: refused, nothing changes.
            other = next(iter(set(sockets) - {seat}))
            foreign = next(card for card in six.deck(40) if card not in state.hands[seat])
            await ws.send(sockets[seat], type="select", card=foreign, id="bad1")
            assert error_code(await ws.receive(sockets[seat], timeout=10)) is not None
            card = state.hands[other][0]
            await ws.send(sockets[other], type="select", card=card, id="bad2")
            assert error_code(await ws.receive(sockets[other], timeout=10)) is not None
            assert (await game_state(table)).version == state.version
            refused = True
        card = six.legal(state, seat)[0]["card"]
        await ws.send(
            sockets[seat], type="select", card=card, id=f"m{state.version}", version=state.version
        )
        frame = await ws.receive(sockets[seat], timeout=10)
        while ack_version(frame) is None:
            assert error_code(frame) is None, frame
            frame = await ws.receive(sockets[seat], timeout=10)
    else:
        raise AssertionError("the game did not end")
    assert refused

    # Every socket, the spectator's too, is shown the final ranking.
    for communicator in [*sockets.values(), spectator]:
        while not any("Final ranking" in frame for frame in communicator.frames):
            await ws.receive(communicator, timeout=10)
    for position, communicator in sockets.items():
        assert_hides(communicator.frames, hands_at, position, f"seat {position}")
    assert_hides(spectator.frames, hands_at, None, "a spectator")
    for communicator in [*sockets.values(), spectator]:
        await communicator.disconnect()

    table = await sync_to_async(Table.objects.get)(pk=table.pk)
    assert table.status == Table.Status.FINISHED
    game = await sync_to_async(Game.objects.get)(table=table)
    totals = game.result["totals"]
    assert max(totals) >= 10  # RULES 3.3: the game ends once a total reaches the target
    # RULES 3.3: the points of a hand sum to 5 (the winner's bonus and the cards left).
    state = six.load(game.state)
    assert sum(totals) == 5 * len(state.round_scores)
    # RULES 3.3: the highest total ranks first, equal totals share the rank; in points.
    page = await get_page(alice, reverse("table", args=[table.pk]))
    lines = re.findall(r"<li>(\d+)\. [^<]*? — (-?\d+) points?", page.content.decode())
    shown = sorted(totals, reverse=True)
    assert [int(total) for _rank, total in lines] == shown
    assert [int(rank) for rank, _total in lines] == [
        1 + sum(other > total for other in totals) for total in shown
    ]

    record = await get_page(bob, reverse("table_record", args=[table.pk]))
    assert record.status_code == 200
    data = json.loads(record.content)
    assert data["game"] == "six"
    path = tmp_path / "six.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    out = await sync_to_async(_replay_command)(path)
    assert json.loads(out) == game.result

    replay = await get_page(carol, reverse("table_replay", args=[table.pk]) + "?step=1")
    assert replay.status_code == 200
    assert "6-oros" in replay.content.decode()


def _replay_command(path) -> str:
    import io

    out = io.StringIO()
    call_command("replay", str(path), stdout=out)
    return out.getvalue()


def test_the_table_page_of_six_shows_only_the_viewers_hand(alice, bob, carol):
    table = services.table_create(
        user=alice, kind="six", seats_count=3, options={"deck": 40, "target": 30}
    )
    services.seat_join(table_id=table.pk, user=bob)
    services.seat_add_bot(table_id=table.pk, user=alice, bot="six_expert")
    services.table_start(table_id=table.pk, user=alice)
    state = six.load(Game.objects.get(table=table).state)
    for user in (alice, bob, carol):
        seat = table.seats.filter(user=user).first()
        position = seat.position if seat else None
        body = client_of(user).get(reverse("table", args=[table.pk])).content.decode()
        shown = set(CARD.findall(body))
        for other, hand in enumerate(state.hands):
            if other == position:
                assert set(hand) <= shown, "a player sees their own hand"
            else:
                assert not shown & set(hand), f"{user} sees seat {other}'s hand"
    body = client_of(carol).get(reverse("table", args=[table.pk])).content.decode()
    assert "Your hand" not in body


def test_a_table_of_six_speaks_french(alice, bob):
    table = services.table_create(
        user=alice, kind="six", seats_count=2, options={"deck": 48, "target": 30}
    )
    services.seat_join(table_id=table.pk, user=bob)
    services.table_start(table_id=table.pk, user=alice)
    client = Client(HTTP_ACCEPT_LANGUAGE="fr")
    client.force_login(alice)
    body = client.get(reverse("table", args=[table.pk])).content.decode()
    assert "48 cartes" in body and "en 30 points" in body
    assert "Votre main" in body and "Cartes en main" in body
    assert "de jouer" in body  # whose turn it is


def test_the_end_of_a_hand_shows_cards_left_points_and_totals(alice, bob):
    # RULES 3.3: the winner gains 5 and the others' cards left; each other seat loses one
    # point a card it has left. Only the counts are shown, never the cards.
    table = services.table_create(
        user=alice, kind="six", seats_count=2, options={"deck": 40, "target": 200}
    )
    services.seat_join(table_id=table.pk, user=bob)
    services.table_start(table_id=table.pk, user=alice)
    users = {seat.position: seat.user for seat in table.seats.all()}
    state = six.load(Game.objects.get(table=table).state)
    while state.round == 1:
        seat = six.to_act(state)[0]
        services.game_decide(
            table_id=table.pk, user=users[seat], decision=six.legal(state, seat)[0]
        )
        state = six.load(Game.objects.get(table=table).state)
    winner = next(seat for seat in range(2) if state.round_scores[0][seat] > 0)
    loser = 1 - winner
    left = -state.round_scores[0][loser]
    assert state.round_scores[0][winner] == 5 + left
    body = client_of(alice).get(reverse("table", args=[table.pk])).content.decode()
    summary = re.search(r'<section[^>]*id="round-summary".*?</section>', body, re.DOTALL)
    assert summary, "the end of hand 1 is shown"
    rows = {
        int(seat): [int(n) for n in re.findall(r'<td class="num">(-?\d+)</td>', row)]
        for seat, row in re.findall(r'<tr data-seat="(\d)"[^>]*>(.*?)</tr>', summary.group(0))
    }
    assert rows[winner] == [0, 5 + left, 5 + left]
    assert rows[loser] == [left, -left, -left]
    assert "Cards left" in summary.group(0) and "End of hand 1" in summary.group(0)


async def test_a_refused_card_is_explained_in_the_players_language(alice, bob):
    @sync_to_async
    def started():
        table = services.table_create(
            user=alice, kind="six", seats_count=2, options={"deck": 40, "target": 30}
        )
        services.seat_join(table_id=table.pk, user=bob)
        services.table_start(table_id=table.pk, user=alice)
        return table, {seat.position: seat.user for seat in table.seats.select_related("user")}

    table, users = await started()
    state = await game_state(table)
    seat = six.to_act(state)[0]
    mover = await ws.connect(f"/ws/tables/{table.pk}/", users[seat], language="fr")
    waiting = await ws.connect(f"/ws/tables/{table.pk}/", users[1 - seat], language="en")
    for communicator in (mover, waiting):
        await ws.receive(communicator, timeout=10)
    not_mine = state.hands[1 - seat][0]
    await ws.send(mover, type="select", card=not_mine, id="fr1")
    frame = await ws.receive(mover, timeout=10)
    assert error_code(frame) == "illegal"
    assert f"La carte {not_mine} n&#x27;est pas dans votre main." in frame, frame
    await ws.send(waiting, type="select", card=not_mine, id="en1")
    frame = await ws.receive(waiting, timeout=10)
    assert error_code(frame) == "illegal" and "It is not your turn." in frame, frame
    assert (await game_state(table)).version == state.version
    for communicator in (mover, waiting):
        await communicator.disconnect()
