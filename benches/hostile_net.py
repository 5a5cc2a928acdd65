#!/usr/bin/env python3
"""What a hostile OpenSeed orchestrator or far side can do to the observatory: peak
memory on huge answers, keys and signals under a flood of far creatures, the size of a
far garden's copy on disk.

    cargo build --release
    python3 benches/hostile_net.py [--bin PATH] [--case NAME ...] [--scale 1.0]

Everything is on this machine: the orchestrator is an HTTP server on 127.0.0.1, the far
side a stand-in for ssh (`DREAMWATCH_SSH` names this script, which speaks the wire
protocol itself). The observatory runs in a 200x60 pseudo-terminal with an empty home.

Cases (`--scale` multiplies the sizes and counts, for a quick run):
  creatures-1g   GET /api/creatures answers 1 GiB (chunked, no length)      peak RSS
  error-500m     GET /api/events answers 500 with a 500 MB body              peak RSS
  sse-line-300m  the event stream sends one 300 MB line with no newline      peak RSS
  sse-data-300   the event stream sends 300 `data:` lines of 1 MB, no end    peak RSS
  far-20000      a far side reports 20,000 creatures, then q (then SIGTERM)  seconds to exit, peak RSS
  far-6000       a far side reports 6,000 creatures                          seconds to the first row
  mirror-400m    a far side appends 400 MB to one log                        the copy's size on disk

Peak RSS is VmHWM of /proc/PID/status once the server has sent all (or the observatory
hung up), plus one second. Run by hand; it is not part of the test suite.
"""
import argparse
import http.server
import json
import os
import shutil
import signal
import socketserver
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from garden import drain, status_kib  # noqa: E402
from latency import FRAME_END, read_until, spawn  # noqa: E402

HERE = os.path.abspath(__file__)
ROOT = os.path.dirname(os.path.dirname(HERE))
MB = 1_000_000
MIB = 1 << 20


# ---- the far side (run as `ssh` by the observatory) -------------------------------------

