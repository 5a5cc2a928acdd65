//! The real watcher on a temporary garden: appends, new and removed creatures.

use std::fs;
use std::io::Write;
use std::time::Duration;

use dreamwatch::memory::creature::Change;
use dreamwatch::memory::garden::Root;
use dreamwatch::watch::{LiveChange, LiveGarden, WatchMode, WatchOptions};
use tokio::time::timeout;

async fn until<F: FnMut(&LiveChange) -> bool>(
    live: &mut LiveGarden,
    rx: &mut tokio::sync::mpsc::UnboundedReceiver<dreamwatch::watch::WatchBatch>,
    mut wanted: F,
) -> bool {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while let Ok(Some(batch)) = timeout(deadline - tokio::time::Instant::now(), rx.recv()).await {
        if live.apply(&batch).iter().any(&mut wanted) {
            return true;
        }
    }
    false
}

fn options(force_poll: bool) -> WatchOptions {
    WatchOptions {
        poll_interval: Some(Duration::from_millis(if force_poll { 50 } else { 5_000 })),
        force_poll,
        ..WatchOptions::default()
    }
}

async fn garden_follows_changes(force_poll: bool) {
    let dir = tempfile::tempdir().unwrap();
    let garden = dir.path().to_path_buf();
    fs::create_dir_all(garden.join("ada/.self")).unwrap();
    let (mut live, mut rx) =
        LiveGarden::open(vec![Root::Garden(garden.clone())], options(force_poll));
    assert_eq!(live.creatures().len(), 1);
    assert_eq!(
        live.watch_mode(),
        if force_poll {
            WatchMode::Polling
        } else {
            WatchMode::Events
        }
    );

    let obs = garden.join("ada/.self/observations.md");
    let mut f = fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&obs)
        .unwrap();
    f.write_all(b"## 2026-03-01\nRED 10:00 watch me\n").unwrap();
    drop(f);
    let seen = until(&mut live, &mut rx, |c| {
        matches!(c, LiveChange::Changed(_, changes) if changes.iter().any(|ch| matches!(ch, Change::ObservationsAdded(o) if o[0].text == "watch me")))
    })
    .await;
    assert!(seen, "appended observation not seen");

    // A creature appears (its .self/ created after its directory), then disappears.
    fs::create_dir_all(garden.join("bob")).unwrap();
    fs::create_dir_all(garden.join("bob/.self")).unwrap();
    let added = until(
        &mut live,
        &mut rx,
        |c| matches!(c, LiveChange::Added(p) if p.ends_with("bob")),
    )
    .await;
    assert!(added, "new creature not seen");

    // The new creature's files are followed too.
    fs::write(
        garden.join("bob/.self/dreams.jsonl"),
        "{\"t\":\"2026-03-01T10:00:00Z\",\"deep\":false}\n",
    )
    .unwrap();
    let dreamed = until(&mut live, &mut rx, |c| {
        matches!(c, LiveChange::Changed(p, changes) if p.ends_with("bob") && changes.iter().any(|ch| matches!(ch, Change::Dream(_))))
    })
    .await;
    assert!(dreamed, "new creature's dream not seen");

    fs::remove_dir_all(garden.join("ada")).unwrap();
    let removed = until(
        &mut live,
        &mut rx,
        |c| matches!(c, LiveChange::Removed(p) if p.ends_with("ada")),
    )
    .await;
    assert!(removed, "removed creature not seen");
}

#[tokio::test]
async fn with_filesystem_events() {
    garden_follows_changes(false).await;
}

#[tokio::test]
async fn with_polling_only() {
    garden_follows_changes(true).await;
}

/// The observatory's model of a garden whose creature has a FIFO and links to
/// `/dev/zero` for files: it opens (each bad file a problem) instead of hanging.
#[test]
fn hostile_files_do_not_hang_the_live_garden() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("hostile");
    fs::create_dir_all(root.join(".self")).unwrap();
    fs::create_dir_all(root.join(".sys")).unwrap();
    for file in ["BIRTH.json", ".self/diary.md", ".sys/sleep.json"] {
        std::os::unix::fs::symlink("/dev/zero", root.join(file)).unwrap();
    }
    for file in [".self/observations.md", ".self/conversation.jsonl"] {
        let status = std::process::Command::new("mkfifo")
            .arg(root.join(file))
            .status()
            .unwrap();
        assert!(status.success());
    }
    let (tx, rx) = std::sync::mpsc::channel();
    let garden = dir.path().to_path_buf();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let _guard = runtime.enter();
        let (live, _rx) = LiveGarden::open(vec![Root::Garden(garden)], options(true));
        let problems: Vec<String> = live
            .creatures()
            .values()
            .flat_map(|c| c.problems().iter().map(|p| p.file.clone()))
            .collect();
        let _ = tx.send(problems);
    });
    let problems = rx
        .recv_timeout(Duration::from_secs(60))
        .expect("the live garden hung on a FIFO or /dev/zero");
    for file in [
        "BIRTH.json",
        ".self/diary.md",
        ".sys/sleep.json",
        ".self/observations.md",
        ".self/conversation.jsonl",
    ] {
        assert!(problems.iter().any(|p| p == file), "{file}: {problems:?}");
    }
}
