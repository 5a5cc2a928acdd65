//! The derived picture of a creature: status, fatigue, dream cadence, counts.

use std::path::PathBuf;

use chrono::{DateTime, Duration, Utc};
use serde::Serialize;

use super::creature::Creature;
use super::cycle::Cycle;
use super::observations::ObsCounts;
use super::status::Status;

/// Without events for this long (and not asleep), a creature counts as stopped.
pub const STOPPED_AFTER: Duration = Duration::minutes(30);

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Summary {
    pub name: String,
    pub path: PathBuf,
    pub model: Option<String>,
    pub status: Status,
    /// Tool calls since the last dream.
    pub fatigue: u64,
    pub dreams: u64,
    pub deep_sleeps: u64,
    /// Dreams between deep sleeps: read from the deep dreams on disk where there are two
    /// or more, else the configured DEEP_SLEEP_EVERY.
    pub deep_every: u64,
    pub dreams_until_deep: u64,
    pub observations: ObsCounts,
    pub last_activity: Option<DateTime<Utc>>,
}

impl Summary {
    /// What is known of a creature whose files cannot be read here: its name alone.
    pub fn nothing_known(name: &str, path: PathBuf, k: &Cycle) -> Self {
        let deep_every = k.deep_sleep_every.max(1);
        Summary {
            name: name.to_string(),
            path,
            model: None,
            status: Status::Unknown,
            fatigue: 0,
            dreams: 0,
            deep_sleeps: 0,
            deep_every,
            dreams_until_deep: deep_every,
            observations: ObsCounts::default(),
            last_activity: None,
        }
    }
}

impl Creature {
    pub fn summary(&self, now: DateTime<Utc>, k: &Cycle) -> Summary {
        let dreams = self.dream_log();
        let (before_last_deep, last_deep) = dreams.last_deep();
        let deep_every = match (before_last_deep, last_deep) {
            (Some(a), Some(b)) if b > a => b - a,
            _ => k.deep_sleep_every.max(1),
        };
        let count = dreams.count();
        let since_deep = match last_deep {
            Some(last) => count - last,
            None => count % deep_every,
        };
        Summary {
            name: self.name().to_string(),
            path: self.root().to_path_buf(),
            model: self.birth().and_then(|b| b.model.clone()),
            status: self.status(now, k),
            fatigue: self.fatigue(),
            dreams: count,
            deep_sleeps: dreams.deep_count(),
            deep_every,
            dreams_until_deep: deep_every.saturating_sub(since_deep % deep_every).max(1),
            observations: self.observation_counts(),
            last_activity: self.last_activity(),
        }
    }

    /// Tool calls after the last dream: from the events file where there is one, else
    /// from the conversation.
    pub fn fatigue(&self) -> u64 {
        let since = self.last_dream_time();
        if self.events.exists {
            self.events.calls_after(since)
        } else {
            self.conversation.calls_after(since)
        }
    }

    /// The latest time written in any log.
    pub fn last_activity(&self) -> Option<DateTime<Utc>> {
        [
            self.events.last_t,
            self.conversation.last_t,
            self.memory_log().last_t,
            self.dream_log().last_time(),
            self.iterations().back().and_then(|i| i.t),
            self.genome_memory().and_then(|m| m.last_t()),
        ]
        .into_iter()
        .flatten()
        .max()
    }

    /// Status from the files alone (a hosting runner's word overrides this in the UI).
    pub fn status(&self, now: DateTime<Utc>, k: &Cycle) -> Status {
        if let Some(runner) = self.runner() {
            if !self.runner_probe().alive {
                return Status::Stopped;
            }
            if runner.paused {
                return Status::Paused;
            }
        }
        if let Some(memory) = self.genome_memory() {
            let sleep_wake_at = self.sleep.as_ref().and_then(|s| s.wake_at);
            let by_activity = self.status_by_activity(now);
            if let Some(status) = memory.status(now, sleep_wake_at, by_activity) {
                return status;
            }
        }
        let last_dream = self.dreams().last();
        if let Some(wake_at) = self
            .sleep
            .as_ref()
            .and_then(|s| s.wake_at)
            .filter(|w| *w > now)
        {
            let sleep_start = self.events.last_sleep().map(|s| s.t);
            let deep = last_dream.is_some_and(|d| d.deep && d.t >= sleep_start);
            return if deep {
                Status::DeepSleep {
                    until: Some(wake_at),
                }
            } else {
                Status::Asleep {
                    until: Some(wake_at),
                }
            };
        }
        if let Some(sleep) = self.events.last_sleep().filter(|s| !s.ended) {
            let until = sleep.t + Duration::milliseconds((sleep.seconds * 1000.0) as i64);
            if until > now {
                if sleep.seconds < k.quick_nap_threshold_s {
                    return Status::Napping { until: Some(until) };
                }
                return match sleep.dreamed {
                    Some(true) => Status::DeepSleep { until: Some(until) },
                    Some(false) => Status::Asleep { until: Some(until) },
                    None => {
                        let min_dream_interval =
                            Duration::milliseconds((k.min_dream_interval_s * 1000.0) as i64);
                        let due = self
                            .dream_log()
                            .last_time()
                            .is_none_or(|t| sleep.t - t >= min_dream_interval);
                        if due && now - sleep.t < Duration::minutes(5) {
                            Status::Dreaming
                        } else {
                            Status::Asleep { until: Some(until) }
                        }
                    }
                };
            }
        }
        if self.iterations().back().is_some_and(|i| i.interrupted)
            && self.events.last_t <= self.iterations().back().and_then(|i| i.t)
        {
            return Status::Stopped;
        }
        self.status_by_activity(now)
    }

    /// Awake while something was written lately.
    fn status_by_activity(&self, now: DateTime<Utc>) -> Status {
        match self.last_activity() {
            Some(t) if now - t < STOPPED_AFTER => Status::Awake,
            Some(_) => Status::Stopped,
            None => Status::Unknown,
        }
    }
}
