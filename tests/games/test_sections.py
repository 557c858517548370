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
