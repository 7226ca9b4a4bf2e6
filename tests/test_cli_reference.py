"""docs/cli.rst against the command's parsers: every option of every command is documented
there, under its ``.. program::``, and every documented option exists, so the reference
cannot drift from the command (``--help`` on every command is argparse's, and left out)."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest

from glyphweave.cli import _parser

DOCS = Path(__file__).resolve().parents[1] / "docs"
REFERENCE = DOCS / "cli.rst"

pytestmark = pytest.mark.skipif(not REFERENCE.is_file(), reason="the docs are not in this checkout")

_DIRECTIVE = re.compile(r"^\.\. (program|option):: (.+)$")


def parsed_options() -> dict[str, set[str]]:
    """Program (``glyphweave extract``) -> its option strings, from the parsers."""
    found: dict[str, set[str]] = {}

    def walk(parser: argparse.ArgumentParser, program: str) -> None:
        options = found.setdefault(program, set())
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, child in action.choices.items():
                    walk(child, f"{program} {name}")
            elif not isinstance(action, argparse._HelpAction):
                options.update(action.option_strings)

    walk(_parser(), "glyphweave")
    return found


def documented_options(text: str) -> dict[str, set[str]]:
    """Program -> the options its ``.. option::`` directives name (a signature may go on over
    aligned lines; each part of ``-o OUT, --output OUT`` names one option)."""
    found: dict[str, set[str]] = {}
    program = None
    signature_indent = None
    for line in text.splitlines():
        directive = _DIRECTIVE.match(line)
        if directive is not None:
            kind, value = directive.groups()
            if kind == "program":
                program = value.strip()
                found.setdefault(program, set())
                signature_indent = None
                continue
            assert program is not None, f"an option before any program: {line}"
            signatures = [value]
            signature_indent = len(".. option:: ")
        elif signature_indent is not None and line[:signature_indent].isspace() and \
                line[signature_indent:signature_indent + 1] not in ("", " "):
            signatures = [line[signature_indent:]]
        else:
            signature_indent = None
            continue
        for signature in signatures:
            for part in signature.split(", "):
                found[program].add(part.split()[0].split("=")[0])
    return found


def test_every_command_is_in_the_reference() -> None:
    parsed = parsed_options()
    documented = documented_options(REFERENCE.read_text(encoding="utf-8"))
    # A command with subcommands (``registry``) is documented by them.
    commands = {program for program in parsed if not any(other.startswith(f"{program} ") for other in parsed)}
    assert sorted(commands - set(documented)) == []


def test_every_option_is_documented_and_every_documented_option_exists() -> None:
    parsed = parsed_options()
    documented = documented_options(REFERENCE.read_text(encoding="utf-8"))
    missing = sorted(f"{program} {option}" for program, options in parsed.items()
                     for option in options - documented.get(program, set()))
    unknown = sorted(f"{program} {option}" for program, options in documented.items()
                     for option in options - parsed.get(program, set()))
    assert missing == [], "options the reference does not document"
    assert unknown == [], "options the reference documents that the command does not have"


def test_the_reader_sees_continued_signatures() -> None:
    text = ".. program:: glyphweave x\n\n.. option:: -o OUT, --output OUT\n            --pages RANGES\n\n   Text.\n"
    assert documented_options(text) == {"glyphweave x": {"-o", "--output", "--pages"}}


@pytest.mark.parametrize("command", ["extract", "glyphs", "batch", "scan"])
def test_every_command_that_opens_pdfs_takes_the_open_options(command: str) -> None:
    options = parsed_options()[f"glyphweave {command}"]
    assert {"--password", "--password-file", "--profile", "--max-page-mb", "--max-records-mb", "--page-seconds",
            "--block", "-p", "--plugin"} <= options


@pytest.mark.parametrize("command", ["extract", "batch", "scan"])
def test_jobs_has_one_form(command: str) -> None:
    parser = _parser()
    args = parser.parse_args([command, "in.pdf", *(["-o", "out"] if command == "batch" else []), "-j", "auto"])
    assert args.jobs is None
    args = parser.parse_args([command, "in.pdf", *(["-o", "out"] if command == "batch" else []), "-j", "3"])
    assert args.jobs == 3


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


def test_a_named_command_builds_the_same_parser_as_the_whole_command_line() -> None:
    # The table of which adder adds which subcommand (cli._COMMANDS) is what the adders do:
    # every subcommand is in it, and the parser built for one command holds that command
    # exactly as the whole command line's does (its options and their help).
    from glyphweave.cli import _COMMANDS

    whole = _subcommands(_parser())
    assert list(whole) == list(_COMMANDS)
    for command in _COMMANDS:
        alone = _subcommands(_parser(command))
        assert command in alone
        assert alone[command].format_help() == whole[command].format_help()
