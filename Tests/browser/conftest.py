import pytest

from server_fixture import Server


@pytest.fixture
def server():
    """The demos with small albums and no generated tickets, on a port the kernel picks."""
    s = Server("--demo", "small", "--ticket-interval", "0")
    yield s
    s.stop()
