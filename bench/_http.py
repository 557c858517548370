"""A small HTTP/1.1 client on asyncio streams, for the load generator's logins and forms.

One connection per request (`Connection: close`), no redirects followed, cookies kept per
`Browser` by name only. Secure cookies are sent over plain HTTP on purpose: the benchmark
talks to daphne on loopback, where a production deployment's TLS proxy would sit in front.
"""

import asyncio
import contextlib
import re
from dataclasses import dataclass, field
from urllib.parse import urlencode, urlsplit

CSRF_INPUT = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


class HttpError(Exception):
    pass


@dataclass
class Response:
    status: int
    headers: list[tuple[str, str]]
    body: bytes

    def header(self, name: str) -> str:
        name = name.lower()
        return next((value for key, value in self.headers if key.lower() == name), "")

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", "replace")


@dataclass
class Browser:
    """One user's cookies against one server (`base` is http://127.0.0.1:PORT)."""

    base: str
    cookies: dict[str, str] = field(default_factory=dict)
    timeout: float = 60.0

    @property
    def origin(self) -> str:
        return self.base

    def cookie_header(self) -> str:
        return "; ".join(f"{name}={value}" for name, value in self.cookies.items())

    async def request(self, method: str, path: str, form: dict | None = None, headers=None):
        parts = urlsplit(self.base)
        body = urlencode(form or {}).encode() if method == "POST" else b""
        lines = [
            f"{method} {path} HTTP/1.1",
            f"Host: {parts.netloc}",
            "Connection: close",
            "User-Agent: sixclub-ws-load",
            f"Origin: {self.origin}",
        ]
        if self.cookies:
            lines.append(f"Cookie: {self.cookie_header()}")
        if method == "POST":
            lines.append("Content-Type: application/x-www-form-urlencoded")
            lines.append(f"Content-Length: {len(body)}")
        for name, value in (headers or {}).items():
            lines.append(f"{name}: {value}")
        raw = ("\r\n".join(lines) + "\r\n\r\n").encode() + body
        response = await asyncio.wait_for(
            self._exchange(parts.hostname, parts.port, raw), self.timeout
        )
        for name, value in response.headers:
            if name.lower() == "set-cookie":
                pair = value.split(";", 1)[0]
                key, _, val = pair.partition("=")
                self.cookies[key.strip()] = val.strip()
        return response

    async def _exchange(self, host, port, raw: bytes) -> Response:
        reader, writer = await asyncio.open_connection(host, port)
        try:
            writer.write(raw)
            await writer.drain()
            head = await reader.readuntil(b"\r\n\r\n")
            status_line, *header_lines = head.decode("latin-1").split("\r\n")
            status = int(status_line.split(" ", 2)[1])
            headers = []
            for line in header_lines:
                if ":" in line:
                    key, value = line.split(":", 1)
                    headers.append((key.strip(), value.strip()))
            length = next((v for k, v in headers if k.lower() == "content-length"), None)
            body = await (reader.readexactly(int(length)) if length else reader.read())
            return Response(status, headers, body)
        finally:
            writer.close()
            with contextlib.suppress(OSError):
                await writer.wait_closed()

    async def get(self, path: str, headers=None) -> Response:
        return await self.request("GET", path, headers=headers)

    async def post(self, path: str, form: dict | None = None, headers=None) -> Response:
        return await self.request("POST", path, form=form, headers=headers)

    async def login(self, username: str, password: str) -> None:
        page = await self.get("/accounts/login/")
        if page.status != 200:
            raise HttpError(f"GET /accounts/login/ answered {page.status}")
        match = CSRF_INPUT.search(page.text)
        token = match.group(1) if match else self.cookies.get("csrftoken", "")
        answer = await self.post(
            "/accounts/login/",
            {"username": username, "password": password, "csrfmiddlewaretoken": token},
        )
        if answer.status != 302 or "sessionid" not in self.cookies:
            raise HttpError(f"login of {username} failed: HTTP {answer.status}")

    async def htmx_post(self, path: str, form: dict | None = None) -> str:
        """POST like the table page's htmx forms; returns the notice's data-code ('' = ok)."""
        answer = await self.post(
            path,
            form,
            headers={"X-CSRFToken": self.cookies.get("csrftoken", ""), "HX-Request": "true"},
        )
        if answer.status != 200:
            raise HttpError(f"POST {path} answered {answer.status}")
        match = re.search(r'data-code="([^"]*)"', answer.text)
        return match.group(1) if match else ""
