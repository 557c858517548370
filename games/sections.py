"""The sections of a live frame built in Python rather than by the template engine.

Sent for every version of a game: the players' table (`#players`, to every screen) and a
seat's hand (`#hand`, to the seat that chose); within a turn they are all a selection
changes (docs/protocol.md, "Frames"). Sent at every decision point: the rows, the
revealed cards and what follows the hand (last turn, cards seen, score sheet). A
template render of each was a large part of a decision's CPU under load
(docs/performance.md §12). The draft, the seats before a game and the final ranking stay
partials of `games/<kind>/live.html`.

Every string is translated in the active language (games.rendering activates the
frame's), and every value is escaped or an int.
"""

from functools import lru_cache

from django.template.defaultfilters import date as date_filter
from django.template.defaultfilters import time as time_filter
from django.utils.html import escape, format_html
from django.utils.safestring import mark_safe
from django.utils.timezone import template_localtime
from django.utils.translation import gettext

from games.templatetags.cards import card, cards, hand_cards


@lru_cache(maxsize=16)
def _players_head(language: str) -> str:
    return format_html(
        '<div class="scroll"><table class="grid"><thead><tr><th>{}</th><th>{}</th>'
        '<th class="num">{}</th><th class="num">{}</th><th class="num">{}</th></tr></thead>'
        "<tbody>",
        gettext("Player"),
        gettext("This turn"),
        gettext("Cards taken"),
        gettext("Heads"),
        gettext("Total"),
    )


@lru_cache(maxsize=4096)
def _row(language, position, name, bot, away, selecting, selected, to_act, cards, heads, total):
    # Within a turn a selection changes one row (its tick): each row is kept per process
    # and language under everything it shows.
    tags = ""
    if bot:
        tags += format_html(' <span class="tag">{}</span>', gettext("bot"))
    if away:
        tags += format_html(' <span class="tag warn">{}</span>', gettext("away"))
    if selecting:
        if selected:
            turn = "✓ " + gettext("chosen")
        else:
            turn = format_html('<span class="muted">{}</span>', gettext("choosing…"))
    elif to_act:
        turn = format_html('<span class="muted">{}</span>', gettext("to play"))
    else:
        turn = ""
    return format_html(
        '<tr data-seat="{}"><td>{}{}</td><td>{}</td><td class="num">{}</td>'
        '<td class="num">{}</td><td class="num">{}</td></tr>',
        position,
        name,
        mark_safe(tags),
        turn,
        cards,
        "?" if heads is None else heads,
        total,
    )


def players(shared: dict, language: str) -> str:
    """`<section id="players">`: one row per seat (name, bot, away; this turn's state;
    cards and heads taken; total) and the time limit. `shared` is the context of
    games.rendering that every reader of a version shares."""
    v, game = shared["v"], shared["game"]
    selecting = v["phase"] == "select"
    rows = "".join(
        _row(
            language,
            p["seat"].position,
            p["seat"].name,
            bool(p["seat"].bot),
            bool(p["seat"].away),
            selecting,
            bool(p["selected"]),
            bool(p["to_act"]),
            p["pile"]["cards"],
            p["pile"]["heads"],
            p["total"],
        )
        for p in shared["players"]
    )
    deadline = ""
    if game.deadline and v["phase"] != "over":
        local = template_localtime(game.deadline)
        deadline = format_html(
            '<p class="muted deadline">{} <time datetime="{}" data-countdown>{}</time></p>',
            gettext("Time limit:"),
            date_filter(local, "c"),
            time_filter(local, "H:i:s"),
        )
    return mark_safe(
        f'<section id="players" data-version="{int(v["version"])}" class="card players">'
        f"{_players_head(language)}{rows}</tbody></table></div>{deadline}</section>"
    )


@lru_cache(maxsize=16)
def _hand_texts(language: str) -> tuple[str, str, str]:
    return (
        escape(gettext("Your hand")),
        escape(gettext("You can change your card until everyone has chosen.")),
        escape(gettext("Choose a card.")),
    )


def hand(language: str, version: int, faces: list, can_select: bool, my_selection) -> str:
    """`<section id="hand">`: a seat's cards, buttons while it may select (each carrying
    the version it is chosen at). Empty when the hand is."""
    if not faces:
        return ""
    title, change, choose = _hand_texts(language)
    prompt = ""
    if can_select:
        prompt = f'<p class="muted">{change if my_selection else choose}</p>'
    cards = hand_cards(faces, can_select, my_selection, version)
    return mark_safe(
        f'<section id="hand" data-version="{int(version)}" class="card hand"><h2>{title}</h2>'
        f'{prompt}<div class="cards">{cards}</div></section>'
    )


