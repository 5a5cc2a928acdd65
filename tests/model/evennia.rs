//! The evennia genome's files followed live by the creature model, on temporary
//! directories: appends, unfinished lines, truncation, rename-replace, the working memory
//! rewritten, and how the genome is known.

use std::fs;
use std::path::{Path, PathBuf};

use crate::support::append;

use dreamwatch::genomes::evennia::memory::mode::{Mode, Phase};
use dreamwatch::memory::creature::{Change, Creature};

fn creature() -> (tempfile::TempDir, PathBuf) {
    crate::support::creature("sable")
}

fn add(id: &str, minute: u32, importance: u32) -> String {
    format!(
        "{{\"t\":\"2026-11-22T10:{minute:02}:00Z\",\"op\":\"add\",\"id\":\"{id}\",\"text\":\"entry {id}\",\"importance\":{importance},\"importance_method\":\"heuristic\"}}\n"
    )
}

fn ids(c: &Creature) -> Vec<String> {
    dreamwatch::genomes::evennia::memory::of(c)
        .journal
        .entries()
        .map(|e| e.id.clone())
        .collect()
}

#[test]
fn the_genome_is_birth_s_else_the_files_else_the_dreamer() {
    dreamwatch::app::genomes::install();
    let (_d, root) = creature();
    let mut c = Creature::open(&root);
    assert_eq!(c.genome().name(), "dreamer");
    append(&root.join(".sys/mode.jsonl"), "");
    c.refresh();
    assert_eq!(c.genome().name(), "evennia");
    fs::remove_file(root.join(".sys/mode.jsonl")).unwrap();
    c.refresh();
    assert_eq!(c.genome().name(), "dreamer");
    fs::write(
        root.join("BIRTH.json"),
        r#"{"name":"sable","genome":"evennia"}"#,
    )
    .unwrap();
    c.refresh();
    assert_eq!(c.genome().name(), "evennia");
}

#[test]
fn appended_lines_are_folded_as_they_come() {
    dreamwatch::app::genomes::install();
    let (_d, root) = creature();
    let journal = root.join(".self/journal.jsonl");
    append(&journal, &add("j1", 0, 6));
    let mut c = Creature::open(&root);
    assert_eq!(ids(&c), ["j1"]);
    append(&journal, &add("j2", 1, 3));
    append(
        &journal,
        "{\"t\":\"2026-11-22T10:02:00Z\",\"op\":\"score\",\"id\":\"j1\",\"importance\":9,\"importance_method\":\"llm\"}\n",
    );
    let changes = c.refresh_paths(&[&journal]);
    assert_eq!(
        changes,
        vec![Change::Genome(
            dreamwatch::genomes::evennia::memory::JOURNAL
        )]
    );
    assert_eq!(ids(&c), ["j1", "j2"]);
    assert_eq!(
        dreamwatch::genomes::evennia::memory::of(&c).cumulative_importance(),
        12
    );

    let mode = root.join(".sys/mode.jsonl");
    append(
        &mode,
        "{\"t\":\"2026-11-22T10:03:00Z\",\"op\":\"transition\",\"from\":\"awake\",\"to\":\"sleep\",\"reason\":\"set_sleep 600s\",\"wake_at\":null}\n{\"t\":\"2026-11-22T10:03:01Z\",\"op\":\"phase\",\"phase\":\"compacting\"}\n",
    );
    let changes = c.refresh_paths(&[&mode]);
    assert_eq!(
        changes,
        vec![Change::Genome(
            dreamwatch::genomes::evennia::memory::OPERATING_MODE
        )]
    );
    assert_eq!(
        dreamwatch::genomes::evennia::memory::of(&c).mode.mode(),
        Mode::Sleep
    );
    assert_eq!(
        dreamwatch::genomes::evennia::memory::of(&c).mode.phase(),
        Some(&Phase::Compacting)
    );

    // A bad line is a problem with its line number; the rest goes on.
    append(&journal, "{\"op\":\"add\"}\n");
    let changes = c.refresh_paths(&[&journal]);
    assert!(changes.iter().any(|ch| matches!(
        ch,
        Change::Problem(p) if p.file == ".self/journal.jsonl" && p.line == Some(4)
    )));
    assert_eq!(
        dreamwatch::genomes::evennia::memory::of(&c)
            .journal
            .bad_lines,
        1
    );
}

