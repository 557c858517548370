"""League mails and the league calendar (issue 24, "Notifications"): a player seated at a
club night, a request to join waiting for the league's admins, a score sheet waiting for
its players; each in its reader's language, each kind turned off by whoever does not want
it, none for a change that rolled back; and an iCalendar feed of evenings and tournaments."""

import datetime

import pytest
from django.core import mail
from django.core.mail.backends.base import BaseEmailBackend
from django.db import transaction
from django.test import Client
from django.urls import reverse

from leagues import ical, services
from leagues.models import Evening, League, Membership, Tournament

pytestmark = pytest.mark.django_db

SITE = "https://club.example.org"


@pytest.fixture(autouse=True)
def _site_url(settings):
    settings.SITE_URL = SITE


def mails_to(user) -> list:
    return [message for message in mail.outbox if message.to == [user.email]]


def the_mail_to(user):
    (message,) = mails_to(user)
    return message


def speaks(user, language: str):
    user.preferred_language = language
    user.save(update_fields=["preferred_language"])
    return user


def turned_off(user, preference: str):
    setattr(user, preference, False)
    user.save(update_fields=[preference])
    return user


# --- seated for a round ---------------------------------------------------------------------------


@pytest.fixture
def evening(season, alice, bob, carol, dave):
    event = Evening.objects.create(
        season=season,
        date=datetime.date(2026, 12, 5),
        place="Le Bistrot",
        min_table_size=2,
        table_size=2,
        game_rounds=1,
    )
    event.players.set([alice, bob, carol, dave])
    return event


def test_each_seated_player_gets_their_table_link_and_the_date(
    evening, alice, bob, carol, dave, django_capture_on_commit_callbacks
):
    speaks(alice, "en")
    speaks(bob, "en")
    with django_capture_on_commit_callbacks(execute=True):
        tables = services.seating_generate(event=evening, seed=1)
    assert len(mail.outbox) == 4
    for table in tables:
        players = [seat.user for seat in table.seats.order_by("position")]
        for player in players:
            message = the_mail_to(player)
            assert SITE + reverse("table", args=[table.pk]) in message.body
            (other,) = [p for p in players if p != player]
            assert other.shown_name in message.body
    body = the_mail_to(alice).body
    assert "round 1: Evening of 5 Dec 2026 (Club), on 5 Dec 2026" in body
    assert "Le Bistrot" in body
    assert the_mail_to(alice).subject.startswith("Club: Evening of 5 Dec 2026, round 1, table ")


def test_a_seated_player_reads_it_in_their_language(
    evening, alice, bob, carol, dave, django_capture_on_commit_callbacks
):
    speaks(alice, "en")
    speaks(bob, "fr")  # carol and dave chose nothing: the site's language, French
    with django_capture_on_commit_callbacks(execute=True):
        services.seating_generate(event=evening, seed=1)
    assert "You are seated for round 1" in the_mail_to(alice).body
    for player in (bob, carol, dave):
        message = the_mail_to(player)
        assert "Vous êtes placé" in message.body, message.body
        assert "5 décembre 2026" in message.body
        assert "Soirée du" in message.subject


def test_a_player_who_turned_seating_mails_off_gets_none(
    evening, alice, bob, carol, dave, django_capture_on_commit_callbacks
):
    turned_off(bob, "notify_seated")
    with django_capture_on_commit_callbacks(execute=True):
        services.seating_generate(event=evening, seed=1)
    assert mails_to(bob) == []
    assert {tuple(m.to) for m in mail.outbox} == {(u.email,) for u in (alice, carol, dave)}


def test_a_seating_that_rolls_back_mails_nobody(evening, django_capture_on_commit_callbacks):
    with (
        django_capture_on_commit_callbacks(execute=True) as callbacks,
        pytest.raises(RuntimeError),
        transaction.atomic(),
    ):
        services.seating_generate(event=evening, seed=1)
        raise RuntimeError("the admin's page failed after seating")
    assert callbacks == [] and mail.outbox == []


