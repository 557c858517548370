"""`manage.py replay FILE`: re-play a game record and print its scores (RULES §4).

Success: the result as one JSON line on stdout, exit status 0. An illegal or malformed
record: one line on stderr naming the round, turn and seat at fault, nothing on stdout,
exit status 1. The rules live in the engine; this only reads the file and reports.
"""

import json
import sys

from django.core.management.base import BaseCommand

from games import kinds
from games.engine import RecordError


class Command(BaseCommand):
    help = "Re-play a game record (RULES §4) and print its scores as JSON."

    def add_arguments(self, parser):
        parser.add_argument("file", help="the record, a JSON file ('-' for standard input)")
        parser.add_argument(
            "--unfinished",
            action="store_true",
            help="accept a record that stops before the game's end (winners stay empty)",
        )

    def handle(self, *args, file, unfinished, **options):
        try:
            result = replay_file(file, allow_unfinished=unfinished)
        except RecordError as error:
            self.stderr.write(str(error), style_func=lambda text: text)
            sys.exit(1)
        self.stdout.write(json.dumps(result))


def replay_file(path, *, allow_unfinished=False):
    """The result of the record at `path`; RecordError for anything wrong with it."""
    try:
        if path == "-":
            text = sys.stdin.read()
        else:
            with open(path, encoding="utf-8") as handle:
                text = handle.read()
    except (OSError, UnicodeDecodeError) as error:
        raise RecordError(f"cannot read {path}: {error}") from None
    try:
        record = json.loads(text)
    except (ValueError, RecursionError) as error:
        raise RecordError(f"not valid JSON: {error}") from None
    if not isinstance(record, dict):
        raise RecordError("a record is a JSON object")
    game = record.get("game")
    if not isinstance(game, str):
        raise RecordError("the record has no 'game' name")
    try:
        kind = kinds.get(game)
    except KeyError as error:
        raise RecordError(error.args[0]) from None
    try:
        return kind.read_record(record, allow_unfinished=allow_unfinished)
    except RecordError:
        raise
    except Exception as error:  # RULES 4: one line on stderr, never a traceback
        raise RecordError(
            f"the record could not be replayed ({type(error).__name__}: {error})"
        ) from None
