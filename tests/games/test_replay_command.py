"""`manage.py replay FILE` (RULES §4): exact JSON on stdout and exit 0 for a legal record;
one line on stderr naming round, turn and seat, nothing on stdout, exit 1 otherwise."""

import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command

ROOT = Path(__file__).resolve().parents[2]
RECORDS = Path(__file__).parent / "records"
EXPECTED = json.loads((RECORDS / "expected.json").read_text())
LOCATION = re.compile(r"^round (\d+|-), turn (\d+|-), seat (\d+( \(.*\))?|-): \S")


def run(path, *args):
    """The command in this process: (exit status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command("replay", str(path), *args, stdout=out, stderr=err)
        status = 0
    except SystemExit as exit:
        status = exit.code
    return status, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("name", sorted(n for n in EXPECTED if "result" in EXPECTED[n]))
def test_legal_record_prints_the_scores(name):
    # RULES 4: {"rounds": [...], "totals": [...], "winners": [...]} on stdout, exit 0
    status, out, err = run(RECORDS / f"{name}.json")
    assert (status, err) == (0, "")
    assert out == json.dumps(EXPECTED[name]["result"]) + "\n"


@pytest.mark.parametrize("name", sorted(n for n in EXPECTED if "error" in EXPECTED[n]))
def test_illegal_record_prints_one_line_naming_round_turn_and_seat(name):
    # RULES 4: exit 1, one line on stderr naming round, turn and seat, nothing on stdout
    status, out, err = run(RECORDS / f"{name}.json")
    assert (status, out) == (1, "")
    assert err.count("\n") == 1 and err.endswith("\n")
    expected = EXPECTED[name]["error"]
    match = LOCATION.match(err)
    assert match, err
    assert match.group(1) == str(expected["round"] or "-")
    assert match.group(2) == str(expected["turn"] or "-")
    assert match.group(3).split(" ")[0] == (
        "-" if expected["seat"] is None else str(expected["seat"])
    )
    assert expected["match"] in err


@pytest.mark.parametrize(
    "text",
    [
        "",
        "{",
        "not json",
        "[1, 2]",
        '"record"',
        "{}",
        '{"game": 3}',
        '{"game": "chess"}',
        '{"format": "sixclub-record/1", "game": "nimmt"}',
        '{"format": "sixclub-record/1", "game": "nimmt", "options": {}, "players": ["a", "b"], '
        '"rounds": [7]}',
        "[" * 100000,
    ],
)
def test_malformed_files_are_refused_in_one_line(tmp_path, text):
    # RULES 4: malformed records too: exit 1, one line, no traceback
    path = tmp_path / "record.json"
    path.write_text(text)
    status, out, err = run(path)
    assert (status, out) == (1, "")
    assert err.count("\n") == 1
    assert LOCATION.match(err), err


def test_binary_and_missing_files_are_refused(tmp_path):
    path = tmp_path / "record.json"
    path.write_bytes(b"\xff\xfe\x00garbage")
    assert run(path)[0] == 1
    status, out, err = run(tmp_path / "missing.json")
    assert (status, out) == (1, "")
    assert "cannot read" in err


def test_unfinished_option_accepts_a_record_that_stops_early():
    # docs/records.md: --unfinished replays the rounds so far; no winner yet
    path = RECORDS / "illegal_rounds_missing.json"
    assert run(path)[0] == 1
    status, out, err = run(path, "--unfinished")
    assert (status, err) == (0, "")
    assert json.loads(out)["winners"] == []


def test_real_process_exit_status_and_streams(tmp_path):
    # RULES 4, end to end through manage.py, as a person runs it
    manage = [sys.executable, str(ROOT / "manage.py"), "replay"]
    legal = subprocess.run(
        [*manage, str(RECORDS / "legal_threshold_3p.json")],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert legal.returncode == 0
    assert legal.stdout == json.dumps(EXPECTED["legal_threshold_3p"]["result"]) + "\n"
    assert legal.stderr == ""
    illegal = subprocess.run(
        [*manage, str(RECORDS / "illegal_card_not_in_hand.json")],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert illegal.returncode == 1
    assert illegal.stdout == ""
    assert illegal.stderr == "round 1, turn 3, seat 1 (bob): card 92 is not in this seat's hand\n"
