"""How the user started partyhost, so that a command the host suggests ("To continue: ...
resume ID") can be typed as it is said: the README teaches `scripts/run`, and `partyhost`
is on the PATH only inside the virtual environment.

The rule lives in host/errors.py, where voice/ can use it too (its model hints).
"""

from host.errors import RUN_VARIABLE, command

__all__ = ["RUN_VARIABLE", "command"]
