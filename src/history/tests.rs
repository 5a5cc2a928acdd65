use chrono::TimeZone;

use super::*;
use crate::memory::dream_diff::ObsLine;

fn at(min: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 3, 1, 10, min, 0).unwrap()
}

const FULL: &str = "## 2026-03-01\nRED 09:00 keep\nGRN 09:01 weather\nYLW 09:02 slow api\n";
const PRUNED: &str = "## 2026-03-01\nRED 09:00 keep\n";

fn pruned_lines(r: &DiffRecord) -> Vec<String> {
    match &r.changes {
        FileChanges::Observations(o) => o.pruned.iter().map(|l| l.text.clone()).collect(),
        FileChanges::Lines(_) => Vec::new(),
    }
}

#[test]
fn a_pruning_seen_is_kept_and_still_there_after_a_restart() {
    let store = tempfile::tempdir().unwrap();
    let creature = tempfile::tempdir().unwrap();
    let h = History::new(store.path().join("history"), DEFAULT_LIMIT);
    // The first look ever knows nothing of before.
    assert_eq!(
        h.observe(creature.path(), "observations.md", FULL, at(0), true)
            .unwrap(),
        None
    );
    let r = h
        .observe(creature.path(), "observations.md", PRUNED, at(5), false)
        .unwrap()
        .unwrap();
    assert_eq!(
        pruned_lines(&r),
        ["GRN 09:01 weather", "YLW 09:02 slow api"]
    );
    assert_eq!((r.t, r.since), (Some(at(5)), None));
    // A restart: another store value over the same folder.
    let again = History::new(store.path().join("history"), DEFAULT_LIMIT);
    let loaded = again.load(creature.path());
    assert_eq!(loaded.dropped, None);
    assert_eq!(again.records_or_drop(creature.path()), Ok(vec![r]));
    assert_eq!(loaded.since, Some(at(0)));
    // Nothing of the store is inside the creature.
    assert_eq!(std::fs::read_dir(creature.path()).unwrap().count(), 0);
}

#[test]
fn a_change_made_while_nothing_watched_says_since_when() {
    let store = tempfile::tempdir().unwrap();
    let creature = tempfile::tempdir().unwrap();
    let h = History::new(store.path().to_path_buf(), DEFAULT_LIMIT);
    h.observe(creature.path(), "rules.md", "- NEVER: x\n", at(0), true)
        .unwrap();
    // Stopped; the rules were rewritten; started again.
    let r = h
        .observe(creature.path(), "rules.md", "- NEVER: y\n", at(30), true)
        .unwrap()
        .unwrap();
    assert_eq!((r.since, r.t), (Some(at(0)), Some(at(30))));
    // The same text again is no change.
    assert_eq!(
        h.observe(creature.path(), "rules.md", "- NEVER: y\n", at(31), false)
            .unwrap(),
        None
    );
}

#[test]
fn corrupt_history_is_dropped_with_a_message_and_the_creature_untouched() {
    let store = tempfile::tempdir().unwrap();
    let creature = tempfile::tempdir().unwrap();
    std::fs::create_dir(creature.path().join(".self")).unwrap();
    std::fs::write(creature.path().join(".self/observations.md"), FULL).unwrap();
    let h = History::new(store.path().to_path_buf(), DEFAULT_LIMIT);
    h.observe(creature.path(), "observations.md", FULL, at(0), true)
        .unwrap();
    h.observe(creature.path(), "observations.md", PRUNED, at(1), false)
        .unwrap();
    let dir = h.dir_of(creature.path());
    std::fs::write(dir.join("changes.jsonl"), "{\"half a line\n").unwrap();
    // Its first sight reads only its state; the record of changes is read when asked for.
    assert_eq!(h.load(creature.path()).dropped, None);
    let why = h.records_or_drop(creature.path()).unwrap_err();
    assert!(
        why.contains("could not be read") && why.contains("untouched"),
        "{why}"
    );
    assert!(!dir.exists());
    assert_eq!(
        std::fs::read_to_string(creature.path().join(".self/observations.md")).unwrap(),
        FULL
    );
    // A state file that is not JSON is dropped too; then the store starts afresh.
    h.observe(creature.path(), "observations.md", FULL, at(2), true)
        .unwrap();
    std::fs::write(dir.join("state.json"), [0xff, 0x00]).unwrap();
    assert!(h.load(creature.path()).dropped.is_some());
    assert_eq!(h.load(creature.path()), Loaded::default());
}

