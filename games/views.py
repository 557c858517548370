import functools

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, JsonResponse
from django.middleware.csrf import get_token
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRedirect

from games import kinds, rendering, replays, selectors, services, signals
from games.forms import TableForm
from games.models import Game, Table


def _access_or_404(request, table_id):
    """The table's Access; 404 if the user may not see it, and a 403 page saying why to
    whom its duplicate deal closes it (selectors.table_look)."""
    invite = request.GET.get("invite") or request.POST.get("invite") or ""
    access = selectors.table_look(table_id, request.user, invite)
    if access is None:
        raise _NotShown
    if access.closed:
        raise _DealClosed
    return access


class _NotShown(Http404):
    """A table the user may not see: missing, private without its invite, or closed to
    them by another app (selectors.table_look tells none of these apart)."""


def _answers_not_shown(view):
    """Answer `_NotShown` with the site's own page, status 404, in the page's language:
    whom to ask for the link, never Django's debug page (`make run` has DEBUG on). A
    missing table gets the same page, which says nothing of whether the table exists."""

    @functools.wraps(view)
    def wrapped(request, *args, **kwargs):
        try:
            return view(request, *args, **kwargs)
        except _NotShown:
            return render(request, "games/private.html", status=404)

    return wrapped


class _DealClosed(Exception):
    """A duplicate round's table or finished game that must wait for the round's end."""


def _answers_closed_deals(view):
    """Answer `_DealClosed` with a 403 page that says so, and nothing else."""

    @functools.wraps(view)
    def wrapped(request, *args, **kwargs):
        try:
            return view(request, *args, **kwargs)
        except _DealClosed:
            message = _("This game's deal is still being played at another table.")
            context = {"code": "deal_in_play", "message": message}
            return render(request, "games/closed.html", context, status=403)

    return wrapped


@login_required
def lobby(request):
    listed = _listed_kind(request)
    if request.htmx and request.htmx.target == "lobby-tables":
        # A list of one game's tables, fetched again as the lobby changes (static/js/lobby.js).
        context = {"listed_kind": listed, **selectors.lobby_tables(request.user, kind=listed)}
        return render(request, "games/lobby.html#tables", context)
    if request.method == "POST":
        form = TableForm(request.POST, user=request.user)
        if form.changes_game():
            form = form.for_chosen_game()
        elif form.is_valid():
            table = _create_table(request, form)
            if table is not None:
                return redirect(table)
    else:
        # The list of one game's tables offers to create one of that game.
        form = TableForm(user=request.user, kind=listed)
    context = {
        "form": form,
        "games": kinds.registered(),
        "listed_kind": listed,
        **selectors.lobby_tables(request.user, kind=listed),
    }
    return render(request, "games/lobby.html", context, status=400 if form.errors else 200)


def _create_table(request, form: TableForm):
    """The table of a valid form, or None when the service refuses it (the form says why)."""
    try:
        return services.table_create(
            user=request.user,
            kind=form.cleaned_data["kind"],
            seats_count=form.cleaned_data["seats_count"],
            options=form.options(),
            time_limit=form.cleaned_data["time_limit"],
            is_public=form.cleaned_data["is_public"],
            show_played=form.cleaned_data["show_played"],
            name=form.cleaned_data["name"],
            season=form.cleaned_data.get("season"),
        )
    except services.ServiceError as error:
        form.add_error(None, error.message)
        return None


def _listed_kind(request) -> str | None:
    """The game the lobby lists the tables of (?kind=), or None: every game's."""
    name = request.GET.get("kind")
    return name if name in dict(kinds.choices()) else None


@login_required
@require_GET
def my_games(request):
    """The player's tables, those waiting for a decision of hers first, and her last
    finished games."""
    return render(request, "games/my_games.html", selectors.my_games(request.user))


@login_required
@require_GET
def lobby_options(request):
    """The new-table form's fields for the game ?kind=, with their defaults: the page
    swaps them in when the game is chosen (the `game_options` part of lobby.html)."""
    try:
        kinds.get(request.GET.get("kind"))
    except KeyError:
        raise Http404 from None
    form = TableForm(user=request.user, kind=request.GET["kind"])
    return render(request, "games/lobby.html#game_options", {"form": form})


@login_required
@_answers_closed_deals
@_answers_not_shown
def table(request, table_id):
    access = _access_or_404(request, table_id)
    table = access.table
    if table.paper:
        return _paper_table(request, table)
    invite = request.GET.get("invite", "")
    live = rendering.page_live(
        table, request.user, translation.get_language(), get_token(request), invite=invite
    )
    log = rendering.page_log(table, translation.get_language())
    # A game's own page, or the one every game shares.
    templates = [kinds.get(table.kind).template("table.html"), "games/table.html"]
    context = {"table": table, "kind": kinds.get(table.kind), "live": live, "log": log}
    # The page's socket shows the table to a visitor from its invite link (not seated).
    context["invite"] = invite
    return render(request, templates, context)


