//! What the runner writes, the memory model reads back exactly.

use chrono::{DateTime, TimeZone, Utc};
use proptest::prelude::*;
use serde_json::{Value, json};

use dreamwatch::genomes::dreamer::runner::files::{DreamerFiles, commit_dream};
use dreamwatch::genomes::dreamer::runner::{DreamCommit, DreamerIo};
use dreamwatch::llm::{ContentBlock, Role};
use dreamwatch::memory::conversation::{Block, Content, ConversationEntry};
use dreamwatch::memory::creature::RunnerFile;
use dreamwatch::memory::documents::{Priorities, parse_diary};
use dreamwatch::memory::dreams::Dream;
use dreamwatch::memory::events::{Event, EventKind};
use dreamwatch::memory::identity::{Birth, SleepFile};
use dreamwatch::memory::iterations::{Iteration, IterationAction};
use dreamwatch::memory::observations::{ObsItem, Observations};
use dreamwatch::memory::write::SeedPaths;
use dreamwatch::runner::disk::{self, Newborn, RunnerJson};
use dreamwatch::runner::engine::context::log_content;
use dreamwatch::runner::engine::output::Record as Write;
use dreamwatch::runner::genome::{GenomeFiles, Performed};

fn creature() -> (tempfile::TempDir, SeedPaths, RunnerJson) {
    let dir = tempfile::tempdir().unwrap();
    let paths = SeedPaths::new(dir.path().join("c"));
    disk::create(
        &paths,
        &Newborn {
            name: "c",
            model: "rehearsal",
            purpose: "grow",
            born: at(0),
            genome: "dreamer",
        },
    )
    .unwrap();
    let runner = RunnerJson {
        pid: std::process::id(),
        started: "2026-03-01T10:00:00.000Z".into(),
        brain: "rehearsal (offline demo brain)".into(),
        paused: false,
        tools: None,
        disk_full: None,
    };
    (dir, paths, runner)
}

/// The bare directories, for cases run many times.
fn bare() -> (tempfile::TempDir, SeedPaths, RunnerJson) {
    let dir = tempfile::tempdir().unwrap();
    let paths = SeedPaths::new(dir.path());
    std::fs::create_dir_all(paths.self_dir()).unwrap();
    std::fs::create_dir_all(paths.sys_dir()).unwrap();
    let runner = RunnerJson {
        pid: std::process::id(),
        started: String::new(),
        brain: String::new(),
        paused: false,
        tools: None,
        disk_full: None,
    };
    (dir, paths, runner)
}

/// A time with millisecond precision, as the files keep it.
fn at(ms: i64) -> DateTime<Utc> {
    Utc.timestamp_millis_opt(1_772_359_200_000 + ms).unwrap()
}

fn last_line(path: &std::path::Path) -> Vec<u8> {
    let text = std::fs::read(path).unwrap();
    let body = text.strip_suffix(b"\n").expect("whole lines only");
    body.rsplit(|b| *b == b'\n').next().unwrap().to_vec()
}

fn block_of(b: &ContentBlock) -> Block {
    match b.clone() {
        ContentBlock::Text { text } => Block::Text(text),
        ContentBlock::ToolUse { id, name, input } => Block::ToolUse { id, name, input },
        ContentBlock::ToolResult {
            tool_use_id,
            content,
            is_error,
        } => Block::ToolResult {
            tool_use_id,
            content,
            is_error,
        },
    }
}

fn write_conversation(
    paths: &SeedPaths,
    runner: &mut RunnerJson,
    t: DateTime<Utc>,
    role: Role,
    blocks: &[ContentBlock],
) {
    let w = Write::Conversation {
        t,
        role,
        content: log_content(blocks),
    };
    disk::perform(paths, runner, &w).unwrap();
}

