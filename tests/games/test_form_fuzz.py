"""The HTTP forms under generated input: never a server error, never a half-made object."""

import pytest
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from accounts.models import User
from games.models import Seat, Table

pytestmark = pytest.mark.django_db

FIELDS = [
    "name",
    "seats_count",
    "end",
    "threshold",
    "rounds",
    "deal",
    "card_limit",
    "live_scores",
    "time_limit",
    "is_public",
    "show_played",
    "season",
]
values = st.one_of(
    st.text(max_size=30),
    st.integers(min_value=-(10**12), max_value=10**12).map(str),
    st.sampled_from(["", "on", "true", "threshold", "rounds", "draft", "random", "0", "66"]),
)
forms = st.dictionaries(st.sampled_from(FIELDS), values, max_size=len(FIELDS))


@settings(
    max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=forms)
def test_the_new_table_form_never_breaks(alice, data):
    client = Client()
    client.force_login(alice)
    before = Table.objects.count()
    response = client.post("/tables/", data)
    assert response.status_code in (302, 400)
    if response.status_code == 400:
        assert Table.objects.count() == before
    else:
        table = Table.objects.latest("pk")
        assert 2 <= table.seats_count <= 10
        assert Seat.objects.filter(table=table).count() == 1


SIGNUP_FIELDS = ["username", "email", "display_name", "password1", "password2"]


@settings(
    max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.dictionaries(st.sampled_from(SIGNUP_FIELDS), values, max_size=5))
def test_the_signup_form_never_breaks(data):
    before = User.objects.count()
    response = Client().post("/accounts/signup/", data)
    assert response.status_code in (200, 302)
    assert User.objects.count() == before + (response.status_code == 302)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    path=st.sampled_from(["join", "leave", "back", "bots", "start", "seats/0/remove"]),
    data=st.dictionaries(st.sampled_from(["invite", "bot", "position"]), values, max_size=3),
)
def test_table_actions_never_break(alice, bob, path, data):
    from games import services

    table = services.table_create(user=alice, seats_count=3, options={})
    client = Client()
    client.force_login(bob)
    response = client.post(f"/tables/{table.pk}/{path}/", data, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
