//! `inspect --follow --wire`: the far side of a garden watched from another machine
//! (the protocol is `remote::wire`'s). A hello, a first snapshot of every creature's
//! files (its large conversations as their counts), `ready`, then each change as the
//! watcher hints at it and, when nothing else is to do, the conversations' windows the
//! snapshot left for later (a creature the near side looks at first) and the counts made
//! kept for the next far side (`remote::head_cache`); requests on stdin (a
//! runner command, a message, an action of this machine's OpenSeed orchestrator)
//! answered on stdout; what that orchestrator reports is passed on as it comes. It exits when its stdin closes, so an
//! observatory that quits, or a dropped connection, leaves nothing running here.

use std::collections::BTreeSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use chrono::Utc;
use tokio::io::BufReader;

use super::far_openseed::{self, FarOpenSeed};
use crate::control::{ControlCommand, send_command};
use crate::memory::garden::{Root, openseed_home};
use crate::memory::layout::control_socket;
use crate::memory::messages;
use crate::remote::follow::Follower;
use crate::remote::head_cache::HeadCache;
use crate::remote::lines::Lines;
use crate::remote::target::VERSION;
use crate::remote::wire::{PROTOCOL, Report, Request, write_line};
use crate::watch::{POLL_SLICE, WatchMode, WatchOptions, Watcher};

/// How long after its first snapshot a far side keeps the counts it made (unless the
/// near side asks for every window sooner).
const KEEP_AFTER: std::time::Duration = std::time::Duration::from_secs(3);

/// Why the loop ended.
enum Stop {
    /// Stdin closed, or stdout did.
    Closed,
    /// The near side speaks another protocol (said on stdout).
    Refused,
}

pub fn run(roots: Vec<Root>, watch: WatchOptions) -> ExitCode {
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("dreamwatch inspect: cannot start: {e}");
            return ExitCode::from(1);
        }
    };
    let stop = runtime.block_on(serve(roots, watch));
    // Stdin's reader thread may be blocked in a read: not waited for.
    runtime.shutdown_background();
    match stop {
        Stop::Closed => ExitCode::SUCCESS,
        Stop::Refused => ExitCode::from(3),
    }
}

async fn serve(roots: Vec<Root>, watch: WatchOptions) -> Stop {
    let mut out = std::io::stdout().lock();
    let hello = Report::Hello {
        protocol: PROTOCOL,
        version: VERSION.to_string(),
        system: system(),
    };
    let mut follower = Follower::new(roots).with_cache(HeadCache::in_cache_dir());
    let (mut watcher, mut hints) = Watcher::start(watch);
    let mut far = FarOpenSeed::find();
    let found = follower.rescan();
    // Watched before any file is read: a change meanwhile comes as an event, where no
    // tick would find it. The snapshot goes a creature at a time: a garden's files are
    // never all in memory.
    watcher.set_dirs(watched(&follower, far.as_ref()));
    let snapshot = emit(&mut out, &[hello])
        .and_then(|()| emit(&mut out, &found))
        .and_then(|()| follower.look_first_with(|reports| emit(&mut out, &reports)))
        .and_then(|()| emit(&mut out, &[Report::Ready]));
    if snapshot.is_err() {
        return Stop::Closed;
    }
    // At rest only the watcher's events wake it: no tick, nothing looked at.
    watcher.tick_while(false);
    let mut stdin = Lines::new(BufReader::new(tokio::io::stdin()));
    // Until the near side asks for them, only the windows it wants go.
    let mut all_windows = false;
    // The counts made are kept from then, or once the near side asks for every window
    // (it has every far garden's figures): not while other far sides on this machine or
    // the near side may still be at a first snapshot.
    let mut keep_from = tokio::time::Instant::now() + KEEP_AFTER;
    loop {
        tokio::select! {
            // In this order when several are ready: requests, then changes, then the
            // orchestrator's reports; the windows left for later only when nothing else is.
            biased;
            read = stdin.next() => {
                let Ok(Some(text)) = read else { return Stop::Closed };
                let reply = match serde_json::from_str::<Request>(&text) {
                    Ok(Request::Hello { protocol }) if protocol != PROTOCOL => {
                        let text = format!("the near side speaks wire protocol {protocol}; this dreamwatch {VERSION} speaks {PROTOCOL}: use the same version on both sides");
                        let _ = emit(&mut out, &[Report::Error { text }]);
                        return Stop::Refused;
                    }
                    Ok(Request::Hello { .. }) => continue,
                    Ok(Request::Want { id }) => {
                        follower.want(&id);
                        continue;
                    }
                    Ok(Request::Windows) => {
                        all_windows = true;
                        keep_from = tokio::time::Instant::now();
                        continue;
                    }
                    Ok(Request::OpenSeed { req, name, action, text }) => {
                        let (ok, text) = far_openseed::act(far.as_ref(), &name, &action, text).await;
                        Report::Reply { req, ok, text, answer: None }
                    }
                    Ok(request) => answer(&follower, request).await,
                    Err(e) => Report::Error { text: format!("not a request ({e})") },
                };
                if emit(&mut out, &[reply]).is_err() {
                    return Stop::Closed;
                }
            }
            batch = hints.recv() => {
                let Some(batch) = batch else { return Stop::Closed };
                // An orchestrator started since (its run file appeared): attached now.
                let home = openseed_home();
                let in_home = |p: &PathBuf| home.as_ref().is_some_and(|h| p.starts_with(h));
                if far.is_none() && (batch.rescan || batch.poll_tick || batch.paths.iter().any(in_home)) {
                    far = FarOpenSeed::find();
                }
                let reports = if batch.poll_tick && watcher.mode() == WatchMode::Events {
                    // Ticking beside events only while they cannot be trusted.
                    if watcher.needs_safety_net() {
                        follower.look_slice(POLL_SLICE)
                    } else {
                        Vec::new()
                    }
                } else if batch.rescan || batch.poll_tick {
                    follower.look_all()
                } else {
                    follower.look_paths(&batch.paths)
                };
                watcher.set_dirs(watched(&follower, far.as_ref()));
                watcher.retry(Some(&batch.paths));
                watcher.tick_while(false);
                if emit(&mut out, &reports).is_err() {
                    return Stop::Closed;
                }
            }
            Some(report) = far_openseed::next(&mut far) => {
                if emit(&mut out, &[report]).is_err() {
                    return Stop::Closed;
                }
            }
            () = std::future::ready(()), if follower.has_windows(all_windows) => {
                let windows = follower.next_window(all_windows).unwrap_or_default();
                if emit(&mut out, &windows).is_err() {
                    return Stop::Closed;
                }
            }
            // Then the counts made are kept for the next far side.
            () = tokio::time::sleep_until(keep_from), if follower.has_counts_to_keep() => follower.keep_counts(),
        }
    }
}

