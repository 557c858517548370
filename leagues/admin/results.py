"""Correcting or voiding a finished league game from its admin page, with a reason: the
only ways a finished result changes (leagues.services.result_correct / result_void), each
kept as a ResultChange; the season's standings are recomputed right after."""

from django import forms
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from leagues import services


def lines_text(lines) -> str:
    """A score sheet as the admin writes it: one line per round, numbers separated by spaces."""
    return "\n".join(" ".join(str(value) for value in line) for line in lines)


def parse_lines(text: str) -> list[list[int]]:
    """The numbers of each non-empty line; ValueError on anything but whole numbers."""
    return [[int(part) for part in line.split()] for line in text.splitlines() if line.strip()]


class CorrectionForm(forms.Form):
    lines = forms.CharField(
        label=gettext_lazy("Score sheet"),
        widget=forms.Textarea(attrs={"rows": 8, "cols": 40}),
        help_text=gettext_lazy(
            "One line per round (or hand), one number per seat in seat order, in the "
            "game's unit (heads or points), separated by spaces."
        ),
    )
    reason = forms.CharField(label=gettext_lazy("Reason"), widget=forms.Textarea(attrs={"rows": 2}))

    def clean_lines(self):
        try:
            return parse_lines(self.cleaned_data["lines"])
        except ValueError:
            raise forms.ValidationError(_("Write whole numbers separated by spaces.")) from None


class VoidForm(forms.Form):
    reason = forms.CharField(label=gettext_lazy("Reason"), widget=forms.Textarea(attrs={"rows": 2}))


class ResultsAdminMixin:
    """For the admin of league games (leagues.admin.LeagueGameAdmin), which provides
    `recompute_season(request, season)`: at once for a small season, else in the
    background with its progress on the season's page."""

    change_form_template = "admin/leagues/leaguegame_change_form.html"

    def get_urls(self):
        name = f"{self.opts.app_label}_{self.opts.model_name}"
        return [
            path(
                "<path:object_id>/correct/",
                self.admin_site.admin_view(self.correct_view),
                name=f"{name}_correct",
            ),
            path(
                "<path:object_id>/void/",
                self.admin_site.admin_view(self.void_view),
                name=f"{name}_void",
            ),
            *super().get_urls(),
        ]

    def _entry(self, request, object_id):
        entry = get_object_or_404(
            self.get_queryset(request).select_related("game__table", "season__league"),
            pk=object_id,
        )
        if not entry.season.league.is_admin(request.user):
            raise PermissionDenied
        return entry

    def _back(self, entry):
        name = f"admin:{self.opts.app_label}_{self.opts.model_name}_change"
        return HttpResponseRedirect(reverse(name, args=[entry.pk]))

    def change_view(self, request, object_id, form_url="", extra_context=None):
        extra_context = dict(extra_context or {})
        entry = self.get_object(request, object_id)
        if entry is not None:
            extra_context["result_changes"] = entry.game.result_changes.select_related("changed_by")
            extra_context["may_change_result"] = entry.season.league.is_admin(request.user)
        return super().change_view(request, object_id, form_url, extra_context)

    def _page(self, request, entry, form, title):
        context = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "entry": entry,
            "form": form,
            "title": title,
            "players": [seat.name for seat in entry.game.table.seats.named()],
        }
        return TemplateResponse(request, "admin/leagues/result_change.html", context)

    def correct_view(self, request, object_id):
        entry = self._entry(request, object_id)
        initial = {"lines": lines_text(entry.game.result["rounds"] if entry.game.result else [])}
        form = CorrectionForm(request.POST or None, initial=initial)
        if request.method == "POST" and form.is_valid():
            try:
                with transaction.atomic():
                    services.result_correct(
                        game=entry.game,
                        lines=form.cleaned_data["lines"],
                        reason=form.cleaned_data["reason"],
                        user=request.user,
                    )
                    self.recompute_season(request, entry.season)
            except services.LeagueError as error:
                form.add_error("lines", error.message)
            else:
                self.message_user(request, _("The result is corrected."), messages.SUCCESS)
                return self._back(entry)
        return self._page(
            request, entry, form, _("Correct the result of %(game)s") % {"game": entry.game}
        )

    def void_view(self, request, object_id):
        entry = self._entry(request, object_id)
        form = VoidForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            try:
                with transaction.atomic():
                    services.result_void(
                        game=entry.game, reason=form.cleaned_data["reason"], user=request.user
                    )
                    self.recompute_season(request, entry.season)
            except services.LeagueError as error:
                form.add_error("reason", error.message)
            else:
                self.message_user(request, _("The game is void."), messages.SUCCESS)
                return self._back(entry)
        return self._page(request, entry, form, _("Void %(game)s") % {"game": entry.game})
