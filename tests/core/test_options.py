"""Option: types (lists item by item), None defaults, ranges, choices, NaN."""

from __future__ import annotations

import math

import pytest

from glyphweave.core.errors import ProfileError
from glyphweave.core.stages import Option


def coerce(option: Option, value: object) -> object:
    return option.coerce("comp", "opt", value)


def test_type_from_default_and_int_widened_to_float() -> None:
    option = Option(default=0.5, doc="a gap")
    assert option.type is float
    assert coerce(option, 2) == 2.0 and type(coerce(option, 2)) is float
    with pytest.raises(ProfileError, match=r"^option 'opt' of 'comp' must be float, got True$"):
        coerce(option, True)
    with pytest.raises(ProfileError, match="must be float, got 'wide'"):
        coerce(option, "wide")


def test_nan_is_never_a_number() -> None:
    with pytest.raises(ProfileError, match="must be a number, got nan"):
        coerce(Option(default=0.5, doc="a gap"), math.nan)


def test_ranges_are_inclusive() -> None:
    option = Option(default=0.5, doc="a gap", minimum=0.0, maximum=10.0)
    assert coerce(option, 0) == 0.0 and coerce(option, 10) == 10.0
    with pytest.raises(ProfileError, match=r"must be at least 0.0, got -0.1"):
        coerce(option, -0.1)
    with pytest.raises(ProfileError, match=r"must be at most 10.0, got inf"):
        coerce(option, math.inf)


def test_choices() -> None:
    option = Option(default="drop", doc="what to do", choices=("drop", "keep"))
    assert coerce(option, "keep") == "keep"
    with pytest.raises(ProfileError, match=r"must be one of \['drop', 'keep'\], got 'append'"):
        coerce(option, "append")


def test_list_items_are_checked() -> None:
    option = Option(default=("a",), doc="names", item_type=str)
    assert coerce(option, ["x", "y"]) == ("x", "y")
    with pytest.raises(ProfileError, match=r"must be a list of str, got item 3"):
        coerce(option, ["x", 3])
    with pytest.raises(ProfileError, match=r"must be a list of str, got 'x'"):
        coerce(option, "x")  # a string is not a list of one-letter names
    floats = Option(default=[1.0], doc="sizes", item_type=float)
    assert coerce(floats, [1, 2.5]) == [1.0, 2.5]


def test_a_list_option_needs_its_item_type() -> None:
    with pytest.raises(TypeError, match="item_type"):
        Option(default=[], doc="names")


def test_none_default_needs_a_type_and_is_then_usable() -> None:
    with pytest.raises(TypeError, match=r"needs type="):
        Option(default=None, doc="a limit")
    option = Option(default=None, type=float, doc="a limit", minimum=0.0)
    assert option.default is None and option.type is float
    assert coerce(option, 3) == 3.0


def test_a_default_outside_its_own_limits_fails_at_definition() -> None:
    with pytest.raises(ValueError, match=r"Option default -1.0: must be at least 0.0"):
        Option(default=-1.0, doc="a gap", minimum=0.0)


def test_describe_is_json_friendly() -> None:
    option = Option(default=("a",), doc="names", item_type=str)
    assert option.describe() == {"type": "a list of str", "default": ["a"], "minimum": None, "maximum": None,
                                  "choices": None, "doc": "names"}
    ranged = Option(default=0.5, doc="a gap", minimum=0.0)
    assert ranged.describe()["minimum"] == 0.0 and ranged.describe()["type"] == "float"


def test_a_path_option_is_a_string_option() -> None:
    assert Option(default="", doc="a file", path=True).path
    assert not Option(default="", doc="a name").path
    with pytest.raises(TypeError, match=r"path=True\) is for a str option"):
        Option(default=0, doc="a count", path=True)
