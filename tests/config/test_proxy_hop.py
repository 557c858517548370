"""Lockouts and reset limits behind a real proxy: Debian's nginx in front of a real daphne.

The site runs as docs/deploy.md says (daphne without --proxy-headers, TRUSTED_PROXIES=1)
behind one nginx with two doors: one overwrites X-Forwarded-For with the address it was
reached from, as docs/deploy.md's nginx does, the other appends to the client's own
header, as many balancers do. Visitors come from different loopback addresses, each
writing a new forged X-Forwarded-For at every request: the lockout and the 429 must come
all the same, and they must fall on the visitor's own address, not on the proxy's, which
every visitor shares.
"""

import http.client
import os
import re
import shutil
import signal
import socket
import subprocess
import time
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import urlencode

import pytest

LOGIN_LIMIT = 5
RESET_LIMIT = 4
EXTRA = 3  # requests past each limit
WRONG = "Please enter a correct username and password"
LOCKED = "Too many failed logins"
TOO_MANY_RESETS = "Too many password reset requests"
PASSWORD = "proxied-horse-battery-42"

# Each door's visitors: an attacker and the player, from their own loopback addresses.
DOORS = {
    "overwrites": ("$remote_addr", "127.0.0.2", "127.0.0.3"),
    "appends": ("$proxy_add_x_forwarded_for", "127.0.0.4", "127.0.0.5"),
}

NGINX_CONF = """
daemon off;
master_process off;
pid {folder}/nginx.pid;
error_log {folder}/error.log info;
events {{ worker_connections 64; }}
http {{
  access_log {folder}/access.log;
  client_body_temp_path {folder}/body;
  proxy_temp_path {folder}/proxy;
  fastcgi_temp_path {folder}/fastcgi;
  uwsgi_temp_path {folder}/uwsgi;
  scgi_temp_path {folder}/scgi;
{servers}
}}
"""

NGINX_SERVER = """
  server {{
    listen 127.0.0.1:{port};
    location / {{
      proxy_pass http://127.0.0.1:{upstream};
      proxy_http_version 1.1;
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_set_header X-Forwarded-For {forwarded_for};
    }}
  }}
"""


def forged(number: int) -> str:
    """A different made-up client address at every request (only ever written in a header)."""
    return f"8.8.{number}.{number + 1}"


def _loopback_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Proxy:
    """Debian's nginx on loopback ports of its own, in the foreground, until stopped."""

    def __init__(self, binary: str, folder: Path, upstream: int):
        self.folder = folder
        self.ports = {door: _loopback_port() for door in DOORS}
        servers = "".join(
            NGINX_SERVER.format(port=self.ports[door], upstream=upstream, forwarded_for=header)
            for door, (header, *_visitors) in DOORS.items()
        )
        config = folder / "nginx.conf"
        config.write_text(NGINX_CONF.format(folder=folder, servers=servers))
        self.process = subprocess.Popen(
            [binary, "-p", str(folder), "-c", str(config), "-e", str(folder / "error.log")],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.STDOUT,
        )

    def wait_listening(self, timeout: float = 15) -> None:
        deadline = time.monotonic() + timeout
        for port in self.ports.values():
            while True:
                assert self.process.poll() is None, f"nginx exited:\n{self.log()}"
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=1).close()
                    break
                except OSError:
                    assert time.monotonic() < deadline, f"nginx did not listen:\n{self.log()}"
                    time.sleep(0.05)

    def log(self) -> str:
        path = self.folder / "error.log"
        return path.read_text(errors="replace")[-4000:] if path.exists() else ""

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)


