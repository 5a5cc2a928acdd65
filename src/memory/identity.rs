//! `BIRTH.json` (identity) and `.sys/sleep.json` (wake time while asleep).

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::dreams::opt_time;
use super::json::LineError;

/// Every field but `name` may be missing; OpenSeed variants add more, which pass through.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Birth {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    #[serde(default)]
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub born: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub genome: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub genome_version: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub template_version: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    #[serde(default)]
    pub parent: Option<String>,
    /// The runner that created the creature (`"dreamwatch"` for dreamwatch's own, of any
    /// genome); OpenSeed writes none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created_by: Option<String>,
    /// Forked (`run --fork`): from which creature, at which moment.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fork: Option<ForkPoint>,
}

/// Where a forked creature's memory came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ForkPoint {
    /// The parent's directory.
    pub from: String,
    /// The moment, as the command line named it (`dream:3`, `wake:5`, a time).
    pub at: String,
    /// The moment's time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub t: Option<String>,
    /// Dreams the parent had consolidated by then.
    #[serde(default)]
    pub dreams: u64,
}

impl Birth {
    pub fn parse(bytes: &[u8]) -> Result<Self, LineError> {
        Ok(serde_json::from_slice(bytes)?)
    }
}

/// What answers a creature: a model, or dreamwatch's offline rehearsal brain (a demo,
/// which the observatory marks as such).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BrainKind {
    Model,
    Rehearsal,
}

/// The `model` BIRTH.json records for a creature born on the rehearsal brain.
pub const REHEARSAL_MODEL: &str = "rehearsal";

impl BrainKind {
    /// The kind of brain a BIRTH.json `model` names.
    pub fn of_birth_model(model: &str) -> Self {
        if model == REHEARSAL_MODEL {
            Self::Rehearsal
        } else {
            Self::Model
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SleepFile {
    #[serde(default, with = "opt_time")]
    pub wake_at: Option<DateTime<Utc>>,
}

impl SleepFile {
    pub fn parse(bytes: &[u8]) -> Result<Self, LineError> {
        Ok(serde_json::from_slice(bytes)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn birth_variants() {
        let b = Birth::parse(br#"{"id":"x","name":"pip","born":"2026-02-12","template_version":"0.0.1","parent":null}"#).unwrap();
        assert_eq!(b.name, "pip");
        assert_eq!(b.model, None);
        let b = Birth::parse(br#"{"name":"ember","genome":"dreamer","genome_version":"0.1.0","model":"m","validate":"x"}"#).unwrap();
        assert_eq!(b.genome.as_deref(), Some("dreamer"));
        assert!(Birth::parse(b"{}").is_ok());
        assert!(Birth::parse(b"nope").is_err());
    }

    #[test]
    fn sleep_file() {
        let s = SleepFile::parse(br#"{"wake_at":"2026-03-01T10:00:00.000Z"}"#).unwrap();
        assert!(s.wake_at.is_some());
    }
}
