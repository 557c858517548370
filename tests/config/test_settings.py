import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def start(**env_overrides):
    env = {k: v for k, v in os.environ.items() if k not in {"SECRET_KEY", "ALLOWED_HOSTS"}}
    env.update(env_overrides)
    return subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


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
    env = {k: v for k, v in os.environ.items()}
    env.update(
        DEBUG="0",
        SECRET_KEY="s" * 20 + "-a-long-random-production-secret-k3y!",
        ALLOWED_HOSTS="club.example.org",
    )
    done = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
