"""Quiet in chatter (voice/listening/attention.py, host/session.py): speech not said to the host is
logged and not answered; "Sorry?" only for a plausible reply; a silent player gets a
brief reminder at growing intervals."""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pytest
from test_session import ScriptEars, events, make_session
from understood import Say

from host.clarifying import SORRY
from host.contract import Ending, Outcome, Prompt, Source, Understood
from host.reply_policy import acts
from voice.audio_types import Hypothesis, Utterance
from voice.listening.attention import AMID_TALK, AMID_TALK_S, EMPTY, FAR, TOO_LONG, TOO_MANY_WORDS, ignore_reason
from voice.listening.pipeline import Reader
from voice.listening.reading import Reading
from voice.understanding.matcher import Matcher

NUMBER = Matcher().table("common/number")


def reading(text: str, rejected: bool, seconds: float = 0.8, *others: str) -> Reading:
    """A reading at common/number, its hypotheses matched as the reader matches them."""
    utterance = Utterance(np.zeros(int(seconds * 16000), np.float32), 1.0, 1.0 + seconds)
    hypotheses = tuple(Hypothesis(t, 0.4 if rejected else 0.9) for t in (text, *others))
    matches = [NUMBER.match(h.text) for h in hypotheses]
    return Reading(
        text if not rejected else "",
        0.4 if rejected else 0.9,
        rejected,
        utterance,
        hypotheses,
        match=matches[0],
        closest=max(m.score for m in matches),
    )


def ignored(heard: Understood) -> str:
    """Why the ears ignored it ("" when they did not)."""
    return heard.reason if heard.outcome is Outcome.IGNORED else ""


def test_plainly_not_a_reply_is_ignored_with_its_reason():
    assert ignore_reason(reading("", True), NUMBER) == EMPTY
    assert ignore_reason(reading("a", True), NUMBER) == EMPTY
    assert ignore_reason(reading("and then she told me the whole story", True), NUMBER) == FAR
    assert ignore_reason(reading("seven", False, 5.5), NUMBER) == TOO_LONG


def test_a_reading_with_more_words_than_the_sound_could_hold_is_not_a_reply_even_when_sure():
    choose = Matcher().table("keep-it-100/choose_card", {"card_word": [("survey", 1)]})
    assert ignore_reason(reading("take the survey one", False, 0.12), choose) == TOO_MANY_WORDS
    assert ignore_reason(reading("take the survey one", False, 0.9), choose) == ""
    assert ignore_reason(reading("seven", False, 0.3), NUMBER) == ""  # a short word, said quickly


def test_a_plausible_reply_is_not_ignored():
    assert ignore_reason(reading("seven", True), NUMBER) == ""  # close to the grammar, unsure
    assert ignore_reason(reading("mumble", True, 0.8, "seventy"), NUMBER) == ""  # a rival hypothesis is close
    assert ignore_reason(reading("seven", False), NUMBER) == ""  # trusted
    assert ignore_reason(reading("seven", False, 5.5), NUMBER, reply_max_s=0) == ""  # the limit off


class SpokenEars(ScriptEars):
    """Lines as spoken replies: "~reason" is chatter the ears ignored, "?" an unclear
    plausible reply, "..." silence until the prompt's (reminder) time runs out; the
    clock advances by each wait."""

    def __init__(self, lines, clock):
        super().__init__(lines)
        self.clock, self.asked = clock, []

    def hear(self, prompt):
        self.asked.append(prompt.timeout)
        if not self.lines:
            return None
        line = self.lines.pop(0)
        if line == "...":
            self.clock[0] += prompt.timeout or 0
            return Understood(Outcome.TIMED_OUT, Source.VOICE, listening_from=0.0)
        self.clock[0] += 2.0
        if line.startswith("~"):
            return Understood(
                Outcome.IGNORED, Source.VOICE, "blah", reason=line[1:], start=1.0, end=2.0, listening_from=0.0
            )
        if line == "?":
            return Understood(Outcome.UNCLEAR, Source.VOICE, start=1.0, end=2.0, listening_from=0.0)
        return self.understood(prompt, Say(line, start=1.0, end=2.0, listening_from=0.0))


