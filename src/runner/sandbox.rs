//! The confinement of the creature's tools: what a command the creature runs may touch.
//!
//! A creature's `bash` runs as the runner's user (often root), next to the runner's
//! control socket, its files in `.sys/`, the operator's config and the history store. So
//! every process the tool starts is confined, before it execs the shell, to:
//!
//! - **write** only in the creature's `workspace/` (created when missing; its `.tmp/` is
//!   the commands' `TMPDIR`) and in the files the creature is told it may rewrite
//!   ([`WRITABLE_FILES`]: `PURPOSE.md`);
//! - **read** the rest of its own directory except `.sys/` (the runner's: its state, the
//!   control socket and the operator's control token, see `runner::socket`), and the
//!   system's programs, libraries and settings ([`SYSTEM_READ`]), `/sys` and the
//!   system-wide figures of `/proc` (no process's `/proc/<pid>/`);
//! - nothing else: not the operator's config directory, the history store, other
//!   creatures, `/tmp`, home directories;
//! - no ptrace of any process outside the sandbox, the runner's included (so no
//!   `/proc/<pid>/mem`, `fd/`, `root/`), and (Landlock ABI 6 and later) no signals to
//!   them and no abstract Unix sockets of theirs.
//!
//! This holds for root too: Landlock is checked after the usual permissions, and
//! capabilities do not lift it.
//!
//! ## Why Landlock
//!
//! - **Landlock** (here) is an unprivileged, stackable LSM: a process restricts itself
//!   and everything it starts, for good, with an allow-list of file hierarchies. It needs
//!   no setuid helper, no user namespaces (often disabled, or restricted by AppArmor on
//!   Ubuntu), no mount table, and works the same for root and for other users. Its
//!   domain also scopes ptrace, which is what keeps `/proc/<runner>/mem` shut.
//! - **User namespaces** (unshare + bind mounts, or `pivot_root`) could hide `.sys/`
//!   outright, but fail where unprivileged namespaces are off (many distributions,
//!   containers), and as root need care not to keep capabilities in the parent
//!   namespace; the bookkeeping (mounts, `/proc`, uid maps) is much larger.
//! - **bubblewrap** would do the namespace work for us, but is an external program the
//!   operator must install (and a setuid one on older systems); dreamwatch stays one
//!   binary.
//!
//! What Landlock (up to ABI 8) cannot do is deny `connect(2)` to a Unix socket by path: the
//! creature can reach `.sys/control.sock`. So the socket asks for the operator's token,
//! kept in `.sys/control.token`, which the sandbox does not let the creature read (see
//! `runner::socket`).
//!
//! ## Applying it: a ruleset built in the parent, enforced in the child
//!
//! The ruleset (opening each path, `landlock_create_ruleset`, `landlock_add_rule`) is
//! built in the runner, where allocation and errors are ordinary. The forked child only
//! makes two system calls before `exec` (`prctl(PR_SET_NO_NEW_PRIVS)` and
//! `landlock_restrict_self` on the inherited ruleset descriptor) in
//! `CommandExt::pre_exec`: both are async-signal-safe and allocate nothing, which is
//! what a child forked from a multithreaded process may do. A re-exec of our own binary
//! as a helper would do the same with one more exec, and would not work from test
//! binaries or for a library user hosting a creature.
//!
//! Where the kernel has no Landlock (or one older than ABI 3, Linux 6.2, which cannot
//! stop truncation), the runner says so in its log and in `.sys/runner.json`, and
//! refuses to run the creature's commands at all, unless the operator chose to run them
//! unconfined (`--unconfined`, or `unconfined_tools = true` in `[runner]`).

use std::fmt;
use std::io;
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::fs::FileTypeExt;
use std::path::{Path, PathBuf};

use landlock::{
    ABI, Access, AccessFs, BitFlags, CompatLevel, Compatible, PathBeneath, PathFd, Ruleset,
    RulesetAttr, RulesetCreated, RulesetCreatedAttr, Scope,
};

use crate::memory::layout::SYS_DIR;

/// The creature's working directory, where it may write.
pub const WORKSPACE: &str = "workspace";

/// The creature's temporary files (`TMPDIR`), inside [`WORKSPACE`].
pub const TMP: &str = "workspace/.tmp";

/// Files of the creature's directory that it is told it may rewrite.
pub const WRITABLE_FILES: &[&str] = &["PURPOSE.md"];