class Visitor:
    """A plain HTTP client from one loopback address, through one door of the proxy,
    keeping its cookies (the CSRF cookie) like a browser."""

    def __init__(self, port: int, address: str):
        self.port = port
        self.address = address
        self.cookies: dict[str, str] = {}

    def request(self, method: str, path: str, fields=None, forwarded=None) -> tuple[int, str]:
        headers = {"Accept-Language": "en"}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if forwarded is not None:
            headers["X-Forwarded-For"] = forwarded
        body = None
        if fields is not None:
            body = urlencode(fields)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        connection = http.client.HTTPConnection(
            "127.0.0.1", self.port, timeout=30, source_address=(self.address, 0)
        )
        try:
            connection.request(method, path, body=body, headers=headers)
            response = connection.getresponse()
            page = response.read().decode()
        finally:
            connection.close()
        for header in response.headers.get_all("Set-Cookie") or []:
            for name, morsel in SimpleCookie(header).items():
                self.cookies[name] = morsel.value
        return response.status, page

    def form_token(self, path: str) -> str:
        """Open the form's page: its CSRF cookie is kept, its form's token returned."""
        status, page = self.request("GET", path, forwarded=forged(0))
        assert status == 200, page[:500]
        return re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)

    def post_form(self, path: str, fields: dict, forwarded: str) -> tuple[int, str]:
        """Open the form's page, then send it filled in, as a browser would."""
        token = self.form_token(path)
        return self.request("POST", path, {**fields, "csrfmiddlewaretoken": token}, forwarded)


@pytest.fixture(scope="module")
def nginx_binary() -> str:
    # /usr/sbin is not on every user's PATH.
    found = shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin")
    if found is None:
        message = (
            "nginx is missing: apt-get install nginx (these tests put Debian's nginx "
            "in front of daphne)"
        )
        if os.environ.get("SIXCLUB_REQUIRE_BROWSER") == "1":
            pytest.fail(message)
        pytest.skip(message)
    return found


@pytest.fixture(scope="module")
def proxy(nginx_binary, daphne_server, tmp_path_factory):
    """daphne serving as in production behind one proxy, and the nginx in front of it."""
    daphne_server.stop()
    daphne_server.env.update(
        TRUSTED_PROXIES="1",
        LOGIN_FAILURE_LIMIT=str(LOGIN_LIMIT),
        RESET_REQUESTS_PER_IP=str(RESET_LIMIT),
    )
    daphne_server.start()
    nginx = Proxy(nginx_binary, tmp_path_factory.mktemp("nginx"), daphne_server.port)
    try:
        nginx.wait_listening()
        yield nginx
    finally:
        nginx.stop()


def a_player(server, username: str) -> None:
    server.shell(
        "from django.contrib.auth import get_user_model; "
        f"get_user_model().objects.create_user({username!r}, {username + '@example.org'!r}, "
        f"{PASSWORD!r})"
    )


@pytest.mark.parametrize("door", DOORS)
def test_forged_addresses_do_not_escape_the_login_lockout(proxy, daphne_server, door):
    username = f"hop_{door}"
    a_player(daphne_server, username)
    _header, attacker_address, player_address = DOORS[door]
    attacker = Visitor(proxy.ports[door], attacker_address)
    answers = []
    for number in range(1, LOGIN_LIMIT + EXTRA + 1):
        status, page = attacker.post_form(
            "/accounts/login/",
            {"username": username, "password": f"wrong-{number}"},
            forwarded=forged(number),
        )
        answers.append(status)
        assert (WRONG if status == 200 else LOCKED) in page
    # The last wrong password within the limit locks the door; the ones after find it shut.
    assert answers == [200] * (LOGIN_LIMIT - 1) + [429] * (EXTRA + 1)

    # The lockout is the attacker's address: the player, behind the same proxy (so with
    # the same address as the attacker's for daphne), still logs in, whatever they send.
    player = Visitor(proxy.ports[door], player_address)
    status, page = player.post_form(
        "/accounts/login/",
        {"username": username, "password": PASSWORD},
        forwarded=forged(LOGIN_LIMIT),
    )
    assert status == 302, page[:500]


@pytest.mark.parametrize("door", DOORS)
def test_forged_addresses_do_not_escape_the_reset_limit(proxy, door):
    _header, asker_address, other_address = DOORS[door]
    asker = Visitor(proxy.ports[door], asker_address)
    answers = []
    for number in range(1, RESET_LIMIT + EXTRA + 1):
        status, page = asker.post_form(
            "/accounts/password_reset/",
            {"email": f"nobody-{door}-{number}@example.org"},
            forwarded=forged(number),
        )
        answers.append(status)
        if status == 429:
            assert TOO_MANY_RESETS in page
    assert answers == [302] * RESET_LIMIT + [429] * EXTRA

    # Counted against the asker's address, not the proxy's.
    other = Visitor(proxy.ports[door], other_address)
    status, page = other.post_form(
        "/accounts/password_reset/", {"email": f"someone-{door}@example.org"}, forged(1)
    )
    assert status == 302, page[:500]
