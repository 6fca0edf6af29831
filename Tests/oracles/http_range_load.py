#!/usr/bin/python3
"""Load client for `disckit serve`: CLIENTS threads, each on its own keep-alive connection, send
REQUESTS single-range GETs (random a-b, a- and -n ranges from a seeded generator) to URL and check
every byte against FILE (the same title extracted by `disckit extract`). Prints JSON:
  {"requests": N, "wrong": N, "statuses": {"206": N, ...}, "errors": [...]}
usage: http_range_load.py URL FILE CLIENTS REQUESTS SEED [MAXLEN]
"""
import http.client
import json
import random
import sys
import threading
import urllib.parse

url, path = sys.argv[1], sys.argv[2]
clients, requests, seed = int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
max_length = int(sys.argv[6]) if len(sys.argv) > 6 else 1 << 20
with open(path, "rb") as f:
    expected = f.read()
size = len(expected)
parsed = urllib.parse.urlsplit(url)
target = parsed.path + ("?" + parsed.query if parsed.query else "")
lock = threading.Lock()
totals = {"requests": 0, "wrong": 0, "statuses": {}, "errors": []}


def client(index):
    rng = random.Random(seed * 1000 + index)
    conn = http.client.HTTPConnection(parsed.hostname, parsed.port, timeout=120)
    for _ in range(requests):
        kind = rng.randrange(3)
        if kind == 0:
            a = rng.randrange(size)
            b = min(size - 1, a + rng.randrange(max_length))
            header, lo, hi = f"bytes={a}-{b}", a, b + 1
        elif kind == 1:
            a = rng.randrange(max(1, size - max_length), size)
            header, lo, hi = f"bytes={a}-", a, size
        else:
            n = 1 + rng.randrange(max_length)
            header, lo, hi = f"bytes=-{n}", max(0, size - n), size
        try:
            conn.request("GET", target, headers={"Range": header})
            response = conn.getresponse()
            body = response.read()
            status = response.status
            ok = status == 206 and body == expected[lo:hi] and \
                response.getheader("Content-Range") == f"bytes {lo}-{hi - 1}/{size}"
        except Exception as error:  # noqa: BLE001
            status, ok = 0, False
            with lock:
                totals["errors"].append(f"{header}: {error}")
            conn.close()
            conn = http.client.HTTPConnection(parsed.hostname, parsed.port, timeout=120)
        with lock:
            totals["requests"] += 1
            totals["statuses"][str(status)] = totals["statuses"].get(str(status), 0) + 1
            if not ok:
                totals["wrong"] += 1
    conn.close()


threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
for t in threads:
    t.start()
for t in threads:
    t.join()
totals["errors"] = totals["errors"][:10]
print(json.dumps(totals))