#[test]
fn the_store_stays_within_its_bound() {
    let store = tempfile::tempdir().unwrap();
    let limit = 16 * 1024;
    let h = History::new(store.path().to_path_buf(), limit);
    let a = tempfile::tempdir().unwrap();
    // Many changes: the record keeps its newest half each time it passes an eighth.
    for i in 0..400u32 {
        let text = format!("## 2026-03-01\nGRN 10:00 fact {i}\n");
        h.observe(a.path(), "observations.md", &text, at(i % 60), false)
            .unwrap();
    }
    let records = h.records_or_drop(a.path()).unwrap();
    assert!(!records.is_empty());
    let last = &records[records.len() - 1];
    let FileChanges::Observations(o) = &last.changes else {
        panic!("{last:?}");
    };
    assert_eq!(
        o.added,
        [ObsLine {
            text: "GRN 10:00 fact 399".into(),
            under: Some("2026-03-01".into())
        }]
    );
    assert!(size_of(&h.dir_of(a.path())) <= limit / 4 + 1024);
    // The versions' bytes as counted through every version kept and forgotten are the
    // bytes listed.
    let dir = h.dir_of(a.path());
    let versions = h.versions(&dir);
    assert_eq!(h.blob_bytes(&dir, &versions), versions.blob_bytes());
    // A file larger than its share is not kept.
    let big = "GRN 10:00 x\n".repeat(2000);
    h.observe(a.path(), "diary.md", &big, at(0), false).unwrap();
    assert!(!h.dir_of(a.path()).join("snap/diary.md").exists());
    // Other creatures push the oldest folders out: the whole stays within the bound.
    for n in 0..12 {
        let c = store.path().join(format!("elsewhere-{n}"));
        let text = format!("## 2026-03-01\n{}", "GRN 10:00 y\n".repeat(150));
        h.observe(&c, "observations.md", &text, at(0), true)
            .unwrap();
    }
    let total: u64 = std::fs::read_dir(store.path())
        .unwrap()
        .flatten()
        .map(|e| size_of(&e.path()))
        .sum();
    assert!(total <= limit, "{total}");
}

#[test]
fn the_versions_are_counted_not_listed_at_every_change() {
    let store = tempfile::tempdir().unwrap();
    let h = History::new(store.path().to_path_buf(), DEFAULT_LIMIT);
    let a = tempfile::tempdir().unwrap();
    h.observe(a.path(), "rules.md", "- one\n", at(0), true)
        .unwrap();
    let dir = h.dir_of(a.path());
    let versions = h.versions(&dir);
    // A file another process wrote there is not listed at the next change.
    std::fs::write(dir.join(moments::BLOBS).join("elsewhere"), [b'x'; 100]).unwrap();
    h.observe(a.path(), "rules.md", "- two\n", at(1), false)
        .unwrap();
    let counted = h.blob_bytes(&dir, &versions);
    assert_eq!(counted, 12);
    assert_eq!(versions.blob_bytes(), 112);
}

#[test]
fn a_store_inside_the_creature_is_refused() {
    let creature = tempfile::tempdir().unwrap();
    let h = History::new(creature.path().join(".cache/history"), DEFAULT_LIMIT);
    let e = h
        .observe(creature.path(), "observations.md", FULL, at(0), true)
        .unwrap_err();
    assert!(matches!(e, HistoryError::InsideCreature { .. }));
    assert!(!creature.path().join(".cache").exists());
}

/// The state directory and the store are the operator's alone whatever the umask: 0700
/// directories, 0600 files, those an older version made loosely tightened (issue 26).
#[test]
fn the_store_is_private_whatever_the_umask() {
    use std::os::unix::fs::PermissionsExt;
    let base = tempfile::tempdir().unwrap();
    let creature = tempfile::tempdir().unwrap();
    let state = base.path().join("state/dreamwatch");
    std::fs::create_dir_all(&state).unwrap();
    std::fs::set_permissions(&state, std::fs::Permissions::from_mode(0o755)).unwrap();
    // SAFETY: umask only sets the process's file mode mask (each test is a process of
    // its own under nextest).
    let old = unsafe { libc::umask(0) };
    let h = History::new(state.join("history"), DEFAULT_LIMIT);
    h.observe(creature.path(), "observations.md", FULL, at(0), true)
        .unwrap();
    let r = h.observe(creature.path(), "observations.md", PRUNED, at(5), false);
    // SAFETY: as above, the mask the process had.
    unsafe { libc::umask(old) };
    assert!(r.unwrap().is_some());
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    let folder = h.dir_of(creature.path());
    for dir in [
        state.clone(),
        state.join("history"),
        folder.clone(),
        folder.join("snap"),
    ] {
        assert_eq!(mode(&dir), 0o700, "{}", dir.display());
    }
    for file in [
        folder.join("changes.jsonl"),
        folder.join("state.json"),
        folder.join("snap/observations.md"),
    ] {
        assert_eq!(mode(&file), 0o600, "{}", file.display());
    }
}

