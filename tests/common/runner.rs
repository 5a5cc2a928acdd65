//! Shared by the runner's integration tests.

use std::path::Path;
use std::time::Duration;

use dreamwatch::runner::tools::{ToolFuture, ToolOutcome, ToolRunner};

/// Commands answered in-process, so the life measures the runner, not process spawning
/// (the real bash runs in the crash test). What the rehearsal brain means to fail, fails.
/// Each command takes `delay` of real time.
#[derive(Default)]
pub struct SimulatedShell {
    pub delay: Duration,
}

impl ToolRunner for SimulatedShell {
    fn run<'a>(&'a self, _dir: &'a Path, command: &'a str) -> ToolFuture<'a> {
        let fails = ["forecast", "archive", "grep -q", "test -s"]
            .iter()
            .any(|f| command.contains(f));
        Box::pin(async move {
            if !self.delay.is_zero() {
                tokio::time::sleep(self.delay).await;
            }
            let (ok, content, display) = if fails {
                let e = format!("Error: exit code 1: {command}: not found");
                (false, e.clone(), e)
            } else {
                let out = format!("simulated output of {command}");
                (
                    true,
                    serde_json::json!({"stdout": out, "stderr": ""}).to_string(),
                    out,
                )
            };
            ToolOutcome {
                ok,
                content,
                display,
                ms: 1,
            }
        })
    }
}
