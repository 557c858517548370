from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SixConfig(AppConfig):
    name = "games.six"
    label = "six"
    verbose_name = _("Six")

    def ready(self):
        from games import kinds
        from games.six.kind import SIX

        kinds.register(SIX)
