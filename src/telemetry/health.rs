//! Whether the collector is reachable: said once when it is not (the log, and whoever
//! watches [`Health::problem`]: a hosted creature's status), and once when it is again.

use std::sync::Mutex;

#[derive(Debug, Default)]
pub struct Health {
    /// What went wrong, while the collector is unreachable.
    problem: Mutex<Option<String>>,
}

impl Health {
    /// A request got an answer.
    pub fn reached(&self) {
        let Ok(mut problem) = self.problem.lock() else {
            return;
        };
        if problem.take().is_some() {
            tracing::info!("OpenTelemetry collector reachable again");
        }
    }

    /// A request failed: said the first time.
    pub fn failed(&self, what: &str) {
        let Ok(mut problem) = self.problem.lock() else {
            return;
        };
        if problem.is_none() {
            tracing::warn!("OpenTelemetry collector unreachable ({what}): retrying with backoff");
            *problem = Some(format!("telemetry: collector unreachable ({what})"));
        }
    }

    /// What is wrong now, if anything.
    pub fn problem(&self) -> Option<String> {
        self.problem.lock().ok().and_then(|p| p.clone())
    }
}
