"""wyoming:// addresses: what a player writes in a flag or config.toml."""

import pytest

from voice.remote.address import AddressError, WyomingAddress, is_wyoming, parse_address


def test_host_and_port_are_read():
    assert parse_address("wyoming://192.168.1.20:10700") == WyomingAddress("192.168.1.20", 10700)
    assert parse_address("WYOMING://kitchen.local:10300/") == WyomingAddress("kitchen.local", 10300)
    assert parse_address("wyoming://[::1]:10200").uri == "tcp://[::1]:10200"
    assert str(parse_address("wyoming://127.0.0.1:1")) == "wyoming://127.0.0.1:1"


@pytest.mark.parametrize(
    "value",
    [
        "wyoming://host",
        "tcp://h:1",
        "wyoming://:10",
        "wyoming://h:99999",
        "wyoming://h:1/x",
        "wyoming://u@h:1",
        "wyoming://h:port",
    ],
)
def test_bad_addresses_are_refused_with_an_example(value):
    with pytest.raises(AddressError, match="wyoming://HOST:PORT"):
        parse_address(value)


def test_only_wyoming_values_are_remote():
    assert is_wyoming("wyoming://a:1") and not is_wyoming("mic") and not is_wyoming(None)
