"""An evening or tournament may start at a time (issue 32: "an evening has no start time,
so the calendar has whole-day events only"): the admin sets it, the event's page and the
seating mails give it, the calendar makes it a timed event, and a game entered on paper
for it is dated at that time."""

import datetime

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.models import Game
from leagues import services
from leagues.models import Evening, Tournament
from tests.leagues.test_notifications import parse

pytestmark = pytest.mark.django_db

SITE = "https://club.example.org"


@pytest.fixture(autouse=True)
def _club_time(settings):
    settings.SITE_URL = SITE
    settings.TIME_ZONE = "Europe/Paris"


@pytest.fixture
def admin_client(client, alice, club):
    alice.is_staff = True
    alice.save(update_fields=["is_staff"])
    client.force_login(alice)
    return client


def feed(league) -> dict[str, dict]:
    response = Client().get(reverse("league_calendar", args=[league.slug]))
    assert response.status_code == 200
    return {event["UID"]: event for event in parse(response.content)}


# --- the calendar ---------------------------------------------------------------------------------


def test_an_event_with_a_start_time_is_a_timed_event_in_utc(club, season):
    winter = Evening.objects.create(
        season=season, date=datetime.date(2026, 12, 5), starts_at=datetime.time(20, 30)
    )
    # Summer time: Paris is two hours ahead of UTC, and the evening ends after midnight UTC.
    summer = Tournament.objects.create(
        season=season,
        name="Summer cup",
        date=datetime.date(2027, 7, 3),
        starts_at=datetime.time(23, 15),
    )
    events = feed(club)
    night = events[f"evening-{winter.pk}@club.example.org"]
    assert night["DTSTART"] == "20261205T193000Z"
    assert night["DTEND"] == "20261205T223000Z"  # three hours
    assert "DTSTART;VALUE=DATE" not in night and "DTEND;VALUE=DATE" not in night
    cup = events[f"tournament-{summer.pk}@club.example.org"]
    assert cup["DTSTART"] == "20270703T211500Z"
    assert cup["DTEND"] == "20270704T001500Z"


def test_an_event_without_a_start_time_stays_a_whole_day_event(club, season):
    evening = Evening.objects.create(season=season, date=datetime.date(2026, 12, 5))
    night = feed(club)[f"evening-{evening.pk}@club.example.org"]
    assert night["DTSTART;VALUE=DATE"] == "20261205"
    assert night["DTEND;VALUE=DATE"] == "20261206"
    assert "DTSTART" not in night and "DTEND" not in night


def test_the_start_is_the_clubs_time(club, season, settings):
    evening = Evening.objects.create(
        season=season, date=datetime.date(2026, 12, 5), starts_at=datetime.time(20, 30)
    )
    settings.TIME_ZONE = "America/New_York"
    assert evening.starts() == datetime.datetime(2026, 12, 6, 1, 30, tzinfo=datetime.UTC)
    assert feed(club)[f"evening-{evening.pk}@club.example.org"]["DTSTART"] == "20261206T013000Z"


# --- the admin ------------------------------------------------------------------------------------


def evening_form(evening, **changes) -> dict:
    form = {
        "season": evening.season_id,
        "date": evening.date.isoformat(),
        "starts_at": "",
        "place": evening.place,
        "players": [user.pk for user in evening.players.all()],
        "seating": evening.seating,
        "min_table_size": evening.min_table_size,
        "table_size": evening.table_size,
        "threshold": evening.threshold,
        "game_rounds": evening.game_rounds or "",
        "tv_table": "",
        "notes": evening.notes,
        "seated_tables-TOTAL_FORMS": 0,
        "seated_tables-INITIAL_FORMS": 0,
        "seated_tables-MIN_NUM_FORMS": 0,
        "seated_tables-MAX_NUM_FORMS": 0,
    }
    form.update(changes)
    return form


def test_the_admin_sets_and_clears_an_evenings_start_time(admin_client, season, alice, bob):
    evening = Evening.objects.create(season=season, date=datetime.date(2026, 12, 5))
    evening.players.set([alice, bob])
    url = reverse("admin:leagues_evening_change", args=[evening.pk])
    page = admin_client.get(url).content.decode()
    assert 'name="starts_at"' in page and "Starts at" in page
    response = admin_client.post(url, evening_form(evening, starts_at="20:30"))
    assert response.status_code == 302, response.content.decode()
    evening.refresh_from_db()
    assert evening.starts_at == datetime.time(20, 30)
    response = admin_client.post(url, evening_form(evening, starts_at="25:00"))
    assert response.status_code == 200 and "Enter a valid time." in response.content.decode()
    evening.refresh_from_db()
    assert evening.starts_at == datetime.time(20, 30)
    response = admin_client.post(url, evening_form(evening, starts_at=""))
    assert response.status_code == 302
    evening.refresh_from_db()
    assert evening.starts_at is None


def test_the_admin_adds_a_tournament_with_a_start_time(admin_client, season):
    response = admin_client.post(
        reverse("admin:leagues_tournament_add"),
        {
            "name": "Winter cup",
            "season": season.pk,
            "date": "2026-12-12",
            "starts_at": "14:00",
            "place": "",
            "rounds": 3,
            "seating": "random",
            "final_size": 4,
            "registration_open": "on",
            "min_table_size": 2,
            "table_size": 4,
            "threshold": 66,
            "game_rounds": "",
            "tv_table": "",
            "seated_tables-TOTAL_FORMS": 0,
            "seated_tables-INITIAL_FORMS": 0,
            "seated_tables-MIN_NUM_FORMS": 0,
            "seated_tables-MAX_NUM_FORMS": 0,
        },
    )
    assert response.status_code == 302, response.content.decode()
    assert Tournament.objects.get(name="Winter cup").starts_at == datetime.time(14)