/// What the creature's commands may read (and run) of the system, where present.
pub const SYSTEM_READ: &[&str] = &[
    "/usr",
    "/bin",
    "/sbin",
    "/lib",
    "/lib32",
    "/lib64",
    "/libx32",
    "/etc",
    "/opt",
    "/nix/store",
    "/sys",
    // Where /etc/resolv.conf points under systemd-resolved.
    "/run/systemd/resolve",
];

/// The runner's `PATH` as the creature's commands get it: the directories the sandbox
/// lets them read (under [`SYSTEM_READ`]), in order, each once. A program installed under
/// the operator's home (`~/.cargo/bin`, pyenv's shims) could not run there, and would hide
/// the system's (`python3`) behind a "Permission denied".
pub fn confined_path(path: &std::ffi::OsStr) -> std::ffi::OsString {
    let mut kept: Vec<PathBuf> = Vec::new();
    for entry in std::env::split_paths(path) {
        let readable = SYSTEM_READ
            .iter()
            .any(|root| entry.is_absolute() && entry.starts_with(root));
        if readable && !kept.contains(&entry) {
            kept.push(entry);
        }
    }
    if kept.is_empty() {
        kept = ["/usr/local/bin", "/usr/bin", "/bin"]
            .iter()
            .map(PathBuf::from)
            .collect();
    }
    std::env::join_paths(kept).unwrap_or_else(|_| "/usr/local/bin:/usr/bin:/bin".into())
}

/// What the creature's commands may read of `/proc`: the system's figures, never a
/// process's directory. Landlock keeps a sandboxed process from ptrace-level access to
/// processes outside it (`/proc/<pid>/mem`, `fd/`, `root/`, `exe`, `io`), but on the
/// kernels tried (6.18) `environ`, `auxv` and `maps` of another process stay readable
/// through it, so no `/proc/<pid>/` is granted at all (its own neither: `ps` does not
/// work in the sandbox).
const PROC_READ: &[&str] = &[
    "/proc/cpuinfo",
    "/proc/meminfo",
    "/proc/loadavg",
    "/proc/uptime",
    "/proc/stat",
    "/proc/version",
    "/proc/filesystems",
    "/proc/sys",
];

/// Devices a command may read and write (`> /dev/null`).
const DEVICES: &[&str] = &[
    "/dev/null",
    "/dev/zero",
    "/dev/full",
    "/dev/random",
    "/dev/urandom",
    "/dev/tty",
];

/// The oldest Landlock ABI the runner confines with: ABI 3 (Linux 6.2) also controls
/// truncation, without which a command could empty any file it may read.
pub const MIN_ABI: i32 = 3;

/// The newest ABI whose rights are asked for (best effort on older kernels).
const ABI_USED: ABI = ABI::V7;

/// At most this many entries of the creature's directory get a rule of their own.
const MAX_ENTRIES: usize = 4096;

/// What the operator chose for the creature's tools.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Sandbox {
    /// Confined by Landlock; refused where the kernel cannot.
    #[default]
    Landlock,
    /// Run as the runner's user, unconfined (`--unconfined`).
    Unconfined,
}

impl Sandbox {
    /// What this choice gives on this kernel.
    pub fn state(self) -> SandboxState {
        match self {
            Sandbox::Unconfined => SandboxState::Unconfined,
            Sandbox::Landlock => match landlock_abi() {
                abi if abi >= MIN_ABI => SandboxState::Confined { abi },
                abi => SandboxState::Refused { abi },
            },
        }
    }
}

/// Whether the creature's commands run, and how.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SandboxState {
    /// Confined by Landlock of this ABI.
    Confined { abi: i32 },
    /// The kernel cannot confine them (Landlock ABI `abi`, 0 or less: none), so they are
    /// refused.
    Refused { abi: i32 },
    /// The operator chose to run them unconfined.
    Unconfined,
}

impl SandboxState {
    /// A short word for `.sys/runner.json`'s `tools`.
    pub fn word(self) -> String {
        match self {
            SandboxState::Confined { abi } => format!("confined (Landlock ABI {abi})"),
            SandboxState::Refused { .. } => "refused (no Landlock)".into(),
            SandboxState::Unconfined => "unconfined".into(),
        }
    }
}

