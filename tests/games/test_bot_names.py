"""A bot's name in the language of the page or frame that shows it, and said once (issue 21).

A version's snapshot is kept per process and shared by every socket of the table, whatever
its reader's language: what it holds must not freeze a bot's name in the language of the
first reader.
"""

import re

import pytest
from django.utils import translation

from games import engine, rendering, replays, services
from games.models import Game, Seat

pytestmark = pytest.mark.django_db
nimmt = engine.get("nimmt")


def bot_table(alice, bots, options=None):
    table = services.table_create(
        user=alice,
        seats_count=1 + len(bots),
        options=options or {"end": "rounds", "rounds": 1},
    )
    for bot in bots:
        services.seat_add_bot(table_id=table.pk, user=alice, bot=bot)
    return table


def play(table, alice, turns):
    """Alice answers what she is asked (the bots answer at once) until `turns` turns of
    the round are over and a new selection is open, or the game is over."""
    for _ in range(200):
        state = nimmt.load(Game.objects.get(table=table).state)
        if nimmt.is_over(state) or (state.phase == "select" and len(state.turns) >= turns):
            return
        services.game_decide(table_id=table.pk, user=alice, decision=nimmt.fallback(state, 0))
    raise AssertionError("the game did not get there")


def section(frame, element_id):
    match = re.search(rf'<section[^>]*id="{element_id}".*?</section>', frame, re.S)
    assert match, f"no #{element_id} in the frame"
    return match.group()


def test_a_kept_snapshot_shows_the_last_turns_bot_names_in_each_readers_language(alice):
    table = bot_table(alice, ["random", "heuristic"])
    services.table_start(table_id=table.pk, user=alice)
    play(table, alice, 1)
    # The snapshot the consumers keep for the table's other sockets (rendering.snapshot_at).
    snapshot = rendering.read_snapshot(table.pk, keep=True)
    french = rendering.live_frame(snapshot, alice, "fr")
    english = rendering.live_frame(snapshot, alice, "en")
    assert "Robot hasard" in section(french, "last-turn")
    assert "Robot malin" in section(french, "last-turn")
    assert "Random bot" in section(english, "last-turn")
    assert "Heuristic bot" in section(english, "last-turn")
    assert "Robot" not in english


def test_the_final_ranking_and_piles_name_bots_in_each_readers_language(alice):
    table = bot_table(alice, ["expert"])
    services.table_start(table_id=table.pk, user=alice)
    play(table, alice, 99)
    snapshot = rendering.read_snapshot(table.pk, keep=True)
    english = rendering.live_frame(snapshot, alice, "en")
    french = rendering.live_frame(snapshot, alice, "fr")
    assert "Expert bot" in section(english, "ranking")
    assert "Robot expert" in section(french, "ranking")
    assert "Expert bot" not in french
    assert "Robot expert" not in english


def test_a_bots_name_is_not_followed_by_a_bot_tag_that_says_it_again(alice):
    table = bot_table(alice, ["random"])
    for language, name in (("en", "Random bot"), ("fr", "Robot hasard")):
        snapshot = rendering.read_snapshot(table.pk, keep=False)
        seats = section(rendering.live_frame(snapshot, alice, language), "seats")
        assert name in seats
        assert '<span class="tag">bot</span>' not in seats
        assert '<span class="tag">robot</span>' not in seats
    services.table_start(table_id=table.pk, user=alice)
    for language, name in (("en", "Random bot"), ("fr", "Robot hasard")):
        snapshot = rendering.read_snapshot(table.pk, keep=False)
        frame = rendering.live_frame(snapshot, alice, language)
        row = re.search(r'<tr data-seat="1">.*?</tr>', frame).group()
        assert f"<td>{name}" in row
        assert '<span class="tag">bot</span>' not in row
        assert '<span class="tag">robot</span>' not in row


def test_the_table_page_names_bots_in_the_pages_language(alice_client, alice):
    table = bot_table(alice, ["heuristic"])
    services.table_start(table_id=table.pk, user=alice)
    play(table, alice, 2)
    french = alice_client.get(f"/tables/{table.pk}/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    english = alice_client.get(f"/tables/{table.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Robot malin" in french and "Heuristic bot" not in french
    assert "Heuristic bot" in english and "Robot malin" not in english


def test_a_seats_name_is_its_display_name_or_its_bots_label(alice):
    table = bot_table(alice, ["expert"])
    human, bot = Seat.objects.filter(table=table).select_related("user").order_by("position")
    assert human.name == "Alice" and str(human) == "Alice"
    with translation.override("fr"):
        assert str(bot.name) == "Robot expert" and str(bot) == "Robot expert"
    with translation.override("en"):
        assert str(bot.name) == "Expert bot" and str(bot) == "Expert bot"


def test_two_bots_of_one_level_are_numbered_by_seat_order_in_every_section(alice):
    table = bot_table(alice, ["heuristic", "random", "heuristic"])
    snapshot = rendering.read_snapshot(table.pk, keep=False)
    seats = section(rendering.live_frame(snapshot, alice, "en"), "seats")
    assert re.findall(r"(?:Heuristic|Random) bot[ \d]*", seats) == [
        "Heuristic bot 1",
        "Random bot",
        "Heuristic bot 2",
    ]
    services.table_start(table_id=table.pk, user=alice)
    play(table, alice, 99)
    snapshot = rendering.read_snapshot(table.pk, keep=True)
    for language, name in (("en", "Heuristic bot"), ("fr", "Robot malin")):
        frame = rendering.live_frame(snapshot, alice, language)
        for position, number in ((1, 1), (3, 2)):
            row = re.search(rf'<tr data-seat="{position}">.*?</tr>', frame).group()
            assert f"<td>{name} {number}" in row
        for element_id in ("ranking", "last-turn"):
            shown = section(frame, element_id)
            assert f"{name} 1" in shown and f"{name} 2" in shown
        assert f"{name}</" not in frame and f"{name} 3" not in frame


def test_a_bot_alone_at_its_level_keeps_its_plain_name(alice):
    table = bot_table(alice, ["heuristic", "random"])
    snapshot = rendering.read_snapshot(table.pk, keep=False)
    seats = section(rendering.live_frame(snapshot, alice, "en"), "seats")
    assert "Heuristic bot" in seats and "Random bot" in seats
    assert not re.search(r"(Heuristic|Random) bot \d", seats)


def test_the_replay_the_lobby_and_the_seats_read_for_a_table_number_bots(alice, alice_client):
    table = bot_table(alice, ["expert", "expert"])
    assert [str(seat) for seat in Seat.objects.filter(table=table).named()] == [
        "Alice",
        "Expert bot 1",
        "Expert bot 2",
    ]
    with translation.override("fr"):
        assert [str(seat) for seat in table.seats.named()][1:] == [
            "Robot expert 1",
            "Robot expert 2",
        ]
    lobby = alice_client.get("/tables/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Alice, Expert bot 1, Expert bot 2" in lobby
    services.table_start(table_id=table.pk, user=alice)
    with translation.override("fr"):
        names = [str(name) for name in replays.seat_names(Game.objects.get(table=table))]
    assert names == ["Alice", "Robot expert 1", "Robot expert 2"]
