//! Whose creature a directory holds, so that the runner never takes over another runner's
//! creature unasked.
//!
//! The rule: the runner writes `"created_by": "dreamwatch"` ([`CREATOR`]) into the
//! BIRTH.json of the creatures it creates, whatever their genome. A BIRTH.json without it
//! (OpenSeed's creatures, with or without a genome), or that cannot be read, is another
//! runner's creature: hosting it is adopting it (`dreamwatch run --adopt`). The runner
//! never rewrites another's BIRTH.json, so such a creature stays adopted-on-request:
//! `--adopt` each time. Creatures dreamwatch created before the field existed named a
//! genome no other runner writes ([`LEGACY_OWN`]) and stay its own. A directory without
//! BIRTH.json is new (or a birth of ours cut short) and is the runner's.

use std::path::Path;

use crate::memory::identity::Birth;
use crate::memory::write::SeedPaths;
use crate::tail::read_bounded;

/// BIRTH.json's `created_by` for the creatures the runner created.
pub const CREATOR: &str = "dreamwatch";

/// The genome names BIRTH.json gave dreamwatch's own creatures before `created_by`
/// (`dreamwatch` was the dreamer's), which no other runner writes.
const LEGACY_OWN: [&str; 3] = ["dreamwatch", "evennia", "emergence"];

/// BIRTH.json is a few hundred bytes; anything past this is not one.
const MAX_BIRTH: u64 = 1 << 20;

/// Why hosting the creature in `dir` would be adopting another runner's creature, or
/// `None` when it is the runner's own (or not born yet).
pub fn adoption_needed(dir: &Path) -> Option<String> {
    let birth = match read_birth(dir)? {
        Ok(birth) => birth,
        Err(e) => return Some(format!("its BIRTH.json cannot be read: {e}")),
    };
    if birth.created_by.as_deref() == Some(CREATOR) {
        return None;
    }
    match birth.genome.as_deref() {
        Some(g) if birth.created_by.is_none() && LEGACY_OWN.contains(&g) => None,
        Some(other) => Some(format!("its BIRTH.json names the genome {other:?}")),
        None => Some("its BIRTH.json names no genome".into()),
    }
}

/// The name BIRTH.json gives the creature in `dir`, when it gives one.
pub fn birth_name(dir: &Path) -> Option<String> {
    let birth = read_birth(dir)?.ok()?;
    let name = birth.name.trim();
    (!name.is_empty()).then(|| name.to_string())
}

/// The genome BIRTH.json names for the creature in `dir`, when it names one.
pub fn birth_genome(dir: &Path) -> Option<String> {
    read_birth(dir)?.ok()?.genome
}

/// `None` when there is no BIRTH.json.
fn read_birth(dir: &Path) -> Option<Result<Birth, String>> {
    let path = SeedPaths::new(dir).birth();
    match read_bounded(&path, MAX_BIRTH) {
        Ok(None) => None,
        Ok(Some(bytes)) => Some(Birth::parse(&bytes).map_err(|e| e.to_string())),
        Err(e) => Some(Err(e.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use chrono::Utc;

    use super::*;
    use crate::runner::disk::{self, Newborn};

    fn birth(dir: &Path, json: &str) {
        std::fs::write(dir.join("BIRTH.json"), json).unwrap();
    }

    #[test]
    fn a_creature_the_runner_created_is_its_own() {
        let tmp = tempfile::tempdir().unwrap();
        let paths = SeedPaths::new(tmp.path());
        let newborn = Newborn {
            name: "sprout",
            model: "m",
            purpose: "p",
            born: Utc::now(),
            genome: "dreamer",
        };
        disk::create(&paths, &newborn).unwrap();
        assert_eq!(adoption_needed(tmp.path()), None);
        let birth = read_birth(tmp.path()).unwrap().unwrap();
        assert_eq!(birth.genome.as_deref(), Some("dreamer"));
        assert_eq!(birth.created_by.as_deref(), Some(CREATOR));
        assert_eq!(birth_name(tmp.path()).as_deref(), Some("sprout"));
    }

    #[test]
    fn other_genomes_and_unreadable_births_need_adopting() {
        let tmp = tempfile::tempdir().unwrap();
        assert_eq!(adoption_needed(tmp.path()), None, "not born yet");
        birth(tmp.path(), r#"{"name": "ember", "genome": "dreamer"}"#);
        assert!(adoption_needed(tmp.path()).unwrap().contains("\"dreamer\""));
        assert_eq!(birth_name(tmp.path()).as_deref(), Some("ember"));
        // Written by dreamwatch before `created_by`: still its own.
        birth(tmp.path(), r#"{"name": "old", "genome": "dreamwatch"}"#);
        assert_eq!(adoption_needed(tmp.path()), None);
        // Another runner's, whatever its genome is called.
        birth(
            tmp.path(),
            r#"{"name": "x", "genome": "evennia", "created_by": "other"}"#,
        );
        assert!(adoption_needed(tmp.path()).is_some());
        birth(
            tmp.path(),
            r#"{"name": "pip", "template_version": "0.0.1"}"#,
        );
        assert!(adoption_needed(tmp.path()).unwrap().contains("no genome"));
        birth(tmp.path(), "{not json");
        assert!(
            adoption_needed(tmp.path())
                .unwrap()
                .contains("cannot be read")
        );
        assert_eq!(birth_name(tmp.path()), None);
    }
}
