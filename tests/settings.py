"""The site's settings for the tests: the site's own, plus a game that exists only in the
tests (tests/games/highcard/), installed as any game is, by its app."""

from config.settings import *  # noqa: F403
from config.settings import INSTALLED_APPS

INSTALLED_APPS = [*INSTALLED_APPS, "tests.games.highcard"]
