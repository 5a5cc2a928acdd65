//! API keys in the runner's environment never reach the creature's tools or its files.
//! Alone in its test binary: it sets environment variables.

use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use chrono::{TimeDelta, TimeZone, Utc};
use serde_json::json;

use dreamwatch::genomes::dreamer::runner::Dreamer;
use dreamwatch::llm::{ContentBlock, LlmFuture, Provider, Request, Response, StopReason};
use dreamwatch::runner::brain::Model;
use dreamwatch::runner::clock::VirtualClock;
use dreamwatch::runner::config::RunnerConfig;
use dreamwatch::runner::driver::{Runner, RunnerOptions};
use dreamwatch::runner::tools::{Bash, ToolRunner};

const SECRETS: [(&str, &str); 3] = [
    ("ANTHROPIC_API_KEY", "sk-ant-never-on-disk-1"),
    ("OPENAI_API_KEY", "sk-never-on-disk-2"),
    ("SOME_SERVICE_TOKEN", "tok-never-on-disk-3"),
];

/// A model that asks for the environment, then sleeps, then dreams.
struct Snoop {
    turns: Mutex<u32>,
}

impl Provider for Snoop {
    fn label(&self) -> String {
        "snoop (test)".into()
    }

    fn complete<'a>(&'a self, request: &'a Request) -> LlmFuture<'a> {
        let text = |t: &str| ContentBlock::Text { text: t.into() };
        let content = if request.tools.is_empty() {
            vec![text(
                "OBSERVATIONS:\nGRN 10:00 looked at the environment\nREFLECTION:\nCurious.\nPRIORITY:\nRest.",
            )]
        } else {
            let mut turns = self.turns.lock().unwrap();
            *turns += 1;
            match *turns {
                1 => vec![ContentBlock::ToolUse {
                    id: "t1".into(),
                    name: "bash".into(),
                    input: json!({"command": "env; echo key=$ANTHROPIC_API_KEY token=$SOME_SERVICE_TOKEN"}),
                }],
                _ => vec![ContentBlock::ToolUse {
                    id: format!("t{turns}"),
                    name: "set_sleep".into(),
                    input: json!({"seconds": 300}),
                }],
            }
        };
        Box::pin(async move {
            Ok(Response {
                content,
                stop_reason: StopReason::EndTurn,
                usage: None,
            })
        })
    }
}

fn files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            files(&p, out);
        } else {
            out.push(p);
        }
    }
}

#[tokio::test]
async fn keys_never_reach_tools_or_files() {
    // SAFETY: the only test in this binary (so no other test thread reads the environment);
    // set before the runner starts any task.
    unsafe {
        for (k, v) in SECRETS {
            std::env::set_var(k, v);
        }
    }
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("snooper");
    let clock = Arc::new(VirtualClock::new(
        Utc.with_ymd_and_hms(2026, 3, 1, 10, 0, 0).unwrap(),
        TimeDelta::seconds(1),
    ));
    let mut opts = RunnerOptions::new(
        dir.clone(),
        RunnerConfig::default(),
        Arc::new(Model(Arc::new(Snoop {
            turns: Mutex::new(0),
        }))),
        "snoop".into(),
    );
    opts.clock = clock;
    opts.max_dreams = Some(1);
    let report = Runner::open_genome(opts, Dreamer::default())
        .unwrap()
        .run(std::future::pending())
        .await;
    assert_eq!(report.dreams, 1);

    // The bash tool on its own.
    let bash = Bash::new(Duration::from_secs(5), 100_000);
    let o = bash.run(tmp.path(), "env").await;
    assert!(o.ok);
    assert!(o.content.contains("PATH="));
    for (name, secret) in SECRETS {
        assert!(!o.content.contains(secret), "{name} reached the tool");
    }

    let conversation = std::fs::read_to_string(dir.join(".self/conversation.jsonl")).unwrap();
    assert!(conversation.contains("PATH="), "the tool did run env");
    assert!(conversation.contains("key= token="), "and saw no keys");
    let mut all = Vec::new();
    files(&dir, &mut all);
    assert!(all.iter().any(|p| p.ends_with(".self/conversation.jsonl")));
    for path in all {
        let bytes = std::fs::read(&path).unwrap_or_default();
        let text = String::from_utf8_lossy(&bytes);
        for (name, secret) in SECRETS {
            assert!(
                !text.contains(secret),
                "{name} leaked into {}",
                path.display()
            );
        }
    }
}