/// The directories to watch: the creatures', and OpenSeed's home while no orchestrator
/// is attached (its run file appearing there says one started).
fn watched(follower: &Follower, far: Option<&FarOpenSeed>) -> BTreeSet<PathBuf> {
    let mut dirs: BTreeSet<PathBuf> = follower.dirs().into_iter().collect();
    if far.is_none()
        && let Some(home) = openseed_home().filter(|h| h.is_dir())
    {
        dirs.insert(home);
    }
    dirs
}

/// Does what the near side asks, and says what became of it.
async fn answer(follower: &Follower, request: Request) -> Report {
    let (req, id) = match &request {
        Request::Control { req, id, .. } | Request::Message { req, id, .. } => (*req, id.clone()),
        Request::Hello { .. }
        | Request::OpenSeed { .. }
        | Request::Want { .. }
        | Request::Windows => (0, String::new()),
    };
    let reply = |ok: bool, text: String, answer: Option<serde_json::Value>| Report::Reply {
        req,
        ok,
        text,
        answer,
    };
    let Some(dir) = follower.path_of(&id).map(Path::to_path_buf) else {
        return reply(false, format!("{id} is not here any more"), None);
    };
    let listening = control_socket(&dir).exists();
    match request {
        Request::Control { command, .. } => {
            let command = match serde_json::from_value::<ControlCommand>(command) {
                Ok(c) => c,
                Err(e) => return reply(false, format!("not a command ({e})"), None),
            };
            if !listening {
                return reply(
                    false,
                    "no dreamwatch runner hosts it there (an OpenSeed creature, or its runner is gone)".into(),
                    None,
                );
            }
            match send_command(&dir, &command).await {
                Ok(answer) => {
                    let answer = answer.and_then(|a| serde_json::to_value(a).ok());
                    reply(true, "the runner took it".into(), answer)
                }
                Err(e) => reply(false, e.to_string(), None),
            }
        }
        Request::Message { text, .. } => {
            if listening {
                let command = ControlCommand::Message { text: text.clone() };
                if send_command(&dir, &command).await.is_ok() {
                    return reply(
                        true,
                        "message sent to its runner, which appends it to MESSAGES.md".into(),
                        None,
                    );
                }
            }
            match messages::append(&dir, &text, Utc::now()) {
                Ok(path) => reply(
                    true,
                    format!("message appended to {}", path.display()),
                    None,
                ),
                Err(e) => reply(false, format!("message not saved: {e}"), None),
            }
        }
        Request::Hello { .. }
        | Request::OpenSeed { .. }
        | Request::Want { .. }
        | Request::Windows => reply(true, String::new(), None),
    }
}

/// Writes reports, one line each, and flushes once.
fn emit(out: &mut impl Write, reports: &[Report]) -> std::io::Result<()> {
    for r in reports {
        write_line(out, r)?;
    }
    out.flush()
}

/// This system as `uname -s -m` says it (for the hello).
fn system() -> String {
    let os = match std::env::consts::OS {
        "linux" => "Linux",
        "macos" => "Darwin",
        "freebsd" => "FreeBSD",
        other => other,
    };
    let arch = match (std::env::consts::OS, std::env::consts::ARCH) {
        ("macos", "aarch64") => "arm64",
        (_, arch) => arch,
    };
    format!("{os} {arch}")
}
