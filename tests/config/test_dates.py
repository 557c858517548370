"""Issue 21 bug 8: dates day first in English as in French (config/formats/en)."""

import datetime
import zoneinfo

import pytest
from django.conf import settings
from django.utils import formats, timezone, translation

from games.models import Game
from leagues.models import League, Membership, Season
from tests.leagues.conftest import finished_game

pytestmark = pytest.mark.django_db

PARIS = zoneinfo.ZoneInfo("Europe/Paris")
# An evening game in December: day 5 and month 12 tell day-first from month-first.
EVENING = datetime.datetime(2026, 12, 5, 21, 30, tzinfo=PARIS)
US_DATES = ("12/05/2026", "12/5/2026", "Dec. 5, 2026", "December 5, 2026")


@pytest.fixture
def alice_played_on_5_december(alice, bob):
    league = League.objects.create(name="Club", slug="club")
    for user in (alice, bob):
        Membership.objects.create(league=league, user=user, status=Membership.Status.ACTIVE)
    season = Season.objects.create(league=league, name="2026", starts_on=datetime.date(2026, 9, 1))
    game = finished_game(season, [alice, bob], [[3, 9]])
    Game.objects.filter(pk=game.pk).update(finished_at=EVENING)
    type(alice).objects.filter(pk=alice.pk).update(date_joined=EVENING)
    return game


def _profile_page(client, language):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    with timezone.override(PARIS):
        response = client.get("/players/alice/")
    assert response.status_code == 200
    return response.content.decode()


def test_an_english_profile_shows_dates_day_first(client, alice_played_on_5_december):
    page = _profile_page(client, "en")

    assert "05/12/2026" in page or "5 Dec 2026" in page
    for us_date in US_DATES:
        assert us_date not in page


def test_a_french_profile_shows_dates_day_first(client, alice_played_on_5_december):
    page = _profile_page(client, "fr")

    assert "05/12/2026" in page or "5 décembre 2026" in page
    assert "12/05/2026" not in page


def test_the_profile_writes_every_date_the_same_way(client, alice_played_on_5_december):
    # "member since" and the list of games: one shape of date on one page.
    page = _profile_page(client, "en")

    assert page.count("05/12/2026") >= 2
    assert "5 Dec 2026" not in page


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("DATE_FORMAT", "5 Dec 2026"),
        ("SHORT_DATE_FORMAT", "05/12/2026"),
        ("DATETIME_FORMAT", "5 Dec 2026, 21:30"),
        ("SHORT_DATETIME_FORMAT", "05/12/2026 21:30"),
    ],
)
def test_english_named_formats_are_day_first_on_a_24_hour_clock(name, expected):
    with translation.override("en"):
        assert formats.date_format(EVENING.replace(tzinfo=None), name) == expected


def test_english_weeks_start_on_monday_and_typed_dates_are_never_month_first():
    with translation.override("en"):
        assert formats.get_format("FIRST_DAY_OF_WEEK") == 1
        accepted = formats.get_format("DATE_INPUT_FORMATS")
    assert "%m/%d/%Y" not in accepted
    assert "%d/%m/%Y" in accepted
