from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SurpriseConfig(AppConfig):
    name = "games.surprise"
    label = "surprise"
    verbose_name = _("6 qui surprend")

    def ready(self):
        from games import kinds
        from games.surprise.kind import SURPRISE

        kinds.register(SURPRISE)