#[test]
fn an_unfinished_line_waits_for_its_newline() {
    dreamwatch::app::genomes::install();
    let (_d, root) = creature();
    let entities = root.join(".self/entities.jsonl");
    append(
        &entities,
        "{\"t\":\"2026-11-22T10:00:00Z\",\"op\":\"relationship\",\"entity_id\":\"creator\",\"favorab",
    );
    let mut c = Creature::open(&root);
    assert!(
        dreamwatch::genomes::evennia::memory::of(&c)
            .entities
            .is_empty()
    );
    assert_eq!(
        dreamwatch::genomes::evennia::memory::of(&c)
            .entities
            .bad_lines,
        0
    );
    append(&entities, "ility\":0.25,\"interaction_count\":2}\n");
    let changes = c.refresh_paths(&[&entities]);
    assert_eq!(
        changes,
        vec![Change::Genome(
            dreamwatch::genomes::evennia::memory::ENTITIES
        )]
    );
    let creator = dreamwatch::genomes::evennia::memory::of(&c)
        .entities
        .get("creator")
        .unwrap();
    assert_eq!(
        creator.relationship().map(|r| r.state.as_str()),
        Some("acquaintance")
    );
}

#[test]
fn truncation_and_rename_replace_are_read_again() {
    dreamwatch::app::genomes::install();
    let (_d, root) = creature();
    let semantic = root.join(".self/semantic.jsonl");
    let line = |id: &str| format!("{{\"op\":\"add\",\"id\":\"{id}\",\"text\":\"fact {id}\"}}\n");
    append(&semantic, &(line("m1") + &line("m2") + &line("m3")));
    let mut c = Creature::open(&root);
    assert_eq!(
        dreamwatch::genomes::evennia::memory::of(&c)
            .semantic
            .memories()
            .len(),
        3
    );

    fs::write(&semantic, line("m9")).unwrap();
    let changes = c.refresh();
    assert!(changes.contains(&Change::Reset(
        dreamwatch::genomes::evennia::memory::SEMANTIC
    )));
    let kept: Vec<&str> = dreamwatch::genomes::evennia::memory::of(&c)
        .semantic
        .memories()
        .map(|m| m.id.as_str())
        .collect();
    assert_eq!(kept, ["m9"]);

    // Replaced by rename with a longer file: a new inode.
    let tmp = root.join(".self/semantic.tmp");
    fs::write(&tmp, line("a") + &line("b") + &line("c") + &line("d")).unwrap();
    fs::rename(&tmp, &semantic).unwrap();
    c.refresh();
    assert_eq!(
        dreamwatch::genomes::evennia::memory::of(&c)
            .semantic
            .memories()
            .len(),
        4
    );
    assert_eq!(
        dreamwatch::genomes::evennia::memory::of(&c).semantic.added,
        4
    );

    // Deleted: none yet; the genome is still known by the other files' absence only.
    fs::remove_file(&semantic).unwrap();
    c.refresh();
    assert_eq!(
        dreamwatch::genomes::evennia::memory::of(&c)
            .semantic
            .memories()
            .len(),
        0
    );
    assert_eq!(c.genome().name(), "dreamer");
}