def test_a_tournament_round_is_mailed_with_the_tournaments_name(
    season, alice, bob, django_capture_on_commit_callbacks
):
    cup = Tournament.objects.create(
        season=season, name="Winter Cup", date=datetime.date(2026, 12, 5), rounds=2
    )
    cup.players.set([alice, bob])
    speaks(alice, "en")
    with django_capture_on_commit_callbacks(execute=True):
        services.seating_generate(event=cup, seed=1)
    assert the_mail_to(alice).subject == "Club: Winter Cup, round 1, table 1"
    assert "Bob" in the_mail_to(alice).body and "Alice" in the_mail_to(bob).body


def test_a_player_without_an_email_address_is_skipped(
    evening, alice, bob, carol, dave, django_capture_on_commit_callbacks
):
    dave.email = ""
    dave.save(update_fields=["email"])
    with django_capture_on_commit_callbacks(execute=True):
        services.seating_generate(event=evening, seed=1)
    assert len(mail.outbox) == 3


def test_a_failing_mail_server_does_not_undo_or_break_the_seating(
    evening, settings, django_capture_on_commit_callbacks, caplog
):
    settings.EMAIL_BACKEND = "tests.leagues.test_notifications.BrokenBackend"
    with django_capture_on_commit_callbacks(execute=True):
        tables = services.seating_generate(event=evening, seed=1)
    assert len(tables) == 2 and evening.seated_tables.count() == 2
    assert "League mails not sent" in caplog.text


class BrokenBackend(BaseEmailBackend):
    def send_messages(self, email_messages):
        raise ConnectionRefusedError("no mail server")


# --- a request to join waits --------------------------------------------------------------------


@pytest.fixture
def zoe(make_player):
    return make_player("zoe", display_name="Zoé")


def test_a_join_request_mails_the_leagues_admins_with_the_waiting_list(
    club, alice, bob, zoe, django_capture_on_commit_callbacks
):
    club.admins.add(bob)
    speaks(alice, "en")
    alice.is_staff = True
    alice.save(update_fields=["is_staff"])
    with django_capture_on_commit_callbacks(execute=True):
        membership = services.membership_request(league=club, user=zoe)
    assert membership.status == Membership.Status.PENDING
    assert sorted(m.to[0] for m in mail.outbox) == [alice.email, bob.email]
    message = the_mail_to(alice)
    assert message.subject == "Club: Zoé asks to join"
    assert "Zoé (zoe) asks to join Club." in message.body
    assert SITE + club.get_absolute_url() in message.body
    admin_list = reverse("admin:leagues_membership_changelist")
    assert f"{SITE}{admin_list}?league__id__exact={club.pk}&status__exact=pending" in message.body
    # Bob is no staff member: the league page, where he lets players in, and no admin link.
    bob_mail = the_mail_to(bob)
    assert "demande à rejoindre" in bob_mail.subject
    assert admin_list not in bob_mail.body


def test_a_join_request_goes_to_no_other_leagues_admin_nor_to_site_admins(
    club, alice, zoe, make_player, django_capture_on_commit_callbacks
):
    other = League.objects.create(name="Other", slug="other")
    other.admins.add(make_player("olga"))
    make_player("root", is_superuser=True, is_staff=True)
    with django_capture_on_commit_callbacks(execute=True):
        services.membership_request(league=club, user=zoe)
    assert [m.to for m in mail.outbox] == [[alice.email]]


