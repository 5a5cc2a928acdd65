//! evennia's requests to the brain during its sleep work, with their parameters as data:
//! the rehearsal brain answers them from these fields alone (`rehearsal.rs`).

use super::rehearsal;
use crate::runner::brain::task::GenomeRequest;

/// Importance of journal entries, 1 to 10, in a batch: `(id, text)`.
#[derive(Debug, Clone, PartialEq)]
pub struct ScoreImportance {
    pub entries: Vec<(String, String)>,
}

/// World facts from a journal entry (the persona-protection prompt).
#[derive(Debug, Clone, PartialEq)]
pub struct ExtractFacts {
    pub entry_id: String,
    pub text: String,
    pub source_entity: Option<String>,
}

/// An entity's raw observations distilled into attributes.
#[derive(Debug, Clone, PartialEq)]
pub struct ConsolidateEntity {
    pub entity_id: String,
    pub entity_type: String,
    /// What was already known: `(key, value)`.
    pub attributes: Vec<(String, String)>,
    /// Raw observations since the last consolidation, oldest first.
    pub observations: Vec<String>,
}

/// Reflection questions and insights over important recent entries: `(id, text,
/// importance)`.
#[derive(Debug, Clone, PartialEq)]
pub struct Reflect {
    pub entries: Vec<(String, String, u8)>,
}

impl GenomeRequest for ScoreImportance {
    fn purpose(&self) -> &'static str {
        "score_importance"
    }

    fn rehearse(&self) -> String {
        rehearsal::scores(self)
    }
}

impl GenomeRequest for ExtractFacts {
    fn purpose(&self) -> &'static str {
        "extract_facts"
    }

    fn rehearse(&self) -> String {
        rehearsal::facts(self)
    }
}

impl GenomeRequest for ConsolidateEntity {
    fn purpose(&self) -> &'static str {
        "consolidate_entity"
    }

    fn rehearse(&self) -> String {
        rehearsal::attributes(self)
    }
}

impl GenomeRequest for Reflect {
    fn purpose(&self) -> &'static str {
        "reflect"
    }

    fn rehearse(&self) -> String {
        rehearsal::reflection(self)
    }
}
