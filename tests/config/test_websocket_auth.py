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
