"""Option: types (lists item by item), None defaults, ranges, choices, NaN."""

from __future__ import annotations

import math

import pytest

from glyphweave.core.errors import ProfileError
from glyphweave.core.stages import Filter, Option


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


def define(**options: Option) -> type[Filter]:
    """A filter class declaring ``options``, defined as a plugin module would define it."""
    return type("Gaps", (Filter,), {"NAME": "gaps", "OPTIONS": options, "__module__": "gw_plugin",
                                    "apply": lambda self, page, indices: list(indices)})


def test_a_list_option_needs_its_item_type() -> None:
    with pytest.raises(TypeError, match=r"^filter 'gaps' \(gw_plugin.Gaps\): option 'names' is a list and needs "
                                        r"item_type=\.\.\. \(the type of its items\)$"):
        define(names=Option(default=[], doc="names"))


def test_none_default_needs_a_type_and_is_then_usable() -> None:
    with pytest.raises(TypeError, match=r"^filter 'gaps' \(gw_plugin.Gaps\): option 'limit' has default None and "
                                        r"no type=\.\.\."):
        define(limit=Option(default=None, doc="a limit"))
    option = Option(default=None, type=float, doc="a limit", minimum=0.0)
    assert option.default is None and option.type is float
    assert coerce(option, 3) == 3.0
    assert define(limit=option)().limit is None


def test_a_default_outside_its_own_limits_fails_at_definition_naming_component_and_option() -> None:
    with pytest.raises(ValueError, match=r"^filter 'gaps' \(gw_plugin.Gaps\): option 'gap' has default -1.0, which "
                                         r"must be at least 0.0, got -1.0$"):
        define(gap=Option(default=-1.0, doc="a gap", minimum=0.0))
    with pytest.raises(ValueError, match=r"option 'modes' has default \('a', 'z'\), which must have every item "
                                         r"one of \['a', 'b'\], got item 'z'$"):
        define(modes=Option(default=("a", "z"), doc="modes", item_type=str, choices=("a", "b")))


def test_a_default_goes_through_the_conversion_a_given_value_does() -> None:
    option = Option(default=0, type=float, doc="a gap", minimum=0.0)
    assert option.default == 0.0 and type(option.default) is float
    assert type(define(gap=option)().gap) is float
    sizes = Option(default=[1, 2], type=tuple, item_type=float, doc="sizes")
    assert sizes.default == (1.0, 2.0) and all(type(v) is float for v in sizes.default)


def test_list_items_are_checked_against_choices_and_limits() -> None:
    modes = Option(default=("a",), doc="modes", item_type=str, choices=("a", "b"))
    assert coerce(modes, ["b", "a"]) == ("b", "a")
    with pytest.raises(ProfileError, match=r"^option 'opt' of 'comp' must have every item one of \['a', 'b'\], "
                                           r"got item 'c'$"):
        coerce(modes, ["a", "c"])
    sizes = Option(default=[1.0], doc="sizes", item_type=float, minimum=0.0, maximum=10.0)
    assert coerce(sizes, [0, 10]) == [0.0, 10.0]
    with pytest.raises(ProfileError, match=r"must have every item at least 0.0, got item -1.0$"):
        coerce(sizes, [1, -1])
    with pytest.raises(ProfileError, match=r"must have every item at most 10.0, got item 11.0$"):
        coerce(sizes, [11])
    with pytest.raises(ProfileError, match=r"must have every item a number, got item nan$"):
        coerce(sizes, [math.nan])


def test_describe_is_json_friendly() -> None:
    option = Option(default=("a",), doc="names", item_type=str)
    assert option.describe() == {"type": "a list of str", "default": ["a"], "minimum": None, "maximum": None,
                                  "choices": None, "doc": "names"}
    ranged = Option(default=0.5, doc="a gap", minimum=0.0)
    assert ranged.describe()["minimum"] == 0.0 and ranged.describe()["type"] == "float"


def test_a_path_option_is_a_string_option() -> None:
    assert Option(default="", doc="a file", path=True).path
    assert not Option(default="", doc="a name").path
    assert Option(default=0, doc="a count", path=True).definition_problem() == (
        TypeError, "has path=True, which is for a str option (a file's path)")