# --- the pages and the mails ----------------------------------------------------------------------


def test_the_event_pages_give_the_start_time(client, club, season):
    evening = Evening.objects.create(
        season=season, date=datetime.date(2026, 12, 5), starts_at=datetime.time(20, 30)
    )
    cup = Tournament.objects.create(
        season=season, name="Cup", date=datetime.date(2026, 12, 12), starts_at=datetime.time(14)
    )
    plain = Evening.objects.create(season=season, date=datetime.date(2026, 12, 19))
    assert "Starts at 20:30" in client.get(evening.get_absolute_url()).content.decode()
    assert "12 Dec 2026, starts at 14:00" in client.get(cup.get_absolute_url()).content.decode()
    assert "Starts at" not in client.get(plain.get_absolute_url()).content.decode()
    # In French, 24-hour times too.
    french = Client(headers={"accept-language": "fr"})
    assert "20:30" in french.get(evening.get_absolute_url()).content.decode()


def test_the_seating_mail_gives_the_start_time(
    season, alice, bob, carol, dave, django_capture_on_commit_callbacks
):
    for user in (alice, bob):
        user.preferred_language = "en"
        user.save(update_fields=["preferred_language"])
    evening = Evening.objects.create(
        season=season,
        date=datetime.date(2026, 12, 5),
        starts_at=datetime.time(20, 30),
        min_table_size=2,
        table_size=4,
        game_rounds=1,
    )
    evening.players.set([alice, bob, carol, dave])
    with django_capture_on_commit_callbacks(execute=True):
        services.seating_generate(event=evening, seed=1)
    by_email = {message.to[0]: message.body for message in mail.outbox}
    assert "(Club), on 5 Dec 2026 at 20:30." in by_email[alice.email]
    assert "5 décembre 2026" in by_email[carol.email]  # the site's language
    assert "20:30" in by_email[carol.email]


# --- a game entered on paper ----------------------------------------------------------------------


def paper_game(season, alice, players, *, evening=None, played_on):
    sheet = services.sheet_enter(
        season=season,
        user=alice,
        players=players,
        lines=[[3, 10, 0]],
        played_on=played_on,
        evening=evening,
    )
    services.sheet_confirm_all(sheet=sheet, user=alice)
    return Game.objects.get(table=sheet.table)


def at_the_club(day: datetime.date, time: datetime.time) -> datetime.datetime:
    return timezone.make_aware(
        datetime.datetime.combine(day, time), timezone.get_default_timezone()
    )


def test_a_sheet_of_an_evening_with_a_start_time_is_dated_at_it(season, alice, bob, carol):
    day = timezone.localdate() - datetime.timedelta(days=3)
    evening = Evening.objects.create(season=season, date=day, starts_at=datetime.time(20, 30))
    game = paper_game(season, alice, [alice, bob, carol], evening=evening, played_on=day)
    assert game.table.evening_slot.evening == evening
    assert game.finished_at == at_the_club(day, datetime.time(20, 30))
    assert game.league_entry.finished_at == game.finished_at


def test_a_sheet_of_a_tournament_table_with_a_start_time_is_dated_at_it(
    season, alice, bob, carol, dave
):
    day = timezone.localdate() - datetime.timedelta(days=2)
    cup = Tournament.objects.create(
        season=season,
        name="Cup",
        date=day,
        starts_at=datetime.time(9, 45),
        min_table_size=4,
        table_size=4,
        game_rounds=1,
    )
    cup.players.set([alice, bob, carol, dave])
    (table,) = services.seating_generate(event=cup, seed=1)
    services.table_to_paper(event=cup, slot_id=table.tournament_slot.pk)
    players = [seat.user for seat in table.seats.order_by("position")]
    sheet = services.sheet_enter(
        season=season,
        user=alice,
        players=players,
        lines=[[1, 2, 3, 4]],
        played_on=day,
        table=table,
    )
    services.sheet_confirm_all(sheet=sheet, user=alice)
    game = Game.objects.get(table=table)
    assert game.finished_at == at_the_club(day, datetime.time(9, 45))


def test_a_sheet_is_dated_at_noon_otherwise(season, alice, bob, carol):
    day = timezone.localdate() - datetime.timedelta(days=3)
    untimed = Evening.objects.create(season=season, date=day)
    game = paper_game(season, alice, [alice, bob, carol], evening=untimed, played_on=day)
    assert game.finished_at == at_the_club(day, datetime.time(12))
    # An evening with a start time, but a sheet of another day: noon of that day.
    timed = Evening.objects.create(season=season, date=day, starts_at=datetime.time(20, 30))
    earlier = day - datetime.timedelta(days=1)
    game = paper_game(season, alice, [alice, bob, carol], evening=timed, played_on=earlier)
    assert game.finished_at == at_the_club(earlier, datetime.time(12))
    # A sheet of no evening.
    game = paper_game(season, alice, [alice, bob, carol], played_on=day)
    assert game.finished_at == at_the_club(day, datetime.time(12))


def test_a_sheet_is_never_dated_in_the_future(season, alice, bob, carol):
    today = timezone.localdate()
    evening = Evening.objects.create(season=season, date=today, starts_at=datetime.time(23, 59, 59))
    before = timezone.now()
    game = paper_game(season, alice, [alice, bob, carol], evening=evening, played_on=today)
    assert before <= game.finished_at <= timezone.now()
