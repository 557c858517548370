"""The standings table on a phone shows the column that decides the rank (issue 21): the
other numbers are marked `minor`, which the stylesheet hides on narrow screens."""

import re
from pathlib import Path

import pytest
from django.urls import reverse

from leagues.models import Season
from tests.leagues.conftest import finished_game

pytestmark = pytest.mark.django_db

KEPT = {"Rank", "Player", "Games"}


def columns(html):
    """(header text, minor?) for each column, and each body row's minor cells."""
    head = html[html.index('<table class="grid standings-table">') :]
    head = head[: head.index("</thead>")]
    headers = [
        ("minor" in attributes, re.sub(r"<[^>]+>|[↑↓]", "", text).strip())
        for attributes, text in re.findall(r"<th([^>]*)>(.*?)</th>", head, re.S)
    ]
    body = html[html.index("<tbody>") : html.index("</tbody>")]
    rows = [
        ["minor" in cell for cell in re.findall(r"<td([^>]*)>", row)]
        for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S)
    ]
    return headers, rows


@pytest.mark.parametrize(
    "ranking, deciding",
    [
        (Season.Ranking.MEAN_HEADS, "Heads per round"),
        (Season.Ranking.TOTAL_HEADS, "Heads"),
        (Season.Ranking.PLACEMENT, "Points"),
        (Season.Ranking.RATING, "Rating"),
    ],
)
def test_a_phone_keeps_the_column_that_decides_the_rank(
    client, season, alice, bob, ranking, deciding
):
    season.ranking = ranking
    season.save()
    finished_game(season, [alice, bob], [[3, 8]])
    html = client.get(reverse("league", args=[season.league.slug])).content.decode()
    headers, rows = columns(html)
    shown = [text for minor, text in headers if not minor]
    assert shown == [
        text
        for text in ["Rank", "Player", "Games", "Heads", "Heads per round", "Points", "Rating"]
        if text in KEPT | {deciding}
    ]
    # Every body cell is hidden or shown with its column.
    assert rows and all(row == [minor for minor, _text in headers] for row in rows)
    stylesheet = (Path(__file__).parents[2] / "static/css/site.css").read_text()
    assert re.search(
        r"max-width: 520px\) \{[^@]*\.standings-table \.minor \{ display: none; \}", stylesheet
    )