#[test]
fn the_same_text_seen_again_is_not_written_again_only_its_stamp() {
    use std::os::unix::fs::MetadataExt;
    let store = tempfile::tempdir().unwrap();
    let creature = tempfile::tempdir().unwrap();
    let h = History::new(store.path().join("history"), DEFAULT_LIMIT);
    let stamp = |len| Stamp { len, mtime: (1, 0) };
    h.observe_stamped(
        creature.path(),
        "observations.md",
        FULL,
        Some(stamp(1)),
        at(0),
        true,
    )
    .unwrap();
    let snap = h.dir_of(creature.path()).join("snap/observations.md");
    let inode = std::fs::metadata(&snap).unwrap().ino();
    // A far copy made again: the same text in a file stamped anew.
    let again = h
        .observe_stamped(
            creature.path(),
            "observations.md",
            FULL,
            Some(stamp(2)),
            at(1),
            true,
        )
        .unwrap();
    assert_eq!(again, None);
    assert_eq!(
        std::fs::metadata(&snap).unwrap().ino(),
        inode,
        "not written again"
    );
    let loaded = h.load(creature.path());
    assert_eq!(loaded.stamps.get("observations.md"), Some(&stamp(2)));
}

#[test]
fn a_text_kept_as_a_version_is_written_once_and_outlives_the_version() {
    use std::os::unix::fs::MetadataExt;
    let store = tempfile::tempdir().unwrap();
    let creature = tempfile::tempdir().unwrap();
    let h = History::new(store.path().join("history"), DEFAULT_LIMIT);
    h.observe(creature.path(), "observations.md", FULL, at(0), true)
        .unwrap();
    h.observe(creature.path(), "observations.md", PRUNED, at(5), false)
        .unwrap();
    let dir = h.dir_of(creature.path());
    let snap = dir.join("snap/observations.md");
    let blob = h
        .versions_of(creature.path())
        .blob_path(&moments::hash(PRUNED.as_bytes()));
    let (snap_meta, blob_meta) = (
        std::fs::metadata(&snap).unwrap(),
        std::fs::metadata(&blob).unwrap(),
    );
    assert_eq!(
        snap_meta.ino(),
        blob_meta.ino(),
        "the snapshot is the version's file"
    );
    assert_eq!(snap_meta.mode() & 0o777, 0o600);
    // The versions forgotten, the snapshot is still the text last seen.
    std::fs::remove_dir_all(dir.join(moments::BLOBS)).unwrap();
    assert_eq!(std::fs::read_to_string(&snap).unwrap(), PRUNED);
    let r = h
        .observe(creature.path(), "observations.md", FULL, at(9), false)
        .unwrap()
        .unwrap();
    assert!(pruned_lines(&r).is_empty());
}

/// A large file that only grows is hashed from where it was and kept as what it grew
/// from and what was added: every version is named by the SHA-256 of its whole text and
/// read back whole, its snapshot is appended to in place, and a snapshot that is not the
/// text hashed last (another observatory wrote it) is hashed from its start.
#[test]
fn a_growing_file_is_kept_as_what_it_grew_from_and_read_back_whole() {
    use std::os::unix::fs::MetadataExt;
    let store = tempfile::tempdir().unwrap();
    let creature = tempfile::tempdir().unwrap();
    let h = History::new(store.path().join("history"), DEFAULT_LIMIT);
    let line = |n: usize| format!("GRN 09:00 observation number {n}\n");
    let mut text: String = (0..3000).map(line).collect();
    assert!(text.len() >= running::RUNNING_FROM);
    h.observe(creature.path(), "observations.md", &text, at(0), true)
        .unwrap();
    text.push_str(&line(3000));
    h.observe(creature.path(), "observations.md", &text, at(1), false)
        .unwrap();
    let dir = h.dir_of(creature.path());
    let snap = dir.join("snap/observations.md");
    let inode = std::fs::metadata(&snap).unwrap().ino();
    let versions = h.versions_of(creature.path());
    let whole_bytes = versions.blob_bytes();
    for n in 3001..3004 {
        text.push_str(&line(n));
        h.observe(creature.path(), "observations.md", &text, at(2), false)
            .unwrap();
        let last = versions.moments().pop().unwrap();
        let hash = last.docs[".self/observations.md"].clone().unwrap();
        assert_eq!(hash, moments::hash(text.as_bytes()));
        assert_eq!(versions.text(&hash).unwrap(), text.as_bytes());
        assert_eq!(std::fs::read_to_string(&snap).unwrap(), text);
    }
    assert_eq!(
        std::fs::metadata(&snap).unwrap().ino(),
        inode,
        "appended in place"
    );
    let grown = versions.blob_bytes() - whole_bytes;
    assert!(grown < 3 * 200, "{grown} bytes for three lines");
    // The snapshot written by someone else, of the same length: not the text hashed.
    let other = text.replace("number 1\n", "number 7\n");
    assert_eq!(other.len(), text.len());
    std::fs::write(&snap, &other).unwrap();
    let grown = format!("{other}{}", line(9000));
    let key = (dir.clone(), "observations.md".to_string());
    let hashed = h.running.hash(key.clone(), Some(&other), &grown);
    assert_eq!(hashed.hash, moments::hash(grown.as_bytes()));
    assert_eq!(hashed.grew_from, None);
    assert_eq!(h.running.len_of(&key), Some(grown.len()));
    // A small text keeps no running hash.
    let small = (dir, "small.md".to_string());
    h.running.hash(small.clone(), None, "RED a\n");
    assert_eq!(h.running.len_of(&small), None);
}
