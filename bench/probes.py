"""What the server costs apart from the actions: the floor of a trivial request, the CPU
of one request of each kind, and the phone page's first load."""
from __future__ import annotations

import asyncio
import gzip
import random
import re
from urllib.parse import urljoin, urlparse

import brotli

from figures import pct
from httpc import Client, HttpError, now
from load import Bench
from phones import SEATS, BenchError, choose


async def floor(bench: Bench, label: str, seconds: float, concurrency: int) -> dict:
    """`GET /static/app.js` (no database, no template): one at a time (latency), then
    `concurrency` at once (rate)."""
    path = "/static/app.js"
    single = Client(bench.host, bench.port, max_conns=1)
    latencies = []
    end = now() + seconds / 2
    while now() < end:
        t0 = now()
        response = await single.request("GET", path)
        latencies.append(now() - t0)
        assert response.status == 200
    single.close()
    count = 0
    errors = 0
    cpu0 = bench.server.cpu_seconds()
    end = now() + seconds / 2
    started = now()

    async def worker() -> None:
        nonlocal count, errors
        client = Client(bench.host, bench.port, max_conns=1)
        while now() < end:
            try:
                response = await client.request("GET", path)
                count += response.status == 200
                errors += response.status != 200
            except HttpError:
                errors += 1
        client.close()
    await asyncio.gather(*(worker() for _ in range(concurrency)))
    elapsed = now() - started
    result = {"p50": pct(latencies, 50), "p99": pct(latencies, 99),
              "rate": count / elapsed, "errors": errors, "concurrency": concurrency,
              "cpu_per_request": (bench.server.cpu_seconds() - cpu0) / max(1, count)}
    bench.floors[label] = result
    print(f"  floor {label}: GET {path} p50 {result['p50'] * 1000:.2f} ms, p99 "
          f"{result['p99'] * 1000:.2f} ms; {result['rate']:.0f} requests/s at "
          f"{concurrency} at once", flush=True)
    return result


async def pauses(bench: Bench, count: int = 300, gaps=(0.0, 0.005, 0.02)) -> dict:
    """The server CPU of one trivial request (`GET /static/app.js`), sent back to back
    and then with a pause before each: on a machine whose idle cores lose their caches
    or their clock, the same work costs more after a pause, and so does every request
    and update of a phase, where the server waits between moves."""
    path = "/static/app.js"
    client = Client(bench.host, bench.port, max_conns=1)
    for _ in range(50):
        await client.request("GET", path)
    costs = {}
    for gap in gaps:
        cpu0 = bench.server.cpu_seconds()
        for _ in range(count):
            if gap:
                await asyncio.sleep(gap)
            response = await client.request("GET", path)
            assert response.status == 200
        costs[gap] = (bench.server.cpu_seconds() - cpu0) / count
    client.close()
    bench.pauses = costs
    print("  a request's server CPU after a pause: " + ", ".join(
        f"{cpu * 1000:.2f} ms " + (f"{gap * 1000:g} ms apart" if gap else "back to back")
        for gap, cpu in costs.items()), flush=True)
    return costs


async def request_costs(bench: Bench, count: int = 150) -> dict:
    """With streams held and no actions running: the server CPU of `count` requests of
    each kind one after another, less the idle CPU; then of an action on a table nobody
    streams."""
    group = next(g for g in bench.groups if g.playing and not g.in_flight)
    api = next((p for p in group.phones if p.kind == "api"), group.phones[0])
    html = next((p for p in group.phones if p.kind == "html"), group.phones[0])
    html_headers = {"Cookie": f"companion_{group.code}={html.token}", "HX-Request": "true"}
    client = Client(bench.host, bench.port, max_conns=1)
    cpu0, t0 = bench.server.cpu_seconds(), now()
    await asyncio.sleep(3.0)
    idle_rate = (bench.server.cpu_seconds() - cpu0) / (now() - t0)
    kinds = {
        "static file": ("/static/app.js", {}),
        "API view (JSON)": (f"/api/v1/tables/{group.code}",
                            {"Authorization": f"Bearer {api.token}"}),
        "phone panel (HTML)": (f"/t/{group.code}/panel?screen=phone&since=-1",
                               html_headers),
        "panel, unchanged (204)": (
            f"/t/{group.code}/panel?screen=phone&since={group.version}", html_headers),
    }
    costs = {}
    for label, (path, headers) in kinds.items():
        latencies = []
        cpu0, t0 = bench.server.cpu_seconds(), now()
        for _ in range(count):
            started = now()
            response = await client.request("GET", path, headers)
            latencies.append(now() - started)
            if response.status not in (200, 204):
                raise BenchError(f"{label}: {response.status}")
        spent = bench.server.cpu_seconds() - cpu0 - idle_rate * (now() - t0)
        costs[label] = {"cpu_ms": 1000 * max(0.0, spent) / count,
                        "p50_ms": 1000 * pct(latencies, 50),
                        "bytes": len(response.body)}
    # an action, on a table of its own that nobody streams: (view + action) pairs,
    # less the views' cost measured above
    created = await bench.call(client, "POST", "/api/v1/tables", None,
                              {"game": "go-big", "options": {"copies_per_value": 20}}, 201)
    code, host = created["code"], created["host_token"]
    tokens = {}
    for seat in range(SEATS):
        joined = await bench.call(client, "POST", f"/api/v1/tables/{code}/players", None,
                                 {"name": f"Cost {seat}"}, 201)
        tokens[joined["player"]["id"]] = joined["token"]
    turn = (await bench.call(client, "POST", f"/api/v1/tables/{code}/start", host,
                            {"seed": 5}))["turn"]
    rng = random.Random(5)
    latencies = []
    actions = 60
    cpu0, t0 = bench.server.cpu_seconds(), now()
    for n in range(actions):
        view = await bench.call(client, "GET", f"/api/v1/tables/{code}", tokens[turn])
        action = dict(choose(view["actions"], rng), action_id=f"cost-{n}")
        started = now()
        answer = await bench.call(client, "POST", f"/api/v1/tables/{code}/actions",
                                 tokens[turn], action)
        latencies.append(now() - started)
        turn = answer["table"]["turn"]
    spent = bench.server.cpu_seconds() - cpu0 - idle_rate * (now() - t0)
    spent -= actions * costs["API view (JSON)"]["cpu_ms"] / 1000
    costs["action (nobody listening)"] = {"cpu_ms": 1000 * max(0.0, spent) / actions,
                                          "p50_ms": 1000 * pct(latencies, 50),
                                          "bytes": 0}
    client.close()
    bench.request_cost = {"idle_cpu_percent": 100 * idle_rate / 2,
                         "streams": bench.streams_open, "requests": costs}
    print(f"  idle with {bench.streams_open} streams: server CPU {100 * idle_rate / 2:.1f}% "
          f"of 2 cores; per request: " + ", ".join(
              f"{k} {v['cpu_ms']:.2f} ms CPU" for k, v in costs.items()), flush=True)
    return bench.request_cost


