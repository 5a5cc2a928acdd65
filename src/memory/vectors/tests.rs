//! The vector file on temp directories: round trip, torn tails, bad headers, tombstones,
//! hostile files.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use super::file::{HEADER_BYTES, MAGIC};
use super::*;

fn temp() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("semantic.vectors");
    (dir, path)
}

fn store_with(path: &Path, rows: &[(&str, [f32; 4])]) -> VectorStore {
    let (mut store, _) = VectorStore::open(path).unwrap();
    for (id, v) in rows {
        store.add(id, "test-model", v).unwrap();
    }
    store
}

fn record_bytes() -> u64 {
    16 + 4 + 4 * 4
}

#[test]
fn a_missing_file_is_an_empty_store_and_the_first_add_creates_it() {
    let (_dir, path) = temp();
    let (store, report) = VectorStore::open(&path).unwrap();
    assert!(store.index().is_empty() && store.model().is_none());
    assert_eq!(report, LoadReport::default());
    assert!(!path.exists());
    assert!(
        store
            .index()
            .search(&[1.0; 7], 3, |_| true)
            .unwrap()
            .is_empty()
    );
    let store = store_with(&path, &[("m1", [1.0, 0.0, 0.0, 0.0])]);
    assert_eq!(store.model(), Some("test-model"));
    assert_eq!(
        fs::metadata(&path).unwrap().len(),
        HEADER_BYTES as u64 + record_bytes()
    );
}

#[test]
fn vectors_come_back_as_written() {
    let (_dir, path) = temp();
    let store = store_with(
        &path,
        &[
            ("m1", [3.0, 4.0, 0.0, 0.0]),
            ("m2", [0.0, 0.0, 1.0, 0.0]),
            ("sixteen-bytes-ok", [0.0, 0.0, 0.0, -2.0]),
        ],
    );
    let loaded = load(&path).unwrap();
    assert_eq!(loaded.index, *store.index());
    assert_eq!(
        loaded.header,
        Some(Header {
            model: "test-model".into(),
            dims: 4
        })
    );
    assert_eq!(loaded.report.records, 3);
    assert_eq!(loaded.index.get("m1"), Some(&[0.6, 0.8, 0.0, 0.0][..]));
    assert_eq!(
        loaded.index.ids().collect::<Vec<_>>(),
        ["m1", "m2", "sixteen-bytes-ok"]
    );
}

#[test]
fn forgotten_and_replaced_vectors_stay_so_after_a_reload() {
    let (_dir, path) = temp();
    let mut store = store_with(
        &path,
        &[("m1", [1.0, 0.0, 0.0, 0.0]), ("m2", [0.0, 1.0, 0.0, 0.0])],
    );
    assert!(store.forget("m1").unwrap());
    assert!(!store.forget("m1").unwrap());
    assert!(!store.forget("never").unwrap());
    store
        .add("m2", "test-model", &[0.0, 0.0, 1.0, 0.0])
        .unwrap();
    let (reopened, report) = VectorStore::open(&path).unwrap();
    assert_eq!(report.records, 4);
    assert!(!reopened.index().contains("m1"));
    assert_eq!(reopened.index().get("m2"), Some(&[0.0, 0.0, 1.0, 0.0][..]));
    let hits = reopened
        .index()
        .search(&[1.0, 0.0, 0.0, 0.0], 5, |_| true)
        .unwrap();
    assert_eq!(hits.len(), 1);
}

#[test]
fn compacting_keeps_only_the_live_vectors() {
    let (_dir, path) = temp();
    let mut store = store_with(
        &path,
        &[
            ("m1", [1.0, 0.0, 0.0, 0.0]),
            ("m2", [0.0, 1.0, 0.0, 0.0]),
            ("m3", [0.0, 0.0, 1.0, 0.0]),
        ],
    );
    store.forget("m2").unwrap();
    store.compact().unwrap();
    assert_eq!(
        fs::metadata(&path).unwrap().len(),
        HEADER_BYTES as u64 + 2 * record_bytes()
    );
    store
        .add("m4", "test-model", &[0.0, 0.0, 0.0, 1.0])
        .unwrap();
    let loaded = load(&path).unwrap();
    assert_eq!(loaded.index.ids().collect::<Vec<_>>(), ["m1", "m3", "m4"]);
}

