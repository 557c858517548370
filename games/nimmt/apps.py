from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class NimmtConfig(AppConfig):
    name = "games.nimmt"
    label = "nimmt"
    verbose_name = _("6 qui prend !")

    def ready(self):
        from games import kinds
        from games.nimmt.kind import NIMMT

        kinds.register(NIMMT)
