"""The sections of a live frame, partials of games/<kind>/live.html: what each shows, in
French and in English, that what they carry from players is escaped, and that the page
load and every push compose the `#live` frame from the same partials."""

import copy
import json
import re

import pytest
from django.contrib.auth import get_user_model
from django.template.loader import render_to_string
from django.utils import translation

from games import engine, rendering
from games.models import Game, Seat, Table
from games.nimmt.kind import card_faces
from tests.games import added_game

nimmt = engine.get("nimmt")
LIVE = "games/nimmt/live.html"
BOARD = [
    {
        "index": index,
        "number": index + 1,
        "cards": card_faces(nimmt, row),
        "heads": sum(nimmt.heads(card) for card in row),
        "free": range(6 - len(row)),
    }
    for index, row in enumerate([[3], [17, 20], [41], [99, 100, 101]])
]


def partial(name: str, language: str, **context) -> str:
    with translation.override(language):
        # The game's own section, or the one every game shares.
        return render_to_string([f"{LIVE}#{name}", f"games/live.html#{name}"], context).strip()


def flat(html: str) -> str:
    """The markup without the indentation between its tags."""
    return re.sub(r">\s+<", "><", html)


def test_rows_show_every_card_and_buttons_only_for_the_chooser():
    select, choose = {"phase": "select", "version": 12}, {"phase": "choose_row", "version": 12}
    plain = partial("rows", "en", v=select, rows=BOARD, actor=False)
    chooser = partial("rows", "en", v=choose, rows=BOARD, actor=True)
    for html in (plain, chooser):
        assert html.startswith('<section class="board" id="rows" aria-label="Rows">')
        assert html.count('<div class="row') == 4
        assert [int(n) for n in re.findall(r"<b>(\d+)</b>", html)] == [3, 17, 20, 41, 99, 100, 101]
    assert "rowbtn" not in plain and "choosable" not in plain
    buttons = re.findall(r"hx-vals='([^']*)'>Take row (\d)</button>", chooser)
    assert [json.loads(vals) for vals, _n in buttons] == [
        {"type": "row", "row": index, "version": 12, "id": f"v12r{index}"} for index in range(4)
    ]
    assert [n for _vals, n in buttons] == ["1", "2", "3", "4"]
    assert chooser.count('class="row choosable"') == 4


def test_rows_in_french_and_nothing_during_a_draft():
    html = partial("rows", "fr", v={"phase": "choose_row", "version": 3}, rows=BOARD, actor=True)
    assert 'aria-label="Rangées"' in html
    assert "Ramasser la rangée 4</button>" in html
    assert partial("rows", "fr", v={"phase": "draft", "version": 3}, rows=[], actor=False) == ""


PLAYS = [
    {"name": "<b>Zoé</b>", "card": {"number": 5, "heads": 2}, "placed": False},
    {"name": "Bob", "card": {"number": 40, "heads": 3}, "placed": True},
]


def test_revealed_cards_and_who_chooses_escaped():
    shown = {"revealed": PLAYS, "chooser_name": "<b>Zoé</b>"}
    others = flat(partial("revealed", "en", actor=False, **shown))
    chooser = partial("revealed", "en", actor=True, **shown)
    assert partial("revealed", "en", revealed=None, actor=False, chooser_name="") == ""
    assert '<section class="card revealed" id="revealed"><h2>Revealed</h2>' in others
    assert "<b>Zoé</b>" not in others and "&lt;b&gt;Zoé&lt;/b&gt; is choosing a row." in others
    assert re.findall(r'<li class="(\w*)">', others) == ["", "placed"]
    assert [int(n) for n in re.findall(r"<b>(\d+)</b>", others)] == [5, 40]
    assert "choose the row you take" in chooser and "is choosing" not in chooser
    french = partial("revealed", "fr", revealed=PLAYS, actor=False, chooser_name="Bob")
    assert "Cartes révélées" in french and "Bob choisit une rangée." in french


LAST_TURN = [
    {"name": "<i>Zoé</i>", "card": {"number": 8, "heads": 1}, "row": 2},
    {"name": "Bob", "card": {"number": 55, "heads": 7}, "row": None},
]
SHEET = [{"round": 1, "heads": [4, 11]}, {"round": 2, "heads": [0, 3]}]


def seats_named(*names):
    return [Seat(position=position, bot=name) for position, name in enumerate(names)]