def test_chatter_is_not_answered_and_the_prompt_is_not_read_again(tmp_path):
    now = [0.0]
    ears = SpokenEars([f"~{TOO_LONG}", f"~{FAR}", "?", "three"], now)
    session, mouth, journal, sid = make_session(tmp_path, [], ears=ears, clock=lambda: now[0])
    session.start()
    session.run()
    assert journal.accepted_actions(sid)[0] == {"intent": "number", "value": 3, "player": "Ana"}
    assert mouth.said.count("Ana, add how much?") == 1  # not re-read after chatter or "Sorry?"
    assert mouth.said.count(SORRY) == 1
    log = events(tmp_path, sid)
    assert [e["reason"] for e in log if e["type"] == "ignored"] == [TOO_LONG, FAR]
    assert [e["reason"] for e in log if e["type"] == "rejected"] == ["not understood"]


def test_a_silent_player_is_reminded_briefly_at_doubling_intervals(tmp_path):
    now = [0.0]
    ears = SpokenEars(["...", f"~{FAR}", "...", "...", "4"], now)
    session, mouth, journal, sid = make_session(tmp_path, [], ears=ears, clock=lambda: now[0], remind_after=30.0)
    session.start()
    session.run()
    assert mouth.said.count("Ana, add how much?") == 4  # the prompt, then three reminders of it
    reminders = [e for e in events(tmp_path, sid) if e["type"] == "reminder"]
    assert len(reminders) == 3
    assert ears.asked[:5] == [30.0, 60.0, 58.0, 120.0, 240.0]  # chatter does not reset the wait
    assert journal.accepted_actions(sid)[0]["value"] == 4


def test_a_reminder_names_the_player_and_asks_without_the_hand(tmp_path):
    from host.contract import Prompt

    session, mouth, _, _ = make_session(tmp_path, [])
    session.awaiting._remind(
        Prompt("x/y", "Ben", "You hold the three, the seven and the nine. Which card do you play?")
    )
    session.awaiting._remind(
        Prompt("x/y", "Team Ben", "Team Ben, which is closest to 50? Add power cards if you like.")
    )
    assert mouth.said == ["Ben, which card do you play?", "Team Ben, which is closest to 50?"]


class Reads:
    """A recogniser reading everything as one text, counting its reads."""

    def __init__(self, text: str, confidence: float = 0.95):
        self.text, self.confidence, self.reads = text, confidence, 0

    def compile(self, phrases):
        return tuple(phrases)

    def recognize(self, audio, grammar):
        self.reads += 1
        return [Hypothesis(self.text, self.confidence)]


def number_prompt(name: str = "common/number", unclear: dict | None = None) -> Prompt:
    return Prompt(name, None, "How many?", unclear=unclear)


def test_a_long_stretch_and_what_runs_on_after_its_cut_are_ignored_unread():
    from dataclasses import replace as changed

    from test_endpoint import RULES, silence, voiced
    from test_read_ahead import Recording

    from voice.listening.ears import VoiceEars
    from voice.listening.endpoint import Endpointer

    audio = np.concatenate([silence(0.6), voiced(5.0, level=0.05), voiced(2.5, level=0.5), silence(1.0)])
    recogniser = Reads("seven")
    ears = VoiceEars(
        Recording(audio),
        Endpointer(changed(RULES, max_ms=5000)),
        Reader(recogniser, acts=acts),
        Matcher(),
        busy_until=lambda: 0.0,
    )
    first, second = ears.hear(number_prompt()), ears.hear(number_prompt())
    assert ignored(first) == TOO_LONG and ignored(second) == TOO_LONG
    assert recogniser.reads == 0 and first.text == second.text == ""


