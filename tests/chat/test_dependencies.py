"""Dependencies point one way (DESIGN, "The shape"): chat and leagues build on games, and no
module of games imports them. The chat rides on games' sockets through games.sockets.

import-linter's contracts will say the same in CI; this reads every module's imports.
"""

import ast
from pathlib import Path

import pytest

import games

GAMES = Path(games.__file__).parent


def imported_modules(path: Path) -> set[str]:
    """Every module `path` imports: at the top, inside a function, or by importlib."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    modules = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            modules.add(node.module)
        elif (
            isinstance(node, ast.Call)
            and getattr(node.func, "attr", getattr(node.func, "id", "")) == "import_module"
            and node.args
            and isinstance(node.args[0], ast.Constant)
        ):
            modules.add(node.args[0].value)
    return modules


def importers_of(package: str) -> list[str]:
    return sorted(
        f"{path.relative_to(GAMES.parent)}: {module}"
        for path in GAMES.rglob("*.py")
        for module in imported_modules(path)
        if module == package or module.startswith(package + ".")
    )


def test_the_games_modules_are_all_read():
    assert GAMES / "consumers.py" in set(GAMES.rglob("*.py"))
    assert "games.sockets" in imported_modules(GAMES / "consumers.py")


@pytest.mark.parametrize("package", ["chat", "leagues"])
def test_no_module_of_games_imports_an_app_above_it(package):
    assert importers_of(package) == []


def test_the_chat_reaches_the_sockets_through_their_registry():
    from games import sockets

    assert sockets.takes("chat")
    for event in ("chat.posted", "chat.hidden", "chat.preferences"):
        assert sockets.event_handler(event) is not None
