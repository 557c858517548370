"""Labels that say what the figures under them are (issue 32, item 7)."""

import re

import pytest
from django.urls import reverse

from leagues import services as league_services
from leagues.models import LeagueGame, Placing, Tournament, conservative
from tests.leagues.conftest import finished_game
from tests.leagues.test_game_kinds import a_season
from tests.leagues.test_print_and_tv import evening_of, results_url, tv_url
from tests.leagues.test_tournament_formats import cup, finish

pytestmark = pytest.mark.django_db


def headers(html: str, table_start: str = '<table class="grid">') -> list[str]:
    head = html.split(table_start, 1)[1].split("</thead>", 1)[0]
    return [re.sub(r"<[^>]+>", "", cell).strip() for cell in re.findall(r"<th.*?</th>", head)]


def played(season, players, **fields) -> Tournament:
    """A tournament whose first round's tables have all finished (fewest heads wins, or,
    for Six, the cards left: the first seat keeps the fewest)."""
    event = cup(season, players, table_size=4, **fields)
    for table in league_services.seating_generate(event=event, seed=1):
        finish(table, [1, 5, 9, 13][: table.seats.count()])
    return event


def test_a_six_tournaments_columns_each_have_their_own_title(client, club, members_of_club):
    six = a_season(club, "six")
    event = played(six, members_of_club, seating="swiss")
    html = client.get(event.get_absolute_url()).content.decode()
    titles = headers(html)
    assert "Placement points" in titles and "Points" in titles
    assert len(titles) == len(set(titles))


def test_the_duplicate_footnote_says_every_table_of_the_round(client, season, members_of_club):
    event = played(season, members_of_club, duplicate=True)
    html = client.get(event.get_absolute_url()).content.decode()
    assert "at all the round's tables, this one included" in html
    assert "other tables" not in html


def test_the_best_score_of_a_six_night_is_told_in_points_and_hands(
    client, club, season, members_of_club
):
    six = a_season(club, "six")
    event = played(six, members_of_club)
    html = client.get(results_url(event, "tournaments")).content.decode()
    best = html.split('class="best-score"', 1)[1].split("</ul>", 1)[0]
    assert re.search(r"\(\d+ points in 1 hand,", best), best
    nimmt = played(season, members_of_club)
    html = client.get(results_url(nimmt, "tournaments")).content.decode()
    assert "heads in 1 round," in html.split('class="best-score"', 1)[1].split("</ul>", 1)[0]


def test_the_swiss_tv_shows_the_placement_points_it_ranks_by(client, season, members_of_club):
    event = played(season, members_of_club, seating="swiss")
    client.force_login(members_of_club[0])
    html = client.get(tv_url(event, "tournaments")).content.decode()
    panel = html.split('id="tv-standings"', 1)[1].split("</section>", 1)[0]
    title = re.sub(r"<[^>]+>", "", panel.split("<h2", 1)[1].split("</h2>", 1)[0])
    assert event.name in title and season.name not in title
    assert headers(panel, '<table class="tv-grid">')[-1] == "Placement points"
    # Winners take 6 placement points in the season's default table, the last ones 1.
    values = [int(v) for v in re.findall(r'<td class="num strong">(\d+)</td>', panel)]
    assert values == sorted(values, reverse=True) and values[0] == 6 and values[-1] == 1


def test_the_evening_admin_says_which_end_of_game_applies(root_client, season, alice, bob):
    evening = evening_of(season, [alice, bob], threshold=66, game_rounds=3)
    url = reverse("admin:leagues_evening_change", args=[evening.pk])
    html = root_client.get(url).content.decode()
    assert "3 rounds (the threshold does not apply)" in html
    evening.game_rounds = None
    evening.save()
    html = root_client.get(url).content.decode()
    assert "to the threshold, 66 (no rounds per game)" in html


def test_a_league_games_admin_shows_the_rating_the_site_shows(root_client, season, alice, bob):
    game = finished_game(season, [alice, bob], [[1, 9]])
    entry = LeagueGame.objects.get(game=game)
    placing = Placing.objects.get(entry=entry, user=alice)
    html = root_client.get(reverse("admin:leagues_leaguegame_change", args=[entry.pk])).content
    html = html.decode()
    assert f"{conservative(placing.mu, placing.sigma):.1f}" in html
    assert str(placing.mu) not in html and str(placing.sigma) not in html


def test_the_admin_shows_the_whole_invitation_link(root_client, club):
    html = root_client.get(reverse("admin:leagues_league_change", args=[club.pk])).content
    assert f"<code>http://testserver{club.get_invite_url()}</code>" in html.decode()


@pytest.fixture
def root_client(client, make_player):
    client.force_login(make_player("root", is_staff=True, is_superuser=True))
    return client


@pytest.fixture
def members_of_club(club, make_player):
    """Eight members of the club: two tables of four."""
    from leagues.models import Membership

    users = [m.user for m in club.memberships.select_related("user").order_by("user_id")]
    for number in range(len(users), 8):
        user = make_player(f"player{number:02d}", display_name=f"Player {number:02d}")
        Membership.objects.create(league=club, user=user, status=Membership.Status.ACTIVE)
        users.append(user)
    return users