def test_speech_begun_just_after_table_talk_long_after_the_host_spoke_is_more_of_it():
    """A short stretch right after a long one: talk going on, not read or answered. The
    same words a few seconds after the host fell silent, or after a pause, are read."""
    from dataclasses import replace as changed

    from test_endpoint import RULES, silence, voiced
    from test_read_ahead import Recording

    from voice.listening.ears import VoiceEars
    from voice.listening.endpoint import Endpointer

    def heard(host_quiet_since: float, pause: float):
        audio = np.concatenate(
            [silence(0.6), voiced(5.0, level=0.1), silence(pause), voiced(0.5, level=0.1), silence(1.0)]
        )
        recogniser = Reads("four")
        ears = VoiceEars(
            Recording(audio),
            Endpointer(changed(RULES, max_ms=8000)),
            Reader(recogniser, acts=acts),
            Matcher(),
            busy_until=lambda: host_quiet_since,
        )
        return ears.hear(number_prompt()), ears.hear(number_prompt()), recogniser.reads

    long, short, reads = heard(host_quiet_since=-10.0, pause=0.6)
    assert ignored(long) == TOO_LONG and ignored(short) == AMID_TALK and reads == 0
    assert heard(host_quiet_since=3.0, pause=0.6)[1].text == "four"  # just asked: may be the reply
    assert heard(host_quiet_since=-10.0, pause=1.6)[1].text == "four"  # after a pause


def test_a_cut_start_far_from_the_prompt_is_ignored_without_a_word():
    from voice.listening.ears import VoiceEars, _Timing

    ears = VoiceEars.__new__(VoiceEars)
    ears.matcher, ears.reply_max_s = Matcher(), 4.0
    timing = _Timing(0.0, 1.0, 2.0, (), None)
    far = ears._attend(number_prompt(), reading("and then she told me", False), "began before listening", timing)
    near = ears._attend(number_prompt(), reading("four", False), "began before listening", timing)
    assert ignored(far) == FAR and far.outcome is not Outcome.MISSED_START
    assert near.outcome is Outcome.MISSED_START and near.reason == "began before listening" and near.text == ""


def test_the_reminders_go_on_when_the_same_question_is_asked_again(tmp_path):
    """A missed start re-asks by saying so; the reminder schedule is not restarted."""
    now = [0.0]
    ears = SpokenEars(["...", "!", "...", "2"], now)
    original = ears.hear

    def hear(prompt):
        if ears.lines and ears.lines[0] == "!":
            ears.lines.pop(0)
            ears.asked.append(prompt.timeout)
            now[0] += 2.0
            return Understood(
                Outcome.MISSED_START,
                Source.VOICE,
                reason="began before listening",
                start=1.0,
                end=2.0,
                listening_from=1.0,
            )
        return original(prompt)

    ears.hear = hear
    session, mouth, journal, sid = make_session(tmp_path, [], ears=ears, clock=lambda: now[0], remind_after=30.0)
    session.start()
    session.run()
    assert ears.asked[:4] == [30.0, 60.0, 58.0, 120.0]
    assert [e["reason"] for e in events(tmp_path, sid) if e["type"] == "ignored"] == ["missed start"]


# ---- never silent to the awaited player (issue 40) -----------------------------------

FAR_TEXT = "and then she told me the whole story"


def _far_ears(audio, host_quiet_since=0.0, text=FAR_TEXT, max_ms=None, confidence=0.3):
    """VoiceEars over `audio` whose recogniser reads every utterance as `text` (unsure by default)."""
    from dataclasses import replace as changed

    from test_endpoint import RULES
    from test_read_ahead import Recording

    from voice.listening.ears import VoiceEars
    from voice.listening.endpoint import Endpointer

    rules = changed(RULES, max_ms=max_ms) if max_ms else RULES
    return VoiceEars(
        Recording(audio),
        Endpointer(rules),
        Reader(Reads(text, confidence), acts=acts),
        Matcher(),
        busy_until=lambda: host_quiet_since,
    )


