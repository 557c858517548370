"""The client's address that lockouts and reset limits count, as TRUSTED_PROXIES sets it.

Each case is read in a fresh process whose environment sets TRUSTED_PROXIES, as a
deployment does, by django-axes (its lockouts) and by accounts.throttling (the
password-reset limit): both must name the same address. A client may write any
X-Forwarded-For it likes; only the entries the trusted proxies wrote, counted from the
right, may count. tests/config/test_proxy_hop.py does the same through a real nginx.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

CLIENT = "192.0.2.10"
FORGED = "8.8.8.8"

# name: (REMOTE_ADDR, X-Forwarded-For or None)
CASES = {
    # A visitor reaching daphne directly, with and without a header of its own.
    "direct": (CLIENT, None),
    "direct, forged header": (CLIENT, FORGED),
    # One nginx that overwrites the header with $remote_addr (docs/deploy.md).
    "one proxy": ("127.0.0.1", CLIENT),
    # One proxy that appends to what the client sent ($proxy_add_x_forwarded_for).
    "one proxy, forged header": ("127.0.0.1", f"{FORGED}, {CLIENT}"),
    "one proxy, garbage header": ("127.0.0.1", f"unknown, , {CLIENT}"),
    # A balancer in front of nginx: the balancer writes the client, nginx the balancer.
    "two proxies, forged header": ("127.0.0.1", f"{FORGED}, {CLIENT}, 10.0.0.1"),
}

PROBE = """
import json, sys
import django
django.setup()
from axes.helpers import get_client_ip_address
from django.test import RequestFactory
from accounts.throttling import client_address

answers = {}
for name, (remote, forwarded) in json.loads(sys.argv[1]).items():
    meta = {"REMOTE_ADDR": remote}
    if forwarded is not None:
        meta["HTTP_X_FORWARDED_FOR"] = forwarded
    request = RequestFactory().post("/accounts/login/", **meta)
    answers[name] = {"axes": get_client_ip_address(request), "reset": client_address(request)}
print(json.dumps(answers))
"""


def run_probe(trusted_proxies: str | None) -> subprocess.CompletedProcess:
    env = dict(os.environ, DJANGO_SETTINGS_MODULE="config.settings", DEBUG="1")
    env.pop("TRUSTED_PROXIES", None)
    if trusted_proxies is not None:
        env["TRUSTED_PROXIES"] = trusted_proxies
    return subprocess.run(
        [sys.executable, "-c", PROBE, json.dumps(CASES)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def addresses(trusted_proxies: str | None) -> dict[str, str | None]:
    """The address each case counts against: the same for axes and for the reset limit."""
    done = run_probe(trusted_proxies)
    assert done.returncode == 0, done.stderr
    answers = json.loads(done.stdout.strip().splitlines()[-1])
    for name, answer in answers.items():
        # The reset limit names "no address" with "", axes with None.
        assert (answer["axes"] or "") == answer["reset"], (name, answer)
    return {name: answer["axes"] for name, answer in answers.items()}


@pytest.mark.parametrize("trusted_proxies", [None, "0"])
def test_without_proxies_the_connection_counts_and_the_header_is_ignored(trusted_proxies):
    assert addresses(trusted_proxies) == {
        "direct": CLIENT,
        "direct, forged header": CLIENT,
        "one proxy": "127.0.0.1",
        "one proxy, forged header": "127.0.0.1",
        "one proxy, garbage header": "127.0.0.1",
        "two proxies, forged header": "127.0.0.1",
    }


def test_behind_one_proxy_the_entry_it_wrote_counts_whatever_the_client_wrote():
    seen = addresses("1")
    assert seen["one proxy"] == CLIENT
    assert seen["one proxy, forged header"] == CLIENT
    assert seen["one proxy, garbage header"] == CLIENT
    # The header reached daphne through the one proxy, which wrote what it saw.
    assert seen["direct, forged header"] == FORGED
    # No header: nothing a proxy vouches for (only a local process reaches daphne so).
    assert seen["direct"] is None
    # One proxy too few configured: the nearer balancer is taken for the client, never
    # the address the client wrote.
    assert seen["two proxies, forged header"] == "10.0.0.1"


def test_behind_two_proxies_the_entry_the_outer_one_wrote_counts():
    seen = addresses("2")
    assert seen["two proxies, forged header"] == CLIENT
    # A header shorter than the proxies named did not come through them all.
    assert seen["one proxy"] is None


def test_a_negative_count_stops_the_start_up_naming_the_variable():
    done = run_probe("-1")
    assert done.returncode != 0
    assert "TRUSTED_PROXIES must be 0 or more" in done.stderr
