"""The chat in the Django admin: messages, reports and suspensions.

Site admins (superusers) see every chat. A league's admins (`League.admins`) see the
messages of their leagues' tables and the reports of those messages, hide them and
suspend their writers, as leagues.admin scopes every league object; the lobby's messages
are the site admins' alone. A suspension holds in every chat.
"""

from datetime import timedelta

from django.contrib import admin, messages
from django.db.models import Count
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from chat import services
from chat.models import ChatMessage, ChatReport, ChatSuspension
from leagues.admin import LeagueScopedAdmin, administers_a_league


def _suspend(modeladmin, request, users, days: int) -> None:
    until = timezone.now() + timedelta(days=days)
    reason = _("From the admin, after messages in the chat")
    for user in users:
        services.chat_suspend(user=user, by=request.user, until=until, reason=str(reason))
    count = len(users)
    modeladmin.message_user(
        request,
        ngettext(
            "%(count)d player suspended from the chat.",
            "%(count)d players suspended from the chat.",
            count,
        )
        % {"count": count},
        messages.SUCCESS,
    )


def _room(message: ChatMessage) -> str:
    return str(message.table) if message.table_id else str(_("Lobby"))


@admin.register(ChatMessage)
class ChatMessageAdmin(LeagueScopedAdmin):
    league_path = "table__league_table__season__league"
    list_display = ("created_at", "sender", "room", "shown_text", "from_spectator", "hidden")
    list_filter = ("hidden", "from_spectator")
    search_fields = ("text", "sender__username", "sender__display_name")
    date_hierarchy = "created_at"
    list_select_related = ("sender", "table")
    fields = (
        "created_at",
        "sender",
        "table",
        "shown_text",
        "from_spectator",
        "hidden",
        "hidden_by",
        "hidden_at",
        "report_count",
    )
    readonly_fields = fields
    actions = ("hide", "show", "suspend_for_a_day", "suspend_for_a_week")

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(reports_count=Count("reports"))

    @admin.display(description=_("room"))
    def room(self, obj):
        return _room(obj)

    @admin.display(description=_("text"))
    def shown_text(self, obj):
        return obj.shown_text  # escaped by the admin like any value

    @admin.display(description=_("reports"), ordering="reports_count")
    def report_count(self, obj):
        return obj.reports_count

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return request.user.is_superuser

    @admin.action(description=_("Hide the selected messages"), permissions=["change"])
    def hide(self, request, queryset):
        count = services.chat_hide(messages=queryset, by=request.user)
        self.message_user(
            request,
            ngettext("%(count)d message hidden.", "%(count)d messages hidden.", count)
            % {"count": count},
            messages.SUCCESS,
        )

    @admin.action(description=_("Show the selected messages again"), permissions=["change"])
    def show(self, request, queryset):
        count = services.chat_hide(messages=queryset, by=request.user, hidden=False)
        self.message_user(
            request,
            ngettext("%(count)d message shown again.", "%(count)d messages shown again.", count)
            % {"count": count},
            messages.SUCCESS,
        )

    @admin.action(description=_("Suspend their writers for a day"), permissions=["change"])
    def suspend_for_a_day(self, request, queryset):
        _suspend(self, request, _writers(queryset), days=1)

    @admin.action(description=_("Suspend their writers for a week"), permissions=["change"])
    def suspend_for_a_week(self, request, queryset):
        _suspend(self, request, _writers(queryset), days=7)


def _writers(messages_queryset) -> list:
    seen = {}
    for message in messages_queryset.select_related("sender"):
        seen[message.sender_id] = message.sender
    return list(seen.values())


class ResolvedFilter(admin.SimpleListFilter):
    title = _("status")
    parameter_name = "status"

    def lookups(self, request, model_admin):
        return [("open", _("To review")), ("resolved", _("Resolved"))]

    def queryset(self, request, queryset):
        if self.value() == "open":
            return queryset.filter(resolved_at__isnull=True)
        if self.value() == "resolved":
            return queryset.filter(resolved_at__isnull=False)
        return queryset


