//! API keys and other secrets from the environment, kept out of a hosted creature's reach.
//!
//! A creature runs bash as the runner's user, so it can read the runner's
//! `/proc/<pid>/environ` (the environment block the process started with) and, unless
//! the process is non-dumpable, its memory. So: the secrets are taken out of the
//! environment at startup ([`Secrets::take_from_env`]: values copied, their bytes in the
//! block zeroed, the variables removed), the process is made non-dumpable while it hosts
//! a creature ([`refuse_dumps`]), and whatever a tool prints is redacted of them before
//! the runner stores it or sends it to the model ([`Redacting`]).

use std::ffi::{CStr, OsStr, OsString};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::sync::Arc;

use crate::runner::tools::{ToolFuture, ToolRunner, is_secret};

/// What stands in for a secret in tool output.
pub const REDACTED: &str = "[redacted]";

/// The shortest piece of a secret that is redacted on its own: a cut or a creature's
/// slicing can leave a part of a key, and any run of this many of its characters goes.
/// Secrets shorter than this are redacted only whole.
const PIECE: usize = 8;

/// The secrets the process was started with, by variable name.
pub struct Secrets {
    taken: Vec<(String, String)>,
}

impl std::fmt::Debug for Secrets {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names: Vec<&str> = self.taken.iter().map(|(n, _)| n.as_str()).collect();
        f.debug_struct("Secrets").field("names", &names).finish()
    }
}

impl Secrets {
    /// Takes every secret variable (see [`is_secret`]) out of the process's environment.
    ///
    /// Must run before any thread starts: it is the first thing `dreamwatch` does.
    pub fn take_from_env() -> Self {
        let names: Vec<OsString> = std::env::vars_os()
            .map(|(name, _)| name)
            .filter(|name| is_secret(&name.to_string_lossy()))
            .collect();
        let mut taken = Vec::new();
        for name in names {
            if let Some(value) = std::env::var_os(&name) {
                taken.push((
                    name.to_string_lossy().into_owned(),
                    value.to_string_lossy().into_owned(),
                ));
            }
            zero_value(&name);
            // SAFETY: no other thread exists yet (this runs first in `main`, before
            // logging, the async runtime or the observatory start any), so nothing reads
            // or writes the environment meanwhile.
            unsafe { std::env::remove_var(&name) };
        }
        Self { taken }
    }

    /// The value the environment had for `name`, when it was a secret.
    pub fn get(&self, name: &str) -> Option<String> {
        self.taken
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.clone())
    }

    /// The values to redact from tool output (empty ones are not secrets).
    fn values(&self) -> Vec<String> {
        self.taken
            .iter()
            .map(|(_, v)| v.clone())
            .filter(|v| !v.is_empty())
            .collect()
    }
}

unsafe extern "C" {
    /// The C environment: a NULL-terminated array of `NAME=value` strings.
    static mut environ: *mut *mut libc::c_char;
}

/// Overwrites the value of `name` in the C environment with NUL bytes, where it is:
/// `/proc/self/environ` shows the block the process started with, which removing the
/// variable alone leaves as it was.
fn zero_value(name: &OsStr) {
    let name = name.as_bytes();
    // SAFETY: single-threaded (see `take_from_env`). `environ` is the NULL-terminated
    // array libc keeps, each entry a NUL-terminated string it owns and that stays
    // allocated; only the bytes of a matching entry's value are overwritten, within
    // its length, and its terminator is kept.
    unsafe {
        let mut entry = std::ptr::addr_of!(environ).read();
        while !entry.is_null() && !(*entry).is_null() {
            let text = *entry;
            let bytes = CStr::from_ptr(text).to_bytes();
            if bytes.len() > name.len() && bytes.starts_with(name) && bytes[name.len()] == b'=' {
                let value_len = bytes.len() - name.len() - 1;
                std::ptr::write_bytes(text.add(name.len() + 1), 0, value_len);
            }
            entry = entry.add(1);
        }
    }
}

/// Makes the process non-dumpable (Linux): its `/proc/<pid>/` files turn root's, so a
/// creature's commands, running as the same user, can read neither its memory nor its
/// environment. A failure is logged: the other guards still hold.
pub fn refuse_dumps() {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: PR_SET_DUMPABLE takes plain integers and touches no memory of ours.
        let rc = unsafe { libc::prctl(libc::PR_SET_DUMPABLE, 0, 0, 0, 0) };
        if rc != 0 {
            tracing::warn!(
                "cannot make the runner non-dumpable: {}",
                std::io::Error::last_os_error()
            );
        }
    }
}

