"""The lobby's new-table form and its list of tables (issue 21).

The threshold applies only to a game that ends at a threshold, the number of rounds only to
one that ends after so many rounds: the page marks each field with the end it belongs to
(static/js/lobby.js shows only that one; without JavaScript both stay visible), and a
value in the field that does not apply refuses nothing. A full table is listed as full
and about to start, not as waiting for players.

Each game brings its own fields (issue 30): choosing a game fetches its part of the form
(`/tables/options/?kind=`, the `game_options` partial of lobby.html) with its defaults,
and the form shown is the form a browser posts, on the first try; a refused form says
what to fix next to the field. The list names each table's game with the game's own
summary of its options, keeps to one game when asked (?kind=), and marks a rematch.
"""

import re
from html.parser import HTMLParser

import pytest
from django import forms
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import translation

from games import engine, kinds, rendering, services
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
    # The game's name (a hidden input when only one game is registered) said wrong once.
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


# --- each game's fields ---------------------------------------------------------------

GAMES = [kind.name for kind in kinds.registered()]


class FormControls(HTMLParser):
    """What a browser posts of a form's controls as drawn (no JavaScript run): each value
    by name (`values`), the name of every control (`names`, an unticked box's too), and
    which names are drawn inside the game's part (`in_game`, #game-options)."""

    def __init__(self):
        super().__init__()
        self.values, self.names, self.in_game = {}, set(), set()
        self.depth = 0  # of <div> inside #game-options, 0 outside it
        self.select = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "div" and (self.depth or attrs.get("id") == "game-options"):
            self.depth += 1
        if tag == "option":
            self.option(attrs)
            return
        name = attrs.get("name")
        if tag not in ("input", "select") or not name or attrs.get("type") == "submit":
            return
        self.names.add(name)
        if self.depth:
            self.in_game.add(name)
        if tag == "select":
            self.select = name
        elif attrs.get("type") != "checkbox":
            self.values[name] = attrs.get("value") or ""
        elif "checked" in attrs:
            self.values[name] = attrs.get("value") or "on"

    def option(self, attrs):
        # The option selected, else the first one.
        if self.select and ("selected" in attrs or self.select not in self.values):
            self.values[self.select] = attrs["value"]

    def handle_endtag(self, tag):
        if tag == "div" and self.depth:
            self.depth -= 1
        elif tag == "select":
            self.select = None


def controls(html: str) -> FormControls:
    found = FormControls()
    found.feed(html)
    return found


def new_table_form(page: str) -> str:
    return page[page.index('<form method="post"') : page.index("</form>", page.index("new-table"))]


def posted_for(client, game: str) -> dict:
    """What a player posts who opens the lobby, chooses `game` (the page swaps in the
    game's part of the form as fetched) and creates the table without changing a thing."""
    page = controls(new_table_form(client.get("/tables/").content.decode()))
    part = client.get("/tables/options/", {"kind": game})
    assert part.status_code == 200
    shown = controls(part.content.decode())
    data = {name: value for name, value in page.values.items() if name not in page.in_game}
    return {**data, "kind": game, **shown.values}


@pytest.mark.parametrize("game", GAMES)
def test_the_part_of_each_game_shows_its_own_fields_with_their_defaults(alice_client, game):
    shown = controls(alice_client.get("/tables/options/", {"kind": game}).content.decode())
    kind = kinds.get(game)
    assert shown.names == {"options_for", "seats_count", *kind.options_form.base_fields}
    assert shown.values["options_for"] == game
    assert int(shown.values["seats_count"]) in kind.players
    for name, field in kind.options_form.base_fields.items():
        if isinstance(field, forms.BooleanField):
            assert (name in shown.values) is bool(field.initial)
        else:
            assert shown.values[name] == str(field.initial)


