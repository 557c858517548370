"""Site ratings, read-only (the site's superusers; a league's admins run their leagues, not
the site's ratings): each player's rating in each game, the rated games' lines, and a
rebuild of a game's ratings from all its finished games, queued for the worker."""

from django.contrib import admin, messages
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games import kinds
from leagues import tasks
from leagues.models import RatedGame, SiteRating


class ReadOnlyAdmin(admin.ModelAdmin):
    """Rows the ratings write; a change is a recompute, never an edit."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(SiteRating)
class SiteRatingAdmin(ReadOnlyAdmin):
    list_display = ("user", "kind", "shown_rating", "games", "updated_at", "history")
    list_filter = ("kind",)
    search_fields = ("user__username", "user__display_name")
    list_select_related = ("user",)
    ordering = ("kind", "-games")
    fields = ("user", "kind", "shown_rating", "mu", "sigma", "games", "updated_at", "history")
    readonly_fields = fields
    actions = ["recompute_games"]

    @admin.display(description=_("rating"))
    def shown_rating(self, rating):
        """The rating players see (μ − 3σ)."""
        return f"{rating.rating:.1f}"

    @admin.display(description=_("rated games"))
    def history(self, rating):
        url = reverse("admin:leagues_ratedgame_changelist")
        return format_html(
            '<a href="{}?user__id__exact={}&amp;kind__exact={}">{}</a>',
            url,
            rating.user_id,
            rating.kind,
            gettext("the games"),
        )

    @admin.action(
        description=_("Recompute the site ratings of the selected games"), permissions=["view"]
    )
    def recompute_games(self, request, queryset):
        names = sorted(set(queryset.values_list("kind", flat=True)))
        for name in names:
            tasks.start_site_recompute(name)
        labels = ", ".join(str(kinds.get(name).label) for name in names)
        self.message_user(
            request,
            gettext("The site ratings of %(games)s are being recomputed in the background.")
            % {"games": labels},
            messages.INFO,
        )


@admin.register(RatedGame)
class RatedGameAdmin(ReadOnlyAdmin):
    list_display = (
        "finished_at",
        "user",
        "kind",
        "game",
        "place",
        "players",
        "score",
        "shown_before",
        "shown_after",
    )
    list_filter = ("kind",)
    search_fields = ("user__username", "user__display_name")
    list_select_related = ("user",)
    ordering = ("-finished_at", "pk")
    show_full_result_count = False
    list_per_page = 50
    fields = (
        "game",
        "user",
        "kind",
        "seat",
        "place",
        "players",
        "score",
        "rounds",
        "shown_before",
        "shown_after",
        "finished_at",
    )
    readonly_fields = fields

    @admin.display(description=_("rating before"))
    def shown_before(self, line):
        return f"{line.rating_before:.1f}"

    @admin.display(description=_("rating after"))
    def shown_after(self, line):
        return f"{line.rating:.1f}"
