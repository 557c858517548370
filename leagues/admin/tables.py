"""Tables in the Django admin: see every table and its seats, free a stuck one. Here rather
than in games/admin.py because a league's admins see their leagues' tables (the same
scoping as the league pages), and games does not depend on leagues."""

import copy

from django import forms
from django.contrib import admin
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from games import kinds
from games.models import Seat, Table
from leagues import services
from leagues.admin.base import (
    LeagueScopedAdmin,
    LeagueScopedFilter,
    PlayerSearch,
    deal_in_play,
    tables_of,
)
from leagues.models import (
    Season,
    season_id_of,
    season_of,
)


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("position", "user", "bot_name", "away")
    readonly_fields = ("position", "user", "bot_name")
    can_delete = False

    @admin.display(description=_("bot"))
    def bot_name(self, seat):
        return kinds.bot_label(seat.bot) if seat.bot else ""


class TableForm(forms.ModelForm):
    """A table's fields, and the season it counts in (leagues' LeagueTable, saved by
    TableAdmin.save_model)."""

    season = forms.ModelChoiceField(
        label=_("season"), queryset=Season.objects.select_related("league"), required=False
    )

    class Meta:
        model = Table
        fields = ()

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if "season" in self.fields and self.instance.pk is not None:
            self.initial.setdefault("season", season_id_of(self.instance))


@admin.register(Table)
class TableAdmin(PlayerSearch, LeagueScopedAdmin):
    league_path = "league_table__season__league"
    form = TableForm
    list_display = (
        "__str__",
        "kind",
        "status",
        "seats_count",
        "created_by",
        "season",
        "is_public",
        "created_at",
    )
    list_filter = (
        "status",
        "kind",
        "is_public",
        ("league_table__season", LeagueScopedFilter),
    )
    search_fields = ("name",)
    date_hierarchy = "created_at"
    show_full_result_count = False
    list_per_page = 50
    readonly_fields = (
        "kind",
        "created_by",
        "created_at",
        "seats_count",
        "options",
        "time_limit",
        "invite_code",
        "status",
    )
    fields = (
        "name",
        "kind",
        "status",
        "created_by",
        "created_at",
        "seats_count",
        "options",
        "time_limit",
        "is_public",
        "show_played",
        "season",
        "invite_code",
    )
    inlines = [SeatInline]
    list_select_related = ("created_by", "league_table__season__league")

    def players_found(self, players):
        return Q(pk__in=tables_of(players))

    @admin.display(description=_("season"), ordering="league_table__season")
    def season(self, table):
        return season_of(table)

    def get_form(self, request, obj=None, change=False, **kwargs):
        form = super().get_form(request, obj, change, **kwargs)
        if "season" in form.base_fields and not request.user.is_superuser:
            # A field of its own for this form class: the declared one is shared by all.
            field = copy.deepcopy(form.base_fields["season"])
            field.queryset = field.queryset.filter(league__admins=request.user)
            form.base_fields["season"] = field
        return form

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        if "season" in form.changed_data:
            services.table_season_set(table=obj, season=form.cleaned_data["season"])

    def get_fields(self, request, obj=None):
        # The deal's seed rebuilds every hand: shown only once no game dealt from it can
        # still be played (this table's, or another table's of its duplicate round).
        if obj is not None and obj.deal_seed is not None and not deal_in_play(obj):
            return self.fields + ("deal_seed",)
        return self.fields

    def get_readonly_fields(self, request, obj=None):
        readonly = self.readonly_fields + ("deal_seed",)
        if obj is not None and obj.status == Table.Status.FINISHED:
            # Its result is in its season's standings: moving it would take it out of both
            # seasons' standings. Corrections have their own flow.
            readonly += ("season",)
        return readonly

    def has_delete_permission(self, request, obj=None):
        # A finished league table is a result of its season.
        if obj is not None and obj.status == Table.Status.FINISHED and season_id_of(obj):
            return False
        return super().has_delete_permission(request, obj)

    def has_add_permission(self, request):
        # Tables are opened from the lobby or by a seating (leagues), never empty-handed here.
        return False
