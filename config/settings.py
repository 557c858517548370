"""sixclub settings: one module, read from the environment.

With nothing set, the site runs for one developer: SQLite in the project folder, the
in-memory channel layer, DEBUG on. `DATABASE_URL` and `REDIS_URL` switch to PostgreSQL
and channels-redis. `DEBUG=0` is production: `SECRET_KEY` and `ALLOWED_HOSTS` must then
be given, and a missing one stops the start-up with a message naming it.
"""

import os
import tempfile
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    if value.lower() in {"1", "true", "yes", "on"}:
        return True
    if value.lower() in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name} must be a boolean (1/0, true/false), not {value!r}")


def env_int(name: str, default: int) -> int:
    value = os.environ.get(name, "")
    if value == "":
        return default
    try:
        return int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a whole number, not {value!r}") from None


def env_required(name: str) -> str:
    value = os.environ.get(name, "")
    if not value:
        raise ImproperlyConfigured(f"The environment variable {name} is required when DEBUG is off")
    return value


def env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name, "")
    if not value:
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


DEBUG = env_bool("DEBUG", True)

if DEBUG:
    SECRET_KEY = os.environ.get("SECRET_KEY") or "dev-only-insecure-key-never-use-in-production"
    ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]", "testserver"])
else:
    SECRET_KEY = env_required("SECRET_KEY")
    ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", [])
    if not ALLOWED_HOSTS:
        env_required("ALLOWED_HOSTS")

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "channels",
    "django_htmx",
    "template_partials",
    "accounts",
    "games",
    # One app per game (games/<game>/): each registers itself in its AppConfig.ready().
    "games.nimmt",
    "games.six",
    "games.surprise",
    "leagues",
    "chat",
    "axes",
    "django_tasks",
    "django_tasks_db",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "config.security.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "accounts.middleware.PreferredLanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Last, as django-axes asks: it turns a login refused for lockout into the lockout page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "games.context_processors.my_games",
            ],
        },
    },
]

DATABASES = {
    # An empty DATABASE_URL is the default too (dj-database-url would return no engine).
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL") or f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=env_int("DB_CONN_MAX_AGE", 0),
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and env_bool("DB_POOL", True):
    # Database work from WebSockets runs on threads that Channels closes connections
    # around: without a pool every decision and render opened a new PostgreSQL backend
    # (docs/performance.md §1). The pool keeps a few; CONN_MAX_AGE must then be 0.
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": env_int("DB_POOL_MIN", 2),
        "max_size": env_int("DB_POOL_MAX", 20),
        "timeout": 10,
    }
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # SQLite has no row locks (select_for_update is a no-op): IMMEDIATE transactions take
    # the write lock at BEGIN, so decisions and joins are serialised as on PostgreSQL.
    # Writers wait for the lock rather than fail.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"timeout": 20, "transaction_mode": "IMMEDIATE"}
    )
    # A file, not shared-cache memory, so that tests with threads see real SQLite locking.
    # One per process: test runs side by side must not share it.
    DATABASES["default"]["TEST"] = {
        "NAME": os.path.join(tempfile.gettempdir(), f"sixclub-test-{os.getpid()}.sqlite3")
    }

REDIS_URL = os.environ.get("REDIS_URL", "")
# Names of this site's keys and channels in Redis (two sites, or test runs, may share one).
REDIS_PREFIX = os.environ.get("REDIS_PREFIX", "sixclub")
# The channel layer carries every announcement ("table N is at version v", lobby updates,
# closing a logged-out session's sockets): channels-redis' queues by default.
# CHANNEL_LAYER=pubsub uses its pub/sub layer, which
# with channels-redis 4.3 and redis-py 8 hears nothing after a Redis restart until the
# process is restarted (docs/deploy.md).
CHANNEL_LAYER = os.environ.get("CHANNEL_LAYER", "queues")
if CHANNEL_LAYER not in ("pubsub", "queues"):
    raise ImproperlyConfigured("CHANNEL_LAYER must be pubsub or queues")
if REDIS_URL and CHANNEL_LAYER == "pubsub":
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {
                "hosts": [{"address": REDIS_URL, "socket_timeout": 15}],
                "prefix": REDIS_PREFIX,
            },
        }
    }
elif REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {
                # channels-redis waits up to 5 s in BZPOPMIN for a socket's next message;
                # redis-py's own 5 s read timeout would cut that wait and close idle
                # sockets with 1011, so reads may take longer than the blocking pop.
                # redis-py 8 caps a pool at 100 connections and raises beyond: every page
                # reconnecting at once after a restart needs more (docs/performance.md).
                "hosts": [{"address": REDIS_URL, "socket_timeout": 15, "max_connections": 1000}],
                "prefix": REDIS_PREFIX,
                # Messages waiting for one process's sockets before channels-redis drops
                # announcements (default 100): a dropped last announcement left a screen
                # behind for good under load (docs/performance.md §4).
                "capacity": env_int("CHANNEL_CAPACITY", 1000),
            },
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