def rows(language: str, version: int, phase: str, board_rows: list, actor: bool) -> str:
    """`<section id="rows">`: the four rows' cards, with a "take this row" button before
    each for the seat that must choose one (`actor`). Nothing during a draft.
    `board_rows` is games.rendering's board context: {"index", "cards": faces}."""
    if phase == "draft":
        return ""
    version = int(version)
    lines = []
    for row in board_rows:
        index = int(row["index"])
        button = ""
        if actor:
            label = escape(gettext("Take row %(n)s") % {"n": index + 1})
            button = (
                f'<button class="rowbtn" ws-send hx-vals=\'{{"type": "row", "row": {index}, '
                f'"version": {version}, "id": "v{version}r{index}"}}\'>{label}</button>'
            )
        choosable = " choosable" if actor else ""
        lines.append(f'<div class="row{choosable}">{button}{cards(row["cards"])}</div>')
    title = escape(gettext("Rows"))
    return mark_safe(
        f'<section class="board" id="rows" aria-label="{title}">{"".join(lines)}</section>'
    )


def revealed(language: str, plays: list | None, actor: bool, chooser_name: str) -> str:
    """`<section id="revealed">`: the turn's cards while they are being placed (who
    played which, those placed already marked), and who must choose a row: the prompt
    for that seat (`actor`), a line for everyone else. Empty outside a reveal."""
    if not plays:
        return ""
    items = "".join(
        f'<li class="{"placed" if play["placed"] else ""}">{escape(play["name"])} '
        f"{card(play['card'])}</li>"
        for play in plays
    )
    if actor:
        line = '<p class="prompt">{}</p>'.format(
            escape(gettext("Your card is lower than every row: choose the row you take."))
        )
    else:
        text = gettext("%(name)s is choosing a row.") % {"name": chooser_name}
        line = f'<p class="muted">{escape(text)}</p>'
    return mark_safe(
        f'<section class="card revealed" id="revealed"><h2>{escape(gettext("Revealed"))}</h2>'
        f'<ul class="plays">{items}</ul>{line}</section>'
    )


def tail(language: str, last_turn: list | None, shown_last: bool, played, score_sheet, names):
    """What follows the hand while a game is on: the last turn's cards (who played which,
    who took a row; `shown_last` is false during a reveal), the cards seen this round when
    the table shows them (`played`, None otherwise), and the score sheet (`names`, the
    seats' names in order). The final ranking, once the game is over, is a partial of
    `games/<kind>/live.html` (games.rendering)."""
    html = []
    if last_turn and shown_last:
        items = []
        for play in last_turn:
            took = ""
            if play["row"] is not None:
                text = gettext("took row %(n)s") % {"n": int(play["row"]) + 1}
                took = f' <span class="muted">{escape(text)}</span>'
            items.append(f"<li>{escape(play['name'])} {card(play['card'])}{took}</li>")
        html.append(
            f'<section class="card last-turn" id="last-turn"><h2>{escape(gettext("Last turn"))}'
            f'</h2><ul class="plays">{"".join(items)}</ul></section>'
        )
    if played is not None:
        seen = ", ".join(str(int(face["number"])) for face in played) or "—"
        html.append(
            '<section class="card played" id="played">'
            f'<h2>{escape(gettext("Cards seen this round"))}</h2><p class="seen">{seen}</p>'
            "</section>"
        )
    if score_sheet:
        head = "".join(f'<th class="num">{escape(name)}</th>' for name in names)
        lines = "".join(
            f"<tr><td>{int(line['round'])}</td>"
            + "".join(f'<td class="num">{int(heads)}</td>' for heads in line["heads"])
            + "</tr>"
            for line in score_sheet
        )
        html.append(
            f'<section class="card scores" id="score-sheet"><h2>{escape(gettext("Score sheet"))}'
            f'</h2><div class="scroll"><table class="grid"><thead><tr>'
            f"<th>{escape(gettext('Round'))}</th>{head}</tr></thead><tbody>{lines}</tbody>"
            "</table></div></section>"
        )
    return mark_safe("".join(html))