#[test]
fn a_torn_last_record_is_ignored_then_cut_before_the_next_append() {
    let (_dir, path) = temp();
    drop(store_with(
        &path,
        &[("m1", [1.0, 0.0, 0.0, 0.0]), ("m2", [0.0, 1.0, 0.0, 0.0])],
    ));
    let whole = fs::metadata(&path).unwrap().len();
    // A writer killed in the middle of the third record.
    let mut file = fs::OpenOptions::new().append(true).open(&path).unwrap();
    file.write_all(b"m3\0\0\0\0\0\0\0\0\0\0\0\0\0\0\x01\0\0\0\0\0")
        .unwrap();
    drop(file);
    let loaded = load(&path).unwrap();
    assert_eq!(loaded.index.len(), 2);
    assert_eq!(loaded.report.torn_bytes, 22);

    let (mut store, _) = VectorStore::open(&path).unwrap();
    store
        .add("m3", "test-model", &[0.0, 0.0, 1.0, 0.0])
        .unwrap();
    assert_eq!(fs::metadata(&path).unwrap().len(), whole + record_bytes());
    let loaded = load(&path).unwrap();
    assert_eq!(loaded.index.ids().collect::<Vec<_>>(), ["m1", "m2", "m3"]);
    assert_eq!(loaded.report.torn_bytes, 0);
}

#[test]
fn a_header_cut_short_is_an_empty_file_and_anything_else_is_an_error() {
    let (_dir, path) = temp();
    fs::write(&path, &MAGIC[..5]).unwrap();
    let loaded = load(&path).unwrap();
    assert!(loaded.header.is_none() && loaded.index.is_empty());
    assert_eq!(loaded.report.torn_bytes, 5);
    store_with(&path, &[("m1", [1.0, 0.0, 0.0, 0.0])]);
    assert_eq!(load(&path).unwrap().index.len(), 1);

    fs::write(&path, b"{\"not\": \"vectors\"}").unwrap();
    let error = load(&path).unwrap_err();
    assert!(matches!(error, VectorError::BadHeader { .. }), "{error}");
    assert!(error.to_string().contains("semantic.vectors"), "{error}");
    assert!(VectorStore::open(&path).is_err());
    let mut header = vec![0u8; HEADER_BYTES];
    header[..8].copy_from_slice(&MAGIC);
    header[8] = 9;
    fs::write(&path, &header).unwrap();
    let error = load(&path).unwrap_err();
    assert!(error.to_string().contains("version 9"), "{error}");
}

#[test]
fn another_model_or_length_is_a_mismatch() {
    let (_dir, path) = temp();
    let mut store = store_with(&path, &[("m1", [1.0, 0.0, 0.0, 0.0])]);
    let error = store.add("m2", "other-model", &[1.0; 4]).unwrap_err();
    assert!(matches!(error, VectorError::Mismatch { .. }), "{error}");
    assert!(matches!(
        store.add("m2", "test-model", &[1.0; 3]),
        Err(VectorError::Mismatch { .. })
    ));
    assert!(matches!(
        store.add("m2", "test-model", &[f32::INFINITY, 0.0, 0.0, 0.0]),
        Err(VectorError::NotFinite)
    ));
    assert!(matches!(
        store.add("an-id-far-too-long", "test-model", &[1.0; 4]),
        Err(VectorError::BadId(_))
    ));
    assert_eq!(load(&path).unwrap().report.records, 1, "nothing written");

    store.clear().unwrap();
    assert!(!path.exists() && store.model().is_none());
    store.add("m1", "other-model", &[1.0; 3]).unwrap();
    assert_eq!(load(&path).unwrap().header.unwrap().dims, 3);
}

