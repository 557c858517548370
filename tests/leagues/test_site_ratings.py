"""Site ratings (leagues.ratings): every finished game of two humans or more, friendly or
league, moves its players' rating in that game; bots never do."""

import datetime
import io

from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from games import engine, services
from games.models import Game, Seat
from leagues import ratings, selectors
from leagues import services as league_services
from leagues.models import RatedGame, SiteRating, Standing
from tests.leagues.test_tasks import DATABASE_TASKS


def play_out(table):
    """Play a started game to its end: each seat plays what the time-out would."""
    game_engine = engine.get(table.kind)
    for _ in range(2000):
        state = game_engine.load(Game.objects.get(table=table).state)
        if game_engine.is_over(state):
            return Game.objects.get(table=table)
        seat = min(game_engine.to_act(state))
        user = table.seats.get(position=seat).user
        services.game_decide(
            table_id=table.pk, user=user, decision=game_engine.fallback(state, seat)
        )
    raise AssertionError("the game did not end")


def friendly(creator, *others, bots=0, kind="nimmt", options=None):
    table = services.table_create(
        user=creator,
        kind=kind,
        seats_count=1 + len(others) + bots,
        options=options or {"end": "rounds", "rounds": 1},
        deal_seed=7,
    )
    for other in others:
        services.seat_join(table_id=table.pk, user=other)
    for _ in range(bots):
        services.seat_add_bot(table_id=table.pk, user=creator, bot="random")
    services.table_start(table_id=table.pk, user=creator)
    return table


def test_a_friendly_game_of_two_humans_and_a_bot_rates_the_humans_only(alice, bob):
    game = play_out(friendly(alice, bob, bots=1))
    lines = {line.user: line for line in RatedGame.objects.filter(game=game)}
    assert set(lines) == {alice, bob}
    totals = game.result["totals"]
    for user, line in lines.items():
        assert line.score == totals[line.seat] and line.players == 3 and line.kind == "nimmt"
        rating = SiteRating.objects.get(user=user, kind="nimmt")
        assert (rating.mu, rating.sigma, rating.games) == (line.mu, line.sigma, 1)
    # Finishing twice rates once.
    ratings.game_rated(game=game)
    assert RatedGame.objects.filter(game=game).count() == 2
    assert SiteRating.objects.get(user=alice, kind="nimmt").games == 1


def test_one_human_against_bots_rates_nobody(alice):
    play_out(friendly(alice, bots=2))
    assert not RatedGame.objects.exists() and not SiteRating.objects.exists()


def site(user, kind="nimmt"):
    rating = SiteRating.objects.get(user=user, kind=kind)
    return rating.mu, rating.sigma, rating.games


def test_a_league_game_moves_the_season_and_the_site_ratings_a_friendly_one_the_site_only(
    season, alice, bob
):
    league = services.table_create(
        user=alice, seats_count=2, options={"end": "rounds", "rounds": 1}, season=season
    )
    services.seat_join(table_id=league.pk, user=bob)
    services.table_start(table_id=league.pk, user=alice)
    game = play_out(league)
    lines = {line.user: line for line in RatedGame.objects.filter(game=game)}
    for user in (alice, bob):
        standing = Standing.objects.get(season=season, user=user)
        assert (standing.mu, standing.sigma) == (lines[user].mu, lines[user].sigma)
        assert site(user) == (lines[user].mu, lines[user].sigma, 1)
    season_before = list(Standing.objects.order_by("pk").values_list("mu", "sigma", "games"))
    friendly_game = play_out(friendly(alice, bob))
    # The season's ratings stay as the league game left them; the site's moved again.
    assert (
        list(Standing.objects.order_by("pk").values_list("mu", "sigma", "games")) == season_before
    )
    for user in (alice, bob):
        line = RatedGame.objects.get(game=friendly_game, user=user)
        assert (line.mu_before, line.sigma_before) == (lines[user].mu, lines[user].sigma)
        assert site(user) == (line.mu, line.sigma, 2)


