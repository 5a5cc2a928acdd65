//! The live creature model on temporary directories: appends, rewrites, resets, status.

use std::fs::{self, OpenOptions};
use std::io::Write;

use crate::support::append;

use chrono::{DateTime, Duration, TimeZone, Utc};
use dreamwatch::memory::creature::{Change, Creature};
use dreamwatch::memory::cycle::Cycle;
use dreamwatch::memory::layout::FileKind;
use dreamwatch::memory::status::Status;
use dreamwatch::memory::streams::CountGate;
use dreamwatch::memory::whole_files::DEFAULT_SETTLE;

fn t0() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 3, 1, 10, 0, 0).unwrap()
}

fn iso(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}

fn creature() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("ada");
    fs::create_dir_all(root.join(".self")).unwrap();
    fs::create_dir_all(root.join(".sys")).unwrap();
    (dir, root)
}

fn event(t: DateTime<Utc>, kind: &str, extra: &str) -> String {
    format!("{{\"t\":\"{}\",\"type\":\"{kind}\"{extra}}}\n", iso(t))
}

fn dream(t: DateTime<Utc>, deep: bool) -> String {
    format!(
        "{{\"t\":\"{}\",\"actions\":3,\"reflection\":\"r\",\"priority\":\"p\",\"observations\":1,\"deep\":{deep}}}\n",
        iso(t)
    )
}

#[test]
fn fatigue_counts_tool_calls_after_the_last_dream_and_resets() {
    dreamwatch::app::genomes::install();
    let (_d, root) = creature();
    let events = root.join(".sys/events.jsonl");
    append(&events, &event(t0(), "creature.boot", ""));
    for i in 1..=5 {
        append(
            &events,
            &event(
                t0() + Duration::seconds(i),
                "creature.tool_call",
                ",\"tool\":\"bash\",\"ok\":true",
            ),
        );
    }
    let mut c = Creature::open(&root);
    assert_eq!(c.fatigue(), 5);

    append(
        &root.join(".self/dreams.jsonl"),
        &dream(t0() + Duration::seconds(10), false),
    );
    let changes = c.refresh_paths(&[root.join(".self/dreams.jsonl")]);
    assert!(changes.iter().any(|ch| matches!(ch, Change::Dream(_))));
    assert_eq!(c.fatigue(), 0);

    append(
        &events,
        &event(
            t0() + Duration::seconds(11),
            "creature.tool_call",
            ",\"tool\":\"bash\"",
        ),
    );
    let changes = c.refresh_paths(&[&events]);
    assert_eq!(changes, vec![Change::Events { new: 1 }]);
    assert_eq!(c.fatigue(), 1);
}

#[test]
fn fatigue_from_conversation_when_there_is_no_events_file() {
    dreamwatch::app::genomes::install();
    let (_d, root) = creature();
    let conv = root.join(".self/conversation.jsonl");
    append(&root.join(".self/dreams.jsonl"), &dream(t0(), false));
    let before = format!(
        "{{\"t\":\"{}\",\"role\":\"assistant\",\"content\":\"[{{\\\"type\\\":\\\"tool_use\\\",\\\"id\\\":\\\"a\\\",\\\"name\\\":\\\"bash\\\",\\\"input\\\":{{}}}}]\"}}\n",
        iso(t0() - Duration::seconds(5))
    );
    let after = before.replace(
        &iso(t0() - Duration::seconds(5)),
        &iso(t0() + Duration::seconds(5)),
    );
    append(&conv, &before);
    append(&conv, &after);
    append(&conv, &after);
    let c = Creature::open(&root);
    assert_eq!(c.conversation().entries(), 3);
    assert_eq!(c.fatigue(), 2);
}

