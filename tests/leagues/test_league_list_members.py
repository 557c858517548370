"""The leagues list counts each league's active members once (issue 21, item 7)."""

import re

import pytest

from leagues.models import League, Membership

pytestmark = pytest.mark.django_db


def members_shown(page: str, name: str) -> int:
    match = re.search(rf">{name}</a>\s*<span class=\"muted\">(\d+) members?", page)
    assert match, f"{name} is not listed"
    return int(match.group(1))


def test_a_signed_in_member_reads_the_number_of_members(client, club, alice):
    client.force_login(alice)
    page = client.get("/leagues/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert members_shown(page, "Club") == 4


def test_each_reader_reads_the_same_count_members_or_not(client, club, make_player):
    stranger = make_player("stranger")
    Membership.objects.create(league=club, user=stranger, status=Membership.Status.PENDING)
    pages = [client.get("/leagues/", HTTP_ACCEPT_LANGUAGE="en").content.decode()]
    for user in (stranger, club.memberships.get(user__username="bob").user):
        client.force_login(user)
        pages.append(client.get("/leagues/", HTTP_ACCEPT_LANGUAGE="en").content.decode())
    # A pending request is not a member.
    assert [members_shown(page, "Club") for page in pages] == [4, 4, 4]


def test_a_members_only_league_is_listed_once_to_its_member_with_its_count(client, club, alice):
    private = League.objects.create(name="Back room", slug="back-room", is_public=False)
    Membership.objects.create(league=private, user=alice, status=Membership.Status.ACTIVE)
    client.force_login(alice)
    page = client.get("/leagues/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert page.count(">Back room</a>") == 1 and page.count(">Club</a>") == 1
    assert members_shown(page, "Back room") == 1
    assert members_shown(page, "Club") == 4
    client.force_login(club.memberships.get(user__username="bob").user)
    page = client.get("/leagues/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert ">Back room</a>" not in page
