//! What the kernel counts of a process's input and output (`/proc/PID/io`): a process
//! at rest reads nothing, whatever it reads (a stat does not count; every look at a
//! file's content, a wake-up's eventfd and a directory listing do).

/// The read syscalls process `pid` made so far (`syscr`).
pub fn reads_of(pid: u32) -> u64 {
    let io = std::fs::read_to_string(format!("/proc/{pid}/io")).expect("/proc/PID/io");
    io.lines()
        .find_map(|l| l.strip_prefix("syscr: "))
        .and_then(|n| n.trim().parse().ok())
        .expect("syscr in /proc/PID/io")
}
