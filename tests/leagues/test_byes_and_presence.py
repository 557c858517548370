"""Fair byes, and presence that follows the night panel (issue 32, items 4, 5 and 8): nobody
has a second bye before every present player has had one, and a bye is mailed; Replace and
Absent change who is present, so the next round seats the one who came, and both players
are mailed; Remove warns below the event's fewest; Swap works within a table; a join
request to a league without admins reaches the site's admins."""

import datetime

import pytest
from django.core import mail
from django.urls import reverse

from games import services
from games.models import Table
from leagues import services as league_services
from leagues.models import Absence, Evening, League, Membership, SeatingMethod, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def members(club, make_player):
    """Active members of the club, Alice, Bob, Carol and Dave first; they read English."""

    def make(count):
        users = [m.user for m in club.memberships.select_related("user").order_by("user_id")]
        for number in range(len(users), count):
            user = make_player(f"player{number:02d}", display_name=f"Player {number:02d}")
            Membership.objects.create(league=club, user=user, status=Membership.Status.ACTIVE)
            users.append(user)
        for user in users:
            user.preferred_language = "en"
            user.save(update_fields=["preferred_language"])
        return users[:count]

    return make


def seated(table) -> list[int]:
    return [seat.user_id for seat in Table.objects.get(pk=table.pk).seats.order_by("position")]


def play_out(tables):
    """Start each table and let everyone leave: the RULES §1.8 fallback finishes it."""
    for table in tables:
        services.table_start(table_id=table.pk, user=None)  # as the night panel
        for seat in table.seats.select_related("user"):
            services.seat_remove(table_id=table.pk, user=seat.user)
        assert Table.objects.get(pk=table.pk).status == Table.Status.FINISHED


def byes_of(event, round_number: int) -> set[int]:
    rows = Absence.objects.filter(tournament=event, round=round_number, bye=True)
    return set(rows.values_list("user_id", flat=True))


def mails_to(user) -> list:
    return [message for message in mail.outbox if message.to == [user.email]]


# --- byes -------------------------------------------------------------------------------------


@pytest.mark.parametrize("seating", [SeatingMethod.RANDOM, SeatingMethod.SWISS])
def test_nobody_has_a_second_bye_before_every_present_player_had_one(season, members, seating):
    players = members(7)  # tables of 4: 3 byes a round
    cup = Tournament.objects.create(
        season=season,
        name="Cup",
        date=datetime.date.today(),
        game_rounds=1,
        rounds=3,
        duplicate=True,
        seating=seating,
    )
    cup.players.set(players)
    everyone = {p.pk for p in players}
    had = set()
    for round_number in (1, 2, 3):
        tables = league_services.seating_generate(event=cup, seed=round_number)
        byes = byes_of(cup, round_number)
        assert len(byes) == 3 and byes.isdisjoint(u for t in tables for u in seated(t))
        if had != everyone:
            # A second bye only once the first ones are all given, this round included.
            waiting = everyone - had
            assert waiting <= byes or byes <= waiting, (round_number, had, byes)
        had |= byes
        play_out(tables)
    assert had == everyone


def test_a_bye_is_mailed_like_a_seating(season, members, django_capture_on_commit_callbacks):
    players = members(6)
    cup = Tournament.objects.create(
        season=season, name="Cup", date=datetime.date(2026, 12, 5), game_rounds=1, duplicate=True
    )
    cup.players.set(players)
    with django_capture_on_commit_callbacks(execute=True):
        league_services.seating_generate(event=cup, seed=1)
    byes = byes_of(cup, 1)
    assert len(byes) == 2
    for player in players:
        subjects = [m.subject for m in mails_to(player)]
        if player.pk in byes:
            (message,) = mails_to(player)
            assert message.subject == "Club: Cup, round 1, you have a bye"
            assert "You sit out round 1 of Cup (Club), on" in message.body
            assert cup.get_absolute_url() in message.body
        else:
            assert len(subjects) == 1 and "you have a bye" not in subjects[0]


# --- Replace and Absent change who is present ----------------------------------------------------


@pytest.fixture
def evening(season, members):
    event = Evening.objects.create(
        season=season,
        date=datetime.date(2026, 12, 5),
        min_table_size=4,
        table_size=5,
        game_rounds=1,
    )
    event.players.set(members(9))
    return event


@pytest.fixture
def erin(club, make_player):
    """A member who came late, not among the present players."""
    user = make_player("erin", display_name="Erin", preferred_language="en")
    Membership.objects.create(league=club, user=user, status=Membership.Status.ACTIVE)
    return user


def test_a_replacement_is_seated_next_round_and_the_replaced_player_is_not(
    evening, erin, django_capture_on_commit_callbacks
):
    first, second = league_services.seating_generate(event=evening, seed=1)
    gone = type(erin).objects.get(pk=seated(first)[0])
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        league_services.night_replace(
            event=evening, slot_id=first.evening_slot.pk, user_id=gone.pk, by_user=erin
        )
    present = set(evening.players.values_list("pk", flat=True))
    assert erin.pk in present and gone.pk not in present
    # Erin is mailed her table, Gone that his seat is taken and he is no longer present.
    (welcome,) = mails_to(erin)
    assert welcome.subject == "Club: Evening of 5 Dec 2026, round 1, table 1"
    assert first.get_absolute_url() in welcome.body
    (farewell,) = mails_to(gone)
    assert farewell.subject == "Club: Evening of 5 Dec 2026, you are no longer seated"
    assert "Erin takes your seat in round 1" in farewell.body
    assert "no longer among the present players" in farewell.body
    assert len(mail.outbox) == 2
    play_out([first, second])
    next_round = league_services.seating_generate(event=evening, seed=2)
    sitting = {u for t in next_round for u in seated(t)}
    assert erin.pk in sitting and gone.pk not in sitting


