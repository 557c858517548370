"""Who may open a socket: this site's own pages (Origin) and signed-in users (session).

A refused Origin is a 403 at the handshake; a socket the site accepts but whose user may
not be there is closed at once with 4401 (no session) or 4404 (no such table to them),
as docs/protocol.md says.
"""

import pytest
from channels.testing import WebsocketCommunicator

from config.asgi import application

HOST = (b"host", b"127.0.0.1:8000")


def lobby_socket(origin: bytes, host=HOST, cookie: bytes = b""):
    headers = [(b"origin", origin), host]
    if cookie:
        headers.append((b"cookie", cookie))
    return WebsocketCommunicator(application, "/ws/lobby/", headers=headers)


async def closed_with(communicator) -> int | None:
    connected, _ = await communicator.connect()
    assert connected
    output = await communicator.receive_output(timeout=3)
    await communicator.disconnect()
    assert output["type"] == "websocket.close"
    return output["code"]


async def refused_at_handshake(communicator) -> bool:
    connected, _ = await communicator.connect()
    await communicator.disconnect()
    return not connected


@pytest.mark.django_db(transaction=True)
async def test_a_socket_without_a_session_is_closed_with_4401():
    assert await closed_with(lobby_socket(b"http://127.0.0.1:8000")) == 4401


@pytest.mark.django_db(transaction=True)
async def test_a_socket_with_an_unknown_session_is_closed_with_4401():
    # A key that is no session (made up, or deleted since) speaks for nobody.
    communicator = lobby_socket(
        b"http://127.0.0.1:8000", cookie=b"sessionid=abcdefghijklmnopqrstuvwxyz012345"
    )
    assert await closed_with(communicator) == 4401


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    "origin",
    [
        b"https://evil.example",
        b"http://127.0.0.1:9999",  # same host, another port
        b"https://127.0.0.1:8000",  # same host and port, another scheme
        b"http://127.0.0.1",  # no port where the site has one
        b"null",
        b"",
    ],
)
async def test_a_socket_from_another_origin_is_refused_at_the_handshake(origin):
    assert await refused_at_handshake(lobby_socket(origin))


@pytest.mark.django_db(transaction=True)
async def test_a_host_outside_allowed_hosts_is_refused_even_from_its_own_origin():
    communicator = lobby_socket(b"http://evil.example:8000", host=(b"host", b"evil.example:8000"))
    assert await refused_at_handshake(communicator)


@pytest.mark.django_db(transaction=True)
async def test_a_trusted_origin_is_let_through(settings):
    settings.CSRF_TRUSTED_ORIGINS = ["https://club.example.org"]
    # Let through the Origin check, then refused for want of a session: not a 403.
    assert await closed_with(lobby_socket(b"https://club.example.org")) == 4401


@pytest.mark.django_db(transaction=True)
async def test_the_sites_own_origin_is_let_through():
    assert await closed_with(lobby_socket(b"http://127.0.0.1:8000")) == 4401


@pytest.mark.django_db(transaction=True)
async def test_behind_a_tls_proxy_the_https_page_is_the_sites_own(settings):
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    forwarded = (b"x-forwarded-proto", b"https")
    communicator = WebsocketCommunicator(
        application,
        "/ws/lobby/",
        headers=[(b"origin", b"https://127.0.0.1:8000"), HOST, forwarded],
    )
    assert await closed_with(communicator) == 4401
    # Without the proxy's word, an https page is another origin than this http socket.
    assert await refused_at_handshake(lobby_socket(b"https://127.0.0.1:8000"))
