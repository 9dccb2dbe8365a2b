"""How well does the host play Centurion? Pit it against a random player.

Each game is a real vs-host game of host/games/centurion.py: the person's seat is
taken by a player that picks uniformly at random among its legal cards (and, at a
joker offer, lays the joker or passes at random). The host wins a game when it is
the only winner. Prints the host's win rate; exits non-zero below --min.

    python scripts/centurion_sim.py --games 1000 --seed 1 [--rules jokers=2 ...]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from host.decks import Decks  # noqa: E402
from host.engine import GameOptions  # noqa: E402
from host.games import centurion  # noqa: E402

RANDOM_PLAYER = "Rando"


@dataclass(frozen=True)
class SimResult:
    """Games played, games the host won alone, and how long it took."""

    games: int
    host_wins: int
    seconds: float

    @property
    def win_rate(self) -> float:
        return self.host_wins / self.games if self.games else 0.0


def random_action(state: centurion.State, prompt, rng: random.Random) -> dict:
    """A uniformly random legal answer to the current prompt."""
    seat = state.seat_of(prompt.player)
    if prompt.name == "centurion/joker_steal":
        return {"intent": rng.choice(["play_card", "pass"]), "joker": True, "player": prompt.player}
    card = rng.choice(centurion.legal_cards(state, seat))
    action = {"intent": "play_card", "player": prompt.player}
    if card.is_joker:
        action["joker"] = True
    else:
        action.update(rank=card.rank, suit=card.suit)
    return action


def play_one(seed: int, rules: dict) -> list[str]:
    """One whole game against the random player; returns the winners."""
    state, _ = centurion.setup(GameOptions(players=(RANDOM_PLAYER,), mode="vs-host", seed=seed, rules=rules), Decks())
    rng = random.Random(seed * 7919 + 1)
    while (current := centurion.prompt(state)) is not None:
        state, _ = centurion.apply(state, random_action(state, current, rng))
    return state.winners


def simulate(games: int = 1000, seed: int = 1, rules: dict | None = None) -> SimResult:
    """The host's record over `games` games with consecutive seeds from `seed`."""
    started = time.perf_counter()
    wins = 0
    for i in range(games):
        winners = play_one(seed + i, dict(rules or {}))
        wins += winners == [centurion.COMPUTER_NAMES[0]]
    return SimResult(games, wins, time.perf_counter() - started)


def parse_rules(pairs: list[str]) -> dict:
    """key=value pairs; numbers and on/off are left for the engine to read."""
    rules = {}
    for pair in pairs:
        key, _, value = pair.partition("=")
        rules[key] = value
    return rules


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules", nargs="*", default=[], metavar="KEY=VALUE")
    parser.add_argument("--min", type=float, default=0.70, help="required win rate")
    args = parser.parse_args(argv)
    result = simulate(args.games, args.seed, parse_rules(args.rules))
    print(
        f"host won {result.host_wins} of {result.games} games against a random "
        f"player: win rate {result.win_rate:.3f} ({result.seconds:.1f} s)"
    )
    return 0 if result.win_rate >= args.min else 1


if __name__ == "__main__":
    sys.exit(main())
