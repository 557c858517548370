"""A player's page (issue 34, "Profiles worth opening"): per game, her games played, wins,
win rate, score per round, site rating and its chart; her recent games with their rank;
her best and worst games, rank first; how she fares against another player. A table that
never finished is not a game, and nothing the viewer may not see shows (leagues.players).

The games are played on paper (games.services.paper): the sheet says who finished where.
"""

import pytest
from django.test import Client
from django.utils import translation

from games import services
from leagues import services as league_services
from leagues.models import RatedGame
from leagues.templatetags.charts import line_chart
from tests.games.test_duplicate_secrecy import play_to_the_end
from tests.leagues.test_members_only_tables import private_cup  # noqa: F401 (a fixture)
from tests.leagues.test_site_ratings import friendly

pytestmark = pytest.mark.django_db


def paper_game(players, *lines, is_public=True):
    """A game of 6 qui prend ! of `players` (in seat order) entered on paper: `lines` are
    its rounds' heads, one a seat."""
    table = services.table_create(
        user=players[0],
        kind="nimmt",
        seats_count=len(players),
        options={"end": "rounds", "rounds": len(lines)},
        is_public=is_public,
    )
    services.table_paper(table_id=table.pk)
    services.paper_seats(table_id=table.pk, users=list(players))
    return services.paper_result(table_id=table.pk, lines=[list(line) for line in lines])


def page(user, username, language="en", **query):
    client = Client(headers={"accept-language": language})
    if user is not None:
        client.force_login(user)
    return client.get(f"/players/{username}/", query)


def test_after_one_lost_game_her_figures_show_but_no_best_games(alice, bob):
    game = paper_game([alice, bob], [9, 3])
    response = page(alice, "alice")
    (figures,) = response.context["game_figures"]
    assert figures["kind"].name == "nimmt"
    assert (figures["played"], figures["wins"], figures["win_rate"]) == (1, 0, 0)
    assert figures["per_round"] == 9.0
    assert figures["best_games"] == [] and figures["worst_games"] == []
    (line,) = figures["recent"]
    assert (line.table_id, line.place, line.players, line.score) == (game.table_id, 2, 2, 9)
    rated = RatedGame.objects.get(user=alice)
    assert line.rating_change.startswith("−") and rated.rating < rated.rating_before
    assert figures["new"] and figures["to_be_rated"] == 4 and not figures["chart"]
    html = response.content.decode()
    assert "2nd of 2" in html and "9 heads" in html and f"rating {line.rating_change}" in html
    assert "Best games" not in html and "Worst games" not in html
    assert "<figure" not in html and "from 3 rated games on" in html
    assert "4 more games to be rated" in html


def test_the_rank_reads_as_an_ordinal_in_french(alice, bob):
    paper_game([alice, bob], [2, 7])
    paper_game([alice, bob], [8, 1])
    html = page(None, "alice", language="fr").content.decode()
    assert "1<sup>er</sup> sur 2" in html and "2<sup>e</sup> sur 2" in html
    assert "Meilleures parties" in html and "Pires parties" in html


def test_tables_never_played_are_not_games(alice, bob):
    services.table_create(user=alice, kind="nimmt", seats_count=2, options={}, name="Open one")
    playing = friendly(alice, bob)
    response = page(bob, "alice")
    assert response.context["game_figures"] == []
    assert response.context["playing_now"] == [playing]
    html = response.content.decode()
    assert "No game yet." in html and "Open one" not in html and "Playing now" in html
    paper_game([alice, bob], [1, 5])
    (figures,) = page(bob, "alice").context["game_figures"]
    assert figures["played"] == 1 and [g.place for g in figures["recent"]] == [1]


def test_best_and_worst_games_go_by_place_first_and_never_meet(alice, bob, carol):
    games = {
        "narrow win": paper_game([alice, bob, carol], [5, 6, 20]),
        "big win": paper_game([alice, bob, carol], [0, 15, 20]),
        "second": paper_game([alice, bob, carol], [5, 3, 20]),
        "far last": paper_game([alice, bob, carol], [20, 0, 1]),
        "near last": paper_game([alice, bob, carol], [10, 9, 8]),
        "shared win": paper_game([alice, bob, carol], [4, 4, 9]),
    }
    names = {game.table_id: name for name, game in games.items()}
    (figures,) = page(carol, "alice").context["game_figures"]
    assert [names[g.table_id] for g in figures["best_games"]] == [
        "big win",
        "narrow win",
        "shared win",
    ]
    assert [names[g.table_id] for g in figures["worst_games"]] == [
        "far last",
        "near last",
        "second",
    ]
    # A shared first place is a win.
    assert (figures["played"], figures["wins"], figures["win_rate"]) == (6, 3, 50)
    assert figures["per_round"] == pytest.approx(44 / 6)
    assert [names[g.table_id] for g in figures["recent"]] == list(reversed(list(games)))


def test_two_games_make_one_best_and_one_worst(alice, bob):
    won = paper_game([alice, bob], [1, 9])
    lost = paper_game([alice, bob], [9, 1])
    (figures,) = page(None, "alice").context["game_figures"]
    assert [g.table_id for g in figures["best_games"]] == [won.table_id]
    assert [g.table_id for g in figures["worst_games"]] == [lost.table_id]


