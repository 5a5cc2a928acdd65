#!/usr/bin/env python3
"""Hostile inputs of issue 26 (round two) that cost time or memory: what each costs the
release binary, for comparing builds.

    cargo build --release
    python3 benches/hostile_misc.py [--bin target/release/dreamwatch] [--only calendar,...]
        [--events 10000] [--lines 2000000] [--creatures 20000] [--keep DIR]

Cases, each made in a temp dir (standard-library Python only):
  calendar   an emergence creature whose .self/calendar.jsonl holds --events events whose
             RRULE never occurs (FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30): the time of
             `inspect` (text) and of `inspect --json`, and the observatory's: time to its
             first frame, then from `q` to its exit
  dialogues  an emergence creature whose .self/dialogues.jsonl holds --lines `said` lines,
             each with a partner of its own: `inspect --json`'s time and peak RSS
  garden     a garden of --creatures empty creatures (each a directory with an empty
             .self/): `inspect --json`'s time and peak RSS, and the observatory's peak RSS
             (VmHWM) once its first frame is drawn and two more seconds have passed

Peak RSS of `inspect` is the child's ru_maxrss (wait4); the observatory runs in a
pseudo-terminal (200x60) with an empty home (no user config), and is killed after a
timeout (--timeout, 300 s) if `q` does not end it. Figures are printed as JSON lines.
"""
import argparse
import json
import os
import shutil
import signal
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from latency import FRAME_END, drain, read_until, spawn  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
NEVER = "FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30"


def birth(path, name, genome):
    os.makedirs(os.path.join(path, ".self"), exist_ok=True)
    with open(os.path.join(path, "BIRTH.json"), "w") as f:
        json.dump({"id": name, "name": name, "born": "2026-11-22T08:00:00Z",
                   "genome": genome, "model": "rehearsal"}, f)


def make_calendar(base, events):
    c = os.path.join(base, "calendar", "never")
    birth(c, "never", "emergence")
    with open(os.path.join(c, ".self", "calendar.jsonl"), "w") as f:
        for i in range(events):
            f.write(json.dumps({"t": "2026-11-22T09:00:00Z", "op": "add", "id": f"ev{i}",
                                "at": "2026-11-23T06:30:00Z", "description": "never",
                                "recurrence": NEVER}) + "\n")
    return c


def make_dialogues(base, lines):
    c = os.path.join(base, "dialogues", "chatty")
    birth(c, "chatty", "emergence")
    with open(os.path.join(c, ".self", "dialogues.jsonl"), "w") as f:
        chunk = []
        for i in range(lines):
            chunk.append('{"op":"said","id":"d%d","with":"partner-%d","text":"hi"}\n' % (i, i))
            if len(chunk) == 100_000:
                f.write("".join(chunk))
                chunk = []
        f.write("".join(chunk))
    return c


def make_garden(base, creatures):
    g = os.path.join(base, "garden")
    for i in range(creatures):
        os.makedirs(os.path.join(g, f"c{i}", ".self"))
    return g


def env_for(home):
    env = {"HOME": home, "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "TERM": "xterm-256color",
           "XDG_CONFIG_HOME": os.path.join(home, ".config"),
           "XDG_STATE_HOME": os.path.join(home, ".state"),
           "XDG_CACHE_HOME": os.path.join(home, ".cache")}
    os.makedirs(home, exist_ok=True)
    return env


def run_inspect(binary, args, env, timeout):
    """Runs `inspect ARGS`, output to /dev/null: (seconds, peak RSS KiB, exit status)."""
    t0 = time.perf_counter()
    pid = os.fork()
    if pid == 0:
        fd = os.open(os.devnull, os.O_WRONLY)
        os.dup2(fd, 1)
        os.dup2(fd, 2)
        os.execve(binary, [binary, "inspect", *args], env)
    deadline = t0 + timeout
    while True:
        done, status, usage = os.wait4(pid, os.WNOHANG)
        if done:
            return round(time.perf_counter() - t0, 2), usage.ru_maxrss, os.waitstatus_to_exitcode(status)
        if time.perf_counter() > deadline:
            os.kill(pid, signal.SIGKILL)
            os.wait4(pid, 0)
            return None, None, "killed after timeout"
        time.sleep(0.01)


def status_kib(pid, field):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


def observatory(binary, path, env, timeout, settle=2.0):
    """The observatory on `path`: seconds to its first frame, its VmHWM (KiB) `settle`
    seconds later, and seconds from `q` to its exit (None: killed after `timeout`)."""
    t0 = time.perf_counter()
    pid, fd = spawn([binary, path], env, cols=200, rows=60)
    try:
        read_until(fd, FRAME_END, timeout)
        first = round(time.perf_counter() - t0, 2)
        drain(fd, settle)
        hwm = status_kib(pid, "VmHWM")
        q0 = time.perf_counter()
        os.write(fd, b"q")
        deadline = q0 + timeout
        quit_s = None
        while time.perf_counter() < deadline:
            done, _ = os.waitpid(pid, os.WNOHANG)
            if done:
                quit_s = round(time.perf_counter() - q0, 2)
                break
            drain(fd, 0.01)
        return {"first_frame_s": first, "vmhwm_mib": round(hwm / 1024, 1), "quit_s": quit_s}
    except TimeoutError as e:
        return {"error": str(e)}
    finally:
        try:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        except (ProcessLookupError, ChildProcessError):
            pass
        os.close(fd)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--bin", default=os.path.join(ROOT, "target/release/dreamwatch"))
    p.add_argument("--only", default="calendar,dialogues,garden")
    p.add_argument("--events", type=int, default=10_000)
    p.add_argument("--lines", type=int, default=2_000_000)
    p.add_argument("--creatures", type=int, default=20_000)
    p.add_argument("--timeout", type=float, default=300.0)
    p.add_argument("--no-observatory", action="store_true")
    p.add_argument("--keep", help="make the inputs here and keep them")
    a = p.parse_args()
    binary = os.path.abspath(a.bin)
    base = a.keep or tempfile.mkdtemp(prefix="dreamwatch-hostile-misc-")
    os.makedirs(base, exist_ok=True)
    env = env_for(os.path.join(base, "home"))
    only = set(a.only.split(","))
    try:
        if "calendar" in only:
            c = make_calendar(base, a.events)
            row = {"case": "calendar", "events": a.events}
            row["inspect_s"], row["inspect_kib"], row["inspect_exit"] = run_inspect(binary, [c], env, a.timeout)
            row["json_s"], row["json_kib"], row["json_exit"] = run_inspect(binary, ["--json", c], env, a.timeout)
            if not a.no_observatory:
                row["observatory"] = observatory(binary, c, env, a.timeout)
            print(json.dumps(row), flush=True)
        if "dialogues" in only:
            c = make_dialogues(base, a.lines)
            row = {"case": "dialogues", "lines": a.lines}
            s, kib, code = run_inspect(binary, ["--json", c], env, a.timeout)
            row.update({"json_s": s, "json_mib": kib and round(kib / 1024, 1), "json_exit": code})
            print(json.dumps(row), flush=True)
        if "garden" in only:
            g = make_garden(base, a.creatures)
            row = {"case": "garden", "creatures": a.creatures}
            s, kib, code = run_inspect(binary, ["--json", g], env, a.timeout)
            row.update({"json_s": s, "json_mib": kib and round(kib / 1024, 1), "json_exit": code})
            if not a.no_observatory:
                row["observatory"] = observatory(binary, g, env, a.timeout)
            print(json.dumps(row), flush=True)
    finally:
        if not a.keep:
            shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