# Counters shared by every process (login lockouts, password-reset mails, WebSocket rates)
# live in Django's cache: Redis when there is one, else each process's memory. Keys are
# "<REDIS_PREFIX>:<version>:<key>", apart from the channel layer's "<REDIS_PREFIX>:group:…"
# and "<REDIS_PREFIX>specific…" keys in the same database.
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": REDIS_PREFIX,
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# Each server process runs a deadline clock (games/clock.py); tests drive it themselves.
SIXCLUB_CLOCK = env_bool("SIXCLUB_CLOCK", True)

# The server's garbage collector (config/collector.py): freeze what start-up left, and the
# thresholds as for gc.set_threshold, "a,b,c" (CPython's own are 700,10,10).
GC_FREEZE = env_bool("GC_FREEZE", True)
GC_THRESHOLDS = env_list("GC_THRESHOLDS", ["10000", "10", "10"])
if len(GC_THRESHOLDS) != 3 or not all(n.isdigit() and int(n) > 0 for n in GC_THRESHOLDS):
    raise ImproperlyConfigured("GC_THRESHOLDS must be three positive whole numbers, as 10000,10,10")
GC_THRESHOLDS = tuple(int(n) for n in GC_THRESHOLDS)

# Threads per server process that run players' decisions (games/consumers.py); each holds
# a database connection while it works.
SIXCLUB_DECISION_THREADS = env_int("DECISION_THREADS", 8)

# WebSocket messages per user: a burst, then so many a minute, counted across processes
# with Redis (games/limits.py).
SIXCLUB_WS_RATE = (env_int("WS_RATE_BURST", 10), env_int("WS_RATE_PER_MINUTE", 100))

# Presence (games/services/presence.py), in seconds: a player none of whose sockets has been
# open at a table for AWAY_GRACE is away; the computer plays for an away player after
# AWAY_WAIT, whatever the time limit. Each player of a timed game has TIME_BANK seconds to
# spend over the limit. An open table all of whose humans have been gone ABANDON_OPEN, or a
# game all of whose humans have been away ABANDON_GAME, is closed (or finished).
SIXCLUB_AWAY_GRACE = env_int("AWAY_GRACE", 30)
SIXCLUB_AWAY_WAIT = env_int("AWAY_WAIT", 10)
SIXCLUB_TIME_BANK = env_int("TIME_BANK", 60)
SIXCLUB_ABANDON_OPEN = env_int("ABANDON_OPEN", 30 * 60)
SIXCLUB_ABANDON_GAME = env_int("ABANDON_GAME", 10 * 60)
# Turn-based tables (games/turn_mails.py): the daily digest of the tables waiting for each
# player who chose it is queued at this hour, local time (TIME_ZONE).
SIXCLUB_DIGEST_HOUR = env_int("DIGEST_HOUR", 18)
# A turn-based decision is mailed this many seconds after it starts waiting, if it still
# waits: a player deciding at once (playing live at a turn-based table) is not mailed.
SIXCLUB_TURN_MAIL_DELAY = env_int("TURN_MAIL_DELAY", 300)

