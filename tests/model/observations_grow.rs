//! `observations.md` followed as it changes: lines appended are folded alone onto what
//! was read, and whatever happened to the file, the model is the one a fresh read of it
//! gives.

use std::fs;
use std::io::Write;
use std::path::Path;

use dreamwatch::memory::creature::{Change, Creature};
use proptest::prelude::*;

/// What may happen to the file between two looks.
#[derive(Debug, Clone)]
enum Step {
    /// Lines appended (some observations, a heading, prose).
    Append(Vec<u8>),
    /// A line begun and not finished.
    Begin,
    /// The file rewritten in place with its first line dropped and one line added.
    Prune,
    /// The file replaced by a new one (a rename) holding what it held plus a line.
    Replace,
}

fn line(kind: u8, n: usize) -> String {
    match kind % 5 {
        0 => format!("RED 10:{:02} red {n}\n", n % 60),
        1 => format!("- YLW 10:{:02} yellow {n}\n", n % 60),
        2 => format!("GRN 10:{:02} green {n}\n", n % 60),
        3 => format!("## 2026-03-{:02}\n", n % 28 + 1),
        _ => format!("prose {n}\n"),
    }
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        6 => proptest::collection::vec(any::<u8>(), 1..6).prop_map(Step::Append),
        1 => Just(Step::Begin),
        1 => Just(Step::Prune),
        1 => Just(Step::Replace),
    ]
}

fn apply(obs: &Path, step: &Step, n: &mut usize) {
    let text = fs::read_to_string(obs).unwrap();
    let mut next_line = |kind: u8| {
        *n += 1;
        line(kind, *n)
    };
    match step {
        Step::Append(kinds) => {
            let lines: String = kinds.iter().map(|k| next_line(*k)).collect();
            let mut f = fs::OpenOptions::new().append(true).open(obs).unwrap();
            // A line begun before is finished by what follows.
            f.write_all(lines.as_bytes()).unwrap();
        }
        Step::Begin => {
            let mut f = fs::OpenOptions::new().append(true).open(obs).unwrap();
            f.write_all(b"GRN 11:00 unfinish").unwrap();
        }
        Step::Prune => {
            let kept = text.split_once('\n').map_or("", |(_, rest)| rest);
            fs::write(obs, format!("{kept}{}", next_line(0))).unwrap();
        }
        Step::Replace => {
            let tmp = obs.with_extension("tmp");
            fs::write(&tmp, format!("{text}{}", next_line(2))).unwrap();
            fs::rename(&tmp, obs).unwrap();
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// After every change the followed model equals a fresh read of the file, and what it
    /// reported added is what the file gained.
    #[test]
    fn a_followed_file_is_read_as_a_fresh_read_would(steps in proptest::collection::vec(step(), 1..12)) {
        dreamwatch::app::genomes::install();
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("ada");
        fs::create_dir_all(root.join(".self")).unwrap();
        let obs = root.join(".self/observations.md");
        fs::write(&obs, "# Observations\n\n## 2026-03-01\nRED 09:00 first\n").unwrap();
        let mut followed = Creature::open(&root);
        let mut n = 0;
        for step in &steps {
            let before = followed.observation_counts();
            apply(&obs, step, &mut n);
            let changes = followed.refresh_paths(&[&obs]);
            let fresh = Creature::open(&root);
            prop_assert_eq!(followed.observations(), fresh.observations());
            prop_assert_eq!(followed.observation_counts(), fresh.observation_counts());
            prop_assert_eq!(followed.observations_not_kept(), fresh.observations_not_kept());
            if let Step::Append(_) = step {
                let after = fresh.observation_counts();
                let gained =
                    after.red + after.ylw + after.grn - (before.red + before.ylw + before.grn);
                let added: usize = changes
                    .iter()
                    .map(|c| match c {
                        Change::ObservationsAdded(added) => added.len(),
                        _ => 0,
                    })
                    .sum();
                prop_assert_eq!(added, gained, "{:?}", changes);
            }
        }
    }
}
