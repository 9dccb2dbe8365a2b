"""The partyhost application: wires host/ (rules) to voice/ (listening) and the terminal."""

__version__ = "0.1.0"
