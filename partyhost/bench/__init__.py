"""Measuring a player runs on their own machine: `partyhost bench accuracy` of a manifest
of their recordings, `bench latency`, and `bench latency --choose` to pick the Whisper
model the box can afford. Every reading hears through the same front end, endpointer
and reader as the live ears (partyhost/listening_chain.py). The benches that play whole
games at a simulated table are the lab's (lab/partyhost_lab), never shipped."""

# the modules: importing this package imports none of them
__all__ = ["commands", "manifest", "model_choice", "own_lines"]
