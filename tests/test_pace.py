"""partyhost bench pace: how an event log is cut into waits, and the speech estimate."""
from __future__ import annotations

from partyhost import pace
from replay import ScriptCase

CASE = ScriptCase(script="x.txt", game="keep-it-100", players=("Ana", "Ben"), seed=1, mode="basic")


def say(text):
    return {"type": "say", "text": text}


def test_a_log_is_cut_at_each_prompt_and_requests_are_counted_apart():
    events = [say("aaaa"), say("bb"),                                     # before the first prompt
              {"type": "prompt", "player": "Ana"}, {"type": "sound", "name": "your_turn"}, say("c"),
              {"type": "heard", "text": "read my cards"}, {"type": "intent", "intent": {"intent": "read_cards"}},
              say("dddddd"),
              {"type": "prompt", "player": "Ana"}, say("c"),                  # asked again: on request
              {"type": "heard", "text": "card 1"}, {"type": "intent", "intent": {"intent": "choose_card"}},
              say("eee"),
              {"type": "prompt", "player": "Ana"}, say("ff"),
              {"type": "heard", "text": "score"}, {"type": "rejected", "reason": "no"},
              say("g"), {"type": "prompt", "player": "Ben"}, say("h")]
    speech = pace.case_speech(CASE, events, seconds=len)
    assert speech.first == 6                       # "aaaa" + "bb", not the first question
    assert speech.turns == [1, 3 + 2]              # the first question; "eee" + "ff"
    assert speech.requested == [6 + 1, 1 + 1]      # read my cards; a refused reply


def test_the_estimate_counts_syllables_numbers_and_pauses():
    short, long = pace.estimated_seconds("Ana, which card?"), pace.estimated_seconds(
        "Ana, which card? Line one: 20, 50. Line two: 35, 95.")
    assert 0.5 < short < long
    assert pace.syllables("seventy") == pace.syllables("70") == 3
    assert pace.syllables("card") == 1


def test_summary_pools_a_game_and_mode():
    rows = pace.summary([pace.CaseSpeech("a", "zero-to-100", "basic", 10.0, [2.0, 4.0], [9.0]),
                         pace.CaseSpeech("b", "zero-to-100", "basic", 12.0, [6.0], [])])
    (row,) = rows
    assert row["first_s"] == 12.0 and row["turn_mean_s"] == 4.0 and row["turns"] == 3
    assert row["requested"] == 1