async def first_load(bench: Bench) -> dict:
    """The phone page and everything it references, as served (brotli or gzip, as a phone
    asks for either) and were it gzipped
    (what the server gzipped is measured again as its plain text gzipped), and any URL
    that leaves the server."""
    group = next(g for g in bench.groups if g.playing)
    phone = next(p for p in group.phones if p.kind == "html") if any(
        p.kind == "html" for p in group.phones) else group.phones[0]
    origin = f"http://{bench.host}:{bench.port}"
    page_path = f"/t/{group.code}"
    headers = {"Cookie": f"companion_{group.code}={phone.token}",
               "Accept-Encoding": "gzip, deflate, br"}
    client = Client(bench.host, bench.port, max_conns=1)
    items = []

    async def load(url: str, kind: str) -> bytes:
        response = await client.request("GET", urlparse(url).path or "/", headers)
        body = response.body
        encoding = response.headers.get("content-encoding", "")
        plain = (gzip.decompress(body) if encoding == "gzip"
                 else brotli.decompress(body) if encoding == "br" else body)
        items.append({"url": urlparse(url).path, "kind": kind, "status": response.status,
                      "served_bytes": len(body), "encoding": encoding or "identity",
                      "raw_bytes": len(plain),
                      "gzip_bytes": len(gzip.compress(plain, 6)),
                      "cache_control": response.headers.get("cache-control", "")})
        return plain
    html = (await load(origin + page_path, "html")).decode()
    references = re.findall(
        r"<(?:script|link|img|iframe|source|audio|video)\b[^>]*?\b(?:src|href)=\"([^\"]+)\"",
        html)
    outside = []
    for ref in references:
        url = urljoin(origin + page_path, ref)
        if urlparse(url).netloc != urlparse(origin).netloc:
            outside.append(url)
            continue
        kind = "css" if ref.endswith(".css") else "js" if ref.endswith(".js") else "other"
        body = await load(url, kind)
        if kind == "css":
            for inner in re.findall(r"url\(\s*['\"]?([^'\")]+)", body.decode()) + \
                    re.findall(r"@import\s+['\"]([^'\"]+)", body.decode()):
                if inner.startswith("data:"):
                    continue
                inner_url = urljoin(url, inner)
                if urlparse(inner_url).netloc != urlparse(origin).netloc:
                    outside.append(inner_url)
                else:
                    await load(inner_url, "css-asset")
    client.close()
    # what the page opens by itself once loaded: its stream (which pushes a panel
    # only when the table changed since the page was served)
    stream = re.search(r'sse-connect="([^"]+)"', html)
    bench.first_load = {
        "items": items, "outside": outside,
        "requests": len(items) + (1 if stream else 0),
        "served_total": sum(i["served_bytes"] for i in items),
        "gzip_total": sum(i["gzip_bytes"] for i in items),
        "raw_total": sum(i["raw_bytes"] for i in items),
        "served_gzip": all(i["encoding"] == "gzip" for i in items),
        # the server leaves files under 512 bytes and images as they are
        "gzipped_count": sum(i["encoding"] == "gzip" for i in items),
    }
    fl = bench.first_load
    print(f"  first load: {fl['requests']} requests, {fl['served_total'] / 1024:.1f} KB as "
          f"served ({fl['gzipped_count']} of {len(items)} files gzipped), "
          f"{fl['gzip_total'] / 1024:.1f} KB if gzipped; outside: {outside or 'none'}",
          flush=True)
    return bench.first_load