def test_a_game_played_on_paper_by_two_humans_is_rated(alice, bob):
    table = services.table_create(user=alice, seats_count=2, options={})
    services.seat_join(table_id=table.pk, user=bob)
    services.table_paper(table_id=table.pk)
    game = services.paper_result(table_id=table.pk, lines=[[3, 8], [10, 1]])
    lines = {line.user: line for line in RatedGame.objects.filter(game=game)}
    # Fewer heads wins: Bob, 9 to 13.
    assert {user: (line.place, line.score, line.rounds) for user, line in lines.items()} == {
        alice: (2, 13, 2),
        bob: (1, 9, 2),
    }
    assert lines[bob].rating > lines[alice].rating
    assert site(alice)[2] == site(bob)[2] == 1


def test_a_game_two_humans_left_is_played_out_and_rated(alice, bob, settings):
    from tests.games.presence import goes_away

    settings.SIXCLUB_ABANDON_GAME = 600
    table = friendly(alice, bob)
    for user in (alice, bob):
        goes_away(table, user)
    long_ago = timezone.now() - datetime.timedelta(seconds=601)
    Seat.objects.filter(table=table).update(away_since=long_ago)
    assert services.presence_sweep()["games_ended"] == 1
    game = Game.objects.get(table=table)
    assert sorted(RatedGame.objects.filter(game=game).values_list("user", flat=True)) == sorted(
        [alice.pk, bob.pk]
    )
    assert site(alice)[2] == site(bob)[2] == 1


def test_a_duplicate_deal_is_rated_once_its_last_table_finishes(alice, bob, make_player):
    carol, dave = make_player("carol"), make_player("dave")
    first, second = friendly(alice, bob), friendly(carol, dave)  # the same deal_seed
    one = play_out(first)
    # The other table plays the same hands: nothing of the first game's outcome shows.
    assert not RatedGame.objects.exists() and not SiteRating.objects.exists()
    standings = selectors.seat_standings(table=first, users=[alice.pk, bob.pk])
    assert all(s["change"] is None for s in standings.values())
    two = play_out(second)
    assert RatedGame.objects.filter(game=one).count() == 2
    assert RatedGame.objects.filter(game=two).count() == 2
    standings = selectors.seat_standings(table=first, users=[alice.pk, bob.pk])
    assert all(s["change"] for s in standings.values())


def test_a_table_shows_the_site_rating_once_a_few_games_are_played_and_each_change(
    alice, bob, settings
):
    settings.SIXCLUB_RATING_NEW_GAMES = 2
    first = friendly(alice, bob)
    play_out(first)
    standings = selectors.seat_standings(table=first, users=[alice.pk, bob.pk])
    # One game: still "new" (None), though the change shows.
    assert [standings[user]["rating"] for user in (alice.pk, bob.pk)] == [None, None]
    line = RatedGame.objects.get(game__table=first, user=alice)
    assert standings[alice.pk]["change"] == selectors.signed(line.rating - line.rating_before)
    second = friendly(alice, bob)
    play_out(second)
    standings = selectors.seat_standings(table=second, users=[alice.pk, bob.pk])
    for user in (alice, bob):
        shown = round(SiteRating.objects.get(user=user, kind="nimmt").rating)
        assert standings[user.pk]["rating"] == shown
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(bob)
    page = client.get(second.get_absolute_url()).content.decode()
    assert f'<span class="standing" title="Rating">{standings[alice.pk]["rating"]} ' in page
    assert "rating-change" in page


def ratings_now(kind="nimmt"):
    return (
        sorted(SiteRating.objects.filter(kind=kind).values_list("user", "mu", "sigma", "games")),
        sorted(
            RatedGame.objects.filter(kind=kind).values_list("game", "user", "place", "mu", "sigma")
        ),
    )


def test_a_recompute_gives_back_the_ratings_game_by_game_and_drops_a_voided_game(
    season, alice, bob, carol, settings
):
    settings.TASKS = DATABASE_TASKS
    for players in ((alice, bob), (bob, carol), (alice, carol, bob)):
        play_out(friendly(*players))
    league = services.table_create(
        user=alice, seats_count=2, options={"end": "rounds", "rounds": 1}, season=season
    )
    services.seat_join(table_id=league.pk, user=carol)
    services.table_start(table_id=league.pk, user=alice)
    voided = play_out(league)
    before = ratings_now()
    call_command("site_ratings", kind="nimmt", stdout=io.StringIO())
    assert ratings_now() == before
    league_services.result_void(game=voided, reason="Wrong players", user=alice)
    queued = DBTaskResult.objects.get(task_path="leagues.tasks.recompute_site_ratings")
    assert queued.args_kwargs["args"] == ["nimmt"]
    assert ratings.recompute("nimmt") == 3
    assert not RatedGame.objects.filter(game=voided).exists()
    assert [games for _u, _m, _s, games in ratings_now()[0]] == [2, 3, 2]