@admin.register(ChatReport)
class ChatReportAdmin(LeagueScopedAdmin):
    league_path = "message__table__league_table__season__league"
    list_display = (
        "created_at",
        "message_text",
        "message_sender",
        "room",
        "reporter",
        "message_hidden",
        "resolved",
    )
    list_filter = (ResolvedFilter,)
    list_select_related = ("message__sender", "message__table", "reporter")
    fields = (
        "created_at",
        "reporter",
        "message",
        "message_text",
        "message_sender",
        "message_hidden",
        "resolved_at",
        "resolved_by",
    )
    readonly_fields = fields
    actions = (
        "hide_and_resolve",
        "resolve",
        "suspend_for_a_day_and_resolve",
        "suspend_for_a_week_and_resolve",
    )

    @admin.display(description=_("message"))
    def message_text(self, obj):
        return obj.message.shown_text

    @admin.display(description=_("written by"))
    def message_sender(self, obj):
        return obj.message.sender

    @admin.display(description=_("room"))
    def room(self, obj):
        return _room(obj.message)

    @admin.display(description=_("hidden"), boolean=True)
    def message_hidden(self, obj):
        return obj.message.hidden

    @admin.display(description=_("resolved"), boolean=True, ordering="resolved_at")
    def resolved(self, obj):
        return obj.resolved_at is not None

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return request.user.is_superuser

    def _resolve(self, request, queryset):
        count = services.chat_resolve(reports=queryset, by=request.user)
        self.message_user(
            request,
            ngettext("%(count)d report resolved.", "%(count)d reports resolved.", count)
            % {"count": count},
            messages.SUCCESS,
        )

    @admin.action(description=_("Hide the messages and resolve"), permissions=["change"])
    def hide_and_resolve(self, request, queryset):
        reported = ChatMessage.objects.filter(pk__in=queryset.values("message_id"))
        services.chat_hide(messages=reported, by=request.user)
        self._resolve(request, queryset)

    @admin.action(description=_("Resolve without action"), permissions=["change"])
    def resolve(self, request, queryset):
        self._resolve(request, queryset)

    @admin.action(
        description=_("Hide, suspend the writers for a day and resolve"), permissions=["change"]
    )
    def suspend_for_a_day_and_resolve(self, request, queryset):
        self._suspend_and_resolve(request, queryset, days=1)

    @admin.action(
        description=_("Hide, suspend the writers for a week and resolve"), permissions=["change"]
    )
    def suspend_for_a_week_and_resolve(self, request, queryset):
        self._suspend_and_resolve(request, queryset, days=7)

    def _suspend_and_resolve(self, request, queryset, days):
        reported = ChatMessage.objects.filter(pk__in=queryset.values("message_id"))
        services.chat_hide(messages=reported, by=request.user)
        _suspend(self, request, _writers(reported), days=days)
        self._resolve(request, queryset)


@admin.register(ChatSuspension)
class ChatSuspensionAdmin(admin.ModelAdmin):
    """Site admins suspend anyone from here; a league's admins see, change and lift (delete)
    the suspensions they gave from the messages and reports of their leagues."""

    list_display = ("user", "until", "reason", "created_by", "created_at", "active")
    list_select_related = ("user", "created_by")
    search_fields = ("user__username", "user__display_name", "reason")
    raw_id_fields = ("user",)
    fields = ("user", "until", "reason", "created_by", "created_at")
    readonly_fields = ("created_by", "created_at")

    @admin.display(description=_("active"), boolean=True)
    def active(self, obj):
        return obj.until is None or obj.until > timezone.now()

    def get_queryset(self, request):
        queryset = super().get_queryset(request)
        if request.user.is_superuser:
            return queryset
        return queryset.filter(created_by=request.user)

    def get_readonly_fields(self, request, obj=None):
        if request.user.is_superuser:
            return self.readonly_fields
        return ("user", *self.readonly_fields)

    def _in_scope(self, request, obj):
        if request.user.is_superuser:
            return True
        if not administers_a_league(request):
            return False
        return obj is None or obj.created_by_id == request.user.pk

    def has_module_permission(self, request):
        return request.user.is_superuser or administers_a_league(request)

    def has_view_permission(self, request, obj=None):
        return self._in_scope(request, obj)

    def has_change_permission(self, request, obj=None):
        return self._in_scope(request, obj)

    def has_delete_permission(self, request, obj=None):
        return self._in_scope(request, obj)

    def has_add_permission(self, request):
        return request.user.is_superuser

    def save_model(self, request, obj, form, change):
        if not change:
            obj.created_by = request.user
        super().save_model(request, obj, form, change)
