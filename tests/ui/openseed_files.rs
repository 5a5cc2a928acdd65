//! A genome's files as its `genome.json` tabs declare them (from the orchestrator, and
//! from a creature's directory when no plug-in knows its genome), and the Ranger, from
//! the OpenSeed menu, against the stand-in as OpenSeed's orchestrator answers.

use std::collections::HashMap;
use std::path::Path;
use std::time::Duration;

use crate::common::http::openseed::Creature;
use crate::common::ui::{Garden, filters};
use crate::openseed_real::Attached;
use dreamwatch::ui::focus::Mode;
use dreamwatch::ui::runtime::jobs::Jobs;
use dreamwatch::ui::update::{Job, OpenSeedAction};
use serde_json::json;

/// Gives `dir` a `genome.json` with tabs of each kind, and their files (one with an
/// escape sequence, one tab leading out of the directory).
fn declare_tabs(dir: &Path) {
    std::fs::create_dir_all(dir.join(".self/skills")).unwrap();
    std::fs::write(
        dir.join("genome.json"),
        json!({"name": "voyager", "tabs": [
            {"id": "purpose", "label": "purpose", "file": "PURPOSE.md", "type": "markdown"},
            {"id": "skills", "label": "skills", "file": ".self/skills/index.jsonl", "type": "jsonl", "limit": 2},
            {"id": "notes", "label": "notes", "file": "notes.txt", "type": "text"}
        ]})
        .to_string(),
    )
    .unwrap();
    std::fs::write(
        dir.join("PURPOSE.md"),
        "# Purpose\n\nBuild **verified** skills, one at a time.\n\n- read feeds\n- \u{1b}[31mnever\u{1b}[0m guess\n",
    )
    .unwrap();
    std::fs::write(
        dir.join(".self/skills/index.jsonl"),
        "{\"t\":\"2026-03-09T08:00:00Z\",\"name\":\"old\",\"description\":\"dropped: past the limit\"}\n{\"t\":\"2026-03-09T09:00:00Z\",\"name\":\"fetch-rss\",\"description\":\"reads an RSS feed and lists its items\",\"verified\":true}\n{\"t\":\"2026-03-09T09:30:00Z\",\"name\":\"summarise\",\"description\":\"sums a page up in three lines\",\"tests\":{\"passed\":3}}\n",
    )
    .unwrap();
    std::fs::write(dir.join("notes.txt"), "plain text\nkept as it is").unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn an_attached_creatures_files_as_its_genome_declares_them() {
    let garden = Garden::new();
    let mut a = Attached::start(&garden, Creature::new("running"), Creature::new("sleeping")).await;
    a.stand_in.set_home(garden.dir.path());
    declare_tabs(&garden.creature("ember"));
    a.press("A");
    let menu = a.screen.text().unwrap();
    assert!(menu.contains("files") && menu.contains("ranger"), "{menu}");
    assert_eq!(
        a.press("f"),
        [Job::OpenSeed {
            creature: garden.creature("ember"),
            action: OpenSeedAction::Files,
        }]
    );
    let said = a.outcome().await;
    assert!(!said.error, "{said:?}");
    assert_eq!(a.screen.app.mode, Mode::GenomeFiles);
    let purpose = a.screen.text().unwrap();
    assert!(purpose.contains("^[[31m"), "inert: {purpose}");
    filters(&garden).bind(|| insta::assert_snapshot!("openseed_files_purpose", purpose));
    a.press("right");
    let skills = a.screen.text().unwrap();
    let newest = skills.find("summarise").unwrap();
    let older = skills.find("fetch-rss").unwrap();
    assert!(newest < older, "newest first: {skills}");
    assert!(!skills.contains("dropped: past the limit"), "{skills}");
    filters(&garden).bind(|| insta::assert_snapshot!("openseed_files_skills", skills));
    a.press("left");
    a.press("left");
    assert!(a.screen.text().unwrap().contains("kept as it is"));
    // Read again: the same tab stays.
    assert_eq!(a.press("r").len(), 1);
    a.outcome().await;
    assert!(a.screen.text().unwrap().contains("kept as it is"));
    a.press("esc");
    assert_eq!(a.screen.app.mode, Mode::Normal);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_genome_no_plug_in_knows_shows_its_tabs_from_its_directory() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let vega = garden.creature("vega");
    crate::common::ui::copy_dir(&garden.creature("pip"), &vega);
    std::fs::write(
        vega.join("BIRTH.json"),
        json!({"name": "vega", "genome": "voyager", "genome_version": "0.1.0", "model": "claude-opus-4-6"}).to_string(),
    )
    .unwrap();
    declare_tabs(&vega);
    // A tab that leads out of the creature's directory is not read.
    let mut genome: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(vega.join("genome.json")).unwrap()).unwrap();
    genome["tabs"]
        .as_array_mut()
        .unwrap()
        .push(json!({"id": "out", "label": "out", "file": "../pip/BIRTH.json"}));
    std::fs::write(vega.join("genome.json"), genome.to_string()).unwrap();
    let mut screen = garden.screen("dark", 120, 36);
    assert!(
        screen.app.creatures.get(&vega).is_some(),
        "vega is in the garden"
    );
    screen.app.selected = Some(vega.clone());
    assert!(screen.press("A").unwrap().is_empty());
    assert_eq!(screen.app.mode, Mode::OpenSeedMenu);
    let menu = screen.text().unwrap();
    assert!(
        menu.contains("files") && !menu.contains("restart"),
        "{menu}"
    );
    let jobs = screen.press("f").unwrap();
    assert_eq!(
        jobs,
        [Job::GenomeFiles {
            creature: vega.clone()
        }]
    );
    let (tx, mut outcomes) = tokio::sync::mpsc::unbounded_channel();
    let mut performer = Jobs::new(HashMap::new(), tx);
    performer.perform(&mut screen.app, jobs[0].clone());
    let outcome = tokio::time::timeout(Duration::from_secs(20), outcomes.recv())
        .await
        .unwrap()
        .unwrap();
    screen.outcome(outcome);
    assert_eq!(screen.app.mode, Mode::GenomeFiles);
    let text = screen.text().unwrap();
    assert!(text.contains("read from its directory"), "{text}");
    for _ in 0..3 {
        screen.press("tab").unwrap();
    }
    let out = screen.text().unwrap();
    assert!(
        out.contains("is not a path inside the creature's directory: not read"),
        "{out}"
    );
    filters(&garden).bind(|| insta::assert_snapshot!("openseed_files_from_disk", text));
}

