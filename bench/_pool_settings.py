"""For measurements only: the project's settings plus psycopg's connection pool.

    .venv/bin/python bench/ws_load.py ... --env DJANGO_SETTINGS_MODULE=bench._pool_settings

Needs `psycopg-pool` in the virtual environment. docs/performance.md explains why the
pool matters for live tables (every database call from a WebSocket opens a connection
otherwise) and proposes it for config/settings.py.
"""

from config.settings import *  # noqa: F403
from config.settings import DATABASES

if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    DATABASES["default"]["CONN_MAX_AGE"] = 0  # the pool keeps the connections instead
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {"min_size": 4, "max_size": 20}
