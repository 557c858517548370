"""A club night as the league admin runs it (issue 24, "The night itself"): reserved
tables, swaps, replacements, absences, and starting a whole round at once."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone, translation

from games import services
from games.models import Table
from games.selectors import lobby_tables
from leagues import services as league_services
from leagues.models import Absence, Evening, Membership, Season, Standing

pytestmark = pytest.mark.django_db


@pytest.fixture
def nine(club, make_player):
    """Nine active members: Alice, Bob, Carol, Dave and five more."""
    users = [m.user for m in club.memberships.select_related("user").order_by("user_id")]
    for number in range(len(users), 9):
        user = make_player(f"player{number}", display_name=f"Player {number}")
        Membership.objects.create(league=club, user=user, status=Membership.Status.ACTIVE)
        users.append(user)
    return users


@pytest.fixture
def evening(season, nine):
    event = Evening.objects.create(
        season=season,
        date=datetime.date(2026, 12, 5),
        min_table_size=4,
        table_size=5,
        game_rounds=1,
    )
    event.players.set(nine)
    return event


def seated(table) -> list[int]:
    return [seat.user_id for seat in table.seats.order_by("position")]


def test_nine_players_at_four_to_five_sit_five_and_four_named_by_the_date(evening):
    with translation.override("en"):
        tables = league_services.seating_generate(event=evening, seed=1)
    assert sorted(len(seated(t)) for t in tables) == [4, 5]
    assert [t.name for t in tables] == ["5 Dec, round 1, table 1", "5 Dec, round 1, table 2"]
    assert all(t.reserved and t.kind == "nimmt" for t in tables)


def test_seated_tables_are_reserved_for_their_players(evening, nine, make_player, club):
    tables = league_services.seating_generate(event=evening, seed=1)
    table = tables[0]
    assert not {t.pk for t in lobby_tables(nine[0])["open_tables"]} & {t.pk for t in tables}
    # A member seated at the other table cannot take a free seat here.
    player = Table.objects.get(pk=table.pk).seats.get(position=0).user
    services.seat_remove(table_id=table.pk, user=player)
    other = seated(tables[1])[0]
    with pytest.raises(services.ServiceError) as refused:
        services.seat_join(table_id=table.pk, user=type(player).objects.get(pk=other))
    assert refused.value.code == "reserved"
    # Its own player comes back.
    services.seat_join(table_id=table.pk, user=player)
    assert player.pk in seated(Table.objects.get(pk=table.pk))


def test_the_admin_swaps_two_players_of_a_round(evening):
    first, second = league_services.seating_generate(event=evening, seed=1)
    a, b = seated(first)[1], seated(second)[2]
    slot_a, slot_b = first.evening_slot, second.evening_slot
    league_services.night_swap(event=evening, first=(slot_a.pk, a), second=(slot_b.pk, b))
    assert seated(first)[1] == b and seated(second)[2] == a
    slot_a.refresh_from_db()
    slot_b.refresh_from_db()
    assert b in slot_a.reserved_for and a not in slot_a.reserved_for
    assert a in slot_b.reserved_for


def test_an_absent_player_is_replaced_by_a_member_or_a_bot(evening, make_player, club):
    first, second = league_services.seating_generate(event=evening, seed=1)
    late = make_player("erin", display_name="Erin")
    Membership.objects.create(league=club, user=late, status=Membership.Status.ACTIVE)
    gone = seated(first)[0]
    league_services.night_replace(
        event=evening, slot_id=first.evening_slot.pk, user_id=gone, by_user=late
    )
    assert seated(first)[0] == late.pk
    # A player seated elsewhere in the round cannot take another seat.
    with pytest.raises(league_services.LeagueError) as refused:
        league_services.night_replace(
            event=evening,
            slot_id=first.evening_slot.pk,
            user_id=seated(first)[1],
            by_user=type(late).objects.get(pk=seated(second)[0]),
        )
    assert refused.value.code == "already_seated"
    league_services.night_replace(
        event=evening, slot_id=second.evening_slot.pk, user_id=seated(second)[0], by_bot="expert"
    )
    assert Table.objects.get(pk=second.pk).seats.get(position=0).bot == "expert"


def test_a_player_marked_absent_counts_by_the_seasons_rule(evening, season):
    Season.objects.filter(pk=season.pk).update(absence_score=20)
    first, _second = league_services.seating_generate(event=evening, seed=1)
    gone = seated(first)[0]
    league_services.night_remove(event=evening, slot_id=first.evening_slot.pk, user_id=gone)
    assert gone not in seated(first)
    assert Absence.objects.get(evening=evening).user_id == gone
    standing = Standing.objects.get(season=season, user_id=gone)
    assert (standing.games, standing.rounds, standing.heads, standing.wins) == (1, 1, 20, 0)
    # A recompute keeps it, and a season without the rule counts nothing.
    league_services.season_recompute(season=season)
    assert Standing.objects.get(season=season, user_id=gone).heads == 20
    Season.objects.filter(pk=season.pk).update(absence_score=None)
    league_services.season_recompute(season=Season.objects.get(pk=season.pk))
    assert not Standing.objects.filter(season=season, user_id=gone).exists()


def test_one_button_starts_every_table_of_the_round(evening):
    tables = league_services.seating_generate(event=evening, seed=1)
    slots = [t.evening_slot.pk for t in tables]
    started = league_services.night_start(event=evening, slot_ids=slots)
    assert len(started) == 2
    assert all(Table.objects.get(pk=t.pk).status == Table.Status.PLAYING for t in tables)
    # Started tables keep their seats.
    with pytest.raises(league_services.LeagueError) as refused:
        league_services.night_remove(event=evening, slot_id=slots[0], user_id=seated(tables[0])[0])
    assert refused.value.code == "started"
    assert league_services.night_start(event=evening, slot_ids=slots) == []


def test_an_event_of_another_date_is_still_seated(season, nine):
    event = Evening.objects.create(
        season=season, date=timezone.localdate() + datetime.timedelta(days=3), table_size=5
    )
    event.players.set(nine[:4])
    (table,) = league_services.seating_generate(event=event, seed=1)
    assert len(seated(table)) == 4


# --- the same night, run from the evening's own admin page ----------------------------------


@pytest.fixture
def club_admin(client, alice, club):
    alice.is_staff = True
    alice.save()
    client.force_login(alice)
    return client


def night_post(client, evening, value, **fields):
    url = reverse("admin:leagues_evening_night", args=[evening.pk])
    return client.post(url, {"night": value, **fields}, follow=True)


def test_the_evenings_admin_page_runs_the_night(club_admin, evening, make_player, club):
    page = club_admin.get(reverse("admin:leagues_evening_change", args=[evening.pk]))
    html = page.content.decode()
    assert "Seat the first round" in html and "not today" in html
    response = night_post(club_admin, evening, "seat")
    assert "2 tables seated" in response.content.decode()
    first, second = (slot.table for slot in evening.seated_tables.order_by("number"))
    html = club_admin.get(reverse("admin:leagues_evening_change", args=[evening.pk])).content
    assert b"Start every table of this round" in html and b"5 Dec, round 1, table 2" in html
    # Replace the first table's first player by a bot of the season's game.
    gone = seated(first)[0]
    slot = first.evening_slot.pk
    night_post(club_admin, evening, f"replace:{slot}:{gone}", **{f"by_{slot}_{gone}": "bot:expert"})
    assert Table.objects.get(pk=first.pk).seats.get(position=0).bot == "expert"
    # Swap two players of the two tables.
    a, b = seated(first)[1], seated(second)[1]
    night_post(
        club_admin,
        evening,
        "swap:1",
        swap_a_1=f"{slot}:{a}",
        swap_b_1=f"{second.evening_slot.pk}:{b}",
    )
    assert seated(first)[1] == b and seated(second)[1] == a
    # A broken request changes nothing and says so.
    response = night_post(club_admin, evening, "replace:x:y")
    assert "was not understood" in response.content.decode()
    response = night_post(club_admin, evening, "start_round:1")
    assert "2 tables started" in response.content.decode()
    assert {Table.objects.get(pk=t.pk).status for t in (first, second)} == {"playing"}


def test_the_night_panel_says_why_a_present_player_cannot_sit(club_admin, evening, make_player):
    stranger = make_player("zoe", display_name="Zoe")
    evening.players.add(stranger)
    html = club_admin.get(reverse("admin:leagues_evening_change", args=[evening.pk])).content
    assert b"Zoe" in html and b"not a member of the league" in html
    response = night_post(club_admin, evening, "seat")
    assert "Not members of the league: Zoe" in response.content.decode()
    assert not evening.seated_tables.exists()


def test_another_leagues_admin_cannot_run_this_night(client, evening, make_player):
    from leagues.models import League

    other = make_player("olga", is_staff=True)
    League.objects.create(name="Other", slug="other").admins.add(other)
    client.force_login(other)
    response = night_post(client, evening, "seat")
    assert response.status_code in (403, 404) or not evening.seated_tables.exists()
    assert not evening.seated_tables.exists()
