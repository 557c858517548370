import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# Asks /healthz in a fresh process whose settings point the database at a closed port.
PROBE = """
import django, json
django.setup()
from django.test import Client
response = Client().get("/healthz")
print(json.dumps({"status": response.status_code, "body": response.json()}))
"""


@pytest.mark.django_db
def test_it_answers_200_when_database_and_channel_layer_work(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": True, "channel_layer": True}


def test_it_answers_503_when_the_database_is_down():
    env = dict(os.environ, DJANGO_SETTINGS_MODULE="config.settings", DEBUG="1")
    env["DATABASE_URL"] = "postgres://nobody@127.0.0.1:1/nothing"
    done = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    answer = json.loads(done.stdout.strip().splitlines()[-1])
    assert answer["status"] == 503
    assert answer["body"]["database"] is False
    assert answer["body"]["channel_layer"] is True


def test_it_answers_503_when_redis_is_down():
    env = dict(os.environ, DJANGO_SETTINGS_MODULE="config.settings", DEBUG="1")
    env["DATABASE_URL"] = "sqlite:///:memory:"
    env["REDIS_URL"] = "redis://127.0.0.1:1/0"
    done = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    answer = json.loads(done.stdout.strip().splitlines()[-1])
    assert answer["status"] == 503
    assert answer["body"] == {"status": "unavailable", "database": True, "channel_layer": False}


# Asks over plain http, as a load balancer's health check does, under production settings.
PLAIN_HTTP_PROBE = """
import django, json
django.setup()
from django.test import Client
client = Client()
health, home = client.get("/healthz"), client.get("/")
print(json.dumps({"healthz": health.status_code, "home": home.status_code,
                  "home_location": home.get("Location")}))
"""


def test_it_answers_plain_http_while_the_rest_of_the_site_redirects_to_https():
    env = dict(os.environ, DJANGO_SETTINGS_MODULE="config.settings", DEBUG="0")
    env.update(SECRET_KEY="p" * 50, ALLOWED_HOSTS="testserver", SECURE_SSL_REDIRECT="1")
    env["DATABASE_URL"] = "sqlite:///:memory:"
    done = subprocess.run(
        [sys.executable, "-c", PLAIN_HTTP_PROBE],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout.strip().splitlines()[-1])
    assert answer["healthz"] == 200
    assert answer["home"] == 301
    assert answer["home_location"] == "https://testserver/"


@pytest.mark.django_db(transaction=True)
async def test_the_channel_layer_check_answers_beside_quiet_sockets(alice, bob):
    """A table socket's receive loop waits on the channel layer while its channel is quiet
    (with Redis: holding channels-redis' receive lock for up to 5 s). The health check's
    round trip must not wait behind it: it timed out after a restart under load."""
    import time

    from config.views import _layer_round_trip
    from tests.games import ws
    from tests.games.ws import setup_table

    table = await setup_table(alice, [bob])
    sockets = await ws.watching(table, alice, bob)
    try:
        for _ in range(3):
            started = time.monotonic()
            assert await _layer_round_trip() is True
            assert time.monotonic() - started < 1.0
    finally:
        for socket in sockets:
            await socket.disconnect()
