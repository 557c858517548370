"""The site's settings for the tests: the site's own, plus a game that exists only in the
tests (tests/games/highcard/), installed as any game is, by its app."""

import os

# Under pytest-xdist each worker has its own test database (pytest-django names it) and,
# here, its own Redis keys: the channel layer's groups are named after table ids, which the
# workers' databases hand out alike.
if worker := os.environ.get("PYTEST_XDIST_WORKER"):
    os.environ["REDIS_PREFIX"] = f"{os.environ.get('REDIS_PREFIX', 'sixclub')}-{worker}"

from config.settings import *  # noqa: E402, F403
from config.settings import INSTALLED_APPS  # noqa: E402

INSTALLED_APPS = [*INSTALLED_APPS, "tests.games.highcard"]

# Tasks run at once in the test's process (the real worker has tests/live/test_worker.py).
TASKS = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"}}
# Run at once, a review would cost every test that finishes a game seconds of CPU: only the
# tests of reviews turn them on (tests/games/test_reviews.py).
SIXCLUB_REVIEWS = False
