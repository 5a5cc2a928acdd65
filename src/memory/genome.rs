//! Which memory system a creature lives by: BIRTH.json's `genome` when it names one, else
//! the evennia genome when its files are there, else the emergence genome when its files
//! are there, else the dreamer.

use serde::Serialize;

#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub enum Genome {
    /// OpenSeed's dreamer (observations, dreams, diary): every creature that says nothing
    /// else.
    #[default]
    Dreamer,
    /// Seed 002's "Memory and Sleep": journal, semantic memory, entities, sleep phases.
    Evennia,
    /// Seed 003's "Agent Memory & Cognition": soul, long-term memory, self-care, diary,
    /// plans, relationship graph.
    Emergence,
    /// A genome this reader does not know, as BIRTH.json names it.
    Other(String),
}

impl Genome {
    pub fn parse(name: &str) -> Self {
        match name {
            "dreamer" => Genome::Dreamer,
            "evennia" => Genome::Evennia,
            "emergence" => Genome::Emergence,
            other => Genome::Other(other.to_string()),
        }
    }

    /// As BIRTH.json writes it.
    pub fn name(&self) -> &str {
        match self {
            Genome::Dreamer => "dreamer",
            Genome::Evennia => "evennia",
            Genome::Emergence => "emergence",
            Genome::Other(name) => name,
        }
    }

    /// The genome of a creature whose BIRTH.json names `birth` (if any), and whose
    /// evennia files and emergence files are (or are not) on disk.
    pub fn detect(birth: Option<&str>, evennia_files: bool, emergence_files: bool) -> Self {
        match birth.map(str::trim).filter(|g| !g.is_empty()) {
            Some(name) => Genome::parse(name),
            None if evennia_files => Genome::Evennia,
            None if emergence_files => Genome::Emergence,
            None => Genome::Dreamer,
        }
    }
}

impl Serialize for Genome {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn birth_wins_then_the_files_then_the_dreamer() {
        assert_eq!(
            Genome::detect(Some("evennia"), false, true),
            Genome::Evennia
        );
        assert_eq!(Genome::detect(Some("dreamer"), true, true), Genome::Dreamer);
        assert_eq!(
            Genome::detect(Some("emergence"), false, false),
            Genome::Emergence
        );
        assert_eq!(
            Genome::detect(Some("openseed"), false, false),
            Genome::Other("openseed".into())
        );
        assert_eq!(Genome::detect(Some(" "), true, false), Genome::Evennia);
        assert_eq!(Genome::detect(None, true, true), Genome::Evennia);
        assert_eq!(Genome::detect(None, false, true), Genome::Emergence);
        assert_eq!(Genome::detect(None, false, false), Genome::Dreamer);
        assert_eq!(Genome::Other("x".into()).name(), "x");
    }
}
