"""The sections of a live frame built in Python (games/sections.py): what each shows, in
French and in English, and that what they carry from players is escaped."""

import json
import re

from django.utils import translation

from games import engine, sections
from games.rendering import card_faces

nimmt = engine.get("nimmt")
BOARD = [
    {"index": index, "cards": card_faces(nimmt, row)}
    for index, row in enumerate([[3], [17, 20], [41], [99, 100, 101]])
]


def test_rows_show_every_card_and_buttons_only_for_the_chooser():
    with translation.override("en"):
        plain = sections.rows("en", 12, "select", BOARD, actor=False)
        chooser = sections.rows("en", 12, "choose_row", BOARD, actor=True)
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
    with translation.override("fr"):
        html = sections.rows("fr", 3, "choose_row", BOARD, actor=True)
        assert sections.rows("fr", 3, "draft", [], actor=False) == ""
    assert 'aria-label="Rangées"' in html
    assert "Ramasser la rangée 4</button>" in html


PLAYS = [
    {"name": "<b>Zoé</b>", "card": {"number": 5, "heads": 2}, "placed": False},
    {"name": "Bob", "card": {"number": 40, "heads": 3}, "placed": True},
]


def test_revealed_cards_and_who_chooses_escaped():
    with translation.override("en"):
        others = sections.revealed("en", PLAYS, actor=False, chooser_name="<b>Zoé</b>")
        chooser = sections.revealed("en", PLAYS, actor=True, chooser_name="<b>Zoé</b>")
        assert sections.revealed("en", None, actor=False, chooser_name="") == ""
    assert '<section class="card revealed" id="revealed"><h2>Revealed</h2>' in others
    assert "<b>Zoé</b>" not in others and "&lt;b&gt;Zoé&lt;/b&gt; is choosing a row." in others
    assert re.findall(r'<li class="(\w*)">', others) == ["", "placed"]
    assert [int(n) for n in re.findall(r"<b>(\d+)</b>", others)] == [5, 40]
    assert "choose the row you take" in chooser and "is choosing" not in chooser
    with translation.override("fr"):
        french = sections.revealed("fr", PLAYS, actor=False, chooser_name="Bob")
    assert "Cartes révélées" in french and "Bob choisit une rangée." in french


LAST_TURN = [
    {"name": "<i>Zoé</i>", "card": {"number": 8, "heads": 1}, "row": 2},
    {"name": "Bob", "card": {"number": 55, "heads": 7}, "row": None},
]
SHEET = [{"round": 1, "heads": [4, 11]}, {"round": 2, "heads": [0, 3]}]


def test_the_tail_shows_the_last_turn_the_cards_seen_and_the_score_sheet():
    faces = card_faces(nimmt, [8, 55, 104])
    with translation.override("en"):
        html = sections.tail("en", LAST_TURN, True, faces, SHEET, ["<i>Zoé</i>", "Bob"])
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


def test_the_tail_shows_only_what_there_is_and_speaks_french():
    with translation.override("en"):
        # During a reveal the last turn gives way to the revealed cards; no panel of the
        # cards seen unless the table shows them; no sheet before a round has ended.
        assert sections.tail("en", LAST_TURN, False, None, [], ["Zoé", "Bob"]) == ""
        assert sections.tail("en", None, True, None, [], []) == ""
        nothing_seen = sections.tail("en", None, True, [], [], [])
    assert '<p class="seen">—</p>' in nothing_seen
    with translation.override("fr"):
        french = sections.tail("fr", LAST_TURN, True, [], SHEET, ["Zoé", "Bob"])
    assert "<h2>Dernier tour</h2>" in french and "a ramassé la rangée 3" in french
    assert "<h2>Cartes vues dans la manche</h2>" in french
    assert "<h2>Feuille de score</h2>" in french and "<th>Manche</th>" in french