#[test]
fn the_working_memory_is_read_whole_when_rewritten() {
    dreamwatch::app::genomes::install();
    let (_d, root) = creature();
    let path = root.join(".self/working_memory.json");
    fs::write(
        &path,
        r#"{"creator":{"topic":"the well","pending_actions":["answer"]}}"#,
    )
    .unwrap();
    let mut c = Creature::open(&root);
    let working = dreamwatch::genomes::evennia::memory::of(&c)
        .working
        .as_ref()
        .unwrap();
    assert_eq!(
        working.get("creator").unwrap().topic.as_deref(),
        Some("the well")
    );
    assert_eq!(c.genome().name(), "evennia");

    let tmp = root.join(".self/working_memory.tmp");
    fs::write(&tmp, r#"{"moss":{"topic":"the tavern"}}"#).unwrap();
    fs::rename(&tmp, &path).unwrap();
    let changes = c.refresh_paths(&[&path]);
    assert!(changes.contains(&Change::Genome(
        dreamwatch::genomes::evennia::memory::WORKING_MEMORY
    )));
    let working = dreamwatch::genomes::evennia::memory::of(&c)
        .working
        .as_ref()
        .unwrap();
    assert!(working.get("creator").is_none());

    fs::write(&path, "not json").unwrap();
    let changes = c.refresh_paths(&[&path]);
    assert!(changes.iter().any(|ch| matches!(ch, Change::Problem(_))));
    assert!(
        dreamwatch::genomes::evennia::memory::of(&c)
            .working
            .is_none()
    );
}

/// The hand-written fixture, as the contract reads it.
#[test]
fn the_fixture_folds_to_its_figures() {
    dreamwatch::app::genomes::install();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/evennia/sable/creature");
    let c = Creature::open(&root);
    assert!(c.problems().is_empty(), "{:?}", c.problems());
    assert_eq!(c.genome().name(), "evennia");
    let m = dreamwatch::genomes::evennia::memory::of(&c);
    assert_eq!((m.journal.current(), m.journal.pruned), (34, 2));
    assert_eq!((m.cumulative_importance(), m.threshold()), (49, 150));
    assert_eq!(m.reflections.recent()[0].cumulative_importance, Some(153));
    assert_eq!(m.semantic.links(), (7, 1));
    assert_eq!(m.mode.label(), "asleep · compacting · wake deferred");
    assert_eq!(
        (m.mode.compactions_sleep, m.mode.compactions_emergency),
        (1, 1)
    );
    let moss: Vec<&str> = m
        .entities
        .get("moss")
        .unwrap()
        .history
        .as_slice()
        .iter()
        .map(|r| r.state.as_str())
        .collect();
    assert_eq!(
        moss,
        ["acquaintance", "friend", "friend", "friend", "acquaintance"]
    );
}

/// Through the real watcher (filesystem events, and polling alone): a journal line and a
/// mode line appended by another process reach the model.
async fn the_watcher_follows_the_evennia_files(force_poll: bool) {
    use dreamwatch::memory::garden::Root;
    use dreamwatch::watch::{LiveChange, LiveGarden, WatchOptions};
    use std::time::Duration;

    let (dir, root) = creature();
    let options = WatchOptions {
        poll_interval: Some(Duration::from_millis(if force_poll { 50 } else { 5_000 })),
        force_poll,
        ..WatchOptions::default()
    };
    let (mut live, mut rx) =
        LiveGarden::open(vec![Root::Garden(dir.path().to_path_buf())], options);
    append(&root.join(".self/journal.jsonl"), &add("j1", 0, 7));
    append(
        &root.join(".sys/mode.jsonl"),
        "{\"op\":\"transition\",\"from\":\"awake\",\"to\":\"sleep\"}\n",
    );
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    let mut seen = (false, false);
    while seen != (true, true) {
        let Ok(Some(batch)) = tokio::time::timeout_at(deadline, rx.recv()).await else {
            break;
        };
        for change in live.apply(&batch) {
            if let LiveChange::Changed(_, changes) = change {
                seen.0 |= changes.contains(&Change::Genome(
                    dreamwatch::genomes::evennia::memory::JOURNAL,
                ));
                seen.1 |= changes.contains(&Change::Genome(
                    dreamwatch::genomes::evennia::memory::OPERATING_MODE,
                ));
            }
        }
    }
    assert_eq!(seen, (true, true), "appended lines not seen");
    let c = live.creature(&root).unwrap();
    assert_eq!(
        dreamwatch::genomes::evennia::memory::of(c).cumulative_importance(),
        7
    );
    assert_eq!(
        dreamwatch::genomes::evennia::memory::of(c).mode.mode(),
        Mode::Sleep
    );
}

#[tokio::test]
async fn the_watcher_follows_the_evennia_files_with_events() {
    dreamwatch::app::genomes::install();
    the_watcher_follows_the_evennia_files(false).await;
}

#[tokio::test]
async fn the_watcher_follows_the_evennia_files_by_polling() {
    dreamwatch::app::genomes::install();
    the_watcher_follows_the_evennia_files(true).await;
}
