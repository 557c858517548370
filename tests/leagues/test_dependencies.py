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


def test_games_schema_names_no_model_of_leagues():
    """A table's season is leagues' (leagues.LeagueTable): no field of a games model, nor
    of a game app's, points at a leagues model (issue 30)."""
    from django.apps import apps

    offenders = [
        f"{model._meta.label}.{field.name} -> {field.related_model._meta.label}"
        for model in apps.get_models()
        if model.__module__.startswith("games.")
        for field in model._meta.get_fields(include_hidden=True)
        if not field.auto_created
        and field.related_model is not None
        and field.related_model._meta.app_label == "leagues"
    ]
    assert offenders == []
