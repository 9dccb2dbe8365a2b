#!/usr/bin/env python3
"""Which of `bench table`'s games end on a move that only the game's end makes final:
the move the stricter line before a move that cannot be taken back newly asks about
(host.engine.cannot_take_back; host/clarifying.py SURE_TO_REVEAL).

    scripts/measure_game_ends.py

Each case of lab/scripted_games/cases.yaml is played typed (as `bench table` learns
what each line should do); its last move is tried again on the state it was made in.
A move that ended the game is counted as crossing a reveal already (asked before
2026-12-08 too), or as ending it alone (asked since); a timed move (a Keep Cool clue)
is never asked. Typed, no sound: what it costs in questions is the share of these
moves times how often a right spoken reading of them falls under the line
(docs/recognition.md).
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from host.engine import crosses_reveal, ends_game
from host.games import get_game
from partyhost_lab.scripted import load_cases
from partyhost_lab.table import speaker_for
from partyhost_lab.table_player import typed_lines


def main() -> int:
    counts = {"crosses a reveal": 0, "ends the game alone": 0, "timed": 0, "no spoken end": 0}
    with tempfile.TemporaryDirectory() as folder:
        for number, case in enumerate(load_cases()):
            lines, _ = typed_lines(case, Path(folder) / str(number), speaker_for(case))
            kind, text = _last_move(case.game, lines)
            counts[kind] += 1
            print(f"{case.script:34} {kind:20} {text}")
    print("; ".join(f"{kind}: {count}" for kind, count in counts.items()))
    return 0


def _last_move(game_id: str, lines: list) -> tuple[str, str]:
    """How the game's ending move is held, and its words."""
    game = get_game(game_id)
    for line in reversed(lines):
        if line.move is None or line.state is None:
            continue
        tried = game.apply(line.state, {**line.move, "player": line.prompt.player})
        if not ends_game(tried[1]):
            continue
        if line.prompt.timeout is not None:
            return "timed", line.text
        return ("crosses a reveal" if crosses_reveal(tried[1]) else "ends the game alone"), line.text
    return "no spoken end", ""


if __name__ == "__main__":
    raise SystemExit(main())
