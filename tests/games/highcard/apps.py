from django.apps import AppConfig


class HighcardConfig(AppConfig):
    """Installed by the test settings only (tests/settings.py): the site plays it like any
    game once its app is in INSTALLED_APPS."""

    name = "tests.games.highcard"
    label = "highcard"
    verbose_name = "Higher card wins"

    def ready(self):
        from games import kinds

        from .kind import HIGHCARD

        kinds.register(HIGHCARD)