def test_a_seat_given_to_a_bot_takes_its_player_out_of_the_present(
    evening, django_capture_on_commit_callbacks
):
    first, _second = league_services.seating_generate(event=evening, seed=1)
    gone = evening.players.get(pk=seated(first)[0])
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        league_services.night_replace(
            event=evening, slot_id=first.evening_slot.pk, user_id=gone.pk, by_bot="expert"
        )
    assert not evening.players.filter(pk=gone.pk).exists()
    (farewell,) = mails_to(gone)
    assert "takes your seat in round 1" in farewell.body
    assert len(mail.outbox) == 1


def test_an_absent_player_is_not_seated_next_round_and_a_removed_one_is(
    evening, django_capture_on_commit_callbacks
):
    first, second = league_services.seating_generate(event=evening, seed=1)
    big = first if len(seated(first)) == 5 else second
    absent, removed = seated(big)[:2]
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        league_services.night_remove(event=evening, slot_id=big.evening_slot.pk, user_id=absent)
    (message,) = mail.outbox
    assert message.to == [evening.players.model.objects.get(pk=absent).email]
    assert "You are marked absent from round 1" in message.body
    with django_capture_on_commit_callbacks(execute=True):
        left = league_services.night_remove(
            event=evening, slot_id=big.evening_slot.pk, user_id=removed, absent=False
        )
    assert left == 3 and len(mail.outbox) == 1
    present = set(evening.players.values_list("pk", flat=True))
    assert absent not in present and removed in present
    play_out([first, second])
    next_round = league_services.seating_generate(event=evening, seed=2)
    sitting = {u for t in next_round for u in seated(t)}
    assert removed in sitting and absent not in sitting


# --- the panel: its messages, Remove below the fewest, Swap within a table ---------------------


@pytest.fixture
def club_admin(client, alice, club):
    alice.is_staff = True
    alice.save()
    client.force_login(alice)
    return client


def night_post(client, evening, value, **fields) -> str:
    url = reverse("admin:leagues_evening_night", args=[evening.pk])
    return client.post(url, {"night": value, **fields}, follow=True).content.decode()


def test_the_panel_says_who_is_present_after_replace_and_absent(club_admin, evening, erin):
    first, _second = league_services.seating_generate(event=evening, seed=1)
    slot = first.evening_slot.pk
    gone = evening.players.get(pk=seated(first)[0])
    page = night_post(
        club_admin,
        evening,
        f"replace:{slot}:{gone.pk}",
        **{f"by_{slot}_{gone.pk}": f"user:{erin.pk}"},
    )
    assert f"Erin takes the seat of {gone.shown_name}, and is among the present players" in page
    other = evening.players.get(pk=seated(first)[1])
    page = night_post(club_admin, evening, f"absent:{slot}:{other.pk}")
    assert f"{other.shown_name} is marked absent and is no longer among the present" in page


def test_remove_warns_when_a_table_falls_below_the_events_fewest(club_admin, evening):
    first, second = league_services.seating_generate(event=evening, seed=1)
    big, small = (first, second) if len(seated(first)) == 5 else (second, first)
    page = night_post(club_admin, evening, f"remove:{big.evening_slot.pk}:{seated(big)[0]}")
    assert "still among the present players" in page and "fewer than" not in page
    page = night_post(club_admin, evening, f"remove:{small.evening_slot.pk}:{seated(small)[0]}")
    assert "The table now has 3 players, fewer than this event&#x27;s fewest (4)" in page
    assert len([u for u in seated(small) if u]) == 3


def test_two_players_of_one_table_swap_seats(club_admin, evening):
    first, _second = league_services.seating_generate(event=evening, seed=1)
    before = seated(first)
    slot = first.evening_slot.pk
    a, b = before[0], before[2]
    page = night_post(club_admin, evening, "swap:1", swap_a_1=f"{slot}:{a}", swap_b_1=f"{slot}:{b}")
    assert "The two players swapped seats." in page
    assert seated(first) == [b, before[1], a, *before[3:]]
    first.evening_slot.refresh_from_db()
    assert sorted(first.evening_slot.reserved_for) == sorted(before)
    with pytest.raises(league_services.LeagueError) as refused:
        league_services.night_swap(event=evening, first=(slot, a), second=(slot, a))
    assert refused.value.code == "same_player"


# --- a join request to a league without admins ----------------------------------------------


def test_a_join_request_to_a_league_without_admins_reaches_the_sites_admins(
    make_player, django_capture_on_commit_callbacks
):
    league = League.objects.create(name="Orphans", slug="orphans")
    root = make_player("root", is_superuser=True, is_staff=True, preferred_language="en")
    no_address = make_player("nomail", is_superuser=True, is_staff=True)
    no_address.email = ""
    no_address.save(update_fields=["email"])
    make_player("olga", is_staff=True)  # another league's admin: not this request's
    zoe = make_player("zoe", display_name="Zoé")
    with django_capture_on_commit_callbacks(execute=True):
        league_services.membership_request(league=league, user=zoe)
    assert [m.to for m in mail.outbox] == [[root.email]]
    assert mail.outbox[0].subject == "Orphans: Zoé asks to join"
    assert "status__exact=pending" in mail.outbox[0].body