def test_a_reply_length_reading_far_from_the_prompt_at_the_awaited_seat_gets_sorry_then_narrowing(tmp_path):
    """Two short utterances just after the question, each read far from it: the first
    gets "Sorry?", the second is the second miss, so the narrowed question follows."""
    from test_endpoint import silence, voiced
    from test_narrowing import _session

    audio = np.concatenate([silence(0.8), voiced(1.0), silence(1.2), voiced(1.0), silence(1.5)])
    session, _, mouth, journal, sid = _session(
        tmp_path, "keep-it-100", [], rules={"hand_size": 3}, ears=_far_ears(audio)
    )
    first = session.game.prompt(session.state)
    assert session.run() is Ending.EOF
    said = mouth.said[mouth.said.index(first.text) :]
    assert said[:3] == [first.text, SORRY, "Ana, which card: 1, 2 or 3?"]
    log = [json.loads(line) for line in (tmp_path / "events.jsonl").read_text().splitlines()]
    misses = [e for e in log if e["type"] == "heard" and not e.get("narrowed")]
    assert [e.get("reason") for e in misses] == [FAR, FAR]
    assert not [e for e in log if e["type"] == "ignored"]
    assert [e["misses"] for e in log if e["type"] == "narrowing"] == [2]
    assert journal.accepted_actions(sid) == []


def test_empty_and_too_wordy_readings_at_the_awaited_seat_are_misses_too():
    from test_endpoint import silence, voiced

    audio = np.concatenate([silence(0.8), voiced(0.3), silence(1.5)])

    choose_card = Prompt("keep-it-100/choose_card", "Ana", "Ana, pick a card.", slots={"card_word": [("survey", 1)]})
    wordy = _far_ears(audio, text="take the survey one", confidence=0.95)  # sure, but 7 syllables in 0.3 s
    heard = wordy.hear(choose_card)
    assert heard.outcome is Outcome.UNCLEAR and heard.reason == TOO_MANY_WORDS and heard.spoken
    empty = _far_ears(np.concatenate([silence(0.8), voiced(0.5), silence(1.5)]), text="")
    heard = empty.hear(number_prompt())
    assert heard.outcome is Outcome.UNCLEAR and heard.reason == EMPTY


def test_a_reply_said_again_after_the_window_closed_is_a_miss_not_silence():
    """The awaited player's first try was set aside long after the prompt (as table talk
    would be); said again soon after, it is answered. A reading set aside long before
    opens no window, and one at another question neither."""
    from test_endpoint import silence, voiced

    again = np.concatenate([silence(0.8), voiced(1.0), silence(3.0), voiced(1.0), silence(1.5)])
    ears = _far_ears(again, host_quiet_since=-10.0)
    assert ignored(ears.hear(number_prompt())) == FAR
    heard = ears.hear(number_prompt())
    assert heard.outcome is Outcome.UNCLEAR and heard.reason == FAR and heard.text == FAR_TEXT

    later = np.concatenate([silence(0.8), voiced(1.0), silence(8.0), voiced(1.0), silence(1.5)])
    ears = _far_ears(later, host_quiet_since=-10.0)
    assert [ignored(ears.hear(number_prompt())) for _ in range(2)] == [FAR, FAR]

    ears = _far_ears(again, host_quiet_since=-10.0)
    assert ignored(ears.hear(number_prompt("keep-it-100/choose_card"))) == FAR
    assert ignored(ears.hear(number_prompt())) == FAR


def test_a_reply_after_a_stretch_too_long_begun_just_after_the_prompt_is_a_miss_not_silence():
    """The party room: the awaited player's first try ran into the noise and came out a
    stretch too long for a reply, just after the question; said again a few seconds
    later (the answer window closed meanwhile), it is answered. The same stretch long
    after the host spoke is table talk, and what follows it stays silent."""
    from test_endpoint import silence, voiced

    audio = np.concatenate([silence(0.6), voiced(5.0, level=0.1), silence(2.5), voiced(1.0), silence(1.5)])
    ears = _far_ears(audio, host_quiet_since=0.0, max_ms=8000)
    assert ignored(ears.hear(number_prompt())) == TOO_LONG
    heard = ears.hear(number_prompt())
    assert heard.outcome is Outcome.UNCLEAR and heard.reason == FAR
    ears = _far_ears(audio, host_quiet_since=-10.0, max_ms=8000)
    assert [ignored(ears.hear(number_prompt())) for _ in range(2)] == [TOO_LONG, FAR]