#[test]
fn partial_lines_wait_for_their_newline() {
    dreamwatch::app::genomes::install();
    let (_d, root) = creature();
    let conv = root.join(".self/conversation.jsonl");
    append(
        &conv,
        "{\"t\":\"2026-03-01T10:00:00Z\",\"role\":\"user\",\"content\":\"hel",
    );
    let mut c = Creature::open(&root);
    assert_eq!(c.conversation().entries(), 0);
    append(&conv, "lo\"}\n");
    let changes = c.refresh_paths(&[&conv]);
    assert_eq!(changes, vec![Change::Conversation { new_entries: 1 }]);
    assert_eq!(c.conversation().entries(), 1);
    assert_eq!(c.conversation().bad_lines(), 0);
    let (line, entry) = c.conversation().recent().back().unwrap();
    assert_eq!(*line, 0);
    assert_eq!(entry.role, "user");
}

#[test]
fn truncation_and_replacement_are_read_again() {
    dreamwatch::app::genomes::install();
    let (_d, root) = creature();
    let conv = root.join(".self/conversation.jsonl");
    let line = "{\"t\":\"2026-03-01T10:00:00Z\",\"role\":\"user\",\"content\":\"x\"}\n";
    append(&conv, &line.repeat(3));
    let mut c = Creature::open(&root);
    assert_eq!(c.conversation().entries(), 3);
    fs::write(&conv, line).unwrap();
    let changes = c.refresh();
    assert!(changes.contains(&Change::Reset(FileKind::Conversation)));
    assert_eq!(c.conversation().entries(), 1);

    // Rename-replace with a longer file: a new inode.
    let tmp = root.join(".self/conversation.tmp");
    fs::write(&tmp, line.repeat(5)).unwrap();
    fs::rename(&tmp, &conv).unwrap();
    c.refresh();
    assert_eq!(c.conversation().entries(), 5);

    // Delete, then recreate.
    fs::remove_file(&conv).unwrap();
    c.refresh();
    assert_eq!(c.conversation().entries(), 0);
    append(&conv, line);
    c.refresh();
    assert_eq!(c.conversation().entries(), 1);
}

#[test]
fn observations_appended_and_rewritten() {
    dreamwatch::app::genomes::install();
    let (_d, root) = creature();
    let obs = root.join(".self/observations.md");
    append(&obs, "# Observations\n\n## 2026-03-01\n\nRED 10:00 first\n");
    let mut c = Creature::open(&root);
    assert_eq!(c.observations().counts().red, 1);
    append(&obs, "- YLW 10:05 second\n");
    let changes = c.refresh_paths(&[&obs]);
    match changes.as_slice() {
        [Change::ObservationsAdded(added)] => assert_eq!(added[0].text, "second"),
        other => panic!("unexpected {other:?}"),
    }
    // Deep-sleep pruning rewrites the file by rename.
    let tmp = root.join(".self/observations.tmp");
    fs::write(&tmp, "# Observations\n\n## 2026-03-01\n\nRED 10:00 first\n").unwrap();
    fs::rename(&tmp, &obs).unwrap();
    let changes = c.refresh_paths(&[&obs]);
    assert_eq!(changes, vec![Change::ObservationsRewritten]);
    assert_eq!(c.observations().counts().ylw, 0);
}

#[test]
fn events_file_moving_from_self_to_sys_is_followed() {
    dreamwatch::app::genomes::install();
    let (_d, root) = creature();
    append(
        &root.join(".self/events.jsonl"),
        &event(t0(), "creature.tool_call", ""),
    );
    let mut c = Creature::open(&root);
    assert_eq!(c.fatigue(), 1);
    append(
        &root.join(".sys/events.jsonl"),
        &event(t0(), "creature.tool_call", ""),
    );
    append(
        &root.join(".sys/events.jsonl"),
        &event(t0(), "creature.tool_call", ""),
    );
    let changes = c.refresh();
    assert!(changes.contains(&Change::Reset(FileKind::Events)));
    assert_eq!(c.fatigue(), 2);
}

