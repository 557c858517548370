"""Games played with real cards: a score sheet entered on a phone, and each player's
answer to it (leagues.services, "score sheets")."""

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from accounts.models import User
from games import kinds
from games.models import Table
from leagues import selectors, services
from leagues.models import League, Membership, ScoreSheet

MAX_LINES = 40


class SheetForm(forms.Form):
    """The sheet's grid: `players` seats (members of the league) and `lines` rounds."""

    season = forms.ModelChoiceField(label=gettext_lazy("Season"), queryset=None)
    played_on = forms.DateField(
        label=gettext_lazy("Played on"),
        # A date input reads ISO dates only: a French 05/12/2026 would leave it empty.
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        initial=timezone.localdate,
    )

    def __init__(self, *args, league, seasons, players: int, lines: int, **kwargs):
        super().__init__(*args, **kwargs)
        self.players, self.lines = players, lines
        self.fields["season"].queryset = seasons
        members = User.objects.filter(
            memberships__league=league, memberships__status=Membership.Status.ACTIVE
        ).order_by("display_name", "username")
        for seat in range(players):
            self.fields[f"player_{seat}"] = forms.ModelChoiceField(
                label=_("Player %(n)s") % {"n": seat + 1}, queryset=members
            )
        for line in range(lines):
            for seat in range(players):
                self.fields[f"line_{line}_{seat}"] = forms.IntegerField(
                    label=_("Round %(round)s, player %(n)s") % {"round": line + 1, "n": seat + 1},
                    min_value=-1000,
                    max_value=1000,
                    widget=forms.NumberInput(attrs={"inputmode": "numeric", "class": "cell"}),
                )

    def seat_fields(self):
        return [self[f"player_{seat}"] for seat in range(self.players)]

    def seat_columns(self) -> list[tuple]:
        """Each seat's field and the shown name of the player it holds (None: nobody yet),
        which heads the seat's column of the grid."""
        fields = self.seat_fields()
        values = {field.name: str(field.value() or "") for field in fields}
        chosen = {name: int(value) for name, value in values.items() if value.isdigit()}
        members = self.fields["player_0"].queryset if fields else User.objects.none()
        names = {user.pk: user.shown_name for user in members.filter(pk__in=chosen.values())}
        return [(field, names.get(chosen.get(field.name))) for field in fields]

    def line_fields(self):
        return [
            (line + 1, [self[f"line_{line}_{seat}"] for seat in range(self.players)])
            for line in range(self.lines)
        ]

    def chosen_players(self) -> list:
        return [self.cleaned_data[f"player_{seat}"] for seat in range(self.players)]

    def chosen_lines(self) -> list[list[int]]:
        return [
            [self.cleaned_data[f"line_{line}_{seat}"] for seat in range(self.players)]
            for line in range(self.lines)
        ]


def fixed_lines(table) -> int | None:
    """The lines a table's sheet has from the start: the rounds its game plays when its
    options fix them (as a club evening's or tournament's `game_rounds` seats it: its
    kind's `sheet_lines`); None when it ends at a score."""
    lines = kinds.get(table.kind).sheet_lines(table.options or {})
    return min(max(lines, 1), MAX_LINES) if isinstance(lines, int) else None


def _size(request, name: str, default: int, low: int, high: int) -> int:
    try:
        return min(max(int(request.GET.get(name, default)), low), high)
    except ValueError:
        return default