impl fmt::Display for SandboxState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SandboxState::Confined { abi } => write!(
                f,
                "the creature's commands are confined by Landlock (ABI {abi}): they write only \
                 in {WORKSPACE}/ and PURPOSE.md, never in {SYS_DIR}/"
            ),
            SandboxState::Refused { abi } => write!(
                f,
                "this kernel cannot confine the creature's commands ({}): they are refused; \
                 start the runner with --unconfined (or unconfined_tools = true in [runner]) \
                 to run them as the runner's user, with access to everything it can reach",
                describe_abi(*abi)
            ),
            SandboxState::Unconfined => write!(
                f,
                "the creature's commands run unconfined (--unconfined): they can reach \
                 everything the runner's user can, the control token included"
            ),
        }
    }
}

fn describe_abi(abi: i32) -> String {
    if abi <= 0 {
        "no Landlock: a kernel before 5.13, built without it, not enabled at boot (lsm=), or \
         blocked by a seccomp filter"
            .into()
    } else {
        format!("Landlock ABI {abi}, older than the ABI {MIN_ABI} (Linux 6.2) needed")
    }
}

/// Why the creature's commands cannot be confined now.
#[derive(Debug, thiserror::Error)]
pub enum SandboxError {
    #[error("this kernel cannot confine the creature's commands ({})", describe_abi(*.0))]
    Unavailable(i32),
    #[error("cannot build the sandbox's rules: {0}")]
    Ruleset(#[from] landlock::RulesetError),
    #[error("cannot prepare {}: {source}", path.display())]
    Io { path: PathBuf, source: io::Error },
}

/// The Landlock ABI of the running kernel; 0 or less where it has none.
pub fn landlock_abi() -> i32 {
    const LANDLOCK_CREATE_RULESET_VERSION: libc::c_uint = 1;
    // SAFETY: landlock_create_ruleset(NULL, 0, VERSION) only returns the ABI version (or
    // -1 with errno); it reads no memory and creates nothing.
    let abi = unsafe {
        libc::syscall(
            libc::SYS_landlock_create_ruleset,
            std::ptr::null::<libc::c_void>(),
            0usize,
            LANDLOCK_CREATE_RULESET_VERSION,
        )
    };
    i32::try_from(abi).unwrap_or(0)
}

/// A ruleset for one command of the creature in `dir`, ready to be enforced in the
/// child ([`Confinement::install`]).
pub struct Confinement {
    ruleset: OwnedFd,
}

impl fmt::Debug for Confinement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Confinement").finish_non_exhaustive()
    }
}

impl Confinement {
    /// Builds the rules for the creature in `dir` (see the module doc), creating its
    /// workspace and `TMPDIR` when missing.
    pub fn build(dir: &Path) -> Result<Self, SandboxError> {
        let abi = landlock_abi();
        if abi < MIN_ABI {
            return Err(SandboxError::Unavailable(abi));
        }
        let tmp = dir.join(TMP);
        std::fs::create_dir_all(&tmp).map_err(|source| SandboxError::Io {
            path: tmp.clone(),
            source,
        })?;
        let read = AccessFs::from_read(ABI_USED);
        let all = AccessFs::from_all(ABI_USED);
        let file_rights = AccessFs::from_file(ABI_USED);
        let mut ruleset = Ruleset::default()
            .set_compatibility(CompatLevel::HardRequirement)
            .handle_access(AccessFs::from_all(ABI::V3))?
            .set_compatibility(CompatLevel::BestEffort)
            .handle_access(all)?
            .scope(Scope::from_all(ABI_USED))?
            .create()?;
        for path in SYSTEM_READ.iter().chain(PROC_READ) {
            ruleset = add(ruleset, Path::new(path), read)?;
        }
        for path in DEVICES {
            ruleset = add(
                ruleset,
                Path::new(path),
                AccessFs::ReadFile | AccessFs::WriteFile | AccessFs::Truncate | AccessFs::IoctlDev,
            )?;
        }
        // The directory itself: listing (inherited by every directory beneath it, `.sys/`
        // too), nothing else; each entry but `.sys/` gets its rights below.
        ruleset = add(ruleset, dir, BitFlags::from(AccessFs::ReadDir))?;
        let entries = std::fs::read_dir(dir).map_err(|source| SandboxError::Io {
            path: dir.to_path_buf(),
            source,
        })?;
        for entry in entries.flatten().take(MAX_ENTRIES) {
            let name = entry.file_name();
            if name == SYS_DIR {
                continue;
            }
            // A symlink would grant what it points to: never followed.
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            let rights = if kind.is_dir() {
                if name == WORKSPACE { all } else { read }
            } else if kind.is_file() || kind.is_fifo() {
                let mut rights = read & file_rights;
                if WRITABLE_FILES.iter().any(|w| name == *w) {
                    rights |= AccessFs::WriteFile | AccessFs::Truncate;
                }
                rights
            } else {
                continue;
            };
            ruleset = add(ruleset, &entry.path(), rights)?;
        }
        let ruleset: Option<OwnedFd> = ruleset.into();
        match ruleset {
            Some(ruleset) => Ok(Self { ruleset }),
            None => Err(SandboxError::Unavailable(abi)),
        }
    }