def test_no_join_request_mail_when_the_admin_turned_it_off_or_nothing_waits(
    club, alice, zoe, bob, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        services.membership_request(league=club, user=bob)  # a member already
        services.membership_request(league=club, user=zoe, invite_code=club.invite_code)
    assert mail.outbox == []  # nobody waits: in at once with the invitation link
    newcomer = Membership.objects.get(user=zoe)
    newcomer.delete()
    turned_off(alice, "notify_join_requests")
    with django_capture_on_commit_callbacks(execute=True):
        services.membership_request(league=club, user=zoe)
    assert mail.outbox == []


def test_asking_twice_mails_the_admins_once(club, alice, zoe, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        services.membership_request(league=club, user=zoe)
        services.membership_request(league=club, user=zoe)
    assert len(mail.outbox) == 1


def test_a_join_request_that_rolls_back_mails_nobody(club, zoe, django_capture_on_commit_callbacks):
    with (
        django_capture_on_commit_callbacks(execute=True) as callbacks,
        pytest.raises(RuntimeError),
        transaction.atomic(),
    ):
        services.membership_request(league=club, user=zoe)
        raise RuntimeError
    assert callbacks == [] and mail.outbox == []


def test_asking_from_the_league_page_mails_its_admin(
    club, alice, zoe, django_capture_on_commit_callbacks
):
    client = Client()
    client.force_login(zoe)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("league_join", args=[club.slug]))
    assert response.status_code == 302
    assert [m.to for m in mail.outbox] == [[alice.email]]


# --- a score sheet awaits confirmation ----------------------------------------------------------


def enter(season, user, players, lines):
    return services.sheet_enter(
        season=season, user=user, players=players, lines=lines, played_on=datetime.date(2026, 12, 5)
    )


def test_an_entered_sheet_mails_its_other_players_with_its_link(
    season, alice, bob, carol, django_capture_on_commit_callbacks
):
    speaks(bob, "en")
    with django_capture_on_commit_callbacks(execute=True):
        sheet = enter(season, alice, [alice, bob, carol], [[3, 10, 0], [5, 2, 9]])
    assert sorted(m.to[0] for m in mail.outbox) == [bob.email, carol.email]
    message = the_mail_to(bob)
    assert message.subject == "Club: confirm the score sheet of 5 Dec 2026"
    assert "Alice entered the score sheet of your game of 5 Dec 2026 (2026)" in message.body
    assert "Heads: Alice 8, Bob 12, Carol 9" in message.body
    assert SITE + reverse("league_sheet", args=[sheet.pk]) in message.body
    assert "confirmez" in the_mail_to(carol).subject  # Carol reads French
    assert "Têtes : Alice 8, Bob 12, Carol 9" in the_mail_to(carol).body


def test_a_sheet_entered_by_an_admin_who_did_not_play_mails_every_player(
    season, alice, bob, carol, dave, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        enter(season, alice, [bob, carol, dave], [[3, 10, 0]])
    assert sorted(m.to[0] for m in mail.outbox) == sorted(u.email for u in (bob, carol, dave))


def test_a_fixed_sheet_is_mailed_again_to_everyone_but_the_admin_who_fixed_it(
    season, alice, bob, carol, django_capture_on_commit_callbacks
):
    speaks(carol, "en")
    with django_capture_on_commit_callbacks(execute=True):
        sheet = enter(season, bob, [alice, bob, carol], [[3, 10, 0]])
        services.sheet_answer(sheet=sheet, user=carol, confirmed=False, reason="I took 4")
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        services.sheet_fix(sheet=sheet, user=alice, lines=[[3, 10, 4]])
    assert sorted(m.to[0] for m in mail.outbox) == [bob.email, carol.email]
    message = the_mail_to(carol)
    assert message.subject == "Club: the score sheet of 5 Dec 2026 was corrected"
    assert "Alice wrote the score sheet of your game of 5 Dec 2026 (2026) again" in message.body
    assert "Heads: Alice 3, Bob 10, Carol 4" in message.body


def test_no_sheet_mail_to_a_player_who_turned_it_off(
    season, alice, bob, carol, django_capture_on_commit_callbacks
):
    turned_off(carol, "notify_sheets")
    with django_capture_on_commit_callbacks(execute=True):
        enter(season, alice, [alice, bob, carol], [[3, 10, 0]])
    assert [m.to for m in mail.outbox] == [[bob.email]]


def test_a_sheet_that_rolls_back_mails_nobody(
    season, alice, bob, django_capture_on_commit_callbacks
):
    with (
        django_capture_on_commit_callbacks(execute=True) as callbacks,
        pytest.raises(RuntimeError),
        transaction.atomic(),
    ):
        enter(season, alice, [alice, bob], [[3, 10]])
        raise RuntimeError
    assert callbacks == [] and mail.outbox == []


def test_a_refused_sheet_mails_nobody(season, alice, bob, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True), pytest.raises(services.LeagueError):
        enter(season, alice, [alice, bob], [[3, 500]])
    assert mail.outbox == []


# --- the preferences on the profile --------------------------------------------------------------


def test_every_kind_of_mail_is_on_for_a_new_player(make_player):
    zoe = make_player("zoe")
    assert zoe.notify_seated and zoe.notify_join_requests and zoe.notify_sheets


def test_a_player_turns_mails_off_on_their_profile(alice):
    client = Client(headers={"accept-language": "en"})
    client.force_login(alice)
    page = client.get(reverse("profile_edit")).content.decode()
    assert "Email me when I am seated at a club night" in page
    assert "League emails go to alice@example.org" in page
    response = client.post(
        reverse("profile_edit"),
        {"display_name": "Alice", "preferred_language": "", "notify_sheets": "on"},
    )
    assert response.status_code == 302
    alice.refresh_from_db()
    assert (alice.notify_seated, alice.notify_join_requests, alice.notify_sheets) == (
        False,
        False,
        True,
    )


# --- the calendar feed ---------------------------------------------------------------------------


def physical_lines(content: bytes) -> list[bytes]:
    assert content.endswith(b"\r\n")
    lines = content[:-2].split(b"\r\n")
    for line in lines:
        assert b"\r" not in line and b"\n" not in line  # CRLF only, no bare CR or LF
        assert len(line) <= 75, line
    return lines


def unfold(lines: list[bytes]) -> list[str]:
    logical: list[bytes] = []
    for line in lines:
        if line.startswith(b" "):
            logical[-1] += line[1:]
        else:
            logical.append(line)
    return [line.decode() for line in logical]


def unescape(value: str) -> str:
    out, chars = [], iter(value)
    for char in chars:
        if char == "\\":
            following = next(chars)
            out.append("\n" if following in "nN" else following)
        else:
            assert char not in ",;", value  # TEXT holds them escaped only
            out.append(char)
    return "".join(out)


def parse(content: bytes) -> list[dict]:
    """The VEVENTs of a VCALENDAR, checked line by line: BEGIN/END pairs, one calendar."""
    stack, events, current = [], [], None
    lines = unfold(physical_lines(content))
    assert lines[0] == "BEGIN:VCALENDAR" and lines[-1] == "END:VCALENDAR"
    for line in lines:
        name, _sep, value = line.partition(":")
        if name == "BEGIN":
            stack.append(value)
            if value == "VEVENT":
                current = {}
        elif name == "END":
            assert stack.pop() == value
            if value == "VEVENT":
                events.append(current)
                current = None
        elif current is not None:
            assert name not in current, name
            current[name] = value
        else:
            assert stack == ["VCALENDAR"]
    assert stack == []
    return events


@pytest.fixture
def club_nights(season):
    evening = Evening.objects.create(
        season=season,
        date=datetime.date(2026, 12, 5),
        place="Café de la Gare, salle 2; au fond\\à droite",
        notes="Bring cards,\nand snacks",
    )
    cup = Tournament.objects.create(
        season=season,
        name="Coupe d’hiver — « 6 qui prend ! » des clubs réunis de Haute-Savoie et d’Isère",
        date=datetime.date(2027, 1, 9),
        rounds=3,
        duplicate=True,
    )
    return evening, cup


def test_a_public_leagues_calendar_lists_its_evenings_and_tournaments(club, club_nights):
    evening, cup = club_nights
    response = Client(headers={"accept-language": "en"}).get(
        reverse("league_calendar", args=[club.slug])
    )
    assert response.status_code == 200
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    events = parse(response.content)
    assert len(events) == 2
    by_uid = {event["UID"]: event for event in events}
    night = by_uid[f"evening-{evening.pk}@club.example.org"]
    assert night["DTSTART;VALUE=DATE"] == "20261205"
    assert night["DTEND;VALUE=DATE"] == "20261206"
    assert unescape(night["SUMMARY"]) == "Club: Evening of 5 Dec 2026"
    assert unescape(night["LOCATION"]) == "Café de la Gare, salle 2; au fond\\à droite"
    assert night["LOCATION"] == "Café de la Gare\\, salle 2\\; au fond\\\\à droite"
    assert unescape(night["DESCRIPTION"]) == "2026\n6 qui prend !\nBring cards,\nand snacks"
    assert night["URL"] == SITE + evening.get_absolute_url()
    assert len(night["DTSTAMP"]) == 16 and night["DTSTAMP"].endswith("Z")
    final = by_uid[f"tournament-{cup.pk}@club.example.org"]
    assert unescape(final["SUMMARY"]) == f"Club: {cup.name}"
    assert final["DTSTART;VALUE=DATE"] == "20270109"
    assert "LOCATION" not in final
    assert unescape(final["DESCRIPTION"]) == "2026\n6 qui prend !\n3 rounds\nduplicate"


def test_long_lines_are_folded_between_characters_at_75_octets():
    line = "SUMMARY:" + "é" * 100 + "x" * 80
    folded = ical.fold(line)
    physical = folded.encode().split(b"\r\n")
    assert len(physical) > 2 and all(len(p) <= 75 for p in physical)
    assert all(p.startswith(b" ") for p in physical[1:])
    assert len(physical[0]) in (74, 75)
    assert "".join(p.decode()[1:] if i else p.decode() for i, p in enumerate(physical)) == line
    assert ical.fold("SUMMARY:short") == "SUMMARY:short"


def test_text_is_escaped():
    assert ical.escape_text("a,b;c\\d\ne\r\nf\x00") == "a\\,b\\;c\\\\d\\ne\\nf"


def test_a_members_only_calendar_needs_its_token(club, club_nights, alice, make_player):
    club.is_public = False
    club.save(update_fields=["is_public"])
    path = reverse("league_calendar", args=[club.slug])
    anonymous = Client()
    assert anonymous.get(path).status_code == 403
    assert anonymous.get(path, {"token": "guess"}).status_code == 403
    assert anonymous.get(path, {"token": ical.calendar_token(club)}).status_code == 200
    assert len(parse(anonymous.get(ical.calendar_url(club)).content)) == 2
    stranger = Client()
    stranger.force_login(make_player("zoe"))
    assert stranger.get(path).status_code == 403
    member = Client()
    member.force_login(alice)
    assert member.get(path).status_code == 200
    # A new invitation link changes the calendar's too.
    old = ical.calendar_token(club)
    services.league_new_invite_code(league=club)
    assert anonymous.get(path, {"token": old}).status_code == 403


def test_the_league_page_links_the_calendar_with_its_token_for_members_only(
    club, alice, make_player
):
    club.is_public = False
    club.save(update_fields=["is_public"])
    member = Client(headers={"accept-language": "en"})
    member.force_login(alice)
    page = member.get(club.get_absolute_url()).content.decode()
    assert ical.calendar_url(club).replace("&", "&amp;") in page
    assert f"token={ical.calendar_token(club)}" in page
    stranger = Client(headers={"accept-language": "en"})
    stranger.force_login(make_player("zoe"))
    page = stranger.get(club.get_absolute_url()).content.decode()
    assert ical.calendar_token(club) not in page and "calendar.ics" not in page


def test_the_public_league_page_links_the_calendar_without_a_token(club):
    page = Client(headers={"accept-language": "en"}).get(club.get_absolute_url()).content.decode()
    assert f'href="{reverse("league_calendar", args=[club.slug])}"' in page
    assert "token=" not in page
