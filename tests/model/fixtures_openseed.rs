//! The memory model on real OpenSeed creatures (../shared/fixtures/openseed), written by
//! OpenSeed's own dreamer code. Every figure below was checked by reading the files.

use std::path::PathBuf;

use chrono::{TimeZone, Utc};
use dreamwatch::memory::creature::Creature;
use dreamwatch::memory::cycle::Cycle;
use dreamwatch::memory::observations::ObsCounts;
use dreamwatch::memory::status::Status;

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/fixtures/openseed")
        .join(name)
        .join("creature")
}

#[test]
fn head_ember_march_2026() {
    dreamwatch::app::genomes::install();
    let c = Creature::open(&fixture("head-ember"));
    let now = Utc.with_ymd_and_hms(2026, 11, 22, 18, 0, 0).unwrap();
    let s = c.summary(now, &Cycle::default());
    assert_eq!(s.name, "ember");
    assert_eq!(s.model.as_deref(), Some("claude-opus-4-6"));
    // 11 dreams, deep at the 5th and 10th: OpenSeed's cadence of 5 is read from disk.
    assert_eq!(
        (s.dreams, s.deep_sleeps, s.deep_every, s.dreams_until_deep),
        (11, 2, 5, 4)
    );
    // Three creature.tool_call events after the last dream (17:41:29.747Z).
    assert_eq!(s.fatigue, 3);
    // Tags behind a list marker count; two prose lines from the consolidating model.
    assert_eq!(
        s.observations,
        ObsCounts {
            red: 10,
            ylw: 9,
            grn: 14,
            other: 2
        }
    );
    let directive = c
        .observations()
        .observations()
        .find(|o| o.is_creator_directive())
        .unwrap();
    assert_eq!(directive.time.as_deref(), Some("23:04"));
    assert!(c.observations().observations().any(|o| o.is_workflow()));
    // Only user and tool roles, AI-SDK tool-result blocks.
    assert_eq!(
        (c.conversation().entries(), c.conversation().bad_lines()),
        (113, 0)
    );
    assert!(
        c.conversation()
            .recent()
            .iter()
            .all(|(_, e)| e.role == "user" || e.role == "tool")
    );
    // Stopped by SIGTERM mid-session: the crash checkpoint is the last thing written.
    assert!(c.iterations().back().unwrap().interrupted);
    assert_eq!(s.status, Status::Stopped);
    assert_eq!(c.rules().len(), 2);
    assert!(c.briefing().unwrap().contains("dreams so far: 11"));
    assert_eq!(c.diary().len(), 1);
    assert_eq!(c.creator_log().len(), 2);
    assert!(c.problems().is_empty(), "{:?}", c.problems());
}

#[test]
fn early_pip_february_2026() {
    dreamwatch::app::genomes::install();
    let c = Creature::open(&fixture("early-pip"));
    let now = Utc.with_ymd_and_hms(2026, 11, 22, 20, 0, 0).unwrap();
    let s = c.summary(now, &Cycle::default());
    assert_eq!(s.name, "pip");
    assert_eq!(s.model, None, "template-era BIRTH.json has no model");
    // 20 dreams, deep at the 10th and 20th.
    assert_eq!(
        (s.dreams, s.deep_sleeps, s.deep_every, s.dreams_until_deep),
        (20, 2, 10, 10)
    );
    assert_eq!(s.fatigue, 3);
    // [!] lines are RED, [.] lines GRN, under "(dream #N)" headers.
    assert_eq!(
        s.observations,
        ObsCounts {
            red: 25,
            ylw: 0,
            grn: 2,
            other: 0
        }
    );
    assert!(c.observations().observations().all(|o| o.legacy));
    assert_eq!(
        (c.conversation().entries(), c.conversation().bad_lines()),
        (325, 0)
    );
    assert!(
        c.conversation()
            .recent()
            .iter()
            .any(|(_, e)| e.role == "assistant")
    );
    // Priorities as the model's raw numbered lines; the diary in self/ with em-dash headers.
    assert_eq!(c.priorities().items.len(), 3);
    assert_eq!(c.priorities().updated, None);
    assert_eq!(c.diary().len(), 2);
    assert!(c.diary()[0].heading.contains('—'));
    // No checkpoint on stop: hours later, nothing has happened.
    assert_eq!(s.status, Status::Stopped);
    assert!(c.problems().is_empty(), "{:?}", c.problems());
}