def test_the_admin_lists_site_ratings_and_queues_a_recompute(client, alice, bob, settings):
    settings.TASKS = DATABASE_TASKS
    play_out(friendly(alice, bob))
    root = get_user_model().objects.create_superuser("root", "root@example.org", "x")
    client.force_login(root)
    page = client.get(reverse("admin:leagues_siterating_changelist"), {"q": "alice"})
    assert page.status_code == 200 and len(page.context["cl"].result_list) == 1
    answer = client.post(
        reverse("admin:leagues_siterating_changelist"),
        {
            "action": "recompute_games",
            "_selected_action": list(SiteRating.objects.values_list("pk", flat=True)),
        },
        follow=True,
    )
    assert "being recomputed in the background" in answer.content.decode()
    assert (
        DBTaskResult.objects.filter(task_path="leagues.tasks.recompute_site_ratings").count() == 1
    )
    history = client.get(
        reverse("admin:leagues_ratedgame_changelist"),
        {"user__id__exact": alice.pk, "kind__exact": "nimmt"},
    )
    assert history.status_code == 200 and len(history.context["cl"].result_list) == 1
    change = client.get(
        reverse("admin:leagues_siterating_change", args=[SiteRating.objects.first().pk])
    )
    assert change.status_code == 200 and b'name="mu"' not in change.content


# --- leaderboards -------------------------------------------------------------------------------


def test_the_leaderboard_lists_rated_players_best_first_with_their_wins(
    client, alice, bob, make_player, settings
):
    settings.SIXCLUB_RATING_NEW_GAMES = 2
    carol = make_player("carol", display_name="Carol")
    for _ in range(2):
        play_out(friendly(alice, bob))
    play_out(friendly(alice, carol))  # Carol: one game, not listed yet
    client.force_login(carol)
    lobby = client.get(reverse("lobby")).content.decode()
    assert f'href="{reverse("leaderboards")}"' in lobby
    page = client.get(reverse("leaderboards"))
    rows = page.context["rows"]
    assert page.context["game"].name == "nimmt"
    assert {row.user for row in rows} == {alice, bob}
    assert rows[0].rating >= rows[1].rating and rows[0].rank == 1
    for row in rows:
        assert row.games == SiteRating.objects.get(user=row.user, kind="nimmt").games
        assert row.wins == RatedGame.objects.filter(user=row.user, kind="nimmt", place=1).count()
    html = page.content.decode()
    assert 'aria-current="page"' in html and "Play 1 more rated game to be listed." in html
    assert f'href="{reverse("profile", args=["alice"])}"' in html
    client.force_login(alice)
    html = client.get(reverse("leaderboard", args=["nimmt"])).content.decode()
    assert html.count('class="me"') == 1 and "You are ranked" not in html
    assert client.get("/leaderboards/chess/").status_code == 404


def test_equal_shown_ratings_share_a_rank_and_a_viewer_below_the_top_is_told_where(
    client, make_player, settings, monkeypatch
):
    from leagues import leaderboards

    settings.SIXCLUB_RATING_NEW_GAMES = 1
    monkeypatch.setattr(leaderboards, "TOP", 3)
    shown = [20.0, 15.04, 14.96, 10.0, 5.0]  # the second and the third both show 15.0
    players = [make_player(f"p{n}") for n in range(len(shown))]
    for player, rating in zip(players, shown, strict=True):
        SiteRating.objects.create(user=player, kind="nimmt", mu=rating + 3, sigma=1, games=3)
    quiet = make_player("quiet")
    quiet.is_active = False
    quiet.save()
    SiteRating.objects.create(user=quiet, kind="nimmt", mu=50, sigma=1, games=3)
    client.force_login(players[4])
    page = client.get(reverse("leaderboards"))
    assert [(row.rank, row.user_id) for row in page.context["rows"]] == [
        (1, players[0].pk),
        (2, players[1].pk),
        (2, players[2].pk),
    ]
    assert "You are ranked 5 of 5, with a rating of 5.0." in page.content.decode()