#[test]
fn bad_input_is_counted_never_fatal() {
    dreamwatch::app::genomes::install();
    let (_d, root) = creature();
    let conv = root.join(".self/conversation.jsonl");
    let good = "{\"t\":\"2026-03-01T10:00:00Z\",\"role\":\"user\",\"content\":\"ok\"}\n";
    append(&conv, good);
    append(&conv, "\u{0}\u{1}binary garbage\n");
    fs::OpenOptions::new()
        .append(true)
        .open(&conv)
        .unwrap()
        .write_all(b"{\"t\":1,\"role\":\"user\",\"content\":\"\xff\xfe\"}\n")
        .unwrap();
    append(
        &conv,
        &format!(
            "{{\"t\":\"2026-03-01T10:00:00Z\",\"role\":\"user\",\"content\":\"{}\"}}\n",
            "z".repeat(10 << 20)
        ),
    );
    append(&conv, "not json at all\n");
    append(&conv, good);
    append(&root.join(".self/dreams.jsonl"), "{oops\n");
    fs::write(root.join("BIRTH.json"), "{ not json").unwrap();
    let c = Creature::open(&root);
    assert_eq!(
        c.conversation().entries(),
        4,
        "the invalid UTF-8 line is an entry, shown lossy"
    );
    assert_eq!(c.conversation().bad_lines(), 2);
    let lines: Vec<_> = c
        .problems()
        .iter()
        .filter(|p| p.file == ".self/conversation.jsonl")
        .map(|p| p.line)
        .collect();
    assert_eq!(lines, vec![Some(2), Some(5)]);
    assert!(
        c.problems()
            .iter()
            .any(|p| p.file == ".self/dreams.jsonl" && p.line == Some(1))
    );
    assert!(c.problems().iter().any(|p| p.file == "BIRTH.json"));
    assert_eq!(c.name(), "ada");
}

#[test]
fn missing_files_are_none_yet() {
    dreamwatch::app::genomes::install();
    let (_d, root) = creature();
    let c = Creature::open(&root);
    let s = c.summary(t0(), &Cycle::default());
    assert_eq!((s.dreams, s.fatigue, s.status), (0, 0, Status::Unknown));
    assert!(c.problems().is_empty());
}

#[test]
fn status_follows_sleeps_naps_dreams_and_wake() {
    dreamwatch::app::genomes::install();
    let (_d, root) = creature();
    let k = Cycle::default();
    let events = root.join(".sys/events.jsonl");
    append(&events, &event(t0(), "creature.tool_call", ""));
    let mut c = Creature::open(&root);
    assert_eq!(c.status(t0() + Duration::seconds(1), &k), Status::Awake);

    append(
        &events,
        &event(
            t0() + Duration::seconds(2),
            "creature.sleep",
            ",\"seconds\":10",
        ),
    );
    c.refresh();
    let until = t0() + Duration::seconds(12);
    assert_eq!(
        c.status(t0() + Duration::seconds(3), &k),
        Status::Napping { until: Some(until) }
    );

    append(
        &events,
        &event(
            t0() + Duration::seconds(13),
            "creature.wake",
            ",\"reason\":\"timer\"",
        ),
    );
    append(
        &events,
        &event(
            t0() + Duration::seconds(20),
            "creature.sleep",
            ",\"seconds\":600",
        ),
    );
    c.refresh();
    assert_eq!(c.status(t0() + Duration::seconds(21), &k), Status::Dreaming);

    append(
        &root.join(".self/dreams.jsonl"),
        &dream(t0() + Duration::seconds(30), true),
    );
    append(
        &events,
        &event(
            t0() + Duration::seconds(30),
            "creature.dream",
            ",\"deep\":true",
        ),
    );
    c.refresh();
    let until = t0() + Duration::seconds(620);
    assert_eq!(
        c.status(t0() + Duration::seconds(40), &k),
        Status::DeepSleep { until: Some(until) }
    );

    // Asleep past its wake time with nothing since, for long: stopped.
    assert_eq!(c.status(t0() + Duration::hours(2), &k), Status::Stopped);

    // sleep.json (OpenSeed since 24 February 2026) gives the wake time directly.
    let wake = t0() + Duration::hours(3);
    fs::write(
        root.join(".sys/sleep.json"),
        format!("{{\"wake_at\":\"{}\"}}", iso(wake)),
    )
    .unwrap();
    c.refresh();
    assert_eq!(
        c.status(t0() + Duration::hours(2), &k).wakes_at(),
        Some(wake)
    );
}

