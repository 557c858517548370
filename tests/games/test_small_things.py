"""The small things of issue 31: the bot picker offers the strongest bot first and says
what each level is; Play waits for a card; a chat message's time says when it was in UTC,
for the reader's clock to show."""

import re
from datetime import UTC, datetime

import pytest

from chat import services as chat_services
from games import kinds, rendering, services

pytestmark = pytest.mark.django_db

GAMES = ["nimmt", "surprise", "six"]


def open_table(alice, kind):
    return services.table_create(user=alice, kind=kind, seats_count=3, options={})


def picker(alice, table, language):
    frame = rendering.live_frame(rendering.read_snapshot(table.pk, keep=False), alice, language)
    select = re.search(r'<select name="bot".*?</select>', frame, re.S)
    assert select, "no bot picker"
    return re.findall(r'<option value="([^"]+)">([^<]*)</option>', select.group())


@pytest.mark.parametrize("kind", GAMES)
def test_each_games_strongest_bot_is_named_first(kind):
    game = kinds.get(kind)
    assert game.strongest_bot == game.bot_choices[0][0]
    assert game.strongest_bot.endswith("expert")
    assert game.strongest_bot in game.bots


@pytest.mark.parametrize("kind", GAMES)
def test_the_picker_offers_the_strongest_bot_first_and_says_what_each_level_is(alice, kind):
    table = open_table(alice, kind)
    options = picker(alice, table, "en")
    # The first option is the one a select shows, and sends, unless another is picked.
    assert [value for value, _ in options] == [name for name, _ in kinds.get(kind).bot_choices]
    assert options[0][0] == kinds.get(kind).strongest_bot
    assert [text for _, text in options] == [
        "Expert bot — the strongest: thinks ahead",
        "Heuristic bot — plays by simple rules",
        "Random bot — the weakest: plays at random",
    ]
    assert [text for _, text in picker(alice, table, "fr")] == [
        "Robot expert — le plus fort : anticipe",
        "Robot malin — suit des règles simples",
        "Robot hasard — le plus faible : joue au hasard",
    ]


def test_a_bot_without_a_note_is_offered_by_its_label_alone():
    # The tests' own game (tests/games/added_game.py) registers no notes.
    game = next(kind for kind in kinds.registered() if kind.bots and not kind.bot_notes)
    assert all(note == "" for _, _, note in game.bot_menu())
    assert [name for name, _, _ in game.bot_menu()] == [name for name, _ in game.bot_choices]


@pytest.mark.parametrize("kind", ["nimmt", "surprise"])
def test_play_is_drawn_disabled_until_a_card_is_tapped(alice, bob, kind):
    table = open_table(alice, kind)
    services.seat_join(table_id=table.pk, user=bob)
    services.table_start(table_id=table.pk, user=alice)
    frame = rendering.live_frame(rendering.read_snapshot(table.pk, keep=False), alice, "en")
    play = re.search(r'<button[^>]*id="confirm-card"[^>]*>', frame)
    assert play, "no Play button in the hand"
    assert " disabled" in play.group()
    assert " hidden" not in play.group()


def test_a_chat_messages_time_is_written_in_utc_for_the_readers_clock(alice_client, alice):
    chat_services.chat_post(user=alice, table_id=None, text="Bonsoir")
    page = alice_client.get("/tables/").content.decode()
    [stamp] = re.findall(r'<time datetime="([^"]+)">(\d\d:\d\d)</time>', page)
    written = datetime.fromisoformat(stamp[0])
    assert written.utcoffset().total_seconds() == 0
    assert abs((datetime.now(UTC) - written).total_seconds()) < 60
