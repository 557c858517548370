from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ChatConfig(AppConfig):
    name = "chat"
    verbose_name = _("Chat")

    def ready(self):
        # The chat rides on the sockets of the tables and the lobby (games.sockets).
        from chat import protocol
        from chat import sockets as chat
        from games import sockets

        sockets.register_message(
            "chat", parse=protocol.parse_chat, receive=chat.receive, refuse=chat.notice
        )
        for event, handler in chat.EVENTS.items():
            sockets.register_event(event, handler)
        sockets.register_room(join=chat.join, leave=chat.leave, read=chat.read)