#[test]
fn a_dead_runner_means_stopped() {
    dreamwatch::app::genomes::install();
    let (_d, root) = creature();
    fs::write(root.join(".sys/runner.json"), "{\"pid\": 4000000000}").unwrap();
    let c = Creature::open(&root);
    assert_eq!(c.status(t0(), &Cycle::default()), Status::Stopped);
}

#[test]
fn deep_sleep_cadence_is_read_from_disk() {
    dreamwatch::app::genomes::install();
    let (_d, root) = creature();
    let dreams = root.join(".self/dreams.jsonl");
    for i in 1..=11 {
        append(&dreams, &dream(t0() + Duration::minutes(i), i % 5 == 0));
    }
    let c = Creature::open(&root);
    let s = c.summary(t0() + Duration::hours(1), &Cycle::default());
    assert_eq!(
        (s.dreams, s.deep_sleeps, s.deep_every, s.dreams_until_deep),
        (11, 2, 5, 4)
    );

    let (_d2, root2) = creature();
    append(
        &root2.join(".self/dreams.jsonl"),
        &dream(t0(), false).repeat(3),
    );
    let s = Creature::open(&root2).summary(t0(), &Cycle::default());
    assert_eq!((s.deep_every, s.dreams_until_deep), (10, 7));
}

#[test]
fn random_access_into_the_conversation() {
    dreamwatch::app::genomes::install();
    let (_d, root) = creature();
    let conv = root.join(".self/conversation.jsonl");
    let text: String = (0..1000)
        .map(|i| {
            format!("{{\"t\":\"2026-03-01T10:00:00Z\",\"role\":\"user\",\"content\":\"m{i}\"}}\n")
        })
        .collect();
    append(&conv, &text);
    let c = Creature::open(&root);
    assert_eq!(
        c.conversation().recent().len(),
        dreamwatch::memory::streams::RECENT_ENTRIES
    );
    let got = c.conversation().read_lines(500..502);
    let contents: Vec<String> = got
        .iter()
        .map(|(_, e)| match &e.as_ref().unwrap().content {
            dreamwatch::memory::conversation::Content::Text(t) => t.clone(),
            other => format!("{other:?}"),
        })
        .collect();
    assert_eq!(contents, vec!["m500", "m501"]);
}

#[test]
fn a_large_conversation_opens_tail_first_and_counts_its_head_in_the_background() {
    dreamwatch::app::genomes::install();
    let (_d, root) = creature();
    let conv = root.join(".self/conversation.jsonl");
    let line = |i: usize| {
        format!(
            "{{\"t\":\"2026-03-01T10:00:00Z\",\"role\":\"user\",\"content\":\"message {i} {}\"}}\n",
            "x".repeat(200)
        )
    };
    let mut text = String::new();
    let mut i = 0;
    while text.len() < 10 << 20 {
        text.push_str(&line(i));
        if i == 7 {
            text.push_str("broken head line\n");
        }
        i += 1;
    }
    append(&conv, &text);
    let total_lines = i as u64 + 1;

    let (tx, rx) = std::sync::mpsc::channel();
    let mut c = Creature::open_deferred(&root, DEFAULT_SETTLE, move |_| {
        let _ = tx.send(());
    });
    // Appended while the head is being counted: kept.
    append(&conv, &line(i));
    append(&conv, "broken tail line\n");
    c.refresh_paths(&[&conv]);
    assert!(!c.conversation().recent().is_empty());

    rx.recv_timeout(std::time::Duration::from_secs(20)).unwrap();
    let changes = c.refresh_paths(&[&conv]);
    assert!(
        changes.contains(&Change::ConversationCounted),
        "{changes:?}"
    );
    assert!(!c.conversation().counting());
    assert_eq!(c.conversation().entries(), total_lines - 1 + 1);
    assert_eq!(c.conversation().bad_lines(), 2);
    assert_eq!(c.conversation().lines(), total_lines + 2);
    let (last_no, _) = c.conversation().recent().back().unwrap();
    assert_eq!(
        *last_no, total_lines,
        "line numbers are absolute once counted"
    );
    let bad: Vec<_> = c.problems().iter().map(|p| p.line).collect();
    assert_eq!(bad, vec![Some(9), Some(total_lines + 2)]);
    // Random access anywhere, head or tail.
    let read = c.conversation().read_lines(0..1);
    assert!(read[0].1.is_ok());
    let read = c.conversation().read_lines(total_lines..total_lines + 1);
    assert!(read[0].1.as_ref().is_ok_and(|e| e.role == "user"));

    // The same numbers as a plain open.
    let full = Creature::open(&root);
    assert_eq!(
        (
            full.conversation().entries(),
            full.conversation().bad_lines()
        ),
        (c.conversation().entries(), c.conversation().bad_lines())
    );
}