AUTH_USER_MODEL = "accounts.User"
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
AUTHENTICATION_BACKENDS = [
    # First: refuses any login attempt for a locked-out username and address (django-axes).
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
# Login lockout: so many wrong passwords for one username from one address lock that pair
# for the cool-off. Not the username alone (anyone could lock a player out of their club
# night) nor the address alone (a club's players often share one). A superuser unlocks
# early by deleting the attempt in the admin ("Access attempts").
AXES_FAILURE_LIMIT = env_int("LOGIN_FAILURE_LIMIT", 5)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("LOGIN_COOLOFF_MINUTES", 15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "accounts.throttling.lockout_page"
# No record of every successful login (who, from where): only failures are kept.
AXES_DISABLE_ACCESS_LOG = True
# Axes announces its configuration at every start; commands' output stays what they print.
AXES_VERBOSE = False
# The client's address, for these lockouts and the reset limits below, as django-ipware
# reads it (accounts/throttling.py asks it the same way). TRUSTED_PROXIES is how many
# proxies stand in front of daphne, each adding to X-Forwarded-For the address it was
# reached from (docs/deploy.md): the client is then the header's TRUSTED_PROXIES-th entry
# from the right, and whatever the client wrote on their left is ignored. With 0, daphne
# is reached directly: the connection's own address counts and the header is ignored.
TRUSTED_PROXIES = env_int("TRUSTED_PROXIES", 0)
if TRUSTED_PROXIES < 0:
    raise ImproperlyConfigured(f"TRUSTED_PROXIES must be 0 or more, not {TRUSTED_PROXIES}")
if TRUSTED_PROXIES:
    AXES_IPWARE_META_PRECEDENCE_ORDER = ("HTTP_X_FORWARDED_FOR",)
    # ipware counts the entries on the client's right; the last proxy is the connection.
    AXES_IPWARE_PROXY_COUNT = TRUSTED_PROXIES - 1
else:
    AXES_IPWARE_META_PRECEDENCE_ORDER = ("REMOTE_ADDR",)
    AXES_IPWARE_PROXY_COUNT = None
AXES_IPWARE_PROXY_ORDER = "left-most"
# Entries a client wrote before the proxies' own (kept by a proxy that appends) must not
# void the whole header: ipware's strict mode would drop it for its length.
IPWARE_STRICT = False
# Password-reset mails within an hour: to one address (beyond it the form answers as
# usual and sends nothing, so it tells nobody whether the address has an account), and
# requests from one client address (beyond it the form says to wait).
SIXCLUB_RESET_MAILS_PER_ADDRESS = env_int("RESET_MAILS_PER_ADDRESS", 3)
SIXCLUB_RESET_REQUESTS_PER_IP = env_int("RESET_REQUESTS_PER_IP", 10)

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# French when the browser says nothing we speak (RULES and most of our clubs are French).
LANGUAGE_CODE = "fr"
LANGUAGES = [("fr", _("French")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = os.environ.get("TIME_ZONE", "Europe/Paris")
USE_I18N = True
USE_TZ = True
# Dates as our clubs write them: day first in English too (config/formats/en), where
# Django's "en" is American. French keeps Django's own formats.
FORMAT_MODULE_PATH = ["config.formats"]

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [
    BASE_DIR / "static",
    # htmx and its ws extension come from npm (package-lock.json), never from git or a CDN.
    ("vendor/htmx", BASE_DIR / "node_modules" / "htmx.org" / "dist"),
    ("vendor/htmx-ext-ws", BASE_DIR / "node_modules" / "htmx-ext-ws" / "dist"),
]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if not DEBUG
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}
WHITENOISE_USE_FINDERS = DEBUG

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Background work (leagues/tasks.py: recomputes, league mails) is queued in the database and
# run by `manage.py db_worker`, a process of its own (docs/deploy.md; `make run` starts one).
TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
# A standings recompute started this many seconds ago and not finished lost its worker (killed,
# crashed): the admin shows it as failed and lets it be started again (leagues/tasks.py).
RECOMPUTE_TIMEOUT = env_int("RECOMPUTE_TIMEOUT", 30 * 60)
# Up to this many games, a season's standings are recomputed in the admin's request that
# changed its settings (a few seconds at most); beyond, by the worker.
SIXCLUB_RECOMPUTE_IN_REQUEST = env_int("RECOMPUTE_IN_REQUEST", 2000)
# A site rating shows as "new" until its player has played this many rated games of its
# game (leagues.ratings); the leaderboards list players from this many on.
SIXCLUB_RATING_NEW_GAMES = env_int("RATING_NEW_GAMES", 5)
# A finished game is reviewed for each player by the task worker (games.reviews): about a
# second of CPU per game of 6 qui prend !, more for 6 qui surprend.
SIXCLUB_REVIEWS = env_bool("REVIEWS", True)

# Mail (password resets, league notifications): SMTP when EMAIL_HOST is set, else printed
# on the console; EMAIL_BACKEND names any other Django mail backend.
EMAIL_HOST = os.environ.get("EMAIL_HOST", "")
if EMAIL_HOST:
    EMAIL_PORT = env_int("EMAIL_PORT", 587)
    EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
    EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
    EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)
EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND") or (
    "django.core.mail.backends.smtp.EmailBackend"
    if EMAIL_HOST
    else "django.core.mail.backends.console.EmailBackend"
)
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "sixclub <noreply@localhost>")
# The site's address as players reach it: the links in mails and calendar feeds, which are
# read away from any request.
SITE_URL = os.environ.get("SITE_URL", "http://127.0.0.1:8000").rstrip("/")

CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
if not DEBUG:
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    # Load balancers probe over plain http: the health check answers there too.
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    # Behind a TLS-terminating proxy (docs/deploy.md) daphne sees plain HTTP.
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {"django.db.backends": {"level": "INFO"}},
}
