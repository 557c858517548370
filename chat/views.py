"""The chat's HTTP actions: mute, unmute, report, hide spectators' messages.

Each answers htmx with the room's log, settings and notice to swap by id (or a notice
only), and a browser without JavaScript with a redirect to the room's page.
"""

from django.contrib import messages as flash
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from chat import rendering, selectors, services
from chat.models import ChatMessage
from games import selectors as game_selectors
from games.services import ServiceError


def _room_or_404(user, table_id: int | None) -> int | None:
    """The room, if the user may read it: the lobby, or a table they may see."""
    if table_id is not None and game_selectors.table_access(table_id, user) is None:
        raise Http404
    return table_id


def _message_or_404(request, message_id: int) -> ChatMessage:
    message = get_object_or_404(ChatMessage.objects.select_related("sender"), pk=message_id)
    _room_or_404(request.user, message.table_id)
    if not selectors.chat_reader(request.user).sees(message):
        raise Http404
    return message


def _answer(request, table_id, *, code="", message="", refresh=True):
    if request.htmx:
        if refresh:
            return HttpResponse(rendering.refreshed_panel(request, table_id, code, message))
        return HttpResponse(rendering.notice(code, message, oob=True))
    if message:
        (flash.error if code else flash.success)(request, message)
    if table_id is None:
        return redirect("lobby")
    return redirect("table", table_id=table_id)


@login_required
@require_POST
def mute(request, message_id):
    message = _message_or_404(request, message_id)
    try:
        services.chat_mute(user=request.user, muted=message.sender)
    except ServiceError as error:
        return _answer(request, message.table_id, code=error.code, message=error.message)
    text = _("You no longer see what %(name)s writes.") % {"name": message.sender.shown_name}
    return _answer(request, message.table_id, message=text)


@login_required
@require_POST
def unmute(request, user_id):
    muted = get_object_or_404(get_user_model(), pk=user_id)
    table = request.POST.get("table", "")
    table_id = _room_or_404(request.user, int(table) if table.isdigit() else None)
    services.chat_unmute(user=request.user, muted_id=muted.pk)
    text = _("You see what %(name)s writes again.") % {"name": muted.shown_name}
    return _answer(request, table_id, message=text)


@login_required
@require_POST
def report(request, message_id):
    message = _message_or_404(request, message_id)
    try:
        services.chat_report(user=request.user, message=message)
    except ServiceError as error:
        return _answer(request, message.table_id, code=error.code, message=error.message)
    text = _("Thank you: the admins will look at this message.")
    return _answer(request, message.table_id, message=text, refresh=False)


@login_required
@require_POST
def spectators(request, table_id):
    _room_or_404(request.user, table_id)
    hide = request.POST.get("hide") == "1"
    services.chat_hide_spectators(user=request.user, hide=hide)
    shown = _("Spectators' messages are shown.")
    text = _("Spectators' messages are hidden.") if hide else shown
    return _answer(request, table_id, message=text)