#[test]
fn a_large_dream_log_opens_tail_first_and_counts_its_head_in_the_background() {
    dreamwatch::app::genomes::install();
    let (_d, root) = creature();
    let dreams = root.join(".self/dreams.jsonl");
    let dream = |i: usize, deep: bool| {
        format!(
            "{{\"t\":\"2026-03-01T10:{:02}:00Z\",\"actions\":{i},\"reflection\":\"{}\",\"priority\":\"p{i}\",\"observations\":1,\"deep\":{deep}}}\n",
            i % 60,
            "r".repeat(300)
        )
    };
    let mut text = String::new();
    let mut i = 0;
    while text.len() < 600 << 10 {
        // Deep every 50th; one broken line in the head.
        text.push_str(&dream(i, i % 50 == 49));
        if i == 7 {
            text.push_str("broken head line\n");
        }
        i += 1;
    }
    append(&dreams, &text);
    let head_dreams = i as u64;

    let (tx, rx) = std::sync::mpsc::channel();
    // Held: the head's count waits until the tail has been looked at.
    let gate = CountGate::default();
    let held = gate.hold();
    let mut c = Creature::open_gated(&root, DEFAULT_SETTLE, gate.clone(), move |kind| {
        let _ = tx.send(kind);
    });
    assert!(c.dream_log().counting());
    assert!(
        c.dream_log().count() < head_dreams / 2,
        "its tail only: {}",
        c.dream_log().count()
    );
    assert_eq!(
        c.dream_log().last().map(|d| d.actions),
        Some(head_dreams - 1)
    );
    // Dreamt while the head is being counted: kept, a deep one and a broken line.
    append(&dreams, &dream(i, true));
    append(&dreams, "broken tail line\n");
    c.refresh_paths(&[&dreams]);
    assert!(c.dream_log().counting());
    drop(held);

    let kind = loop {
        match rx.recv_timeout(std::time::Duration::from_secs(20)).unwrap() {
            FileKind::Dreams => break FileKind::Dreams,
            _ => continue,
        }
    };
    let changes = c.refresh_paths(&[&kind.resolve(&root)]);
    assert!(changes.contains(&Change::DreamsCounted), "{changes:?}");
    let log = c.dream_log();
    assert!(!log.counting());
    assert_eq!(log.count(), head_dreams + 1);
    assert_eq!(log.deep_count(), head_dreams / 50 + 1);
    let last_deep_before = (head_dreams / 50) * 50;
    assert_eq!(
        log.last_deep(),
        (Some(last_deep_before), Some(head_dreams + 1))
    );
    assert_eq!(log.rows().len() as u64, head_dreams + 1);
    assert_eq!(log.rows()[3].actions, 3, "the head's rows first");
    assert_eq!(log.rows().last().map(|r| r.actions), Some(head_dreams));
    assert_eq!(c.read_dream(3).unwrap().priority, "p3");
    let bad: Vec<_> = c.problems().iter().map(|p| p.line).collect();
    assert_eq!(
        bad,
        vec![Some(9), Some(head_dreams + 3)],
        "numbered from the file's start"
    );

    // The same as a plain open.
    let full = Creature::open(&root);
    let whole = full.dream_log();
    assert_eq!(
        (
            whole.count(),
            whole.deep_count(),
            whole.last_deep(),
            whole.last_time()
        ),
        (
            log.count(),
            log.deep_count(),
            log.last_deep(),
            log.last_time()
        )
    );
    assert_eq!(whole.rows(), log.rows());
    let lines = |c: &Creature| c.problems().iter().map(|p| p.line).collect::<Vec<_>>();
    assert_eq!(lines(&full), lines(&c));
}

