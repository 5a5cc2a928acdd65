//! Gardens on other machines, as the observatory shows them: each connection's host and
//! whether it is up. Its creatures are read from their copies under the connection's
//! mirror directory, like any creature; this says which those are and what to mark.

use std::path::Path;
use std::time::Duration;

use chrono::{DateTime, Utc};

use super::openseed::OpenSeedUi;
use crate::ui::prepare::inert;

/// Whether a far garden is being followed.
#[derive(Debug, Clone, PartialEq)]
pub enum RemoteLink {
    Connecting,
    Up,
    /// Dropped (or never made) since `since`; tried again in `retry_in`.
    Down {
        error: String,
        since: DateTime<Utc>,
        retry_in: Duration,
    },
    /// It cannot be followed (another protocol, another system): not tried again.
    Refused {
        error: String,
    },
}

#[derive(Debug, Clone)]
pub struct RemoteUi {
    /// The host, inert, as the garden marks its creatures (`name@host`).
    pub host: String,
    /// `ssh://host/path`, inert, for messages.
    pub place: String,
    pub link: RemoteLink,
    /// Its conversations whose windows are still to come after its first snapshot.
    pub windows_left: usize,
    /// Whether they were asked for (once every far garden's figures are in).
    pub windows_asked: bool,
    /// What the far machine's OpenSeed orchestrator says, once it has said anything.
    pub openseed: Option<OpenSeedUi>,
}

impl RemoteUi {
    pub fn new(host: &str, place: &str) -> Self {
        Self {
            host: inert(host),
            place: inert(place),
            link: RemoteLink::Connecting,
            windows_left: 0,
            windows_asked: false,
            openseed: None,
        }
    }

    /// What its creatures are marked with instead of their status while the copy may
    /// be stale: `None` while it is up.
    pub fn mark(&self) -> Option<&'static str> {
        match self.link {
            RemoteLink::Up => None,
            RemoteLink::Connecting => Some("connecting"),
            RemoteLink::Down { .. } => Some("disconnected"),
            RemoteLink::Refused { .. } => Some("not followed"),
        }
    }
}

/// The mirror root a creature's copy sits in (its parent directory).
pub fn root_of(path: &Path) -> Option<&Path> {
    path.parent()
}