#[tokio::test(flavor = "multi_thread")]
async fn the_ranger_in_words_unconfigured_then_answering() {
    let garden = Garden::new();
    let mut a = Attached::start(&garden, Creature::new("sleeping"), Creature::new("running")).await;
    a.press("A");
    assert!(a.press("R").is_empty());
    assert_eq!(a.screen.app.mode, Mode::Ranger);
    a.screen.type_text("why is it asleep?");
    assert_eq!(
        a.press("enter"),
        [Job::OpenSeed {
            creature: std::path::PathBuf::new(),
            action: OpenSeedAction::Ranger {
                text: "why is it asleep?".into(),
                about: Some("ember".into()),
            },
        }]
    );
    a.outcome().await;
    let unconfigured = a.screen.text().unwrap();
    assert!(
        unconfigured.contains("has no Ranger configured"),
        "{unconfigured}"
    );
    filters(&garden).bind(|| insta::assert_snapshot!("openseed_ranger_unconfigured", unconfigured));

    a.stand_in.ranger_answers(vec![
        json!({"type": "thinking", "text": "Its sleep file says why."}),
        json!({"type": "tool_call", "name": "bash", "input": {"command": "cat creatures/ember/.sys/sleep.json", "timeout": 5000}}),
        json!({"type": "tool_result", "name": "bash", "result": "{\"reason\":\"fatigue\",\"\u{1b}[2Jwake_at\":\"2026-03-09T11:00:00Z\"}"}),
        json!({"type": "text", "text": "ember chose to **sleep**: it was tired.\n\n- it wakes at 11:00"}),
    ]);
    a.screen.type_text("and when does it wake?");
    assert_eq!(a.press("enter").len(), 1);
    // One question at a time.
    a.screen.type_text("more");
    assert!(a.press("enter").is_empty());
    a.outcome().await;
    let answered = a.screen.text().unwrap();
    assert!(
        answered.contains("⚙ bash command=cat creatures/ember/.sys/sleep.json, timeout=5000"),
        "{answered}"
    );
    filters(&garden).bind(|| insta::assert_snapshot!("openseed_ranger_answered", answered));
    assert_eq!(
        a.stand_in.ranger_asked(),
        [(
            "and when does it wake?".to_owned(),
            Some("ember".to_owned())
        )]
    );
    // Closed and opened again: the conversation is kept.
    a.press("esc");
    assert_eq!(a.screen.app.mode, Mode::Normal);
    a.press("A");
    a.press("R");
    assert!(a.screen.text().unwrap().contains("it was tired"));
    assert_eq!(a.press("ctrl-l").len(), 1);
    a.outcome().await;
    assert!(a.stand_in.ranger_asked().is_empty());
    assert!(!a.screen.text().unwrap().contains("it was tired"));
}
