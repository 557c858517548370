import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run(args, **env_overrides):
    """Python with `args` in a fresh process, in this environment minus the production
    secrets, plus `env_overrides`."""
    env = {k: v for k, v in os.environ.items() if k not in {"SECRET_KEY", "ALLOWED_HOSTS"}}
    env.update(env_overrides)
    return subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )


def start(**env_overrides):
    return run(["manage.py", "check"], **env_overrides)


def test_production_without_secret_key_fails_naming_it():
    done = start(DEBUG="0", ALLOWED_HOSTS="club.example.org")
    assert done.returncode != 0
    assert "SECRET_KEY" in done.stderr


def test_production_without_allowed_hosts_fails_naming_it():
    done = start(DEBUG="0", SECRET_KEY="x" * 50)
    assert done.returncode != 0
    assert "ALLOWED_HOSTS" in done.stderr


def test_a_bad_boolean_fails_naming_the_variable():
    done = start(DEBUG="perhaps")
    assert done.returncode != 0
    assert "DEBUG must be a boolean" in done.stderr


def test_production_passes_the_deploy_check():
    done = run(
        ["manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        DEBUG="0",
        SECRET_KEY="s" * 20 + "-a-long-random-production-secret-k3y!",
        ALLOWED_HOSTS="club.example.org",
    )
    assert done.returncode == 0, done.stderr


def test_bad_collector_thresholds_fail_naming_the_variable():
    for value in ("10000,10", "a,b,c", "10000,0,10"):
        done = start(GC_THRESHOLDS=value)
        assert done.returncode != 0, value
        assert "GC_THRESHOLDS must be three positive whole numbers" in done.stderr


# What the server process's collector looks like once the ASGI application is built
# (config/collector.py).
COLLECTOR = """
import gc, json
import config.asgi
print(json.dumps({"frozen": gc.get_freeze_count(), "thresholds": gc.get_threshold()}))
"""


def collector(**env_overrides):
    done = run(["-c", COLLECTOR], DJANGO_SETTINGS_MODULE="config.settings", **env_overrides)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_the_server_freezes_its_start_up_objects_and_sets_the_thresholds():
    settled = collector()
    # Django, Channels, twisted and our modules: some 100,000 objects on this machine.
    assert settled["frozen"] > 50_000
    assert settled["thresholds"] == [10000, 10, 10]
    assert collector(GC_FREEZE="0", GC_THRESHOLDS="700,10,10") == {
        "frozen": 0,
        "thresholds": [700, 10, 10],
    }
