"""The phone page: each player's secret cards on their own phone, over the local network."""

# the subpackages and modules: importing this package imports none of them
__all__ = [
    "gate",
    "hub",
    "relay",
    "seats",
    "server",
    "service",
    "table",
]
