"""The lobby's new-table form and its list of tables (issue 21).

The threshold applies only to a game that ends at a threshold, the number of rounds only to
one that ends after so many rounds: the page marks each field with the end it belongs to
(static/js/lobby.js shows only that one; without JavaScript both stay visible), and a
value in the field that does not apply refuses nothing. A full table is listed as full
and about to start, not as waiting for players.
"""

import re

import pytest
from django.test import Client

from games import services
from games.models import Table

pytestmark = pytest.mark.django_db

VALID = {
    "name": "Mardi soir",
    "seats_count": "4",
    "end": "threshold",
    "threshold": "66",
    "rounds": "1",
    "deal": "random",
    "live_scores": "on",
    "time_limit": "0",
    "is_public": "on",
}


def wrapper_of(page: str, field: str) -> str:
    """The opening tag of the element that holds a field's label, help and input."""
    found = re.search(r'<div([^>]*)>\s*<label for="id_' + field + '"', page)
    assert found, f"no field {field}"
    return found.group(1)


def test_each_end_field_is_marked_with_its_end_and_visible_without_javascript(alice_client):
    page = alice_client.get("/tables/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    threshold, rounds = wrapper_of(page, "threshold"), wrapper_of(page, "rounds")
    assert 'data-shown-when="end"' in threshold and 'data-shown-value="threshold"' in threshold
    assert 'data-shown-when="end"' in rounds and 'data-shown-value="rounds"' in rounds
    # Without JavaScript nothing hides them: the page is served with both shown.
    assert "hidden" not in threshold and "hidden" not in rounds
    assert 'src="/static/js/lobby.js"' in page
    # The fields of every end are still inputs of the form, with their initial values.
    assert 'name="threshold" value="66"' in page and 'name="rounds" value="1"' in page
    assert "data-shown-when" not in wrapper_of(page, "deal")


@pytest.mark.parametrize(
    ("end", "other", "value"),
    [("threshold", "rounds", "50"), ("threshold", "rounds", ""), ("rounds", "threshold", "0")],
)
def test_the_field_of_the_other_end_refuses_nothing(alice_client, end, other, value):
    data = dict(VALID, end=end, rounds="3")
    data[other] = value
    response = alice_client.post("/tables/", data)
    assert response.status_code == 302, response.context["form"].errors
    options = Table.objects.get().options
    assert options["end"] == end and other not in options
    assert options[end] == (3 if end == "rounds" else 66)


@pytest.mark.parametrize(
    ("end", "field", "value"), [("rounds", "rounds", "21"), ("threshold", "threshold", "")]
)
def test_the_field_of_the_chosen_end_is_still_checked(alice_client, end, field, value):
    response = alice_client.post("/tables/", dict(VALID, end=end, **{field: value}))
    assert response.status_code == 400
    assert list(response.context["form"].errors) == [field]
    assert not Table.objects.exists()


def test_the_error_of_a_hidden_field_is_shown_once(alice_client):
    # One game only: its name is a hidden input, and a wrong one must still say so.
    response = alice_client.post(
        "/tables/", dict(VALID, kind="no-such-game"), HTTP_ACCEPT_LANGUAGE="en"
    )
    page = response.content.decode()
    assert response.status_code == 400
    assert page.count("Select a valid choice") == 1


def test_a_full_table_is_listed_as_full_and_about_to_start(alice_client, alice, bob):
    full = services.table_create(user=alice, seats_count=2, options={}, name="Full one")
    services.seat_join(table_id=full.pk, user=bob)
    services.table_create(user=bob, seats_count=3, options={}, name="Room left")
    viewer = Client()
    viewer.force_login(bob)
    for client in (alice_client, viewer):
        page = client.get("/tables/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
        items = re.findall(r'<li class="table-item[^"]*">.*?</li>', page, re.S)
        full_items = [item for item in items if "Full one" in item]
        room_items = [item for item in items if "Room left" in item]
        assert full_items and room_items
        for item in full_items:
            assert "Full" in item and "Waiting for the start" in item
            assert "Waiting for players" not in item
        for item in room_items:
            assert "Waiting for players" in item and "Full" not in item
