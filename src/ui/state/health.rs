//! Health at a glance: a creature that is failing, stalled or has lost its runner is shown
//! as such in the garden, never as a plain status; and attention marks for what arrived on
//! a creature that is not selected.

use chrono::{DateTime, Duration, Utc};

use crate::control::HostStatus;
use crate::memory::creature::Creature;
use crate::memory::status::Status;
use crate::memory::summary::Summary;

/// Awake with nothing written for this long: stalled (at 30 minutes it counts as stopped).
pub const STALLED_AFTER: Duration = Duration::minutes(10);

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Health {
    #[default]
    Ok,
    /// The last model call or write failed (the hosting runner says so, or the latest
    /// event is an error).
    Failing,
    /// Awake, and nothing written for [`STALLED_AFTER`] or more.
    Stalled,
    /// A dreamwatch runner hosted it (`.sys/runner.json`) and runs no more.
    RunnerGone,
}

impl Health {
    /// What the garden row says instead of the status, if anything.
    pub fn label(self) -> Option<&'static str> {
        match self {
            Health::Ok => None,
            Health::Failing => Some("failing"),
            Health::Stalled => Some("stalled"),
            Health::RunnerGone => Some("runner gone"),
        }
    }

    /// The creature's health from its summary, its files and, when this observatory
    /// hosts it, its runner's last error.
    pub fn of(c: &Creature, s: &Summary, host: Option<&HostStatus>, now: DateTime<Utc>) -> Self {
        Self::of_status(c, s.status, s.last_activity, host, now)
    }

    /// [`Health::of`] with the summary's status as `status`.
    pub fn of_status(
        c: &Creature,
        status: Status,
        last_activity: Option<DateTime<Utc>>,
        host: Option<&HostStatus>,
        now: DateTime<Utc>,
    ) -> Self {
        let stopped = matches!(status, Status::Stopped | Status::Unknown);
        if host.is_some_and(|h| h.last_error.is_some()) || (!stopped && c.events().failing()) {
            return Health::Failing;
        }
        if host.is_none() && c.runner().is_some() && !c.runner_probe().alive {
            return Health::RunnerGone;
        }
        let quiet = last_activity.is_none_or(|t| now - t >= STALLED_AFTER);
        if status == Status::Awake && quiet {
            return Health::Stalled;
        }
        Health::Ok
    }
}

/// Why a creature that is not selected asks for a look; cleared when it is selected.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Attention {
    Dream,
    Red,
    /// A dream is held for the operator's review.
    Review,
    Error,
}

impl Attention {
    pub fn label(self) -> &'static str {
        match self {
            Attention::Dream => "a dream",
            Attention::Red => "a RED observation",
            Attention::Review => "a dream awaiting review",
            Attention::Error => "an error",
        }
    }
}
