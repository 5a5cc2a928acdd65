//! The runner's shared parts as the dreamer fills them: its part of the system prompt and
//! of `set_sleep`'s description, and what restore finds of its dreams.

use super::super::Dreamer;
use crate::memory::write::SeedPaths;
use crate::runner::config::RunnerConfig;
use crate::runner::genome::Genome;
use crate::runner::restore::restore;
use crate::runner::tools::{BASH, SET_SLEEP, specs};

fn system(purpose: &str, cfg: &RunnerConfig) -> String {
    crate::runner::prompt::system(purpose, cfg, &Dreamer::default().prompt(cfg))
}

#[test]
fn carries_purpose_and_constants() {
    let s = system("Catalogue the rocks.", &RunnerConfig::default());
    assert!(s.contains("Catalogue the rocks."));
    assert!(s.contains("at least 10 minutes old"));
    assert!(s.contains("every 10th dream"));
    assert!(s.contains("After 60 tool calls since"));
    assert!(system("  ", &RunnerConfig::default()).contains("No PURPOSE.md yet"));
}

#[test]
fn specs_name_both_tools() {
    let cfg = RunnerConfig::default();
    let s = specs(&cfg, &Dreamer::default().prompt(&cfg).sleep);
    assert!(s[1].description.contains("Sleeps of 30s or more"));
    assert!(s[1].description.contains("at least 10 minutes old"));
    assert_eq!(
        s.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(),
        vec![BASH, SET_SLEEP]
    );
    assert_eq!(s[0].input_schema["required"][0], "command");
}

#[test]
fn events_after_the_last_dream_and_an_interrupted_sleep() {
    let dir = tempfile::tempdir().unwrap();
    let paths = SeedPaths::new(dir.path());
    std::fs::create_dir_all(paths.self_dir()).unwrap();
    std::fs::create_dir_all(paths.sys_dir()).unwrap();
    std::fs::write(
        paths.dreams(),
        "{\"t\":\"2026-03-01T10:00:00.000Z\",\"reflection\":\"r\",\"priority\":\"p\",\"deep\":true}\nnot json\n{\"t\":\"2026-03-01T10:20:00.000Z\",\"reflection\":\"r2\",\"priority\":\"p2\",\"deep\":false}\n",
    )
    .unwrap();
    std::fs::write(
        paths.events(),
        [
            r#"{"t":"2026-03-01T10:19:00.000Z","type":"creature.tool_call","tool":"bash","input":"old","ok":true,"output":"","ms":1}"#,
            r#"{"t":"2026-03-01T10:20:00.000Z","type":"creature.dream","reflection":"r2"}"#,
            r#"{"t":"2026-03-01T10:21:00.000Z","type":"creature.wake","reason":"x","source":"timer"}"#,
            r#"{"t":"2026-03-01T10:22:00.000Z","type":"creature.tool_call","tool":"bash","input":"ls","ok":true,"output":"a","ms":1}"#,
            r#"{"t":"2026-03-01T10:23:00.000Z","type":"creature.sleep","seconds":300,"text":"rest","actions":1}"#,
        ]
        .join("\n")
            + "\n",
    )
    .unwrap();
    let r = restore::<Dreamer>(&paths, &RunnerConfig::default(), &mut Default::default());
    assert_eq!(r.genome.dreams, 2);
    assert_eq!(r.genome.since_deep.len(), 1);
    assert_eq!(r.activity.total, 1);
    assert_eq!(r.activity.actions[0].command.as_deref(), Some("ls"));
    assert_eq!(r.interrupted_sleep_s, Some(300.0));
    assert!(r.errors.iter().any(|e| e.contains("dreams.jsonl: 1 bad")));
    assert!(!r.fresh);
    // With a sleep file the pause resumes instead.
    std::fs::write(paths.sleep(), r#"{"wake_at":"2026-03-01T10:28:00.000Z"}"#).unwrap();
    std::fs::write(
        paths.iterations(),
        "{\"t\":\"2026-03-01T10:23:00.000Z\",\"sleep_s\":300,\"sleep_started_at\":\"2026-03-01T10:23:00.000Z\"}\n",
    )
    .unwrap();
    let r = restore::<Dreamer>(&paths, &RunnerConfig::default(), &mut Default::default());
    assert!(r.sleep_until.is_some());
    assert_eq!(r.interrupted_sleep_s, None);
    assert_eq!(
        r.sleep_started.map(|t| t.to_rfc3339()),
        Some("2026-03-01T10:23:00+00:00".into())
    );
}