@pytest.mark.parametrize("game", GAMES)
def test_the_part_fetched_is_the_one_the_whole_page_draws(alice_client, game):
    part = alice_client.get("/tables/options/", {"kind": game}).content.decode()
    page = alice_client.get("/tables/", {"kind": game}).content.decode()
    assert part.strip() and part.strip() in page


@pytest.mark.parametrize("game", GAMES)
def test_a_table_of_each_game_is_created_on_the_first_try(alice_client, game):
    response = alice_client.post("/tables/", posted_for(alice_client, game))
    assert response.status_code == 302, response.context["form"].errors
    table = Table.objects.get()
    assert table.kind == game
    assert response["Location"] == table.get_absolute_url()
    assert table.options == engine.get(game).normalize_options({}, table.seats_count)


def test_an_unknown_game_has_no_part(alice_client):
    assert alice_client.get("/tables/options/", {"kind": "chess"}).status_code == 404
    assert alice_client.get("/tables/options/").status_code == 404


def test_the_part_of_a_game_is_for_signed_in_players(client):
    response = client.get("/tables/options/", {"kind": "six"})
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def field_box(page: str, field: str) -> str:
    """The element that holds a field's label, errors and input."""
    found = re.search(r'<div[^>]*>\s*<label for="id_' + field + r'".*?</div>', page, re.S)
    assert found, f"no field {field}"
    return found.group(0)


@pytest.mark.parametrize(
    ("game", "field"),
    [("nimmt", "threshold"), ("six", "target"), ("six", "deck"), ("surprise", "seats_count")],
)
def test_a_missing_field_of_the_chosen_game_is_refused_next_to_it(alice_client, game, field):
    data = posted_for(alice_client, game)
    del data[field]
    response = alice_client.post("/tables/", data, HTTP_ACCEPT_LANGUAGE="en")
    page = response.content.decode()
    assert response.status_code == 400
    assert list(response.context["form"].errors) == [field]
    box = field_box(page, field)
    assert "This field is required." in box and 'aria-invalid="true"' in box
    assert page.count("This field is required.") == 1
    # The top of the form, which the page brings to view, names the field to correct.
    summary = re.search(
        r'<div class="notice error" role="alert" tabindex="-1" autofocus.*?</div>', page, re.S
    )
    label = str(response.context["form"].fields[field].label)
    assert f'<li><a href="#id_{field}">{label}</a></li>' in summary.group(0)
    assert not Table.objects.exists()


@pytest.mark.parametrize(
    ("game", "other"),
    [
        # "end" is Six's own field too (a target or a number of hands).
        ("six", {"rounds": "never", "threshold": "many", "deal": "?", "live_scores": "on"}),
        ("nimmt", {"deck": "52", "target": "ten", "balanced": "on"}),
        ("surprise", {"threshold": "", "deck": "x", "target": "", "rounds": "99"}),
    ],
)
def test_the_fields_of_another_game_are_ignored(alice_client, game, other):
    data = {**posted_for(alice_client, game), **other}
    response = alice_client.post("/tables/", data)
    assert response.status_code == 302, response.context["form"].errors
    table = Table.objects.get()
    assert table.kind == game
    assert table.options == engine.get(game).normalize_options({}, table.seats_count)


