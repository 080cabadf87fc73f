"""A phone's first load, as served over real HTTP to a browser that takes brotli: the
phone page of a Go Big table of six and every file it references, under 40 KB in all,
and nothing fetched from anywhere but this server. The page loads the script made small
from static/app.js (`make install`), and that script is static/app.js's, made again since
it last changed."""
from __future__ import annotations

import gzip
import re
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import brotli
import requests

from tests.support.api import Api

ROOT = Path(__file__).resolve().parents[2]
BUDGET = 40 * 1024
REFERENCE = re.compile(r'<(?:script|link|img|source|audio|video)\b[^>]*?\b(?:src|href)="([^"]+)"')
IN_CSS = re.compile(r"""url\(\s*['"]?([^'")]+)|@import\s+['"]([^'"]+)""")


def served(session: requests.Session, url: str) -> tuple[int, bytes]:
    """(bytes as sent, the body decoded)."""
    response = session.get(url, headers={"Accept-Encoding": "gzip, deflate, br"},
                           stream=True, timeout=10)
    assert response.status_code == 200, url
    sent = response.raw.read(decode_content=False)
    coding = response.headers.get("Content-Encoding")
    return len(sent), (brotli.decompress(sent) if coding == "br" else
                       gzip.decompress(sent) if coding == "gzip" else sent)


def test_a_phones_first_load_stays_under_40_kb_from_this_server_alone(live_server):
    api = Api(live_server.url)
    table = api.table(players=("Ann", "Ben", "Cat", "Dan", "Eve", "Fay"))
    session = requests.Session()
    session.cookies.set(f"companion_{table.code}", table.tokens["Ann"])
    page_url = f"{live_server.url}/t/{table.code}"
    total, page = served(session, page_url)
    html = page.decode()
    origin = urlsplit(live_server.url).netloc
    loaded = {}
    for reference in REFERENCE.findall(html):
        url = urljoin(page_url, reference)
        assert urlsplit(url).netloc == origin, url
        size, body = served(session, url)
        loaded[urlsplit(url).path] = size
        if url.split("?")[0].endswith(".css"):
            for inner in (a or b for a, b in IN_CSS.findall(body.decode())):
                if not inner.startswith("data:"):
                    inner_url = urljoin(url, inner)
                    assert urlsplit(inner_url).netloc == origin, inner_url
                    loaded[urlsplit(inner_url).path] = served(session, inner_url)[0]
    total += sum(loaded.values())
    assert total < BUDGET, (total, loaded)
    assert "/static/vendor/app.js" in loaded and "/static/app.js" not in loaded


def test_the_script_pages_load_is_made_from_static_app_js_as_it_is_now():
    made = ROOT / "static" / "vendor" / "app.js"
    source = ROOT / "static" / "app.js"
    assert made.stat().st_mtime >= source.stat().st_mtime, "run make install"
    assert len(made.read_bytes()) < len(source.read_bytes()) / 2