def _paper_table(request, table):
    """A table played with real cards: its players, and its score sheet once it counts."""
    game = Game.objects.filter(table=table).first()
    result = game.result if game is not None else None
    seats = table.seats.named()
    columns = []
    for seat in seats:
        total = result["totals"][seat.position] if result else None
        won = bool(result) and seat.position in result["winners"]
        columns.append({"name": seat.name, "total": total, "won": won})
    context = {
        "table": table,
        "game": kinds.get(table.kind),
        "counted_in": _counted_in(table),
        "columns": columns,
        "lines": list(enumerate(result["rounds"], start=1)) if result else [],
    }
    return render(request, "games/paper.html", context)


def _counted_in(table) -> str | None:
    """What the table counts in, as another app names it (games.signals.counted_in: a
    league's season), or None."""
    for _receiver, text in signals.counted_in.send(sender=Table, table=table):
        if text:
            return text
    return None


@login_required
@_answers_closed_deals
@_answers_not_shown
def table_log(request, table_id):
    """The log of the rounds already played (the table page fetches it at each round's end)."""
    access = _access_or_404(request, table_id)
    return HttpResponse(rendering.page_log(access.table, translation.get_language()))


def _seat_action(service, **post_fields):
    """A POST view running `service(table_id=, user=, ...)` on a table.

    `post_fields` maps the service's keyword arguments to form fields; URL arguments (a
    seat's position) pass through. htmx gets the `#notice` back, others a redirect.
    """

    @login_required
    @require_POST
    def view(request, table_id, **url_kwargs):
        extra = {name: request.POST.get(field, "") for name, field in post_fields.items()}
        try:
            service(table_id=table_id, user=request.user, **url_kwargs, **extra)
        except services.ServiceError as error:
            if request.htmx:
                context = {"code": error.code, "message": error.message}
                return HttpResponse(render_to_string("games/notice.html", context))
            messages.error(request, error.message)
        if request.htmx:
            return HttpResponse(render_to_string("games/notice.html", {}))
        return redirect("table", table_id=table_id)

    return view


join = _seat_action(services.seat_join, invite_code="invite")
leave = _seat_action(services.seat_remove)
remove_seat = _seat_action(services.seat_remove)
add_bot = _seat_action(services.seat_add_bot, bot="bot")
start = _seat_action(services.table_start)
back = _seat_action(services.seat_return)
replace_by_bot = _seat_action(services.seat_replace_by_bot, bot="bot")
vote_replace = _seat_action(services.seat_vote_replace)


def _rematch_action(service):
    """A POST view running `service(table_id=, user=)`, which returns the rematch table:
    the player goes there (htmx: HX-Redirect; others: a redirect). A refusal comes back
    as the `#notice` (htmx) or a message on the finished table's page."""

    @login_required
    @require_POST
    def view(request, table_id):
        try:
            rematch = service(table_id=table_id, user=request.user)
        except services.ServiceError as error:
            if request.htmx:
                context = {"code": error.code, "message": error.message}
                return HttpResponse(render_to_string("games/notice.html", context))
            messages.error(request, error.message)
            return redirect("table", table_id=table_id)
        if request.htmx:
            return HttpResponseClientRedirect(rematch.get_absolute_url())
        return redirect(rematch)

    return view


rematch = _rematch_action(services.table_rematch)
rematch_accept = _rematch_action(services.rematch_accept)


def _finished_game(request, table_id) -> Game:
    """The table's finished game, whose every hand a record or replay shows: not before
    every table dealt the same cards (a duplicate round) has finished too."""
    access = _access_or_404(request, table_id)
    game = Game.objects.filter(table=access.table, finished_at__isnull=False).first()
    if game is None or access.table.paper:  # a game played on paper has no record
        raise Http404
    if access.deal_closed:
        raise _DealClosed
    return game


@login_required
@_answers_closed_deals
@_answers_not_shown
def record(request, table_id):
    """The game record of RULES §4: only once the game is over (it holds every hand)."""
    game = _finished_game(request, table_id)
    data = replays.game_record(game)
    response = JsonResponse(data, json_dumps_params={"indent": 1})
    response["Content-Disposition"] = f'attachment; filename="sixclub-{table_id}.json"'
    return response


@login_required
@_answers_closed_deals
@_answers_not_shown
def replay(request, table_id):
    game = _finished_game(request, table_id)
    try:
        step = int(request.GET.get("step", "0"))
    except ValueError:
        step = 0
    context = replays.replay_context(game, step)
    return render(request, replays.replay_template(game), context)
