"""Telling open sockets that something changed: one message to a channel-layer group, sent
now or once the current transaction commits. Announcements carry no secret; each socket
renders what its reader may see from the database (docs/protocol.md)."""

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

log = logging.getLogger(__name__)


def announce(group: str, message: dict) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(group, message)
    except Exception:
        # The change is stored already: a lost announcement only delays open screens
        # until the next one or a reconnect, which always reads the database.
        log.exception("could not announce %s to %s", message.get("type"), group)


def announce_on_commit(group: str, message: dict) -> None:
    """`announce` once the current transaction commits (at once outside one)."""
    transaction.on_commit(lambda: announce(group, message))
