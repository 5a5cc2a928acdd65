//! At rest the observatory does no filesystem work: once its garden is read and nothing
//! changes, not one read (counted by the kernel in `/proc/PID/io`) in a window where its
//! poller, were it ticking, would have ticked many times; an append still shows.

use std::path::Path;
use std::time::Duration;

use crate::common::proc_io::reads_of;
use crate::common::ui::{Garden, append};
use crate::support::{Pane, tmux_available};
use crate::tmux::observatory_pid;

#[test]
fn an_idle_observatory_reads_nothing() {
    if !tmux_available() {
        return;
    }
    let garden = Garden::new();
    let ember = garden.creature("ember");
    let pane = Pane::start(&[&ember, Path::new("--poll-ms"), Path::new("50")]);
    pane.wait_text("Observations");
    let pid = observatory_pid(&pane).expect("the observatory's pid");
    // Whatever the start left to do (counts, the watched history) is done within a
    // moment; then nothing changes.
    std::thread::sleep(Duration::from_secs(2));
    let before = reads_of(pid);
    std::thread::sleep(Duration::from_millis(1500));
    let after = reads_of(pid);
    assert_eq!(
        after, before,
        "the observatory read something in 1.5 s where nothing changed (its poller ticks every 50 ms)"
    );
    append(
        &ember.join(".self/observations.md"),
        "YLW 17:59 still followed at rest\n",
    );
    pane.wait_text("still followed at rest");
}
