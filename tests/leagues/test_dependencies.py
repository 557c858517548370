"""leagues depends on games, never the reverse (issue 20, item 6): games tells the world
through games.signals, and leagues answers from its AppConfig.ready."""

import ast
from pathlib import Path

import games

GAMES = Path(games.__file__).parent


def _imported_modules(path: Path):
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            yield node.module


def test_games_imports_nothing_of_leagues():
    offenders = [
        f"{path.relative_to(GAMES.parent)}: {module}"
        for path in sorted(GAMES.rglob("*.py"))
        if "migrations" not in path.parts
        for module in _imported_modules(path)
        if module == "leagues" or module.startswith("leagues.")
    ]
    assert offenders == []
