//! The emergence genome's files followed live by the creature model, on temporary
//! directories: appends, unfinished lines, bad lines, truncation and rename-replace, how the
//! genome is known; and the hand-made fixture garden folded to its figures.

use std::fs;
use std::path::{Path, PathBuf};

use crate::support::append;

use dreamwatch::memory::creature::{Change, Creature};
use dreamwatch::memory::time::parse_time;

fn creature() -> (tempfile::TempDir, PathBuf) {
    crate::support::creature("wren")
}

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/emergence")
        .join(name)
        .join("creature")
}

fn memory(id: &str) -> String {
    format!(
        "{{\"t\":\"2026-11-22T10:00:00Z\",\"op\":\"add\",\"id\":\"{id}\",\"text\":\"fact {id}\"}}\n"
    )
}

#[test]
fn the_genome_is_birth_s_else_the_files() {
    dreamwatch::app::genomes::install();
    let (_d, root) = creature();
    let mut c = Creature::open(&root);
    assert_eq!(c.genome().name(), "dreamer");
    append(&root.join(".self/soul.jsonl"), "");
    c.refresh();
    assert_eq!(c.genome().name(), "emergence");
    // The dreamer's diary.md is not the emergence diary.
    fs::remove_file(root.join(".self/soul.jsonl")).unwrap();
    append(&root.join(".self/diary.md"), "# Diary\n");
    c.refresh();
    assert_eq!(c.genome().name(), "dreamer");
    append(&root.join(".self/diary.jsonl"), "");
    c.refresh();
    assert_eq!(c.genome().name(), "emergence");
    fs::write(
        root.join("BIRTH.json"),
        r#"{"name":"wren","genome":"dreamer"}"#,
    )
    .unwrap();
    c.refresh();
    assert_eq!(c.genome().name(), "dreamer");
}

#[test]
fn appended_lines_are_folded_as_they_come() {
    dreamwatch::app::genomes::install();
    let (_d, root) = creature();
    let soul = root.join(".self/soul.jsonl");
    append(
        &soul,
        "{\"t\":\"2026-11-22T10:00:00Z\",\"op\":\"add\",\"id\":\"s1\",\"text\":\"I keep my word\"}\n",
    );
    let mut c = Creature::open(&root);
    assert_eq!(dreamwatch::genomes::emergence::memory::of(&c).soul.len(), 1);
    append(
        &soul,
        "{\"t\":\"2026-11-22T10:01:00Z\",\"op\":\"remove\",\"id\":\"s1\"}\n{\"op\":\"add\",\"id\":\"s2\",\"text\":\"Trust is slow\"}\n",
    );
    let changes = c.refresh_paths(&[&soul]);
    assert_eq!(
        changes,
        vec![Change::Genome(dreamwatch::genomes::emergence::memory::SOUL)]
    );
    let texts: Vec<&str> = dreamwatch::genomes::emergence::memory::of(&c)
        .soul
        .entries()
        .map(|e| e.text.as_str())
        .collect();
    assert_eq!(texts, ["Trust is slow"]);

    // An unfinished line waits for its newline.
    let todos = root.join(".self/todos.jsonl");
    append(
        &todos,
        "{\"op\":\"add\",\"id\":\"td1\",\"title\":\"Fix the ro",
    );
    assert!(c.refresh_paths(&[&todos]).is_empty());
    assert_eq!(
        dreamwatch::genomes::emergence::memory::of(&c).todos.open(),
        0
    );
    append(&todos, "pe\",\"due\":\"2026-11-23\"}\n");
    assert_eq!(
        c.refresh_paths(&[&todos]),
        vec![Change::Genome(
            dreamwatch::genomes::emergence::memory::TODOS
        )]
    );
    assert_eq!(
        dreamwatch::genomes::emergence::memory::of(&c)
            .todos
            .get("td1")
            .unwrap()
            .title,
        "Fix the rope"
    );
    let now = parse_time("2026-11-24T00:00:00Z").unwrap();
    assert_eq!(
        dreamwatch::genomes::emergence::memory::of(&c)
            .todos
            .overdue(now),
        1
    );

    // A bad line is a problem with its line number; the rest goes on.
    let calendar = root.join(".self/calendar.jsonl");
    append(
        &calendar,
        "{\"op\":\"add\",\"id\":\"ev1\",\"at\":\"soon\"}\n{\"op\":\"add\",\"id\":\"ev2\",\"at\":\"2026-11-23T07:00:00Z\",\"recurrence\":\"daily\"}\n",
    );
    let changes = c.refresh_paths(&[&calendar]);
    assert!(changes.iter().any(|ch| matches!(
        ch,
        Change::Problem(p) if p.file == ".self/calendar.jsonl" && p.line == Some(1)
    )));
    assert!(changes.contains(&Change::Genome(
        dreamwatch::genomes::emergence::memory::CALENDAR
    )));
    let next = dreamwatch::genomes::emergence::memory::of(&c)
        .calendar
        .next_after(now)
        .found
        .unwrap();
    assert_eq!(next.at, parse_time("2026-11-24T07:00:00Z").unwrap());
}