fn expected_content(blocks: &[ContentBlock]) -> Content {
    match blocks {
        [ContentBlock::Text { text }] if !text.trim_start().starts_with("[{") => {
            Content::Text(text.clone())
        }
        _ => Content::Blocks(blocks.iter().map(block_of).collect()),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn conversation_lines_read_back_exactly(
        text in "(\\[\\{)?\\PC{0,40}[\\x00-\\x1f\\u{7f}\\u{1F331}]{0,3}",
        result in "\\PC{0,60}",
        ms in 0i64..10_000_000,
        is_error: bool,
    ) {
        let (_d, paths, mut runner) = bare();
        let cases: Vec<(Role, Vec<ContentBlock>)> = vec![
            (Role::User, vec![ContentBlock::Text { text: text.clone() }]),
            (Role::Assistant, vec![
                ContentBlock::Text { text: text.clone() },
                ContentBlock::ToolUse { id: "toolu_1".into(), name: "bash".into(), input: json!({"command": result.clone()}) },
            ]),
            (Role::User, vec![
                ContentBlock::ToolResult { tool_use_id: "toolu_1".into(), content: result.clone(), is_error },
                ContentBlock::Text { text: text.clone() },
            ]),
        ];
        for (role, blocks) in cases {
            write_conversation(&paths, &mut runner, at(ms), role, &blocks);
            let e = ConversationEntry::parse(&last_line(&paths.conversation())).unwrap();
            prop_assert_eq!(e.t, Some(at(ms)));
            prop_assert_eq!(e.role.as_str(), match role { Role::User => "user", Role::Assistant => "assistant" });
            prop_assert_eq!(e.content, expected_content(&blocks));
        }
    }

    #[test]
    fn dreams_and_observations_read_back_exactly(
        reflection in "\\PC{1,80}",
        priority in "\\PC{1,40}",
        facts in proptest::collection::vec("[a-zA-Z0-9 `'.:/-]{1,40}", 0..5),
        actions in 0u64..500,
        deep: bool,
        ms in 0i64..10_000_000,
    ) {
        let (_d, paths, _) = bare();
        let observations: Vec<String> = facts.iter().enumerate()
            .map(|(i, f)| format!("{} 10:0{} {}", ["RED", "YLW", "GRN"][i % 3], i, f.trim()))
            .filter(|l| !l.ends_with(' '))
            .collect();
        let dream = Dream { t: Some(at(ms)), actions, reflection, priority, observations: observations.len() as u64, deep };
        let commit = DreamCommit { date: at(ms).format("%Y-%m-%d").to_string(), observations: observations.clone(), dream: dream.clone() };
        commit_dream(&paths, &commit).unwrap();
        prop_assert_eq!(Dream::parse(&last_line(&paths.dreams())).unwrap(), dream);
        let text = std::fs::read_to_string(paths.observations()).unwrap_or_default();
        let doc = Observations::parse(&text);
        let lines: Vec<String> = doc.items.iter().filter_map(|(n, i)| match i {
            ObsItem::Observation(_) => Some(text.lines().nth(n - 1).unwrap().to_string()),
            _ => None,
        }).collect();
        prop_assert_eq!(lines, observations.clone());
        if !observations.is_empty() {
            prop_assert_eq!(&doc.items[1].1, &ObsItem::Header { date: commit.date.clone(), dream: None });
        }
    }
}

#[test]
fn events_and_memory_lines_read_back_exactly() {
    let (_d, paths, mut runner) = creature();
    let fields = json!({"tool": "bash", "input": "ls -a", "ok": false, "output": "Error: \u{1b}[31mno\u{1b}[0m", "ms": 12});
    let Value::Object(fields) = fields else {
        unreachable!()
    };
    disk::perform(
        &paths,
        &mut runner,
        &Write::Event {
            t: at(5),
            kind: EventKind::ToolCall,
            fields: fields.clone(),
        },
    )
    .unwrap();
    let line = last_line(&paths.events());
    assert!(
        line.starts_with(b"{\"t\":\"2026-03-01T10:00:00.005Z\",\"type\":\"creature.tool_call\",")
    );
    let e = Event::parse(&line).unwrap();
    assert_eq!(
        (e.t, e.kind.as_str(), e.fields),
        (Some(at(5)), "creature.tool_call", fields.clone())
    );

    let data = json!({"intent": "rest", "actions": 3, "sleep_s": 300.0});
    disk::perform(
        &paths,
        &mut runner,
        &Write::Memory {
            t: at(6),
            kind: "thought",
            data: data.clone(),
        },
    )
    .unwrap();
    let m = Event::parse(&last_line(&paths.memory())).unwrap();
    let Value::Object(data) = data else {
        unreachable!()
    };
    assert_eq!(
        (m.t, m.kind.as_str(), m.fields),
        (Some(at(6)), "thought", data)
    );
}

#[test]
fn iterations_read_back_exactly() {
    let (_d, paths, mut runner) = creature();
    for i in [
        Iteration {
            t: Some(at(1)),
            turns: 7,
            intent: "Resting now.".into(),
            actions: vec![IterationAction {
                tool: "bash".into(),
                ok: false,
                summary: "Error: exit code 1: cat: x".into(),
                ms: 3,
                command: Some("cat x".into()),
            }],
            sleep_s: 300.0,
            sleep_started_at: Some(at(1)),
            interrupted: false,
            action_count: None,
        },
        Iteration {
            t: Some(at(2)),
            turns: 2,
            intent: String::new(),
            actions: Vec::new(),
            sleep_s: 0.0,
            sleep_started_at: None,
            interrupted: true,
            action_count: Some(4),
        },
    ] {
        disk::perform(&paths, &mut runner, &Write::Iteration(i.clone())).unwrap();
        assert_eq!(
            Iteration::parse(&last_line(&paths.iterations())).unwrap(),
            i
        );
    }
}

#[test]
fn documents_and_state_files_read_back_exactly() {
    let (_d, paths, mut runner) = creature();
    let items = vec![
        "Write the summary.".to_string(),
        "Stop retrying x.".into(),
        "Read MESSAGES.md.".into(),
    ];
    dreamer_write(
        &paths,
        DreamerIo::Priorities {
            updated: at(60_000),
            items: items.clone(),
        },
    );
    let p = Priorities::parse(&std::fs::read_to_string(paths.priorities()).unwrap());
    assert_eq!(
        (p.items, p.updated.as_deref()),
        (items, Some("2026-03-01T10:01"))
    );

    dreamer_write(
        &paths,
        DreamerIo::Diary {
            at: at(120_000),
            body: "Dreams since:\n- one\n".into(),
        },
    );
    let d = parse_diary(&std::fs::read_to_string(paths.diary()).unwrap());
    assert_eq!(
        (d[0].heading.as_str(), d[0].body.as_str()),
        ("2026-03-01T10:02 - Deep Sleep", "Dreams since:\n- one")
    );

    disk::perform(
        &paths,
        &mut runner,
        &Write::SleepFile {
            wake_at: at(300_000),
        },
    )
    .unwrap();
    let s = SleepFile::parse(&std::fs::read(paths.sleep()).unwrap()).unwrap();
    assert_eq!(s.wake_at, Some(at(300_000)));
    disk::perform(&paths, &mut runner, &Write::RemoveSleepFile).unwrap();
    assert!(!paths.sleep().exists());
    disk::perform(&paths, &mut runner, &Write::RemoveSleepFile).unwrap();

    disk::perform(&paths, &mut runner, &Write::Runner { paused: true }).unwrap();
    let r: RunnerFile = serde_json::from_slice(&std::fs::read(paths.runner()).unwrap()).unwrap();
    assert_eq!(
        (r.pid, r.brain.as_deref(), r.paused),
        (
            std::process::id(),
            Some("rehearsal (offline demo brain)"),
            true
        )
    );
    // Liveness is the runner's lock, not this pid: see runner_liveness.

    let b = Birth::parse(&std::fs::read(paths.birth()).unwrap()).unwrap();
    assert_eq!(b.name, "c");
    assert_eq!(b.born.as_deref(), Some("2026-03-01T10:00:00.000Z"));
    assert_eq!(
        (b.genome.as_deref(), b.model.as_deref(), b.parent.as_deref()),
        (Some("dreamer"), Some("rehearsal"), None)
    );
    assert_eq!(b.created_by.as_deref(), Some("dreamwatch"));

    let pruned = "# Observations\n\n## 2026-03-01\n\nRED 10:00 kept\n";
    dreamer_write(
        &paths,
        DreamerIo::Observations {
            text: pruned.into(),
        },
    );
    assert_eq!(
        Observations::parse(&std::fs::read_to_string(paths.observations()).unwrap())
            .counts()
            .red,
        1
    );
}

/// A dreamer's write through its own files, which must go through.
fn dreamer_write(paths: &SeedPaths, io: DreamerIo) {
    match DreamerFiles::default().perform(paths, io) {
        Performed::Written => {}
        other => panic!("{other:?}"),
    }
}
