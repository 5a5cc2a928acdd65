//! emergence's request to the brain, with its parameters as data: the rehearsal brain
//! answers it from these fields alone (`rehearsal.rs`).

use super::SummaryKind;
use super::rehearsal;
use crate::runner::brain::task::GenomeRequest;

/// Self-care's summary of memories or dialogues around the creature's focus: `(id, text)`
/// items, and for dialogues the earlier summary folded into the new one.
#[derive(Debug, Clone, PartialEq)]
pub struct Summarize {
    pub kind: SummaryKind,
    pub focus: String,
    pub items: Vec<(String, String)>,
    pub earlier: Option<String>,
}

impl GenomeRequest for Summarize {
    fn purpose(&self) -> &'static str {
        "summarize"
    }

    fn rehearse(&self) -> String {
        rehearsal::summary(self)
    }
}