    /// Makes `cmd`'s child enforce the rules before it execs. Keep `self` alive until
    /// the child is spawned.
    pub fn install(&self, cmd: &mut tokio::process::Command) {
        let fd = self.ruleset.as_raw_fd();
        // SAFETY: the closure runs in the forked child before exec and only makes two
        // async-signal-safe system calls on integers (no allocation, no lock): `fd` is
        // the ruleset descriptor, open in the child because `self` outlives the spawn
        // (it is close-on-exec, so the shell does not inherit it).
        unsafe {
            cmd.pre_exec(move || enforce(fd));
        }
    }
}

/// In the child: no new privileges (no setuid escape), then the Landlock domain.
fn enforce(fd: libc::c_int) -> io::Result<()> {
    // SAFETY: prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) changes a flag of this process only.
    if unsafe { libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) } != 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: landlock_restrict_self(fd, 0) reads nothing from our memory; `fd` is a
    // ruleset descriptor the parent keeps open until the spawn returns.
    if unsafe { libc::syscall(libc::SYS_landlock_restrict_self, fd, 0u32) } != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// Adds a rule for `path` when it exists (a missing system directory is no error).
fn add(
    ruleset: RulesetCreated,
    path: &Path,
    rights: BitFlags<AccessFs>,
) -> Result<RulesetCreated, SandboxError> {
    let fd = match PathFd::new(path) {
        Ok(fd) => fd,
        Err(_) if std::fs::symlink_metadata(path).is_err() => return Ok(ruleset),
        Err(e) => {
            return Err(SandboxError::Io {
                path: path.to_path_buf(),
                source: io::Error::other(e),
            });
        }
    };
    let rights = match std::fs::metadata(path) {
        Ok(m) if !m.is_dir() => rights & AccessFs::from_file(ABI_USED),
        _ => rights,
    };
    Ok(ruleset.add_rule(PathBeneath::new(fd, rights))?)
}

/// The note the runner adds to a confined command's result when something was refused,
/// so the model does not try again.
pub const REFUSED_NOTE: &str = "[sandbox: your commands may write only in workspace/ (and \
rewrite PURPOSE.md); writing anywhere else, reading .sys/ (the runner's) or anything outside \
your directory and the system's programs, and touching other processes are refused by the \
sandbox. This is deliberate and will not change: do not retry, work in workspace/.]";

/// Whether a command's output shows a refusal the sandbox may have caused.
pub fn looks_refused(text: &str) -> bool {
    text.contains("Permission denied")
        || text.contains("Operation not permitted")
        || text.contains("PermissionError")
        || text.contains("Invalid cross-device link")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn states_say_what_happens() {
        assert!(
            SandboxState::Refused { abi: -1 }
                .to_string()
                .contains("--unconfined")
        );
        assert!(
            SandboxState::Confined { abi: 7 }
                .to_string()
                .contains("workspace/")
        );
        assert_eq!(Sandbox::Unconfined.state(), SandboxState::Unconfined);
        assert!(looks_refused("bash: x: Permission denied"));
        assert!(!looks_refused("all good"));
        assert_eq!(
            confined_path(
                "/root/.cargo/bin:/usr/local/bin:relative:/usr/bin:/usr/bin:/bin".as_ref()
            ),
            "/usr/local/bin:/usr/bin:/bin"
        );
        assert_eq!(
            confined_path("/root/bin".as_ref()),
            "/usr/local/bin:/usr/bin:/bin"
        );
    }
}
