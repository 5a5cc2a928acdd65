//! The tmux harness of the end-to-end tests: the real binary in a tmux pane of fixed
//! size (its own tmux server), driven with send-keys and read with capture-pane. Waits
//! poll the pane against a deadline, never a fixed sleep, for slow CI machines.

use std::path::Path;
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

pub const DEADLINE: Duration = Duration::from_secs(30);

/// One tmux server (its own socket) running the observatory in one pane.
pub struct Pane {
    socket: String,
    _home: tempfile::TempDir,
}

pub fn tmux_available() -> bool {
    let found = Command::new("tmux")
        .arg("-V")
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        assert!(
            !under_ci(),
            "tmux is not installed, and under CI=true the end-to-end tests must run"
        );
        eprintln!("skipping: tmux is not installed");
    }
    found
}

/// `CI` set to anything but `false` or `0`, as CI services do.
pub fn under_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0")
}

impl Pane {
    /// Starts `dreamwatch ARGS` in a 120x36 pane, with an empty home (no user config).
    pub fn start(args: &[&Path]) -> Self {
        Self::start_with(&[], args)
    }

    /// As [`Pane::start`], with these variables set too (after the defaults, so they win:
    /// the locale is UTF-8 unless a test says otherwise, whatever the machine's is).
    pub fn start_with(env: &[(&str, &Path)], args: &[&Path]) -> Self {
        Self::launch(env, args, "")
    }

    /// As [`Pane::start_with`], everything the observatory writes to the terminal (its
    /// escape sequences as they are) appended to `out` by tmux's `pipe-pane`, from its
    /// first byte: the pane waits for a key until the pipe is there.
    pub fn start_piped(env: &[(&str, &Path)], args: &[&Path], out: &Path) -> Self {
        let pane = Self::launch(env, args, "read go; ");
        let pipe = format!("cat >> '{}'", out.display());
        assert!(
            pane.tmux(&["pipe-pane", "-o", "-t", "e2e", &pipe])
                .status
                .success()
        );
        pane.keys(&["Enter"]);
        pane
    }

    /// Starts `before` then `dreamwatch ARGS` in the pane.
    fn launch(env: &[(&str, &Path)], args: &[&Path], before: &str) -> Self {
        static N: AtomicUsize = AtomicUsize::new(0);
        let socket = format!(
            "dreamwatch-e2e-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::SeqCst)
        );
        let home = tempfile::tempdir().expect("temp home");
        let bin = env!("CARGO_BIN_EXE_dreamwatch");
        let mut command = format!(
            "{before}env -u NO_COLOR LC_ALL=C.UTF-8 HOME={h} XDG_CONFIG_HOME={h}/config XDG_STATE_HOME={h}/state {bin}",
            h = home.path().display()
        );
        for (name, value) in env {
            command = command.replacen(bin, &format!("{name}={} {bin}", value.display()), 1);
        }
        for a in args {
            command.push(' ');
            command.push_str(&a.display().to_string());
        }
        // After the observatory exits, the pane stays to be read.
        command.push_str("; echo \"EXITED $?\"; sleep 600");
        let out = Command::new("tmux")
            .args(["-L", &socket, "-f", "/dev/null", "new-session", "-d"])
            .args(["-x", "120", "-y", "36", "-s", "e2e", &command])
            .output()
            .expect("tmux new-session");
        assert!(
            out.status.success(),
            "tmux: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        Self {
            socket,
            _home: home,
        }
    }

    pub fn tmux(&self, args: &[&str]) -> Output {
        Command::new("tmux")
            .args(["-L", &self.socket])
            .args(args)
            .output()
            .expect("tmux")
    }

    pub fn capture(&self) -> String {
        String::from_utf8_lossy(&self.tmux(&["capture-pane", "-p", "-t", "e2e"]).stdout)
            .into_owned()
    }

    pub fn display(&self, format: &str) -> String {
        String::from_utf8_lossy(
            &self
                .tmux(&["display-message", "-p", "-t", "e2e", format])
                .stdout,
        )
        .trim()
        .to_string()
    }

    /// Sends keys as tmux names them (`q`, `C-s`, `Escape`).
    pub fn keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", "e2e"];
        args.extend_from_slice(keys);
        assert!(self.tmux(&args).status.success());
    }

    /// Types text literally.
    pub fn type_text(&self, text: &str) {
        assert!(
            self.tmux(&["send-keys", "-t", "e2e", "-l", text])
                .status
                .success()
        );
    }

    /// Waits until `pred` holds for the pane's text; panics with the screen otherwise.
    pub fn wait_for(&self, what: &str, pred: impl Fn(&str) -> bool) -> String {
        let start = Instant::now();
        loop {
            let screen = self.capture();
            if pred(&screen) {
                return screen;
            }
            assert!(
                start.elapsed() < DEADLINE,
                "timed out waiting for {what}; the screen:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Waits until the tmux format `format` (`#{window_bell_flag}`) reads `value`.
    pub fn wait_display(&self, format: &str, value: &str) {
        let start = Instant::now();
        loop {
            let now = self.display(format);
            if now == value {
                return;
            }
            assert!(
                start.elapsed() < DEADLINE,
                "timed out waiting for {format} to be {value} (it is {now}); the screen:\n{}",
                self.capture()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    pub fn wait_text(&self, text: &str) -> String {
        self.wait_for(text, |s| s.contains(text))
    }
}

impl Drop for Pane {
    fn drop(&mut self) {
        let _ = self.tmux(&["kill-server"]);
    }
}
