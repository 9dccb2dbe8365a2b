"""The session's typed entries in the event log (host/log_events.py), as written."""

from __future__ import annotations

import json

from host.eventlog import EventLog


def test_a_typed_entry_writes_its_fields_and_leaves_out_what_was_not_said(tmp_path):
    """A field without a default is written even when null (anyone may answer); one left
    at its default None, False or empty is left out; a confidence of 0 is still said,
    and the timing's keys stand beside the others."""
    from host.log_events import Asked, Heard, Misheard

    log = EventLog(tmp_path / "events.jsonl", lambda: 2.0)
    asked = log.write(Asked(None, "one-percent/vote"))
    typed = log.write(Heard("Ana", "four"))
    spoken = log.write(Heard("Ana", "", 0.0, unclear=True, timing={"start": 1.0, "end": 1.5}))
    misheard = log.write(Misheard("Ben", "post onto", "two words"))
    assert asked == {"seq": 1, "t": 2.0, "type": "prompt", "player": None, "prompt": "one-percent/vote"}
    assert typed == {"seq": 2, "t": 2.0, "type": "heard", "player": "Ana", "text": "four"}
    assert spoken["confidence"] == 0.0 and spoken["unclear"] is True and "unsure" not in spoken
    assert (spoken["start"], spoken["end"]) == (1.0, 1.5) and "timing" not in spoken
    assert misheard["type"] == "misheard" and misheard["reason"] == "two words"
    log.close()
    lines = [json.loads(line) for line in (tmp_path / "events.jsonl").read_text().splitlines()]
    assert lines == [asked, typed, spoken, misheard]