def test_a_second_stretch_too_long_for_a_reply_just_after_the_first_is_a_miss_not_silence(tmp_path):
    """The party room runs the awaited player's words on into its talk: every try comes out
    too long for a reply. The first, just after the question, may be table talk and gets
    silence; a second such try soon after it (not running on from it) gets "Sorry?", and
    counts toward the narrowed questions. Long after the host spoke, or where any speech is
    a clue, both stay silent."""
    from test_endpoint import silence, voiced
    from test_narrowing import _session

    audio = np.concatenate([silence(0.6), voiced(5.0, level=0.1), silence(2.0), voiced(5.0, level=0.1), silence(1.5)])
    ears = _far_ears(audio, host_quiet_since=0.0, max_ms=8000)
    first, second = ears.hear(number_prompt()), ears.hear(number_prompt())
    assert ignored(first) == TOO_LONG and second.outcome is Outcome.UNCLEAR and second.reason == TOO_LONG
    ears = _far_ears(audio, host_quiet_since=-10.0, max_ms=8000)
    assert [ignored(ears.hear(number_prompt())) for _ in range(2)] == [TOO_LONG, TOO_LONG]
    ears = _far_ears(audio, host_quiet_since=0.0, max_ms=8000)
    assert [ignored(ears.hear(number_prompt(unclear={"intent": "clue"}))) for _ in range(2)] == [TOO_LONG, TOO_LONG]

    session, _, mouth, journal, _ = _session(
        tmp_path, "keep-it-100", [], rules={"hand_size": 3}, ears=_far_ears(audio, max_ms=8000)
    )
    question = session.game.prompt(session.state).text
    assert session.run() is Ending.EOF
    assert mouth.said[mouth.said.index(question) :][:2] == [question, SORRY]


def test_table_talk_stays_silent_long_after_the_prompt_amid_talk_or_where_any_word_is_a_move():
    from test_endpoint import silence, voiced

    audio = np.concatenate([silence(0.8), voiced(1.0), silence(1.5)])
    late = _far_ears(audio, host_quiet_since=-10.0).hear(number_prompt())
    assert ignored(late) == FAR  # long after the host fell silent

    clue = _far_ears(audio).hear(number_prompt(unclear={"intent": "clue"}))
    assert ignored(clue) == FAR  # there any word would end the turn

    talk = np.concatenate([silence(0.6), voiced(5.0, level=0.1), silence(0.6), voiced(0.8, level=0.1), silence(1.5)])
    ears = _far_ears(talk, host_quiet_since=2.0, max_ms=8000)
    assert ignored(ears.hear(number_prompt())) == TOO_LONG
    assert ignored(ears.hear(number_prompt())) == FAR  # inside the window, but running on from talk


# ---- a confirming question in a talking room (issue 54, the lively room) --------------------


def _talk_then_yes(talk_s: float = 5.0, pause_s: float = 0.6):
    """Talk too long for a reply just after the question, a pause shorter than AMID_TALK_S,
    then a short word."""
    from test_endpoint import silence, voiced

    return np.concatenate(
        [silence(0.6), voiced(talk_s, level=0.1), silence(pause_s), voiced(0.5, level=0.1), silence(1.5)]
    )


def _yes_no(confirming: bool) -> Prompt:
    return Prompt("common/yes_no", "Ana", "Did you mean: seven?", choices=("yes", "no"), confirming=confirming)


def test_talk_at_a_confirming_question_is_answered_and_a_word_just_after_it_is_read():
    """The lively room of bench table (2026-12-07): asked "Did you mean ...?", the table's
    talk ran every "yes" on into stretches too long for a reply, one straight after the
    other, and the host said nothing to any of four tries. At a confirming question each
    such stretch is a miss, and a word said just after the talk is read; at any other
    question the same sound stays as silent as before."""
    from test_endpoint import silence, voiced

    talk = [voiced(6.0, level=0.05), voiced(5.0, level=0.3)]  # cut at the limit, then louder: heard on
    running_on = np.concatenate([silence(0.6), *talk, silence(0.6), voiced(0.5, level=0.3), silence(1.5)])
    heard = {}
    for confirming in (False, True):
        ears = _far_ears(running_on, text="yes", confidence=0.95)
        heard[confirming] = [ears.hear(_yes_no(confirming)) for _ in range(3)]
    assert [(h.outcome, h.reason) for h in heard[False]] == [(Outcome.IGNORED, TOO_LONG)] * 2 + [
        (Outcome.IGNORED, AMID_TALK)
    ]
    assert [h.outcome for h in heard[True]] == [Outcome.UNCLEAR, Outcome.UNCLEAR, Outcome.REPLY]
    assert [h.reason for h in heard[True][:2]] == [TOO_LONG, TOO_LONG]
    assert heard[True][1].start - heard[True][0].end < AMID_TALK_S  # the talk ran straight on
    assert heard[True][2].intent == {"intent": "yes"}