def test_the_rating_chart_shows_from_three_rated_games(alice, bob):
    for heads in ([1, 9], [9, 1]):
        paper_game([alice, bob], heads)
    (figures,) = page(None, "alice").context["game_figures"]
    assert not figures["chart"] and len(figures["history"]) == 2
    paper_game([alice, bob], [2, 8])
    response = page(None, "alice")
    (figures,) = response.context["game_figures"]
    ratings = [line.rating for line in RatedGame.objects.filter(user=alice).order_by("pk")]
    assert figures["chart"] and figures["history"] == pytest.approx(ratings)
    html = response.content.decode()
    assert html.count("<figure") == 1 and "Site rating after each rated game" in html


def test_the_chart_says_its_values_as_text():
    assert line_chart([3.0]) == ""
    with translation.override("en"):
        html = line_chart([1.0, 2.5, 2.0], label="Rating", start="01/01/2026", end="03/01/2026")
    assert '<figure class="chart">' in html and "<figcaption>Rating" in html
    assert "1.0; 2.5; 2.0 (oldest first)" in html and "01/01/2026" in html
    assert 'aria-hidden="true"' in html and "<text" not in html


def test_a_rating_is_no_longer_new_after_enough_rated_games(alice, bob, settings):
    settings.SIXCLUB_RATING_NEW_GAMES = 2
    paper_game([alice, bob], [1, 9])
    (figures,) = page(None, "alice").context["game_figures"]
    assert figures["new"] and figures["to_be_rated"] == 1
    assert "1 more game to be rated" in page(None, "alice").content.decode()
    paper_game([alice, bob], [1, 9])
    response = page(None, "alice")
    (figures,) = response.context["game_figures"]
    assert not figures["new"] and figures["rating"].games == 2
    assert "more game" not in response.content.decode()


def test_head_to_head_counts_who_finished_ahead(alice, bob, carol):
    paper_game([alice, bob], [1, 9])
    paper_game([bob, alice], [9, 1])
    paper_game([alice, bob, carol], [9, 1, 0])
    paper_game([alice, bob], [4, 4])
    paper_game([alice, carol], [4, 5])
    response = page(alice, "alice", vs="bob")
    (h,) = response.context["head_to_head"]
    assert (h["games"], h["ahead"], h["behind"], h["level"]) == (4, 2, 1, 1)
    assert len(h["latest"]) == 4
    html = response.content.decode()
    assert "You and Bob: 4 games, you ahead in 2, Bob ahead in 1, level in 1" in html
    assert "Alice: 3rd of 3" in html and "Bob: 2nd of 3" in html
    third = page(carol, "alice", vs="Bob").content.decode()  # a display name does too
    assert "Alice and Bob: 4 games, Alice ahead in 2, Bob ahead in 1, level in 1" in third
    theirs = page(bob, "alice", vs="bob").content.decode()
    assert "Alice and you: 4 games, Alice ahead in 2, you ahead in 1, level in 1" in theirs
    # The players to compare her with: those she has played with.
    assert [u.username for u in response.context["opponents"]] == ["bob", "carol"]
    assert '<option value="carol">Carol</option>' in html


def test_head_to_head_with_nobody_or_a_stranger(alice, bob, make_player):
    paper_game([alice, bob], [1, 9])
    make_player("dan", display_name="Dan")
    html = page(None, "alice", vs="nobody").content.decode()
    assert "No other player of that name." in html
    html = page(None, "alice", vs="alice").content.decode()
    assert "No other player of that name." in html
    response = page(None, "alice", vs="dan")
    assert response.context["head_to_head"] == []
    assert "No game of Alice and Dan together yet." in response.content.decode()


def test_a_private_tables_game_counts_but_is_not_named_to_others(alice, bob, make_player):
    hidden = paper_game([alice, bob], [1, 9], is_public=False)
    shown = paper_game([alice, bob], [9, 1])
    stranger = make_player("erin")
    response = page(stranger, "alice", vs="bob")
    (figures,) = response.context["game_figures"]
    assert figures["played"] == 2
    assert [g.table_id for g in figures["recent"]] == [shown.table_id]
    assert figures["best_games"] == [] and figures["worst_games"] == []
    (h,) = response.context["head_to_head"]
    assert h["games"] == 2 and [p["mine"].table_id for p in h["latest"]] == [shown.table_id]
    assert f"/tables/{hidden.table_id}/" not in response.content.decode()
    (own,) = page(bob, "alice").context["game_figures"]
    assert {g.table_id for g in own["recent"]} == {hidden.table_id, shown.table_id}


def test_a_members_only_game_shows_to_members_only_in_the_head_to_head(private_cup):  # noqa: F811
    play_to_the_end(private_cup["table"])
    outsider = page(private_cup["outsider"], "ann", vs="ben")
    assert outsider.context["head_to_head"] == [] and outsider.context["game_figures"] == []
    member = page(private_cup["member"], "ann", vs="ben")
    (h,) = member.context["head_to_head"]
    assert h["games"] == 1 and h["ahead"] + h["behind"] + h["level"] == 1


def test_a_voided_league_game_is_no_game(season, alice, bob):
    table = services.table_create(
        user=alice, seats_count=2, options={"end": "rounds", "rounds": 1}, season=season
    )
    services.table_paper(table_id=table.pk)
    services.paper_seats(table_id=table.pk, users=[alice, bob])
    game = services.paper_result(table_id=table.pk, lines=[[1, 9]])
    assert page(None, "alice").context["game_figures"][0]["played"] == 1
    league_services.result_void(game=game, reason="Wrong players", user=alice)
    assert page(None, "alice").context["game_figures"] == []
