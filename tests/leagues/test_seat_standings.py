"""At the table, names carry their standing (issues 21, 34): each seated player shows their
site rating, or "new" before a few rated games, and at a league table their season rank;
bots show their level by their name only."""

import re

from games import services
from games.models import Table
from leagues import ratings
from leagues.models import SiteRating
from tests.leagues.conftest import finished_game

# A rating (and season rank) as a standing; "new" as the unrated player's badge.
STANDING = r'<span class="standing"[^>]*>([^<]*)</span>|<span class="badge new-player">'


def standings_shown(client, table, user):
    client.force_login(user)
    page = client.get(table.get_absolute_url()).content.decode()
    return [rating or "new" for rating in re.findall(STANDING, page)]


def test_a_league_table_shows_each_players_rating_and_season_rank(
    client, season, alice, bob, carol, settings
):
    settings.SIXCLUB_RATING_NEW_GAMES = 1
    # Bob wins one game, Alice is second, Carol third: their ranks in the season.
    ratings.game_rated(game=finished_game(season, [bob, alice, carol], [[1, 5, 9]]))
    shown = {
        user.username: round(SiteRating.objects.get(user=user).rating)
        for user in (alice, bob, carol)
    }
    table = services.table_create(user=alice, seats_count=4, options={}, season=season)
    services.seat_join(table_id=table.pk, user=bob)
    services.seat_add_bot(table_id=table.pk, user=alice, bot="expert")
    before = standings_shown(client, table, alice)
    assert before == [f"{shown['alice']} · #2", f"{shown['bob']} · #1"]
    services.seat_join(table_id=table.pk, user=carol)
    services.table_start(table_id=table.pk, user=alice)
    # In play, the players' table carries them too (the bot's name says "Expert bot").
    during = standings_shown(client, table, carol)
    assert during == [
        f"{shown['alice']} · #2",
        f"{shown['bob']} · #1",
        f"{shown['carol']} · #3",
    ]
    assert Table.objects.get(pk=table.pk).status == Table.Status.PLAYING


def test_a_player_without_a_league_game_is_new(client, alice, bob):
    table = services.table_create(user=alice, seats_count=2, options={})
    services.seat_join(table_id=table.pk, user=bob)
    assert standings_shown(client, table, bob) == ["new", "new"]
    services.table_start(table_id=table.pk, user=alice)
    assert standings_shown(client, table, bob) == ["new", "new"]


def test_an_unrated_players_new_is_a_badge_beside_the_name_not_a_word_of_it(client, alice, bob):
    table = services.table_create(user=alice, seats_count=2, options={})
    services.seat_join(table_id=table.pk, user=bob)
    services.table_start(table_id=table.pk, user=alice)
    client.force_login(bob)
    for language, new, said in (
        ("en", "new", "new player, not rated yet"),
        ("fr", "nouveau", "nouveau joueur, pas encore classé"),
    ):
        page = client.get(table.get_absolute_url(), HTTP_ACCEPT_LANGUAGE=language)
        row = re.search(r'<tr data-seat="0">.*?</tr>', page.content.decode()).group()
        # Seen as a badge, heard as what it means (a title alone is not read out).
        assert (
            f'<td>Alice <span class="badge new-player"><span aria-hidden="true">{new}</span>'
            f'<span class="visually-hidden">{said}</span></span>'
        ) in row
        assert '<span class="standing"' not in row