def test_a_balanced_deal_for_other_than_four_players_is_refused_next_to_it(alice_client):
    data = {**posted_for(alice_client, "six"), "seats_count": "3", "balanced": "on"}
    response = alice_client.post("/tables/", data, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    assert list(response.context["form"].errors) == ["balanced"]
    assert "A balanced deal is for 4 players" in field_box(response.content.decode(), "balanced")
    assert not Table.objects.exists()


def test_without_javascript_changing_the_game_shows_its_fields_and_creates_nothing(
    alice_client,
):
    # The page drew 6 qui prend !'s fields; the player chose Six and pressed "Create".
    data = {**posted_for(alice_client, "nimmt"), "kind": "six", "name": "Jeudi"}
    del data["is_public"]
    response = alice_client.post("/tables/", data, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200 and not Table.objects.exists()
    form = response.context["form"]
    assert not form.errors and form.game.name == "six"
    shown = controls(new_table_form(response.content.decode()))
    assert shown.values["kind"] == "six" and shown.values["options_for"] == "six"
    assert shown.values["target"] == "30" and "threshold" not in shown.values
    # What the player wrote in the fields every game has is kept.
    assert shown.values["name"] == "Jeudi" and "is_public" not in shown.values
    assert 'autofocus id="id_seats_count"' in response.content.decode()
    # Posted again as shown, the table is created.
    response = alice_client.post("/tables/", shown.values)
    assert response.status_code == 302
    table = Table.objects.get()
    assert (table.kind, table.name, table.is_public) == ("six", "Jeudi", False)


def test_the_change_game_button_of_a_page_without_javascript(alice_client):
    page = alice_client.get("/tables/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert re.search(r'<noscript><button type="submit" name="change_game"[^>]*>', page)
    data = {**posted_for(alice_client, "surprise"), "change_game": "1"}
    response = alice_client.post("/tables/", data)
    assert response.status_code == 200 and not Table.objects.exists()
    assert response.context["form"].game.name == "surprise"
    assert not response.context["form"].errors


def test_choosing_a_game_fetches_its_part_of_the_form(alice_client):
    page = alice_client.get("/tables/").content.decode()
    select = re.search(r'<select name="kind"[^>]*>', page).group(0)
    assert 'hx-get="/tables/options/"' in select and 'hx-target="#game-options"' in select
    assert 'hx-swap="outerHTML"' in select
    assert page.count('id="game-options"') == 1


# --- the list of tables ---------------------------------------------------------------

LISTED = [
    ("nimmt", 4, {}, "6 qui prend !", "to 66 heads", "en 66 têtes"),
    ("nimmt", 4, {"end": "threshold", "threshold": 1}, "6 qui prend !", "to 1 head", "en 1 tête"),
    (
        "nimmt",
        3,
        {"end": "rounds", "rounds": 3, "card_limit": True, "deal": "draft"},
        "6 qui prend !",
        "3 rounds, tactical, draft",
        "3 manches, tactique, draft",
    ),
    ("six", 4, {}, "Six", "to 30 points", "en 30 points"),
    (
        "six",
        4,
        {"deck": 48, "target": 50, "balanced": True},
        "Six",
        "to 50 points, 48 cards, balanced deal",
        "en 50 points, 48 cartes, distribution équilibrée",
    ),
    ("surprise", 4, {}, "6 qui surprend", "2 rounds, specials", "2 manches, cartes spéciales"),
]


def list_items(page: str) -> list[str]:
    return re.findall(r'<li class="table-item[^"]*">.*?</li>', page, re.S)


def text_of(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


@pytest.mark.parametrize(("game", "seats", "options", "label", "en", "fr"), LISTED)
def test_each_row_names_its_game_and_summary(
    alice_client, alice, bob, game, seats, options, label, en, fr
):
    services.table_create(user=bob, kind=game, seats_count=seats, options=options, name="Soir")
    for language, summary in (("en", en), ("fr", fr)):
        page = alice_client.get("/tables/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
        [row] = list_items(page)
        assert f"{label} · {summary} ·" in text_of(row)
        # The socket's list, pushed as tables change, says the same.
        [row] = list_items(rendering.render_lobby_tables(alice, language))
        assert f"{label} · {summary} ·" in text_of(row)


def test_the_summaries_count_in_french_by_the_absolute_value():
    nimmt = kinds.get("nimmt").summary
    with translation.override("fr"):
        assert nimmt({"end": "threshold", "threshold": 1}) == "en 1 tête"
        assert nimmt({"end": "threshold", "threshold": 2}) == "en 2 têtes"
        assert nimmt({"end": "rounds", "rounds": 1}) == "1 manche"
        assert kinds.get("six").summary({"target": -2}) == "en -2 points"


@pytest.fixture
def tables_of_each_game(alice, bob):
    return {
        game: services.table_create(user=bob, kind=game, seats_count=4, options={}, name=game)
        for game in GAMES
    }


def listed_names(page: str) -> list[str]:
    return sorted(
        re.search(r'<a href="/tables/\d+/">([^<]*)</a>', row).group(1) for row in list_items(page)
    )


@pytest.mark.parametrize("game", GAMES)
def test_the_list_keeps_to_the_game_asked_for(alice_client, tables_of_each_game, game):
    page = alice_client.get("/tables/", {"kind": game}, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert listed_names(page) == [game]
    link = re.search(r'<a href="/tables/\?kind=' + game + r'"[^>]*>', page).group(0)
    assert 'aria-current="page"' in link
    # The new-table form starts with that game.
    assert controls(new_table_form(page)).values["kind"] == game


def test_the_list_of_every_game_and_an_unknown_one(alice_client, tables_of_each_game):
    every = alice_client.get("/tables/").content.decode()
    assert listed_names(every) == sorted(GAMES)
    assert re.search(r'<a href="/tables/" aria-current="page">', every)
    assert listed_names(alice_client.get("/tables/", {"kind": "chess"}).content.decode()) == sorted(
        GAMES
    )


def test_a_list_of_one_game_fetches_itself_again_as_the_lobby_changes(
    alice_client, alice, tables_of_each_game
):
    page = alice_client.get("/tables/", {"kind": "six"}).content.decode()
    root = re.search(r'<div id="lobby-tables"[^>]*>', page).group(0)
    assert 'data-listed-kind="six"' in root and 'hx-trigger="lobby-changed"' in root
    assert 'hx-get="/tables/?kind=six"' in root
    response = alice_client.get(
        "/tables/", {"kind": "six"}, HTTP_HX_REQUEST="true", HTTP_HX_TARGET="lobby-tables"
    )
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="lobby-tables"') and "<form" not in html
    assert listed_names(html) == ["six"]
    # The list every socket is pushed knows no filter, and does not fetch itself.
    pushed = rendering.render_lobby_tables(alice, "en")
    assert "data-listed-kind" not in pushed and listed_names(pushed) == sorted(GAMES)


def finished(table: Table) -> Table:
    Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED)
    return table


def test_a_rematch_is_marked_as_such(alice_client, alice, bob):
    old = finished(services.table_create(user=bob, seats_count=3, options={}, name="Mardi"))
    rematch = services.table_rematch(table_id=old.pk, user=bob)
    services.table_create(user=bob, seats_count=3, options={}, name="Mercredi")
    page = alice_client.get("/tables/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    rows = {re.search(r'href="/tables/(\d+)/"', row).group(1): row for row in list_items(page)}
    assert rematch.name == "Mardi" and str(rematch.pk) in rows
    assert '<span class="tag">Rematch</span>' in rows.pop(str(rematch.pk))
    assert [row for row in rows.values() if "Rematch" in row] == []
    french = alice_client.get("/tables/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert '<span class="tag">Revanche</span>' in french


def test_the_list_reads_as_many_rows_in_the_same_queries(alice_client, alice, bob):
    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert alice_client.get("/tables/").status_code == 200
        return len(captured)

    # One row of each list alice sees, a rematch among them.
    old = finished(services.table_create(user=bob, seats_count=3, options={}))
    services.table_rematch(table_id=old.pk, user=bob)
    services.table_create(user=alice, seats_count=3, options={})
    few = queries()
    for game in GAMES:
        old = finished(services.table_create(user=bob, kind=game, seats_count=4, options={}))
        services.table_rematch(table_id=old.pk, user=bob)
        services.table_create(user=alice, kind=game, seats_count=4, options={})
    assert queries() == few