fn observation_texts(c: &Creature) -> Vec<String> {
    c.observations()
        .observations()
        .map(|o| o.text.clone())
        .collect()
}

fn added_texts(changes: &[Change]) -> Vec<String> {
    changes
        .iter()
        .flat_map(|ch| match ch {
            Change::ObservationsAdded(added) => added.iter().map(|o| o.text.clone()).collect(),
            _ => Vec::new(),
        })
        .collect()
}

#[test]
fn an_observation_is_an_entry_only_once_its_newline_arrives() {
    dreamwatch::app::genomes::install();
    let (_d, root) = creature();
    let obs = root.join(".self/observations.md");
    append(&obs, "## 2026-03-01\nRED 10:00 first\n");
    // Never idle long enough: an unfinished last line is never shown.
    let mut c = Creature::with_settle(&root, std::time::Duration::MAX);
    append(&obs, "YLW 13:00 follow-partial-mar");
    let changes = c.refresh_paths(&[&obs]);
    assert_eq!(added_texts(&changes), Vec::<String>::new(), "{changes:?}");
    assert_eq!(observation_texts(&c), ["first"]);
    append(&obs, "ker-whole\n");
    let changes = c.refresh_paths(&[&obs]);
    assert_eq!(added_texts(&changes), ["follow-partial-marker-whole"]);
    assert_eq!(
        observation_texts(&c),
        ["first", "follow-partial-marker-whole"]
    );
}

#[test]
fn an_idle_unfinished_line_is_shown_then_replaced_by_its_completion() {
    dreamwatch::app::genomes::install();
    let (_d, root) = creature();
    let obs = root.join(".self/observations.md");
    append(&obs, "## 2026-03-01\nRED 10:00 first\n");
    // Idle at once: a person's editor that saved without a final newline.
    let mut c = Creature::with_settle(&root, std::time::Duration::ZERO);
    append(&obs, "YLW 13:00 typed by a person");
    let changes = c.refresh_paths(&[&obs]);
    assert_eq!(added_texts(&changes), ["typed by a person"]);
    append(&obs, ", then finished\n");
    let changes = c.refresh_paths(&[&obs]);
    assert_eq!(added_texts(&changes), Vec::<String>::new(), "{changes:?}");
    assert!(
        changes.contains(&Change::ObservationsRewritten),
        "{changes:?}"
    );
    assert_eq!(
        observation_texts(&c),
        ["first", "typed by a person, then finished"]
    );
}

#[test]
fn a_held_line_is_shown_once_its_file_has_been_idle() {
    dreamwatch::app::genomes::install();
    let (_d, root) = creature();
    let obs = root.join(".self/observations.md");
    append(
        &obs,
        "## 2026-03-01\nRED 10:00 first\nGRN 10:01 no final newline",
    );
    let file = OpenOptions::new().append(true).open(&obs).unwrap();
    let hour = std::time::Duration::from_secs(3600);
    // Written an hour ago: idle for longer than the settle time.
    file.set_modified(std::time::SystemTime::now() - hour)
        .unwrap();
    let c = Creature::with_settle(&root, std::time::Duration::from_secs(2));
    assert_eq!(observation_texts(&c), ["first", "no final newline"]);
    // Written "in the future": not idle yet, so held back.
    file.set_modified(std::time::SystemTime::now() + hour)
        .unwrap();
    let mut c = Creature::with_settle(&root, std::time::Duration::from_secs(2));
    assert_eq!(observation_texts(&c), ["first"]);
    // Once idle (mtime in the past again), a refresh with no other change shows it.
    file.set_modified(std::time::SystemTime::now() - hour)
        .unwrap();
    let changes = c.refresh();
    assert_eq!(added_texts(&changes), ["no final newline"]);
    assert!(c.refresh().is_empty());
}

