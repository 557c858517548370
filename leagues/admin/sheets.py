"""Games played with real cards (score sheets and their answers), and changes of results."""

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from leagues import services
from leagues.admin.base import (
    LeagueScopedAdmin,
    LeagueScopedFilter,
    ReadOnlyInline,
)
from leagues.admin.results import lines_text, parse_lines
from leagues.models import (
    ResultChange,
    ScoreSheet,
    SheetAnswer,
)


class SheetAnswerInline(ReadOnlyInline):
    model = SheetAnswer
    fields = ("user", "confirmed", "reason", "answered_at")
    readonly_fields = fields


class ScoreSheetForm(forms.ModelForm):
    lines_written = forms.CharField(
        label=_("Score sheet"),
        widget=forms.Textarea(attrs={"rows": 8, "cols": 40}),
        help_text=_(
            "One line per round (or hand), one number per player in seat order, in the "
            "game's unit (heads or points). "
            "Saving a change asks the players to confirm again; a confirmed sheet is "
            "corrected from its league game."
        ),
    )

    class Meta:
        model = ScoreSheet
        fields = ()

    def clean_lines_written(self):
        try:
            return parse_lines(self.cleaned_data["lines_written"])
        except ValueError:
            raise ValidationError(_("Write whole numbers separated by spaces.")) from None


@admin.register(ScoreSheet)
class ScoreSheetAdmin(LeagueScopedAdmin):
    """Sheets of games played with real cards: a disputed one waits here for the league
    admin, who writes it again (its players answer anew) or confirms it for all."""

    league_path = "season__league"
    list_display = ("table", "season", "played_on", "status", "entered_by", "entered_at")
    list_filter = ("status", ("season", LeagueScopedFilter))
    list_select_related = ("table", "season__league", "entered_by")
    search_fields = ("table__name",)
    fields = ("table", "season", "played_on", "status", "entered_by", "lines_written")
    readonly_fields = ("table", "season", "played_on", "status", "entered_by")
    form = ScoreSheetForm
    inlines = [SheetAnswerInline]
    actions = ["confirm_for_all"]

    def has_add_permission(self, request):
        return False  # entered on the league's page, where the grid fits a phone

    def get_form(self, request, obj=None, change=False, **kwargs):
        form = super().get_form(request, obj, change, **kwargs)
        field = form.base_fields["lines_written"]
        field.initial = lines_text(obj.lines) if obj else ""
        field.disabled = obj is not None and obj.status == ScoreSheet.Status.CONFIRMED
        return form

    def save_model(self, request, obj, form, change):
        if "lines_written" not in form.changed_data:
            return
        try:
            services.sheet_fix(
                sheet=obj, user=request.user, lines=form.cleaned_data["lines_written"]
            )
        except services.LeagueError as error:
            self.message_user(request, error.message, messages.ERROR)

    @admin.action(description=_("Confirm the selected sheets for all their players"))
    def confirm_for_all(self, request, queryset):
        done = 0
        for sheet in queryset:
            try:
                services.sheet_confirm_all(sheet=sheet, user=request.user)
                done += 1
            except services.LeagueError as error:
                self.message_user(request, f"{sheet}: {error.message}", messages.ERROR)
        self.message_user(
            request,
            ngettext("%(n)d sheet confirmed.", "%(n)d sheets confirmed.", done) % {"n": done},
            messages.SUCCESS,
        )


@admin.register(ResultChange)
class ResultChangeAdmin(LeagueScopedAdmin):
    """Every correction and void of a finished result: who, when, why, before and after."""

    league_path = "game__table__league_table__season__league"
    editable = False
    list_display = ("game", "action", "changed_by", "changed_at", "reason")
    list_filter = ("action",)
    list_select_related = ("game__table", "changed_by")
    search_fields = ("game__table__name", "reason")
