import json

import pytest
from django.test import Client

from games import engine, services
from games.models import Game, Seat, Table

pytestmark = pytest.mark.django_db
nimmt = engine.get("nimmt")

VALID = {
    "name": "Mardi soir",
    "seats_count": "4",
    "end": "threshold",
    "threshold": "66",
    "rounds": "1",
    "deal": "random",
    "live_scores": "on",
    "time_limit": "30",
    "is_public": "on",
}


def finished_table(alice):
    table = services.table_create(user=alice, seats_count=2, options={"end": "rounds", "rounds": 1})
    services.seat_add_bot(table_id=table.pk, user=alice, bot="random")
    services.table_start(table_id=table.pk, user=alice)
    for _ in range(100):
        state = nimmt.load(Game.objects.get(table=table).state)
        if nimmt.is_over(state):
            return table
        services.game_decide(table_id=table.pk, user=alice, decision=nimmt.fallback(state, 0))
    raise AssertionError("the game did not end")


def test_the_lobby_needs_a_login(client):
    assert client.get("/tables/").status_code == 302


def test_a_table_is_created_with_every_option(alice_client, alice):
    data = dict(VALID, card_limit="on", deal="draft", end="rounds", rounds="3", show_played="on")
    response = alice_client.post("/tables/", data)
    table = Table.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/tables/{table.pk}/"
    assert table.seats_count == 4 and table.time_limit == 30 and table.show_played
    assert table.options["card_limit"] is True and table.options["deal"] == "draft"
    assert table.options["end"] == "rounds" and table.options["rounds"] == 3
    assert Seat.objects.get(table=table).user == alice


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("seats_count", "11"),
        ("seats_count", "1"),
        ("threshold", "0"),
        ("threshold", "501"),
        ("rounds", "21"),
        ("time_limit", "45"),
        ("deal", "poker"),
        ("end", "never"),
    ],
)
def test_bad_values_get_field_errors_and_create_nothing(alice_client, field, value):
    # The number of rounds is checked for a game that ends after so many (test_lobby_form).
    end = "rounds" if field == "rounds" else VALID["end"]
    response = alice_client.post("/tables/", {**VALID, "end": end, field: value})
    assert response.status_code == 400
    assert field in response.context["form"].errors
    assert not Table.objects.exists()


def test_a_player_joins_and_the_creator_starts(alice_client, alice, bob):
    table = services.table_create(user=alice, seats_count=3, options={})
    client = Client()
    client.force_login(bob)
    assert client.post(f"/tables/{table.pk}/join/").status_code == 302
    response = alice_client.post(f"/tables/{table.pk}/start/", HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    table.refresh_from_db()
    assert table.status == "playing"
    page = client.get(f"/tables/{table.pk}/").content.decode()
    assert 'id="hand"' in page and 'ws-connect="/ws/tables/' in page


def test_htmx_gets_the_refusal_as_a_notice(alice, bob, client):
    table = services.table_create(user=alice, seats_count=2, options={})
    client.force_login(bob)
    response = client.post(
        f"/tables/{table.pk}/start/", HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE="en"
    )
    assert 'data-code="not_creator"' in response.content.decode()
    assert Table.objects.get().status == "open"


def test_a_private_table_is_404_without_its_invite(alice, bob, client):
    table = services.table_create(user=alice, seats_count=3, options={}, is_public=False)
    client.force_login(bob)
    assert client.get(f"/tables/{table.pk}/").status_code == 404
    assert client.get(f"/tables/{table.pk}/?invite={table.invite_code}").status_code == 200
    client.post(f"/tables/{table.pk}/join/", {"invite": table.invite_code})
    assert table.seats.filter(user=bob).exists()


def test_the_record_is_refused_until_the_game_is_over(alice_client, alice, bob):
    table = services.table_create(user=alice, seats_count=2, options={})
    services.seat_join(table_id=table.pk, user=bob)
    services.table_start(table_id=table.pk, user=alice)
    # It holds every hand: downloading it mid-game would show them.
    assert alice_client.get(f"/tables/{table.pk}/record.json").status_code == 404


def test_a_finished_game_offers_its_record_and_it_replays_to_the_same_scores(alice_client, alice):
    table = finished_table(alice)
    response = alice_client.get(f"/tables/{table.pk}/record.json")
    assert response.status_code == 200
    record = json.loads(response.content)
    assert record["format"] == "sixclub-record/1"
    assert record["players"] == ["alice", "bot:random"]
    assert nimmt.replay(record) == Game.objects.get(table=table).result


def test_the_finished_page_shows_score_sheet_piles_and_links(alice_client, alice):
    table = finished_table(alice)
    page = alice_client.get(f"/tables/{table.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'id="score-sheet"' in page and 'id="ranking"' in page
    assert "Picked-up piles" in page
    assert f"/tables/{table.pk}/record.json" in page


def test_the_replay_viewer_steps_forward_and_back(alice_client, alice):
    table = finished_table(alice)
    first = alice_client.get(f"/tables/{table.pk}/replay/", HTTP_ACCEPT_LANGUAGE="en")
    assert first.context["step"] == 0 and first.context["previous"] is None
    assert first.context["steps"] >= 10
    second = alice_client.get(f"/tables/{table.pk}/replay/?step=1")
    assert second.context["step"] == 1 and second.context["previous"] == 0
    assert len(second.context["plays"]) == 2
    last = alice_client.get(f"/tables/{table.pk}/replay/?step=999")
    assert last.context["next"] is None
    assert [line["total"] for line in last.context["totals"]] == Game.objects.get().result["totals"]
    assert alice_client.get(f"/tables/{table.pk}/replay/?step=x").status_code == 200


def test_the_profile_lists_the_players_games(client, alice):
    table = finished_table(alice)
    page = client.get("/players/alice/").content.decode()
    assert f"/tables/{table.pk}/" in page
