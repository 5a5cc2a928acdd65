//! The handle on a creature that dreamwatch hosts in-process: commands go in over a
//! channel, the runner's status comes back over another.

use std::path::PathBuf;

use serde::Serialize;
use tokio::sync::{mpsc, watch};

use super::protocol::ControlCommand;
use crate::memory::cycle::Cycle;
use crate::memory::identity::BrainKind;
use crate::memory::status::Status;

/// What the runner tells the observatory about its creature, beyond the files.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HostStatus {
    pub status: Status,
    pub fatigue: u64,
    /// Provider label, e.g. `rehearsal (offline demo brain)`.
    pub brain: String,
    pub brain_kind: BrainKind,
    /// The last fault (LLM error, failed write), shown until the next success.
    pub last_error: Option<String>,
}

/// The observatory's handle on a creature that dreamwatch hosts in-process.
#[derive(Debug, Clone)]
pub struct HostedCreature {
    pub dir: PathBuf,
    pub control: mpsc::UnboundedSender<ControlCommand>,
    pub status: watch::Receiver<HostStatus>,
    /// The constants the runner lives by, for the observatory's gauges and cadence.
    pub cycle: Cycle,
}
