use std::io::Write;
use std::path::Path;

use super::*;

fn file_with(dir: &Path, name: &str, text: &[u8]) -> PathBuf {
    let path = dir.join(name);
    let mut f = std::fs::File::create(&path).expect("create a temp file");
    f.write_all(text).expect("write a temp file");
    path
}

fn request(
    query: &str,
    case_sensitive: bool,
    files: Vec<(SearchSource, PathBuf)>,
) -> SearchRequest {
    SearchRequest {
        regex: false,
        query: query.to_owned(),
        case_sensitive,
        files,
    }
}

#[test]
fn searches_every_file_in_order() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let conversation = file_with(
        dir.path(),
        "conversation.jsonl",
        b"{\"text\":\"the Lighthouse\"}\n{\"text\":\"nothing\"}\n{\"text\":\"lighthouse lighthouse\"}\n",
    );
    let dreams = file_with(
        dir.path(),
        "dreams.jsonl",
        b"\n\nI dreamt of a LIGHTHOUSE\x1b[2J\n",
    );
    let req = request(
        "lighthouse",
        false,
        vec![
            (SearchSource::Conversation, conversation),
            (SearchSource::Dreams, dreams),
        ],
    );
    let mut handle = spawn_search(req);
    let progress = handle.wait();
    assert!(progress.done);
    assert_eq!(progress.hits_so_far, 3);
    assert_eq!(progress.hits_stored, 3);
    assert_eq!(progress.bytes_scanned, progress.total_bytes);
    let hits = handle.hits(0..10);
    let found: Vec<(SearchSource, u64, u64)> = hits
        .iter()
        .map(|h| (h.source, h.line, h.byte_offset))
        .collect();
    assert_eq!(
        found,
        [
            (SearchSource::Conversation, 0, 13),
            (SearchSource::Conversation, 2, 54),
            (SearchSource::Dreams, 2, 16),
        ]
    );
    // The text of the JSON string the hit is in, not the line's JSON.
    assert_eq!(hits[0].preview, "the Lighthouse");
    assert_eq!(
        &hits[0].preview[hits[0].preview_match.clone()],
        "Lighthouse"
    );
    assert_eq!(hits[2].preview, "I dreamt of a LIGHTHOUSE^[[2J");
    assert_eq!(handle.hits(1..2), hits[1..2]);
    assert_eq!(handle.hits(5..9), []);
    assert!(handle.errors().is_empty());
}

#[test]
fn case_sensitive_search_is_exact() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let diary = file_with(dir.path(), "diary.md", b"Sea\nsea\nSEA\n");
    let mut handle = spawn_search(request("sea", true, vec![(SearchSource::Diary, diary)]));
    let progress = handle.wait();
    assert_eq!(progress.hits_so_far, 1);
    assert_eq!(handle.hits(0..1)[0].line, 1);
}

#[test]
fn unreadable_files_are_reported_and_skipped() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let notes = file_with(dir.path(), "observations.md", b"a note\n");
    let missing = dir.path().join("missing.jsonl");
    let req = request(
        "note",
        true,
        vec![
            (SearchSource::Conversation, missing),
            (SearchSource::Observations, notes),
        ],
    );
    let mut handle = spawn_search(req);
    let progress = handle.wait();
    assert_eq!(progress.hits_so_far, 1);
    let errors = handle.errors();
    assert_eq!(errors.len(), 1);
    assert!(errors[0].contains("missing.jsonl"), "{errors:?}");
}

#[test]
fn hits_past_the_cap_are_counted_not_kept() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let many = file_with(
        dir.path(),
        "conversation.jsonl",
        &b"x\n".repeat(MAX_STORED_HITS + 5),
    );
    let mut handle = spawn_search(request("x", true, vec![(SearchSource::Conversation, many)]));
    let progress = handle.wait();
    assert_eq!(progress.hits_so_far, MAX_STORED_HITS + 5);
    assert_eq!(progress.hits_stored, MAX_STORED_HITS);
    let last = handle.hits(MAX_STORED_HITS - 1..MAX_STORED_HITS + 5);
    assert_eq!(last.len(), 1);
    assert_eq!(last[0].line, MAX_STORED_HITS as u64 - 1);
}

#[test]
fn empty_query_finishes_with_nothing() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let f = file_with(dir.path(), "diary.md", b"text\n");
    let mut handle = spawn_search(request("", false, vec![(SearchSource::Diary, f)]));
    let progress = handle.wait();
    assert!(progress.done);
    assert_eq!(
        (
            progress.hits_so_far,
            progress.bytes_scanned,
            progress.total_bytes
        ),
        (0, 0, 5)
    );
}

#[test]
fn a_cancelled_search_reads_nothing_more() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let f = file_with(dir.path(), "diary.md", b"line\n");
    let shared = Shared::default();
    shared.cancelled.store(true, Ordering::Release);
    worker::run(
        &request("line", true, vec![(SearchSource::Diary, f)]),
        &shared,
    );
    assert!(shared.done.load(Ordering::Acquire));
    assert_eq!(shared.bytes_scanned.load(Ordering::Acquire), 0);
    assert_eq!(shared.total_bytes.load(Ordering::Acquire), 5);
}

#[test]
fn dropping_the_handle_cancels() {
    let handle = spawn_search(request("x", true, Vec::new()));
    let shared = Arc::clone(&handle.shared);
    drop(handle);
    assert!(shared.cancelled.load(Ordering::Acquire));
}
