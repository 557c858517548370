from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.contrib.auth.signals import user_logged_out
from django.dispatch import receiver


@receiver(user_logged_out)
def close_sockets_of_ended_session(sender, request, user, **kwargs):
    """Logging out closes the table sockets opened with that session, in every process."""
    if user is None:
        return
    layer = get_channel_layer()
    async_to_sync(layer.group_send)(
        f"user.{user.pk}", {"type": "session.ended", "session_key": request.session.session_key}
    )
