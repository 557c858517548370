"""Higher card wins: a game that exists only in the tests, packaged as a game's app
(engine, bot, kind, templates, registration in apps.py) and installed by
tests/settings.py alone. No file outside this folder names it."""
