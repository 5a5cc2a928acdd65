//! Whose creature a directory holds, so that the runner never takes over another runner's
//! creature unasked.
//!
//! The rule: the runner writes `"genome": "dreamwatch"` ([`GENOME`]) into the BIRTH.json of
//! the creatures it creates. A BIRTH.json that names another genome (OpenSeed's
//! `dreamer`, `minimal`...), none at all (older OpenSeed creatures, with a
//! `template_version`), or that cannot be read, is another runner's creature: hosting it
//! is adopting it (`dreamwatch run --adopt`). The runner never rewrites another genome's
//! BIRTH.json, so such a creature stays adopted-on-request: `--adopt` each time.
//! A directory without BIRTH.json is new (or a birth of ours cut short) and is the
//! runner's.

use std::path::Path;

use crate::memory::identity::Birth;
use crate::memory::write::SeedPaths;
use crate::tail::read_bounded;

/// The genome BIRTH.json names for dreamer creatures the runner created.
pub const GENOME: &str = "dreamwatch";

/// Every genome BIRTH.json names for creatures the runner created (the dreamer's, and the
/// names of dreamwatch's own genomes, which no other runner uses).
pub const OWN_GENOMES: [&str; 3] = [GENOME, "evennia", "emergence"];

/// BIRTH.json is a few hundred bytes; anything past this is not one.
const MAX_BIRTH: u64 = 1 << 20;

/// Why hosting the creature in `dir` would be adopting another runner's creature, or
/// `None` when it is the runner's own (or not born yet).
pub fn adoption_needed(dir: &Path) -> Option<String> {
    let birth = match read_birth(dir)? {
        Ok(birth) => birth,
        Err(e) => return Some(format!("its BIRTH.json cannot be read: {e}")),
    };
    match birth.genome.as_deref() {
        Some(g) if OWN_GENOMES.contains(&g) => None,
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
            genome: "dreamwatch",
        };
        disk::create(&paths, &newborn).unwrap();
        assert_eq!(adoption_needed(tmp.path()), None);
        assert_eq!(birth_name(tmp.path()).as_deref(), Some("sprout"));
    }

    #[test]
    fn other_genomes_and_unreadable_births_need_adopting() {
        let tmp = tempfile::tempdir().unwrap();
        assert_eq!(adoption_needed(tmp.path()), None, "not born yet");
        birth(tmp.path(), r#"{"name": "ember", "genome": "dreamer"}"#);
        assert!(adoption_needed(tmp.path()).unwrap().contains("\"dreamer\""));
        assert_eq!(birth_name(tmp.path()).as_deref(), Some("ember"));
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
