from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Games")

    def ready(self):
        # Registers the games; connects the receivers (the review's too).
        from games import kinds, reviews, signals  # noqa: F401
