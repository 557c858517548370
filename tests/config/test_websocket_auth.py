import pytest
from channels.testing import WebsocketCommunicator

from config.asgi import application


@pytest.mark.django_db(transaction=True)
async def test_a_socket_without_a_session_is_refused():
    communicator = WebsocketCommunicator(
        application,
        "/ws/lobby/",
        headers=[(b"origin", b"http://127.0.0.1:8000"), (b"host", b"127.0.0.1:8000")],
    )
    connected, code = await communicator.connect()
    assert not connected
    assert code == 4401
    await communicator.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_a_socket_from_a_foreign_origin_is_refused():
    communicator = WebsocketCommunicator(
        application,
        "/ws/lobby/",
        headers=[(b"origin", b"https://evil.example"), (b"host", b"127.0.0.1:8000")],
    )
    connected, _ = await communicator.connect()
    assert not connected
    await communicator.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_a_socket_with_an_unknown_session_is_refused():
    # config/sockets.py reads the session of the cookie: a key that is no session (made
    # up, or deleted since) speaks for nobody.
    communicator = WebsocketCommunicator(
        application,
        "/ws/lobby/",
        headers=[
            (b"origin", b"http://127.0.0.1:8000"),
            (b"host", b"127.0.0.1:8000"),
            (b"cookie", b"sessionid=abcdefghijklmnopqrstuvwxyz012345"),
        ],
    )
    connected, code = await communicator.connect()
    assert not connected
    assert code == 4401
    await communicator.disconnect()


async def test_the_socket_session_middleware_serves_sockets_only():
    from config.sockets import SocketSessionMiddleware

    async def inner(scope, receive, send):
        raise AssertionError("not reached")

    with pytest.raises(ValueError, match="WebSockets only"):
        await SocketSessionMiddleware(inner)({"type": "http", "cookies": {}}, None, None)
    with pytest.raises(ValueError, match="CookieMiddleware"):
        await SocketSessionMiddleware(inner)({"type": "websocket"}, None, None)
