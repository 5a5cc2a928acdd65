#!/usr/bin/env python3
"""`dreamwatch export-otel` against a real backend people run: Arize Phoenix.

    cargo build
    python3 benches/otel_phoenix.py [--bin target/debug/dreamwatch] [--venv DIR]
                                    [--fixture tests/fixtures/openseed/feb24-moss/creature]
                                    [--screenshot FILE]

Makes a virtualenv (default: a temp dir; --venv keeps one) and pip-installs arize-phoenix
in it, starts `phoenix serve` on free ports of 127.0.0.1 (its data in a temp dir), runs
`dreamwatch export-otel` on a copy of a fixture creature with OTEL_EXPORTER_OTLP_ENDPOINT
pointing at Phoenix's OTLP/HTTP, then reads the spans back through Phoenix's REST API
(`GET /v1/projects/default/spans`) and prints them: how many of each name, and each
trace's tree for the first wakes. Exits 1 when Phoenix has not got the spans.
With --screenshot, a headless Chromium (`chromium` on the PATH, or --chromium) saves a PNG
of Phoenix's page of the first wake's trace (the `invoke_agent` span and its children).

Not a test of the suite: it downloads Phoenix and takes minutes.
"""
import argparse
import collections
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get(url):
    with urllib.request.urlopen(url, timeout=10) as r:
        return json.loads(r.read() or b"null")


def venv_python(venv):
    python = os.path.join(venv, "bin", "python")
    if not os.path.exists(python):
        subprocess.check_call([sys.executable, "-m", "venv", venv])
    phoenix = os.path.join(venv, "bin", "phoenix")
    if not os.path.exists(phoenix):
        print("installing arize-phoenix (a few minutes)...", flush=True)
        subprocess.check_call([python, "-m", "pip", "install", "-q", "arize-phoenix"])
    return phoenix


def wait_up(base, proc, limit=180):
    began = time.time()
    while time.time() - began < limit:
        if proc.poll() is not None:
            sys.exit(f"phoenix serve ended ({proc.returncode})")
        try:
            urllib.request.urlopen(base + "/healthz", timeout=2)
            return
        except Exception:
            time.sleep(1)
    sys.exit("phoenix serve did not come up")


def spans_of(base, limit=60):
    began = time.time()
    last = []
    while time.time() - began < limit:
        try:
            got = get(base + "/v1/projects/default/spans?limit=1000")
            last = got.get("data", []) if isinstance(got, dict) else []
        except Exception as e:  # not there yet
            print(f"  (waiting: {e})", flush=True)
        if last:
            time.sleep(2)  # let the rest land
            got = get(base + "/v1/projects/default/spans?limit=1000")
            return got.get("data", [])
        time.sleep(1)
    return last


def screenshot(base, spans, out, chromium):
    """Saves a PNG of Phoenix's trace page of the first wake that has children."""
    parents = {s.get("parent_id") for s in spans}
    wakes = sorted(
        (s for s in spans if s["name"].startswith("invoke_agent")
         and s["context"]["span_id"] in parents),
        key=lambda s: s["start_time"],
    )
    if not wakes:
        sys.exit("no wake with children to picture")
    project = get(base + "/v1/projects")["data"][0]["id"]
    url = f"{base}/projects/{project}/traces/{wakes[0]['context']['trace_id']}"
    profile = tempfile.mkdtemp(prefix="dreamwatch-chromium-")
    try:
        subprocess.run(
            [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
             "--no-first-run", "--disable-background-networking",
             "--disable-component-update", "--disable-sync", f"--user-data-dir={profile}",
             "--window-size=1400,900", "--virtual-time-budget=15000",
             f"--screenshot={os.path.abspath(out)}", url],
            check=True, capture_output=True, timeout=120,
        )
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    print(f"\nscreenshot of {url}: {out}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=os.path.join(ROOT, "target/debug/dreamwatch"))
    ap.add_argument("--venv")
    ap.add_argument(
        "--fixture", default=os.path.join(ROOT, "tests/fixtures/openseed/feb24-moss/creature")
    )
    ap.add_argument("--screenshot", metavar="FILE",
                    help="save a PNG of Phoenix's page of the first wake's trace")
    ap.add_argument("--chromium", default="chromium")
    args = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="dreamwatch-phoenix-")
    phoenix = venv_python(args.venv or os.path.join(tmp, "venv"))
    port, grpc = free_port(), free_port()
    env = dict(os.environ, PHOENIX_PORT=str(port), PHOENIX_GRPC_PORT=str(grpc),
               PHOENIX_HOST="127.0.0.1", PHOENIX_WORKING_DIR=os.path.join(tmp, "phoenix"))
    log = open(os.path.join(tmp, "phoenix.log"), "w")
    proc = subprocess.Popen([phoenix, "serve"], env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_up(base, proc)
        print(f"phoenix serve on {base}", flush=True)
        creature = os.path.join(tmp, "moss")
        shutil.copytree(args.fixture, creature)
        run_env = dict(os.environ, OTEL_EXPORTER_OTLP_ENDPOINT=base,
                       DREAMWATCH_EXPORT_CURSORS=os.path.join(tmp, "cursors"))
        began = time.time()
        out = subprocess.run([args.bin, "export-otel", creature], env=run_env,
                             capture_output=True, text=True)
        print(out.stderr.strip())
        print(f"export-otel: exit {out.returncode} in {time.time() - began:.2f} s", flush=True)
        if out.returncode != 0:
            sys.exit(1)
        spans = spans_of(base)
        if not spans:
            sys.exit("Phoenix has no span")
        names = collections.Counter(s["name"].split(" ")[0] for s in spans)
        print(f"\nPhoenix has {len(spans)} span(s):")
        for name, n in names.most_common():
            print(f"  {n:5}  {name}")
        by_parent = collections.defaultdict(list)
        for s in spans:
            by_parent[s.get("parent_id")].append(s)
        roots = sorted(
            (s for s in spans if not s.get("parent_id")), key=lambda s: s["start_time"]
        )
        print("\nthe first traces, as Phoenix has them:")
        for root in roots[:3]:
            attrs = root.get("attributes", {})
            print(f"  {root['start_time']}  {root['name']}  "
                  f"agent={attrs.get('gen_ai.agent.name')}")
            for child in sorted(by_parent[root["context"]["span_id"]],
                                key=lambda s: s["start_time"])[:8]:
                a = child.get("attributes", {})
                print(f"      {child['name']}  ok={a.get('dreamwatch.tool.ok')} "
                      f"ms={a.get('dreamwatch.tool.duration_ms')}")
        if args.screenshot:
            screenshot(base, spans, args.screenshot, args.chromium)
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()
        if not args.venv:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