#[test]
fn truncation_and_rename_replace_are_read_again() {
    dreamwatch::app::genomes::install();
    let (_d, root) = creature();
    let longterm = root.join(".self/longterm.jsonl");
    append(&longterm, &(memory("m1") + &memory("m2") + &memory("m3")));
    let mut c = Creature::open(&root);
    assert_eq!(
        dreamwatch::genomes::emergence::memory::of(&c)
            .longterm
            .current_count(),
        3
    );

    fs::write(&longterm, memory("m9")).unwrap();
    let changes = c.refresh();
    assert!(changes.contains(&Change::Reset(
        dreamwatch::genomes::emergence::memory::LONG_TERM
    )));
    let kept: Vec<&str> = dreamwatch::genomes::emergence::memory::of(&c)
        .longterm
        .all()
        .map(|m| m.id.as_str())
        .collect();
    assert_eq!(kept, ["m9"]);

    let tmp = root.join(".self/longterm.tmp");
    fs::write(
        &tmp,
        memory("a1") + &memory("a2") + &memory("a3") + &memory("a4"),
    )
    .unwrap();
    fs::rename(&tmp, &longterm).unwrap();
    c.refresh();
    assert_eq!(
        dreamwatch::genomes::emergence::memory::of(&c)
            .longterm
            .added,
        4
    );

    fs::remove_file(&longterm).unwrap();
    c.refresh();
    assert_eq!(
        dreamwatch::genomes::emergence::memory::of(&c)
            .longterm
            .current_count(),
        0
    );
    assert_eq!(c.genome().name(), "dreamer");
}

/// The hand-made garden of two, as the contract reads it.
#[test]
fn the_fixture_folds_to_its_figures() {
    dreamwatch::app::genomes::install();
    let c = Creature::open(&fixture("wren"));
    assert!(c.problems().is_empty(), "{:?}", c.problems());
    assert_eq!(c.genome().name(), "emergence");
    let m = dreamwatch::genomes::emergence::memory::of(&c);
    assert_eq!((m.soul.len(), m.soul.removed), (3, 1));
    let l = &m.longterm;
    assert_eq!((l.current_count(), l.archived, l.copied), (4, 34, 2));
    assert_eq!(l.get("m7").unwrap().archived.as_deref(), Some("sum2"));
    assert_eq!(l.links().len(), 2);
    let s = &m.summaries;
    assert_eq!((s.memories, s.conversations), (2, 2));
    assert_eq!(s.watermark.as_deref(), Some("d10"));
    assert_eq!(s.get("sum1").unwrap().folded_into.as_deref(), Some("sum3"));
    assert_eq!(s.get("sum4").unwrap().from.as_deref(), Some("ivy"));
    assert_eq!((m.diary.len(), m.diary.replaced), (3, 1));
    let now = parse_time("2026-11-24T17:00:00Z").unwrap();
    assert_eq!(
        (m.todos.open(), m.todos.done(), m.todos.overdue(now)),
        (3, 2, 1)
    );
    let next = m.calendar.next_after(now).found.unwrap();
    assert_eq!(next.event.description, "meet Ivy at the well");
    assert_eq!(m.calendar.len(), 4);
    let ivy = m.relations.get("ivy").unwrap();
    assert_eq!(ivy.changes, 4);
    let now_ivy = ivy.current().unwrap();
    assert_eq!(
        (
            now_ivy.relationship_type.as_deref(),
            now_ivy.trust_level,
            now_ivy.interaction_count
        ),
        (Some("ally"), Some(0.9), Some(8))
    );
    assert_eq!(m.relations.len(), 3);
    assert_eq!((m.dialogues.said, m.dialogues.archived), (14, 10));
    assert_eq!(m.unsummarised_dialogues(), 4);

    let ivy = Creature::open(&fixture("ivy"));
    assert!(ivy.problems().is_empty(), "{:?}", ivy.problems());
    assert_eq!(
        dreamwatch::genomes::emergence::memory::of(&ivy)
            .longterm
            .links()[0]
            .memories,
        Some(2)
    );
}