#[test]
fn unfinished_lines_of_documents_wait_like_observations() {
    dreamwatch::app::genomes::install();
    let (_d, root) = creature();
    let rules = root.join(".self/rules.md");
    append(&rules, "- ALWAYS: one\n");
    let mut c = Creature::with_settle(&root, std::time::Duration::MAX);
    append(&rules, "- NEVER: tw");
    assert!(c.refresh_paths(&[&rules]).is_empty());
    assert_eq!(c.rules().len(), 1);
    append(&rules, "o\n");
    assert_eq!(c.refresh_paths(&[&rules]), vec![Change::Rules]);
    assert_eq!(c.rules().len(), 2);
}

#[test]
fn bad_lines_past_the_listed_problems_are_only_counted() {
    dreamwatch::app::genomes::install();
    let (_d, root) = creature();
    let dreams = root.join(".self/dreams.jsonl");
    append(&dreams, &"x\n".repeat(1000));
    let mut c = Creature::open(&root);
    assert_eq!(c.problems().len(), 200);
    assert_eq!(c.problems_dropped(), 800);
    append(&dreams, &"y\n".repeat(1000));
    let changes = c.refresh_paths(&[&dreams]);
    let listed = changes
        .iter()
        .filter(|ch| matches!(ch, Change::Problem(_)))
        .count();
    assert_eq!(listed, 0, "no change per problem that is not listed");
    assert_eq!(c.problems().len(), 200);
    assert_eq!(c.problems_dropped(), 1800);
}

#[test]
fn many_dreams_are_counted_but_only_the_recent_ones_kept() {
    dreamwatch::app::genomes::install();
    use dreamwatch::memory::dream_log::RECENT_DREAMS;
    let (_d, root) = creature();
    let dreams = root.join(".self/dreams.jsonl");
    let total = RECENT_DREAMS * 3 + 7;
    let mut text = "{}\n".repeat(total - 2);
    text.push_str(&dream(t0(), true));
    text.push_str(&dream(t0() + Duration::minutes(10), true));
    append(&dreams, &text);
    let mut c = Creature::open(&root);
    assert_eq!(c.dreams().len(), RECENT_DREAMS);
    let s = c.summary(t0(), &Cycle::default());
    assert_eq!(s.dreams, total as u64);
    assert_eq!((s.deep_sleeps, s.deep_every), (2, 1));
    assert_eq!(
        c.dream_log().last().and_then(|d| d.t),
        Some(t0() + Duration::minutes(10))
    );
    append(&dreams, &"{}\n".repeat(total));
    let changes = c.refresh_paths(&[&dreams]);
    let dream_changes = changes
        .iter()
        .filter(|ch| matches!(ch, Change::Dream(_)))
        .count();
    assert!(dream_changes <= RECENT_DREAMS, "{dream_changes}");
    assert_eq!(c.summary(t0(), &Cycle::default()).dreams, 2 * total as u64);
}

#[test]
fn a_huge_observations_file_is_counted_whole_and_kept_in_part() {
    dreamwatch::app::genomes::install();
    use dreamwatch::memory::observation_log::RECENT_OBSERVATION_ITEMS;
    let (_d, root) = creature();
    let obs = root.join(".self/observations.md");
    let total = RECENT_OBSERVATION_ITEMS + 10;
    append(
        &obs,
        &format!("## 2026-03-01\n{}", "GRN 10:00 x\n".repeat(total)),
    );
    let mut c = Creature::open(&root);
    assert_eq!(c.observations().items.len(), RECENT_OBSERVATION_ITEMS);
    assert_eq!(c.observation_counts().grn, total);
    assert_eq!(c.summary(t0(), &Cycle::default()).observations.grn, total);
    append(&obs, "RED 10:01 the newest\n");
    let changes = c.refresh_paths(&[&obs]);
    assert_eq!(added_texts(&changes), ["the newest"]);
    assert_eq!(c.observation_counts().red, 1);
    let (line, _) = c.observations().items.last().unwrap();
    assert_eq!(*line, total + 2);
}

