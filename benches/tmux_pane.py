"""A program in a tmux pane of the benchmark's own tmux server, read as the screen shows it.

    pane = Pane([binary, path], env, cols=200, rows=60)
    took = pane.wait(lambda screen: "Garden" in screen, timeout=30)
    pane.close()

The clock of `wait` runs from the pane's start; the screen is polled with
`tmux capture-pane` every `interval` seconds (about 2 ms per capture), so a time is late
by at most one interval plus one capture (it is taken when the capture returns).
`wait(..., interval=None)` captures only when the pane has written (a tmux control-mode client tells):
late by one capture, and no core taken while it waits.
"""
import os
import shlex
import subprocess
import threading
import time


class Pane:
    def __init__(self, argv, env, cols=200, rows=60):
        self.socket = f"dwbench-{os.getpid()}-{time.monotonic_ns()}"
        command = "exec " + " ".join(shlex.quote(a) for a in argv)
        tmux = ["tmux", "-L", self.socket, "-f", "/dev/null"]
        # The server is started first, so its start is not counted in the program's.
        subprocess.run(tmux + ["new-session", "-d", "-s", "hold", "sleep 86400"], env=env, check=True)
        self.t0 = time.perf_counter()
        out = subprocess.run(
            tmux + ["new-session", "-d", "-s", "bench", "-P", "-F", "#{pane_pid}",
                    "-x", str(cols), "-y", str(rows), command],
            env=env, check=True, capture_output=True, text=True,
        )
        self.pid = int(out.stdout.strip())
        self.control = None

    def capture(self):
        return subprocess.run(
            ["tmux", "-L", self.socket, "capture-pane", "-p", "-t", "bench"], capture_output=True, text=True
        ).stdout

    def wait(self, predicate, timeout, interval=0.005, since=None):
        """Seconds from `since` (the pane's start by default) until `predicate(screen)`.
        With `interval=None` the screen is captured only when the pane has written
        something (a control-mode client of the server tells): the harness takes no core
        while it waits, as a capture every few milliseconds would (on two cores, one the
        observatory, its far sides and ssh then share)."""
        start = self.t0 if since is None else since
        written = self._written() if interval is None else None
        deadline = time.perf_counter() + timeout
        while True:
            if written is not None:
                written.clear()
            screen = self.capture()
            now = time.perf_counter()
            if predicate(screen):
                return now - start
            if now > deadline:
                raise TimeoutError(f"not on screen within {timeout}s:\n{screen}")
            if written is None:
                time.sleep(interval)
            else:
                written.wait(max(0.0, deadline - now))

    def _written(self):
        """An event set each time the pane writes (a control-mode client, started once)."""
        if self.control is None:
            self.written = threading.Event()
            self.control = subprocess.Popen(
                ["tmux", "-L", self.socket, "-C", "attach", "-t", "bench"],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)

            def listen():
                for line in self.control.stdout:
                    if line.startswith(b"%output"):
                        self.written.set()
            threading.Thread(target=listen, daemon=True).start()
        return self.written

    def send(self, keys):
        subprocess.run(["tmux", "-L", self.socket, "send-keys", "-t", "bench", keys], check=False)

    def close(self):
        if self.control is not None:
            self.control.kill()
        try:
            os.kill(self.pid, 15)
        except ProcessLookupError:
            pass
        time.sleep(0.3)
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True)


def status_kib(pid, field):
    """A field of /proc/PID/status in KiB (VmHWM: peak resident set), 0 when gone."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def cpu_seconds(pid):
    """utime + stime of a process so far, 0 when gone."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
