"""What several browser tests share: signing in, and reading a game's state from the
server's database while browsers play it."""

import asyncio
import json
import sys

from tests import servers as live
from tests.e2e.test_play_in_browser import PASSWORD, sign_up

# Counts the socket's frames swapped into a page (htmx's ws extension): add it to a page or
# context before it loads, then `after_first_frame`.
FRAMES_IN = (
    "document.addEventListener('htmx:wsAfterMessage',"
    " () => { window.framesIn = (window.framesIn || 0) + 1; });"
)


async def after_first_frame(page, timeout: float = 30_000) -> None:
    """The socket's first frame has redrawn the table: what is measured or chosen now stays."""
    await page.wait_for_function("() => window.framesIn > 0", timeout=timeout)


async def log_in(page, server, username):
    await page.goto(f"{server.url}/accounts/login/")
    await page.fill("#id_username", username)
    await page.fill("#id_password", PASSWORD)
    await page.click("main form button[type=submit]")
    await page.wait_for_load_state()


async def without_javascript(chromium, server, username, display_name, **options):
    """A new player signed up in a browser, then a browser context with scripts off that
    holds their session (the caller closes it); `options` go to `new_context`."""
    context = await chromium.new_context(**options)
    try:
        await sign_up(await context.new_page(), server, username, display_name)
        cookies = await context.cookies()
    finally:
        await context.close()
    context = await chromium.new_context(**options, java_script_enabled=False)
    await context.add_cookies(cookies)
    return context


class GameReader:
    """A game's state in the database, through a `manage.py shell` of the server's running
    `script`: it reads a table id a line and prints the state as a line `STATE <json>`."""

    def __init__(self, server, script: str):
        self.server = server
        self.script = script
        self.process = None

    async def start(self):
        self.process = await asyncio.create_subprocess_exec(
            sys.executable,
            "manage.py",
            "shell",
            "--no-imports",
            "-c",
            self.script,
            cwd=live.ROOT,
            env=self.server.env,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
        )

    async def read(self, table_id: int) -> dict:
        self.process.stdin.write(f"{table_id}\n".encode())
        await self.process.stdin.drain()
        while True:
            line = await asyncio.wait_for(self.process.stdout.readline(), 30)
            assert line, "the state reader stopped"
            if line.startswith(b"STATE "):
                return json.loads(line[len(b"STATE ") :])

    async def stop(self):
        if self.process and self.process.returncode is None:
            self.process.stdin.close()
            try:
                await asyncio.wait_for(self.process.wait(), 10)
            except TimeoutError:
                self.process.kill()
                await self.process.wait()
