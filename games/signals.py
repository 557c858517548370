from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.contrib.auth.signals import user_logged_out
from django.db.models import F
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from games.models import Game, Seat


@receiver(user_logged_out)
def close_sockets_of_ended_session(sender, request, user, **kwargs):
    """Logging out closes the table sockets opened with that session, in every process."""
    if user is None:
        return
    layer = get_channel_layer()
    async_to_sync(layer.group_send)(
        f"user.{user.pk}", {"type": "session.ended", "session_key": request.session.session_key}
    )


@receiver([post_save, post_delete], sender=Seat)
def seats_changed(sender, instance, **kwargs):
    """Whatever changed a seat (a service, the admin), the next decision reads the seats
    again instead of reusing those it kept (games.services._seats)."""
    Game.objects.filter(table_id=instance.table_id).update(seats_version=F("seats_version") + 1)
