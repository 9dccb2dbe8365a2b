"""merge_rules and convert_rule (host/rules.py): the rule checks every engine shares."""

from __future__ import annotations

import pytest

from host.engine import RuleError
from host.rules import convert_rule, merge_rules

DEFAULTS = {
    "relaxed": False,
    "rounds": 2,
    "turn_seconds": 8.0,
    "first": "",
    "face": None,
    "starters": [5, 50, 95],
    "suit_values": {"clubs": 1},
}


def merged(**given):
    return merge_rules("Test Game", DEFAULTS, given)


def refusal(**given) -> str:
    with pytest.raises(RuleError) as error:
        merged(**given)
    return error.value.reason


# ---------------------------------------------------------------- keys


def test_nothing_given_gives_the_defaults():
    assert merged() == DEFAULTS


def test_given_values_replace_only_their_own_keys():
    rules = merged(rounds=5)
    assert rules == {**DEFAULTS, "rounds": 5}


def test_the_result_is_a_copy_the_engine_may_change():
    rules = merged()
    rules["starters"].append(100)
    rules["suit_values"]["spades"] = 4
    assert DEFAULTS["starters"] == [5, 50, 95]
    assert DEFAULTS["suit_values"] == {"clubs": 1}


def test_an_unknown_rule_is_named_and_the_known_ones_listed():
    reason = refusal(colour="red")
    assert reason == (
        "Test Game has no rule called colour. Its rules are: relaxed, rounds, "
        "turn_seconds, first, face, starters and suit_values."
    )


def test_several_unknown_rules_are_all_named():
    reason = refusal(colour="red", size=3, rounds=1)
    assert reason.startswith("Test Game has no rules called colour and size.")


def test_unknown_rules_are_refused_before_any_value_is_read():
    assert "no rule called colour" in refusal(colour="red", rounds="lots")


# ---------------------------------------------------------------- bool


@pytest.mark.parametrize(
    "given, expected",
    [
        (True, True),
        ("true", True),
        ("Yes", True),
        (" on ", True),
        ("1", True),
        (1, True),
        (False, False),
        ("false", False),
        ("NO", False),
        ("off", False),
        ("0", False),
        (0, False),
    ],
)
def test_flags_accept_words_a_command_line_gives(given, expected):
    assert merged(relaxed=given)["relaxed"] is expected


@pytest.mark.parametrize("given", ["maybe", "", 2, 1.0, None, [True]])
def test_a_flag_that_is_neither_true_nor_false_is_refused(given):
    assert refusal(relaxed=given) == "The rule relaxed must be true or false."


# ---------------------------------------------------------------- int


@pytest.mark.parametrize(
    "given, expected",
    [
        (7, 7),
        ("12", 12),
        (" 3 ", 3),
        ("-4", -4),
        ("+4", 4),
        (3.0, 3),
    ],
)
def test_whole_numbers_accept_text_and_whole_floats(given, expected):
    value = merged(rounds=given)["rounds"]
    assert value == expected and type(value) is int


@pytest.mark.parametrize("given", ["lots", "", "2.5", "1_000", 2.5, True, False, None, [3]])
def test_a_value_that_is_not_a_whole_number_is_refused(given):
    assert refusal(rounds=given) == "The rule rounds must be a whole number."


# ---------------------------------------------------------------- float


@pytest.mark.parametrize(
    "given, expected",
    [
        (2.5, 2.5),
        ("2.5", 2.5),
        (" 12 ", 12.0),
        (8, 8.0),
        (0, 0.0),
        ("-1", -1.0),
    ],
)
def test_numbers_accept_text_and_whole_numbers(given, expected):
    value = merged(turn_seconds=given)["turn_seconds"]
    assert value == expected and type(value) is float


@pytest.mark.parametrize("given", ["soon", "", "nan", "inf", float("inf"), True, None, [8]])
def test_a_value_that_is_not_a_number_is_refused(given):
    assert refusal(turn_seconds=given) == "The rule turn_seconds must be a number."


# ---------------------------------------------------------------- str


@pytest.mark.parametrize("given, expected", [("Ana", "Ana"), ("  Ben ", "Ben"), ("", ""), (7, "7")])
def test_text_is_trimmed_and_keeps_its_case(given, expected):
    assert merged(first=given)["first"] == expected


@pytest.mark.parametrize("given", [None, True, ["Ana"], {"name": "Ana"}])
def test_a_value_that_is_not_text_is_refused(given):
    assert refusal(first=given) == "The rule first must be a word or a name."


# ---------------------------------------------------------------- left to the engine


@pytest.mark.parametrize(
    "key, given",
    [
        ("face", "Blue"),
        ("face", 3),
        ("face", None),
        ("face", [1]),
        ("starters", "5,20,80"),
        ("starters", [1, "x"]),
        ("starters", 12),
        ("suit_values", "1,2,3,4"),
        ("suit_values", {"spades": "lots"}),
    ],
)
def test_values_whose_default_is_none_a_list_or_a_dict_pass_unchanged(key, given):
    assert merged(**{key: given})[key] is given


# ---------------------------------------------------------------- convert_rule


@pytest.mark.parametrize(
    "value, kind, expected",
    [
        ("3", int, 3),
        ("yes", bool, True),
        ("0.5", float, 0.5),
        (" red ", str, "red"),
    ],
)
def test_convert_rule_reads_one_value(value, kind, expected):
    result = convert_rule("line", value, kind)
    assert result == expected and type(result) is kind


def test_convert_rule_names_the_rule_in_its_reason():
    with pytest.raises(RuleError, match="^The rule line must be a whole number.$"):
        convert_rule("line", "three", int)


def test_convert_rule_refuses_a_kind_it_does_not_know():
    with pytest.raises(TypeError):
        convert_rule("starters", "5,20", list)