@login_required
def sheet_new(request, slug):
    """Enter a game played with real cards: the grid fits a phone; the players confirm."""
    league = get_object_or_404(League, slug=slug)
    is_admin = league.is_admin(request.user)
    seasons = league.seasons.filter(closed=False)
    if not is_admin:
        seasons = seasons.filter(players_enter_sheets=True)
        if selectors.membership_status(league, request.user) != Membership.Status.ACTIVE:
            raise Http404
    table = None
    if request.GET.get("table"):
        # A seated table of the night switched to paper: its season and players.
        table = get_object_or_404(
            Table.objects.exclude(status=Table.Status.FINISHED),
            pk=request.GET["table"],
            league_table__season__league=league,
            paper=True,
        )
        seasons = seasons.filter(pk=table.league_table.season_id)
    players = _size(request, "players", table.seats.count() if table else 4, 2, 10)
    # A table that plays a number of rounds starts with that many lines; `rounds` wins.
    lines = _size(request, "rounds", (fixed_lines(table) if table else None) or 1, 1, MAX_LINES)
    initial = {}
    if table is not None:
        initial["season"] = table.league_table.season_id
        if hasattr(table, "evening_slot"):
            initial["played_on"] = table.evening_slot.evening.date
        for seat in table.seats.order_by("position")[:players]:
            initial[f"player_{seat.position}"] = seat.user_id
    form = SheetForm(
        request.POST or None,
        initial=initial,
        league=league,
        seasons=seasons,
        players=players,
        lines=lines,
    )
    if request.method == "POST" and form.is_valid():
        slot = getattr(table, "evening_slot", None) if table else None
        try:
            sheet = services.sheet_enter(
                season=form.cleaned_data["season"],
                user=request.user,
                players=form.chosen_players(),
                lines=form.chosen_lines(),
                played_on=form.cleaned_data["played_on"],
                evening=slot.evening if slot else None,
                round_number=slot.round if slot else None,
                table=table,
            )
        except services.LeagueError as error:
            form.add_error(None, error.message)
        else:
            messages.success(request, _("The sheet is entered: its players confirm it now."))
            return redirect("league_sheet", pk=sheet.pk)
    status = 400 if request.method == "POST" else 200
    context = {"league": league, "form": form, "players": players, "lines": lines, "table": table}
    return render(request, "leagues/sheet_new.html", context, status=status)


def _sheet_or_404(request, pk) -> ScoreSheet:
    sheet = get_object_or_404(ScoreSheet.objects.select_related("season__league", "table"), pk=pk)
    if not selectors.league_visible(sheet.season.league, request.user):
        raise Http404
    return sheet


def sheet(request, pk):
    sheet = _sheet_or_404(request, pk)
    players = services.sheet_players(sheet)
    answers = {answer.user_id: answer for answer in sheet.answers.all()}
    game = sheet.season.game
    totals = [sum(column) for column in zip(*sheet.lines, strict=False)]
    context = {
        "sheet": sheet,
        "league": sheet.season.league,
        "game": game,
        "columns": [
            {"player": player, "answer": answers.get(player.pk), "total": total}
            for player, total in zip(players, totals, strict=False)
        ],
        "lines": [(number, line) for number, line in enumerate(sheet.lines, start=1)],
        "may_answer": request.user.is_authenticated
        and sheet.status != ScoreSheet.Status.CONFIRMED
        and request.user.pk in {p.pk for p in players},
        "is_admin": sheet.season.league.is_admin(request.user),
    }
    return render(request, "leagues/sheet.html", context)


@login_required
@require_POST
def sheet_answer(request, pk):
    sheet = _sheet_or_404(request, pk)
    confirmed = request.POST.get("answer") == "confirm"
    try:
        services.sheet_answer(
            sheet=sheet,
            user=request.user,
            confirmed=confirmed,
            reason=request.POST.get("reason", ""),
        )
    except services.LeagueError as error:
        messages.error(request, error.message)
    else:
        messages.success(
            request,
            _("Thank you: you confirmed the sheet.")
            if confirmed
            else _("The sheet waits for the league admin."),
        )
    return redirect("league_sheet", pk=sheet.pk)


@login_required
@require_POST
def sheet_confirm_all(request, pk):
    sheet = _sheet_or_404(request, pk)
    try:
        services.sheet_confirm_all(sheet=sheet, user=request.user)
    except services.LeagueError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("The sheet is confirmed for all its players: it counts."))
    return redirect("league_sheet", pk=sheet.pk)
