#!/usr/bin/env python3
"""Append-to-screen latency of the observatory, against `tail -f` in the same run.

    cargo build --release
    python3 benches/latency.py [--bin target/release/dreamwatch] [--lines 300] [--older 200] [--ssh]

A creature is written to a temp dir. The observatory runs on it in a pseudo-terminal
(120x36); `tail -f` runs on the same file in another. For each line appended to
`observations.md` (by this process, as a creature would), the clock runs from just before
the write (both terminals are read at once) until:
  - dreamwatch: the end of the next frame it writes (every frame is wrapped in a
    synchronized update, and dreamwatch draws only when something changed);
  - tail -f: the line's bytes appear on its terminal.
Lines are appended at random intervals (20-80 ms). Prints p50, p90, p99 and max for both,
and the observatory's CPU time an append, user and system apart and summed (the file holds
--older observations before the first: 20000 make a 1 MB file, whose every append the
watched history compares and keeps).

With --ssh, a third observatory watches the same creature as a garden on another machine
(`dreamwatch ssh://dwbench/PATH`) through an sshd of the benchmark's own on 127.0.0.1 (a
free port, keys made by ssh-keygen in the temp dir, `DREAMWATCH_SSH="ssh -F CONFIG"`; the
binary is brought to the far side as for any host without dreamwatch), timed the same way
in the same race: the line goes far side -> ssh -> the near side's copy -> its frame.

Then they sit idle for --idle seconds and their CPU time is read from /proc (budget:
under 0.5 % of one core for the observatory).
"""
import argparse
import fcntl
import json
import os
import pty
import random
import select
import shutil
import struct
import sys
import tempfile
import termios
import time

FRAME_END = b"\x1b[?2026l"


def spawn(argv, env, cols=120, rows=36):
    pid, fd = pty.fork()
    if pid == 0:
        os.execvpe(argv[0], argv, env)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
    return pid, fd


def read_until(fd, needle, timeout, buf=b""):
    """Reads until `needle` is in the data read since the call began; returns the rest."""
    deadline = time.perf_counter() + timeout
    while needle not in buf:
        left = deadline - time.perf_counter()
        if left <= 0:
            raise TimeoutError(f"no {needle!r} within {timeout}s")
        r, _, _ = select.select([fd], [], [], left)
        if r:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                raise TimeoutError("the process ended")
            buf += chunk
    return buf[buf.index(needle) + len(needle):]


def race(watches, t0, timeout):
    """Reads every fd in `watches` ({fd: needle}) at once; returns {fd: seconds from `t0`
    until its needle was seen}."""
    bufs = {fd: b"" for fd in watches}
    seen = {}
    while len(seen) < len(watches):
        left = t0 + timeout - time.perf_counter()
        if left <= 0:
            raise TimeoutError(f"not seen within {timeout}s: {set(watches) - set(seen)}")
        r, _, _ = select.select([fd for fd in watches if fd not in seen], [], [], left)
        now = time.perf_counter()
        for fd in r:
            try:
                bufs[fd] += os.read(fd, 65536)
            except OSError:
                raise TimeoutError("a process ended")
            if watches[fd] in bufs[fd]:
                seen[fd] = now - t0
    return seen


def drain(fd, quiet=0.3):
    """Reads until nothing arrives for `quiet` seconds."""
    while True:
        r, _, _ = select.select([fd], [], [], quiet)
        if not r:
            return
        try:
            os.read(fd, 65536)
        except OSError:
            return


def home_env(home):
    """The environment of a benchmark's observatory with `home` as its whole home: no user
    config, its watched history inside `home`."""
    env = dict(os.environ, HOME=home, XDG_CONFIG_HOME=os.path.join(home, "config"),
               XDG_STATE_HOME=os.path.join(home, "state"), TERM="xterm-256color")
    env.pop("NO_COLOR", None)
    return env


def builds(binary, vs):
    """The builds a benchmark runs by turns: ("bin", `binary`), then ("vs", `vs`) if given."""
    return [("bin", os.path.abspath(binary))] + ([("vs", os.path.abspath(vs))] if vs else [])


