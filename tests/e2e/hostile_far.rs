//! A hostile far side in tmux: it reports 20,000 creatures at once (the stand-in for ssh
//! is a script that prints them). The observatory follows the first thousand, says it
//! refused the rest, and `q`, Ctrl-C and SIGTERM still end it at once.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::support::{Pane, tmux_available};

const HELLO: &str = r#"{"t":"hello","protocol":4,"version":"0.0.0","system":"Linux x86_64"}"#;

/// The stand-in for ssh: prints 20,000 creatures (each with a BIRTH.json) and waits.
fn flooding_ssh(dir: &Path) -> PathBuf {
    let reports = dir.join("reports.jsonl");
    let mut text = format!("{HELLO}\n");
    for i in 0..20_000 {
        text.push_str(&format!(
            "{{\"t\":\"creature\",\"id\":\"c{i}\",\"path\":\"/far/c{i}\"}}\n\
             {{\"t\":\"file\",\"id\":\"c{i}\",\"file\":\"BIRTH.json\",\"op\":\"put\",\"base\":0,\"size\":2,\"data\":\"{{}}\"}}\n"
        ));
    }
    text.push_str("{\"t\":\"ready\"}\n");
    std::fs::write(&reports, text).unwrap();
    let ssh = dir.join("flood-ssh");
    std::fs::write(
        &ssh,
        format!("#!/bin/sh\ncat '{}'; cat >/dev/null\n", reports.display()),
    )
    .unwrap();
    let mut perm = std::fs::metadata(&ssh).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perm, 0o755);
    std::fs::set_permissions(&ssh, perm).unwrap();
    ssh
}

/// The observatory's pid: the child of the pane's shell.
fn observatory_pid(pane: &Pane) -> i32 {
    let shell: u32 = pane.display("#{pane_pid}").parse().unwrap();
    let start = Instant::now();
    loop {
        for entry in std::fs::read_dir("/proc").unwrap().flatten() {
            let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
                continue;
            };
            let stat = std::fs::read_to_string(entry.path().join("stat")).unwrap_or_default();
            let fields: Vec<&str> = stat
                .rsplit_once(')')
                .map(|(_, r)| r.split_whitespace().collect())
                .unwrap_or_default();
            if fields.get(1) == Some(&shell.to_string().as_str()) && stat.contains("(dreamwatch)") {
                return pid as i32;
            }
        }
        assert!(start.elapsed() < Duration::from_secs(10), "no observatory");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Starts the observatory on the flooding far side and waits until the flood is on the
/// screen (the refusal said, or the first creature's row).
fn flooded(ssh: &Path) -> Pane {
    let pane = Pane::start_with(
        &[("DREAMWATCH_SSH", ssh)],
        &[Path::new("ssh://flood/garden")],
    );
    pane.wait_for("the far creatures or the refusal", |s| {
        s.contains("refused") || s.contains("c0@flood")
    });
    pane
}

/// `EXITED 0` on the pane within a few seconds of `since`.
fn ends_promptly(pane: &Pane, how: &str, since: Instant) {
    let screen = pane.wait_for("the observatory to end", |s| s.contains("EXITED"));
    let took = since.elapsed();
    assert!(
        took < Duration::from_secs(5),
        "{how} took {took:?} to end the observatory; the screen:\n{screen}"
    );
}

#[test]
fn a_far_side_of_twenty_thousand_creatures_is_capped_and_q_ctrl_c_and_sigterm_answer() {
    if !tmux_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let ssh = flooding_ssh(dir.path());

    let pane = flooded(&ssh);
    let screen = pane.wait_for("the cap said", |s| s.contains("refused"));
    assert!(
        screen.contains("more than 1000 creatures") || screen.contains("past the cap"),
        "{screen}"
    );
    let t = Instant::now();
    pane.keys(&["q"]);
    ends_promptly(&pane, "q", t);

    let pane = flooded(&ssh);
    let t = Instant::now();
    pane.keys(&["C-c"]);
    ends_promptly(&pane, "Ctrl-C", t);

    let pane = flooded(&ssh);
    let pid = observatory_pid(&pane);
    let t = Instant::now();
    // SAFETY: a signal to the observatory this test started.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGTERM) }, 0);
    ends_promptly(&pane, "SIGTERM", t);
}