def test_speech_long_after_a_confirming_question_is_answered_but_not_where_any_word_is_a_move():
    """The talk hid the player's tries until the answer window had closed (bench table,
    2026-12-08: a reading far from the question 10 s after it, passed over): at a confirming
    question what is heard later is still a miss the host answers. Elsewhere it stays
    silent, and so it does where any speech is a move."""
    from test_endpoint import silence, voiced

    late = np.concatenate([silence(0.8), voiced(1.0), silence(1.5)])
    assert ignored(_far_ears(late, host_quiet_since=-10.0).hear(_yes_no(False))) == FAR
    heard = _far_ears(late, host_quiet_since=-10.0).hear(_yes_no(True))
    assert heard.outcome is Outcome.UNCLEAR and heard.reason == FAR
    clue = replace(_yes_no(True), unclear={"intent": "clue"})
    assert ignored(_far_ears(_talk_then_yes(), host_quiet_since=-10.0).hear(clue)) == TOO_LONG


@pytest.mark.parametrize("sure_only", [False, True])
def test_a_did_you_mean_in_a_talking_room_gets_an_answer_and_its_yes_is_taken(tmp_path, sure_only):
    """Through the session's own "Did you mean" (and "... is that your answer?", asked
    the same way before a move that cannot be taken back): the talk after the question
    is answered ("Sorry? Yes or no?"), and the "yes" said just after the talk is taken.
    Before, the talk was passed over, the "yes" taken for more of it, and the host said
    nothing."""
    from test_narrowing import _session

    from host.awaiting import CONFIRM_AGAIN
    from host.clarifying import your_answer
    from host.reply_policy import Act

    ears = _far_ears(_talk_then_yes(), text="yes", confidence=0.95)
    session, _, mouth, _, _ = _session(tmp_path, "keep-it-100", [], rules={"hand_size": 3}, ears=ears)
    prompt = session.game.prompt(session.state)
    move = {"intent": "choose_card", "card": 1}
    settled = session.clarifier.did_you_mean(prompt, "card one", move, sure_only=sure_only)
    question = your_answer(prompt, "card one") if sure_only else "Did you mean: card one?"
    assert mouth.said[-2:] == [question, CONFIRM_AGAIN]
    assert settled == Act(move)


def test_does_everyone_agree_in_a_talking_room_is_answered_and_ends(tmp_path):
    """The other confirming questions (awaiting.confirm: "Does everyone agree?", "Take it
    back anyway?"): the same, and talk that never stops costs one "Sorry? Yes or no?" and
    counts as no, never a wait without end."""
    from test_endpoint import silence, voiced
    from test_narrowing import _session

    from host.awaiting import CONFIRM_AGAIN

    question = "Does everyone agree? Yes or no?"
    for audio, agreed in (
        (_talk_then_yes(), True),
        (np.concatenate([silence(0.6), voiced(14.0, level=0.1), silence(1.5)]), False),
    ):
        ears = _far_ears(audio, text="yes", confidence=0.95)
        session, _, mouth, _, _ = _session(tmp_path / str(agreed), "keep-it-100", [], rules={"hand_size": 3}, ears=ears)
        prompt = session.game.prompt(session.state)
        assert session.awaiting.confirm(prompt, question) is agreed
        assert mouth.said[-2:] == [question, CONFIRM_AGAIN]