#[test]
fn bad_records_are_skipped_and_counted() {
    let (_dir, path) = temp();
    drop(store_with(&path, &[("m1", [1.0, 0.0, 0.0, 0.0])]));
    let mut file = fs::OpenOptions::new().append(true).open(&path).unwrap();
    let mut nan = b"m2\0\0\0\0\0\0\0\0\0\0\0\0\0\0\x01\0\0\0".to_vec();
    for x in [f32::NAN, 0.0, 0.0, 0.0] {
        nan.extend_from_slice(&x.to_le_bytes());
    }
    let mut unknown = b"m3\0\0\0\0\0\0\0\0\0\0\0\0\0\0\x07\0\0\0".to_vec();
    unknown.resize(36, 0);
    let mut infinite = b"m4\0\0\0\0\0\0\0\0\0\0\0\0\0\0\x01\0\0\0".to_vec();
    for x in [0.0, f32::NEG_INFINITY, 0.0, 0.0] {
        infinite.extend_from_slice(&x.to_le_bytes());
    }
    // Finite values whose length overflows: every score against it would be NaN.
    let mut overflowing = b"m5\0\0\0\0\0\0\0\0\0\0\0\0\0\0\x01\0\0\0".to_vec();
    for x in [1e20f32, -1e20, 0.0, 0.0] {
        overflowing.extend_from_slice(&x.to_le_bytes());
    }
    file.write_all(&nan).unwrap();
    file.write_all(&unknown).unwrap();
    file.write_all(&infinite).unwrap();
    file.write_all(&overflowing).unwrap();
    drop(file);
    let loaded = load(&path).unwrap();
    assert_eq!(loaded.index.ids().collect::<Vec<_>>(), ["m1"]);
    assert_eq!(loaded.report.skipped, 4);
    assert_eq!(loaded.report.records, 1);
    // And none of them is written either.
    let (mut store, _) = VectorStore::open(&path).unwrap();
    for bad in [
        [f32::NAN, 0.0, 0.0, 0.0],
        [1e20, 1e20, 0.0, 0.0],
        [f32::INFINITY, 0.0, 0.0, 0.0],
    ] {
        assert!(matches!(
            store.add("m9", "test-model", &bad),
            Err(VectorError::NotFinite)
        ));
    }
    let hits = store
        .index()
        .search(&[1.0, 0.0, 0.0, 0.0], 5, |_| true)
        .unwrap();
    assert!(hits.iter().all(|h| h.score.is_finite()), "{hits:?}");
}

#[test]
fn fifos_and_devices_are_not_read_and_symlinks_not_written_through() {
    let (dir, path) = temp();
    std::os::unix::fs::symlink("/dev/zero", &path).unwrap();
    assert!(matches!(load(&path), Err(VectorError::Io { .. })));
    fs::remove_file(&path).unwrap();

    let status = std::process::Command::new("mkfifo")
        .arg(&path)
        .status()
        .unwrap();
    assert!(status.success());
    assert!(matches!(load(&path), Err(VectorError::Io { .. })));
    fs::remove_file(&path).unwrap();

    let elsewhere = dir.path().join("elsewhere");
    fs::write(&elsewhere, b"").unwrap();
    std::os::unix::fs::symlink(&elsewhere, &path).unwrap();
    let (mut store, _) = VectorStore::open(&path).unwrap();
    assert!(store.add("m1", "test-model", &[1.0; 4]).is_err());
    assert_eq!(fs::metadata(&elsewhere).unwrap().len(), 0);
}

#[test]
fn a_file_past_the_size_limit_is_refused_unread() {
    let (_dir, path) = temp();
    drop(store_with(&path, &[("m1", [1.0, 0.0, 0.0, 0.0])]));
    // Sparse: no disk is used.
    let file = fs::OpenOptions::new().write(true).open(&path).unwrap();
    file.set_len(super::file::MAX_FILE_BYTES + 1).unwrap();
    assert!(matches!(load(&path), Err(VectorError::TooLarge { .. })));
}