def cpu_split(pid):
    """The process's user and system CPU seconds, from /proc."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return int(fields[11]) / ticks, int(fields[12]) / ticks


def cpu_seconds(pid):
    return sum(cpu_split(pid))


def percentiles(samples):
    s = sorted(samples)
    pick = lambda q: s[min(len(s) - 1, int(q * len(s)))]
    return {
        "p50_ms": round(pick(0.50) * 1000, 2),
        "p90_ms": round(pick(0.90) * 1000, 2),
        "p99_ms": round(pick(0.99) * 1000, 2),
        "max_ms": round(s[-1] * 1000, 2),
    }


def start_sshd(tmp, aliases=("dwbench",)):
    """An sshd on 127.0.0.1 and the client config that reaches it as each of `aliases`;
    returns (process, config path). The far side's cache is the temp dir's."""
    import socket
    import subprocess
    sshd = next((p for p in ("/usr/sbin/sshd", "/usr/local/sbin/sshd") if os.path.exists(p)), None)
    if sshd is None:
        sys.exit("--ssh: sshd is not installed (openssh-server)")
    d = os.path.join(tmp, "ssh")
    os.makedirs(d)
    for key in ("hostkey", "id"):
        subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", os.path.join(d, key)], check=True)
    shutil.copy(os.path.join(d, "id.pub"), os.path.join(d, "authorized_keys"))
    os.makedirs("/run/sshd", exist_ok=True)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    user = os.environ.get("USER") or subprocess.run(["id", "-un"], capture_output=True, text=True).stdout.strip()
    with open(os.path.join(d, "sshd_config"), "w") as f:
        f.write(f"Port {port}\nListenAddress 127.0.0.1\nHostKey {d}/hostkey\nPidFile {d}/sshd.pid\n"
                f"AuthorizedKeysFile {d}/authorized_keys\nStrictModes no\nUsePAM no\n"
                f"PasswordAuthentication no\nKbdInteractiveAuthentication no\n"
                f"PermitRootLogin prohibit-password\nSetEnv XDG_CACHE_HOME={d}/far-cache\nLogLevel ERROR\n")
    config = os.path.join(d, "ssh_config")
    with open(config, "w") as f:
        for alias in aliases:
            f.write(f"Host {alias}\n  HostName 127.0.0.1\n  Port {port}\n  User {user}\n  IdentityFile {d}/id\n"
                    f"  IdentitiesOnly yes\n  StrictHostKeyChecking no\n  UserKnownHostsFile /dev/null\n"
                    f"  LogLevel ERROR\n")
    proc = subprocess.Popen([sshd, "-D", "-e", "-f", os.path.join(d, "sshd_config")], stderr=subprocess.DEVNULL)
    deadline = time.perf_counter() + 10
    while time.perf_counter() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return proc, config
        except OSError:
            time.sleep(0.05)
    proc.kill()
    sys.exit("--ssh: sshd did not listen")


def make_creature(root, older):
    os.makedirs(os.path.join(root, ".self"))
    with open(os.path.join(root, "BIRTH.json"), "w") as f:
        json.dump({"name": "latency", "model": "bench"}, f)
    with open(os.path.join(root, ".self", "observations.md"), "w") as f:
        f.write("# Observations\n\n## 2026-11-22\n\n")
        for i in range(older):
            f.write(f"GRN 10:{i % 60:02d} an older observation number {i}\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", default="target/release/dreamwatch")
    ap.add_argument("--lines", type=int, default=300)
    ap.add_argument("--older", type=int, default=200, help="observations in the file before the first append")
    ap.add_argument("--idle", type=float, default=10.0)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--ssh", action="store_true",
                    help="also time an observatory watching the creature over ssh on 127.0.0.1")
    args = ap.parse_args()
    random.seed(args.seed)
    tmp = tempfile.mkdtemp(prefix="dreamwatch-latency-")
    try:
        creature = os.path.join(tmp, "creature")
        make_creature(creature, args.older)
        obs = os.path.join(creature, ".self", "observations.md")
        env = dict(os.environ, HOME=tmp, XDG_CONFIG_HOME=os.path.join(tmp, "config"),
                   XDG_STATE_HOME=os.path.join(tmp, "state"), TERM="xterm-256color")
        env.pop("NO_COLOR", None)
        dw_pid, dw_fd = spawn([os.path.abspath(args.bin), creature], env)
        tail_pid, tail_fd = spawn(["tail", "-f", "-n", "0", obs], env)
        read_until(dw_fd, FRAME_END, 10)
        sshd = None
        far_fd = None
        if args.ssh:
            sshd, config = start_sshd(tmp)
            far_env = dict(env, DREAMWATCH_SSH=f"ssh -F {config}")
            far_pid, far_fd = spawn([os.path.abspath(args.bin), f"ssh://dwbench{creature}"], far_env)
            # Until the copy is on screen (the first connection copies the binary over).
            read_until(far_fd, b"latency@dwbench", 120)
            drain(far_fd, quiet=1.0)
        drain(dw_fd)
        drain(tail_fd)

        dw, tail, far = [], [], []
        appends_from = cpu_split(dw_pid)
        with open(obs, "a") as f:
            for i in range(args.lines):
                line = f"YLW 17:{i % 60:02d} appended line {i} {random.getrandbits(32):08x}\n"
                t0 = time.perf_counter()
                f.write(line)
                f.flush()
                watches = {dw_fd: FRAME_END, tail_fd: line.strip().encode()}
                if far_fd is not None:
                    watches[far_fd] = FRAME_END
                seen = race(watches, t0, 5)
                dw.append(seen[dw_fd])
                tail.append(seen[tail_fd])
                if far_fd is not None:
                    far.append(seen[far_fd])
                    drain(far_fd, quiet=0.01)
                # Whatever else the frame wrote (the end of a burst, the frame after the
                # watched history's look at the change) is not the next frame.
                drain(dw_fd, quiet=0.03)
                time.sleep(random.uniform(0.02, 0.08))

        drain(dw_fd)
        # User and system CPU an append (a tick of /proc is 10 ms: many appends make it fine).
        user_ms, system_ms = (round(1000 * (now - then) / args.lines, 2)
                              for now, then in zip(cpu_split(dw_pid), appends_from))
        c0 = (cpu_seconds(dw_pid), cpu_seconds(tail_pid))
        time.sleep(args.idle)
        c1 = (cpu_seconds(dw_pid), cpu_seconds(tail_pid))
        os.kill(dw_pid, 15)
        os.kill(tail_pid, 15)
        if far_fd is not None:
            os.kill(far_pid, 15)
            time.sleep(0.5)
            sshd.kill()
        result = {
            "lines": args.lines,
            "older": args.older,
            "cpu_ms_per_append": round(user_ms + system_ms, 2),
            "user_ms_per_append": user_ms,
            "system_ms_per_append": system_ms,
            "dreamwatch": percentiles(dw),
            "tail -f": percentiles(tail),
            "ratio_p50": round(percentiles(dw)["p50_ms"] / max(percentiles(tail)["p50_ms"], 0.001), 2),
            "idle_cpu_percent": {
                "dreamwatch": round(100 * (c1[0] - c0[0]) / args.idle, 3),
                "tail -f": round(100 * (c1[1] - c0[1]) / args.idle, 3),
            },
        }
        if far:
            result["dreamwatch over ssh (127.0.0.1)"] = percentiles(far)
        print(json.dumps(result, indent=2))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