def far_side(kind, count, size):
    """Speaks the wire protocol on stdout; the near side's lines on stdin are ignored."""
    out = sys.stdout.buffer
    if kind == "silent":
        sys.stdin.buffer.read()
        return
    out.write(b'{"t":"hello","protocol":2,"version":"0.0.0","system":"Linux x86_64"}\n')
    if kind == "creatures":
        for i in range(count):
            out.write(b'{"t":"creature","id":"c%d","path":"/far/c%d"}\n' % (i, i))
            out.write(b'{"t":"file","id":"c%d","file":"BIRTH.json","op":"put","base":0,"size":2,"data":"{}"}\n' % i)
        out.write(b'{"t":"ready"}\n')
    elif kind == "appends":
        out.write(b'{"t":"creature","id":"sprout","path":"/far/sprout"}\n{"t":"ready"}\n')
        line = ("{\\\"role\\\":\\\"user\\\",\\\"content\\\":\\\"" + "w" * 4000 + "\\\"}\\n").encode()
        per = (MB // len(line)) or 1
        chunk = b'{"t":"file","id":"sprout","file":".self/conversation.jsonl","op":"append","data":"' + line * per + b'"}\n'
        sent = 0
        while sent < size:
            out.write(chunk)
            sent += per * (len(line) - 9)  # the bytes on disk (the escapes undone)
        out.flush()
        with open(os.environ["HOSTILE_DONE"], "w") as f:
            f.write(str(sent))
    out.flush()
    # Ends when the near side does (its stdin closes), as a real far side does.
    sys.stdin.buffer.read()


# ---- the orchestrator ----------------------------------------------------------------

class Hostile(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # chunked answers
    case = None
    size = 0
    done = threading.Event()

    def log_message(self, *args):
        pass

    def chunk(self, data):
        self.wfile.write(b"%x\r\n" % len(data) + data + b"\r\n")

    def stream(self, status, ctype, pieces, hostile=True):
        self.send_response(status)
        self.send_header("content-type", ctype)
        self.send_header("transfer-encoding", "chunked")
        self.end_headers()
        try:
            for p in pieces:
                self.chunk(p)
            if hostile:
                Hostile.done.set()
            time.sleep(3600)
        except (BrokenPipeError, ConnectionResetError):
            if hostile:
                Hostile.done.set()

    def whole(self, body):
        data = json.dumps(body).encode()
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        case, size = Hostile.case, Hostile.size
        piece = b"x" * MIB
        if self.path == "/api/events":
            if case == "error-500m":
                return self.stream(500, "text/plain", (piece for _ in range(size // MIB)))
            if case == "sse-line-300m":
                return self.stream(200, "text/event-stream", [b"data: "] + [piece] * (size // MIB))
            if case == "sse-data-300":
                line = b"data: " + b"y" * MB + b"\n"
                return self.stream(200, "text/event-stream", [line] * (size // MB))
            return self.stream(200, "text/event-stream", [b": open\n\n"], hostile=False)
        if self.path == "/api/creatures":
            if case == "creatures-1g":
                return self.stream(200, "application/json", [b"["] + [b" " * MIB] * (size // MIB))
            return self.whole([])
        if self.path == "/api/usage":
            return self.whole({"usage": {}, "total": 0})
        self.send_response(404)
        self.end_headers()


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True


# ---- measuring ------------------------------------------------------------------------

def env_for(home):
    return dict(
        os.environ, HOME=home, XDG_CONFIG_HOME=os.path.join(home, ".config"),
        XDG_CACHE_HOME=os.path.join(home, ".cache"), XDG_STATE_HOME=os.path.join(home, ".state"),
        TERM="xterm-256color",
    )


def stop(pid, fd):
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    try:
        os.waitpid(pid, 0)
    except ChildProcessError:
        pass
    os.close(fd)


def openseed_case(binary, case, size, home):
    Hostile.case, Hostile.size = case, size
    Hostile.done.clear()
    server = Server(("127.0.0.1", 0), Hostile)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    garden = os.path.join(home, "garden")
    os.makedirs(garden, exist_ok=True)
    url = f"http://127.0.0.1:{server.server_address[1]}"
    pid, fd = spawn([binary, "--openseed", url, garden], env_for(home), cols=200, rows=60)
    try:
        t0 = time.perf_counter()
        while not Hostile.done.is_set() and time.perf_counter() - t0 < 300:
            drain(fd, 0.2)
        drain(fd, 1)
        return f"peak RSS {status_kib(pid, 'VmHWM') / 1024:.0f} MiB ({time.perf_counter() - t0:.1f} s)"
    finally:
        stop(pid, fd)
        server.shutdown()


def far_env(home, kind, count=0, size=0):
    env = env_for(home)
    env["DREAMWATCH_SSH"] = f"{sys.executable} {HERE} --far {kind} {count} {size}"
    env["HOSTILE_DONE"] = os.path.join(home, "done")
    return env


def exits_within(pid, seconds):
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        done, _ = os.waitpid(pid, os.WNOHANG)
        if done:
            return time.perf_counter() - t0
        time.sleep(0.02)
    return None


def far_flood(binary, count, home):
    """q after 5 s of the flood, then SIGTERM; how long each took to end it."""
    out = []
    for how in ("q", "SIGTERM"):
        # A home of its own: no copy left by the run before to sweep.
        run_home = os.path.join(home, how)
        os.makedirs(run_home)
        pid, fd = spawn([binary, "ssh://bench/garden"], far_env(run_home, "creatures", count), cols=200, rows=60)
        try:
            drain(fd, 5)
            hwm = status_kib(pid, "VmHWM") / 1024
            if how == "q":
                os.write(fd, b"q")
            else:
                os.kill(pid, signal.SIGTERM)
            t0 = time.perf_counter()
            took = None
            while took is None and time.perf_counter() - t0 < 60:
                drain(fd, 0.05)
                done, _ = os.waitpid(pid, os.WNOHANG)
                if done:
                    took = time.perf_counter() - t0
            said = f"{took:.2f} s" if took is not None else "not within 60 s (killed)"
            out.append(f"{how}: {said}, peak RSS {hwm:.0f} MiB after 5 s")
            if took is not None:
                os.close(fd)
                continue
        except OSError:
            pass
        stop(pid, fd)
    return "; ".join(out)


def far_first_row(binary, count, home):
    """Seconds until the first far creature's row is on the screen (c0@...)."""
    pid, fd = spawn([binary, "ssh://bench/garden"], far_env(home, "creatures", count), cols=200, rows=60)
    try:
        t0 = time.perf_counter()
        try:
            read_until(fd, b"c0", 30)
            return f"first row after {time.perf_counter() - t0:.2f} s"
        except TimeoutError:
            return "no row within 30 s"
    finally:
        stop(pid, fd)


def mirror_case(binary, size, home):
    env = far_env(home, "appends", size=size)
    cache = os.path.join(home, ".cache")
    pid, fd = spawn([binary, "ssh://bench/garden"], env, cols=200, rows=60)
    try:
        t0 = time.perf_counter()
        biggest = 0
        while time.perf_counter() - t0 < 300:
            drain(fd, 0.5)
            used = du(cache)
            biggest = max(biggest, used)
            if os.path.exists(env["HOSTILE_DONE"]):
                drain(fd, 2)
                biggest = max(biggest, du(cache))
                break
        return f"copy on disk {du(cache) / MIB:.0f} MiB at the end, at most {biggest / MIB:.0f} MiB (of {size / MB:.0f} MB sent)"
    finally:
        stop(pid, fd)


def du(path):
    total = 0
    for d, _, files in os.walk(path):
        for f in files:
            try:
                total += os.lstat(os.path.join(d, f)).st_blocks * 512
            except OSError:
                pass
    return total


CASES = ["creatures-1g", "error-500m", "sse-line-300m", "sse-data-300", "far-20000", "far-6000", "mirror-400m"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", default=os.path.join(ROOT, "target/release/dreamwatch"))
    ap.add_argument("--case", action="append", choices=CASES)
    ap.add_argument("--scale", type=float, default=1.0)
    # Run as ssh: `--far KIND COUNT SIZE`, then ssh's own arguments (ignored).
    if len(sys.argv) > 4 and sys.argv[1] == "--far":
        return far_side(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
    args = ap.parse_args()
    if not os.path.exists(args.bin):
        sys.exit(f"{args.bin} missing: cargo build --release first (or give --bin)")
    s = args.scale
    for case in args.case or CASES:
        home = tempfile.mkdtemp(prefix="dreamwatch-hostile-net-")
        try:
            if case == "creatures-1g":
                said = openseed_case(args.bin, case, int(1024 * MIB * s), home)
            elif case == "error-500m":
                said = openseed_case(args.bin, case, int(500 * MB * s), home)
            elif case == "sse-line-300m":
                said = openseed_case(args.bin, case, int(300 * MB * s), home)
            elif case == "sse-data-300":
                said = openseed_case(args.bin, case, int(300 * MB * s), home)
            elif case == "far-20000":
                said = far_flood(args.bin, int(20000 * s), home)
            elif case == "far-6000":
                said = far_first_row(args.bin, int(6000 * s), home)
            else:
                said = mirror_case(args.bin, int(400 * MB * s), home)
        finally:
            shutil.rmtree(home, ignore_errors=True)
        print(f"{case:<14} {said}", flush=True)


if __name__ == "__main__":
    main()