def after_the_hand(language: str, **context) -> str:
    return "".join(
        partial(name, language, **context) for name in ("last_turn", "played", "score_sheet")
    )


def test_after_the_hand_the_last_turn_the_cards_seen_and_the_score_sheet():
    faces = [8, 55, 104]
    seats = seats_named("<i>Zoé</i>", "Bob")
    html = flat(
        after_the_hand("en", last_turn=LAST_TURN, played=faces, score_sheet=SHEET, seats=seats)
    )
    last, played, sheet = re.findall(r'<section class="card ([\w-]+)" id="([\w-]+)">', html)
    assert [last, played, sheet] == [
        ("last-turn", "last-turn"),
        ("played", "played"),
        ("scores", "score-sheet"),
    ]
    assert "<i>" not in html and html.count("&lt;i&gt;Zoé&lt;/i&gt;") == 2
    assert '<span class="muted">took row 3</span></li><li>Bob' in html
    assert [int(n) for n in re.findall(r"<b>(\d+)</b>", html)] == [8, 55]
    assert '<p class="seen">8, 55, 104</p>' in html
    rows = re.findall(r"<tr><td>(\d+)</td>((?:<td class=\"num\">\d+</td>)*)</tr>", html)
    assert [(n, re.findall(r"\d+", cells)) for n, cells in rows] == [
        ("1", ["4", "11"]),
        ("2", ["0", "3"]),
    ]
    assert "<th>Round</th>" in html


def test_after_the_hand_only_what_there_is_and_in_french():
    # During a reveal the last turn gives way to the revealed cards; no panel of the
    # cards seen unless the table shows them; no sheet before a round has ended.
    seats = seats_named("Zoé", "Bob")
    during_reveal = {"last_turn": LAST_TURN, "revealed": PLAYS, "played": None}
    assert after_the_hand("en", score_sheet=[], seats=seats, **during_reveal) == ""
    assert after_the_hand("en", last_turn=None, played=None, score_sheet=[], seats=[]) == ""
    nothing_seen = after_the_hand("en", last_turn=None, played=[], score_sheet=[], seats=[])
    assert '<p class="seen">—</p>' in nothing_seen
    french = after_the_hand("fr", last_turn=LAST_TURN, played=[], score_sheet=SHEET, seats=seats)
    assert "<h2>Dernier tour</h2>" in french and "a ramassé la rangée 3" in french
    assert "<h2>Cartes vues dans la manche</h2>" in french
    assert "<h2>Feuille de score</h2>" in french and "<th>Manche</th>" in french


# Whole frames, from a table built in memory: rendering reads no database.


def table_of(kind: str, players: int, names: list[str]):
    user_model = get_user_model()
    users = [user_model(pk=10 + i, username=f"p{i}", display_name=names[i]) for i in range(players)]
    game_engine = engine.get(kind)
    table = Table(
        pk=90007,
        kind=kind,
        created_by=users[0],
        seats_count=players,
        options=game_engine.normalize_options({}, players) if kind == "nimmt" else {},
        status="playing",
    )
    seats = [Seat(table=table, position=i, user=users[i]) for i in range(players)]
    return users, table, seats


def snapshot_of(table, seats, state, kind="nimmt"):
    dumped = engine.get(kind).dump(state)
    game = Game(pk=90007, table_id=table.pk, state=dumped, version=state.version)
    return rendering.Snapshot(table=table, game=game, seats=seats, state=state)


def test_a_whole_frame_is_the_partials_in_order_and_escapes_names():
    users, table, seats = table_of("nimmt", 3, ["<script>x</script>", "Bob", "Chloé"])
    state = nimmt.new_game(players=3, options=table.options, seed=5)
    state, _events = nimmt.apply(state, 1, {"type": "select", "card": state.hands[1][0]})
    snapshot = snapshot_of(table, seats, state)
    frame = rendering.live_frame(snapshot, users[1], "en", "token")
    assert frame.startswith(f'<div id="live" data-version="{state.version}" data-phase="select"')
    ids = re.findall(r'<(?:section|div|header)[^>]*\bid="([\w-]+)"', frame)
    assert ids == ["live", "rows", "players", "hand", "seat-actions", "announce-text"]
    assert "<script>" not in frame and frame.count("&lt;script&gt;x&lt;/script&gt;") == 1
    players = re.search(r'<section id="players".*?</section>', frame, flags=re.DOTALL).group()
    assert re.findall(r'<tr data-seat="(\d)">', players) == ["0", "1", "2"]
    assert players.count("✓ chosen") == 1 and players.count("choosing…") == 2
    # A push within the decision point: the same players' section, then the seat's hand.
    update = rendering.update_frame(snapshot, 1, "en", True)
    assert update.startswith(players)
    chosen = re.findall(r'"card": (\d+)[^>]*aria-pressed="true"', update)
    assert chosen == [str(state.selections[1])]
    with translation.override("fr"):
        french = rendering.live_frame(snapshot, users[0], "fr", "token")
    assert "<h2>Votre main <span" in french
    assert "Touchez une carte, puis touchez-la encore ou appuyez sur Jouer." in french


