"""Render deploy/nginx/sixclub.conf (and, with --standalone, nginx's own configuration).

    python3 deploy/nginx/render.py --upstream 8001 --upstream 8002 \
        --listen 80 --server-name club.example.org > /etc/nginx/sites-available/sixclub
    python3 deploy/nginx/render.py --upstream 8001 --upstream 8002 --listen 8000 \
        --standalone /tmp/sixclub-run   # writes nginx.conf and sixclub.conf there

An upstream is a daphne port on 127.0.0.1, HOST:PORT or unix:/path. Standard library only.
"""

import argparse
import sys
from pathlib import Path
from string import Template

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]


def _fill(template: Path, values: dict) -> str:
    text = Template(template.read_text()).safe_substitute(values)
    if "${" in text:  # nginx's own variables are written $name, never ${name}
        raise SystemExit(f"{template.name}: a placeholder is left: {text[text.index('${') :][:40]}")
    return text


def site(
    *, upstreams: list[str], listen: str, server_name: str = "_", static_root: str = ""
) -> str:
    """The site file: upstreams, routing by table, static files."""
    addresses = [f"127.0.0.1:{u}" if u.isdigit() else u for u in upstreams]
    if not addresses:
        raise SystemExit("at least one --upstream is needed")
    return _fill(
        HERE / "sixclub.conf",
        {
            "SERVERS": "\n".join(f"    server {address};" for address in addresses),
            "LISTEN": listen,
            "SERVER_NAME": server_name,
            "STATIC_ROOT": (static_root or str(ROOT / "staticfiles")).rstrip("/"),
        },
    )


def standalone(folder: Path, **site_options) -> Path:
    """nginx.conf and sixclub.conf in `folder` (with its logs, pid and temporary files);
    returns the path of nginx.conf."""
    folder = folder.resolve()
    (folder / "tmp").mkdir(parents=True, exist_ok=True)
    (folder / "sixclub.conf").write_text(site(**site_options))
    main = folder / "nginx.conf"
    main.write_text(_fill(HERE / "standalone.conf", {"RUN": str(folder)}))
    return main


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--upstream", action="append", default=[], help="repeatable")
    parser.add_argument("--listen", default="80", help="nginx's listen (default 80)")
    parser.add_argument("--server-name", default="_")
    parser.add_argument("--static-root", default="", help="default: the checkout's staticfiles")
    parser.add_argument("--standalone", type=Path, metavar="FOLDER")
    args = parser.parse_args(argv)
    options = {
        "upstreams": args.upstream,
        "listen": args.listen,
        "server_name": args.server_name,
        "static_root": args.static_root,
    }
    if args.standalone:
        print(standalone(args.standalone, **options))
    else:
        sys.stdout.write(site(**options))
    return 0


if __name__ == "__main__":
    sys.exit(main())
