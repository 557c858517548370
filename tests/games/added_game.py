"""The game the test settings add to the site's (tests/settings.py), found as the site
finds every game, through its app, so that no file outside the game's folder names it."""

from django.apps import AppConfig, apps
from django.conf import settings

from config import settings as site_settings
from games import kinds


def app() -> AppConfig:
    """The one app the tests install besides the site's."""
    [name] = [name for name in settings.INSTALLED_APPS if name not in site_settings.INSTALLED_APPS]
    return next(config for config in apps.get_app_configs() if config.name == name)


def kind() -> kinds.Kind:
    """The game its app registered (AppConfig.ready): the kind whose engine it holds."""
    package = app().name + "."
    return next(kind for kind in kinds.registered() if kind.engine.__name__.startswith(package))