# A kind whose live.html defines only a header, the players and the hand.
SMALL_LIVE = """{% load partials %}
{% partialdef header %}<header class="table-head"><h1>{{ table }}</h1></header>{% endpartialdef %}
{% partialdef players %}<section id="players">{{ players|length }}</section>{% endpartialdef %}
{% partialdef hand %}<section id="hand">{{ mine.hand|length }}</section>{% endpartialdef %}
"""


@pytest.fixture
def small_kind(settings, tmp_path):
    """The game the test settings add (tests/games/added_game.py), its live.html replaced
    by one of three partials, found first in a template directory of this test."""
    kind = added_game.kind()
    (tmp_path / kind.template("live.html")).parent.mkdir(parents=True)
    (tmp_path / kind.template("live.html")).write_text(SMALL_LIVE)
    templates = copy.deepcopy(settings.TEMPLATES)
    templates[0]["DIRS"] = [tmp_path, *templates[0]["DIRS"]]
    settings.TEMPLATES = templates
    return kind


def test_a_kind_draws_its_own_sections_and_the_shared_ones(small_kind):
    users, table, seats = table_of(small_kind.name, 2, ["Ann", "Ben"])
    state = small_kind.engine.new_game(players=2, options={}, seed=4)
    frame = rendering.live_frame(snapshot_of(table, seats, state, small_kind.name), users[0], "en")
    assert frame.startswith(
        '<div id="live" data-version="0" data-phase="select" data-me="0" data-round="1">'
        '<header class="table-head"><h1>Table 90007</h1></header>'
        f'<section id="players">2</section><section id="hand">{len(state.hands[0])}</section>'
        # The seat's buttons are the shared section's (games/live.html).
        '<div class="actions" id="seat-actions">'
    )


def test_a_bots_name_is_in_each_frames_language():
    # The sections of a version are shared by every reader, whatever their language: a
    # bot's name is translated when each frame is drawn, not when the version is read.
    users, table, seats = table_of("nimmt", 3, ["Ann", "Ben", "Cid"])
    seats[2] = Seat(table=table, position=2, bot="heuristic")
    state = nimmt.new_game(players=3, options=table.options, seed=6)
    snapshot = snapshot_of(table, seats, state)
    english = rendering.live_frame(snapshot, users[0], "en")
    french = rendering.live_frame(snapshot, users[1], "fr")
    assert "<td>Heuristic bot</td>" in english and "Robot malin" not in english
    assert "<td>Robot malin</td>" in french and "Heuristic bot" not in french


def test_the_players_rows_kept_across_versions_show_each_versions_state():
    # Each row of the players' table is kept under what it shows: a selection changes
    # the chooser's row only, and a seat gone away shows it at the next version.
    users, table, seats = table_of("nimmt", 3, ["Ann", "Ben", "Cid"])
    state = nimmt.new_game(players=3, options=table.options, seed=8)
    before = rendering.update_frame(snapshot_of(table, seats, state), 0, "en", False)
    state, _events = nimmt.apply(state, 2, {"type": "select", "card": state.hands[2][0]})
    seats[1].away = True
    after = rendering.update_frame(snapshot_of(table, seats, state), 0, "en", False)

    def row(frame, position):
        return re.search(rf'<tr data-seat="{position}">.*?</tr>', frame).group()

    assert row(before, 0) == row(after, 0)
    assert "away" not in row(before, 1) and '<span class="tag warn">away</span>' in row(after, 1)
    assert "choosing…" in row(before, 2) and "✓ chosen" in row(after, 2)