#[test]
fn many_iterations_and_creator_log_lines_make_one_change_each() {
    dreamwatch::app::genomes::install();
    use dreamwatch::memory::creature::RECENT_CREATOR_LOG;
    let (_d, root) = creature();
    let mut c = Creature::open(&root);
    let iterations = root.join(".sys/iterations.jsonl");
    let creator_log = root.join(".self/creator-log.jsonl");
    append(&iterations, &"{}\n".repeat(5000));
    append(&creator_log, &"{}\n".repeat(RECENT_CREATOR_LOG * 3));
    let changes = c.refresh_paths(&[&iterations, &creator_log]);
    let count = |want: &Change| changes.iter().filter(|ch| *ch == want).count();
    assert_eq!(count(&Change::Iteration), 1);
    assert_eq!(count(&Change::CreatorLog), 1);
    assert_eq!(c.creator_log().len(), RECENT_CREATOR_LOG);
}

/// Whether the runner runs and listens is looked up when a hint names something in
/// `.sys/`, or on a full refresh: never when a status is derived (every tick does that).
#[test]
fn the_runner_is_probed_on_hints_in_sys_only() {
    dreamwatch::app::genomes::install();
    let (_d, root) = creature();
    // A stand-in runner: holds the creature's lock (fd 9) until it is killed.
    let lock = dreamwatch::memory::runner_lock::path(&root);
    let mut child = std::process::Command::new("sh")
        .arg("-c")
        .arg(r#"exec 9>"$1"; flock -x 9; echo locked; exec sleep 60"#)
        .arg("sh")
        .arg(&lock)
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut locked = String::new();
    std::io::BufRead::read_line(
        &mut std::io::BufReader::new(child.stdout.take().unwrap()),
        &mut locked,
    )
    .unwrap();
    assert_eq!(locked, "locked\n");
    let runner_json = root.join(".sys/runner.json");
    fs::write(&runner_json, format!("{{\"pid\": {}}}", child.id())).unwrap();
    let mut c = Creature::open(&root);
    let probe = |c: &Creature| {
        let p = c.runner_probe();
        (p.alive, p.listening)
    };
    assert_eq!(probe(&c), (true, false));

    let socket = dreamwatch::memory::layout::control_socket(&root);
    fs::write(&socket, "").unwrap();
    assert_eq!(probe(&c), (true, false));
    assert!(c.refresh_paths(&[&socket]).contains(&Change::Runner));
    assert_eq!(probe(&c), (true, true));

    child.kill().unwrap();
    child.wait().unwrap();
    assert_ne!(c.status(t0(), &Cycle::default()), Status::Stopped);
    assert!(c.refresh_paths(&[&runner_json]).contains(&Change::Runner));
    assert_eq!(probe(&c), (false, false));
    assert_eq!(c.status(t0(), &Cycle::default()), Status::Stopped);
}

#[test]
fn a_file_that_cannot_be_read_is_one_problem_however_often_it_is_looked_at() {
    dreamwatch::app::genomes::install();
    let (_d, root) = creature();
    let conv = root.join(".self/conversation.jsonl");
    let status = std::process::Command::new("mkfifo")
        .arg(&conv)
        .status()
        .unwrap();
    assert!(status.success());
    let mut c = Creature::open(&root);
    assert_eq!(c.problems().len(), 1, "{:?}", c.problems());
    for _ in 0..3 {
        let changes = c.refresh();
        assert!(
            !changes.iter().any(|ch| matches!(ch, Change::Problem(_))),
            "{changes:?}"
        );
    }
    assert_eq!(c.problems().len(), 1);
    assert_eq!(c.problems_dropped(), 0);
}