/// `text` with every secret, and every piece of one at least [`PIECE`] characters long,
/// replaced by [`REDACTED`].
pub fn redact(text: &str, secrets: &[String]) -> String {
    let mut hidden: Vec<(usize, usize)> = Vec::new();
    for secret in secrets {
        let chars: Vec<(usize, char)> = secret.char_indices().collect();
        let pieces: Vec<&str> = if chars.len() < PIECE {
            vec![secret.as_str()]
        } else {
            (0..=chars.len() - PIECE)
                .map(|i| {
                    let end = chars.get(i + PIECE).map_or(secret.len(), |(at, _)| *at);
                    &secret[chars[i].0..end]
                })
                .collect()
        };
        for piece in pieces {
            hidden.extend(
                memchr::memmem::find_iter(text.as_bytes(), piece.as_bytes())
                    .map(|at| (at, at + piece.len())),
            );
        }
    }
    if hidden.is_empty() {
        return text.to_string();
    }
    hidden.sort_unstable();
    let mut out = String::with_capacity(text.len());
    let mut done = 0;
    let mut ranges = hidden.into_iter().peekable();
    while let Some((start, mut end)) = ranges.next() {
        while let Some(&(next_start, next_end)) = ranges.peek() {
            if next_start > end {
                break;
            }
            end = end.max(next_end);
            ranges.next();
        }
        // Merged, the ranges are apart and in order.
        out.push_str(&text[done..start]);
        out.push_str(REDACTED);
        done = end;
    }
    out.push_str(&text[done..]);
    out
}

/// A tool runner whose outputs are redacted of the secrets before the runner sees them,
/// so that neither its files nor the next model request hold one.
pub struct Redacting {
    inner: Arc<dyn ToolRunner>,
    secrets: Vec<String>,
}

impl Redacting {
    pub fn new(inner: Arc<dyn ToolRunner>, secrets: &Secrets) -> Self {
        Self {
            inner,
            secrets: secrets.values(),
        }
    }
}

impl ToolRunner for Redacting {
    fn run<'a>(&'a self, dir: &'a Path, command: &'a str) -> ToolFuture<'a> {
        Box::pin(async move {
            let mut outcome = self.inner.run(dir, command).await;
            outcome.content = redact(&outcome.content, &self.secrets);
            outcome.display = redact(&outcome.display, &self.secrets);
            outcome
        })
    }

    fn sandbox(&self) -> Option<crate::runner::sandbox::SandboxState> {
        self.inner.sandbox()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEY: &str = "sk-ant-test-ZQ7xK2mP9vR4tY8wB3nL6hJ1";

    #[test]
    fn keys_and_their_pieces_are_redacted() {
        let secrets = vec![KEY.to_string()];
        assert_eq!(redact(&format!("key={KEY}!"), &secrets), "key=[redacted]!");
        assert_eq!(
            redact(&format!("{KEY}{KEY} and {KEY}"), &secrets),
            "[redacted] and [redacted]"
        );
        // A cut at the output cap, or a creature's slicing, leaves a part.
        let cut = &KEY[..20];
        assert_eq!(
            redact(&format!("x{cut}[TRUNCATED]"), &secrets),
            "x[redacted][TRUNCATED]"
        );
        let middle = &KEY[14..30];
        assert_eq!(redact(&format!("<{middle}>"), &secrets), "<[redacted]>");
        assert_eq!(redact("nothing here", &secrets), "nothing here");
        // Short secrets go only whole, and UTF-8 is respected.
        let short = vec!["pässwörd".to_string(), "abc".to_string()];
        assert_eq!(
            redact("é abc pässwörd é", &short),
            "é [redacted] [redacted] é"
        );
    }

    #[test]
    fn tool_outputs_are_redacted_before_the_runner_sees_them() {
        use crate::runner::tools::ToolOutcome;

        struct Echo;
        impl ToolRunner for Echo {
            fn run<'a>(&'a self, _: &'a Path, command: &'a str) -> ToolFuture<'a> {
                Box::pin(async move {
                    ToolOutcome {
                        ok: true,
                        content: command.to_string(),
                        display: command.to_string(),
                        ms: 1,
                    }
                })
            }
        }
        let secrets = Secrets {
            taken: vec![("ANTHROPIC_API_KEY".into(), KEY.into())],
        };
        let tools = Redacting::new(Arc::new(Echo), &secrets);
        let rt = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let out = rt.block_on(tools.run(Path::new("."), &format!("echo {KEY}")));
        assert_eq!(out.content, "echo [redacted]");
        assert_eq!(out.display, "echo [redacted]");
        assert_eq!(secrets.get("ANTHROPIC_API_KEY").as_deref(), Some(KEY));
        assert!(!format!("{secrets:?}").contains(KEY));
    }

    #[test]
    fn a_hosting_process_cannot_be_dumped() {
        refuse_dumps();
        // SAFETY: PR_GET_DUMPABLE reads a flag of this process.
        let dumpable = unsafe { libc::prctl(libc::PR_GET_DUMPABLE, 0, 0, 0, 0) };
        assert_eq!(dumpable, 0);
    }
}
