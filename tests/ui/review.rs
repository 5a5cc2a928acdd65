//! Dreams reviewed before they apply (issue 13), the observatory's side: a dream held as
//! `.sys/proposal.json` is marked in the garden and the header with the time before it
//! applies itself, said in the status line, and shown in a popup (`D`) as what it would
//! change; `a` applies it, `x` rejects it after a confirmation, `e` edits it in `$EDITOR`
//! (the text read back is checked before it is sent, and kept until the runner holds it).
//! Refused read-only, and for a creature no runner hosts.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use crate::common::ui::{Garden, clock, filters};
use chrono::{DateTime, Duration, Utc};
use dreamwatch::control::{Answer, ControlCommand, ControlSender};
use dreamwatch::memory::cycle::Cycle;
use dreamwatch::memory::proposal::{Proposal, ProposedFile};
use dreamwatch::ui::focus::Mode;
use dreamwatch::ui::headless::Headless;
use dreamwatch::ui::runtime::jobs::Jobs;
use dreamwatch::ui::state::Settings;
use dreamwatch::ui::theme::Theme;
use dreamwatch::ui::update::Job;
use tokio::sync::mpsc;

const PRUNED: &str = "[.] rg is not installed here; grep -rn works\n";

/// pip's next deep sleep, held for review: it prunes one line, adds two, rewrites a
/// priority; it applies itself at `deadline` (never: `None`).
fn hold(pip: &Path, deadline: Option<DateTime<Utc>>) -> Proposal {
    let read = |f: &str| std::fs::read_to_string(pip.join(f)).unwrap_or_default();
    let obs = read(".self/observations.md");
    let after = format!(
        "{}\n## 2026-11-22T17:49 (dream #21)\nRED 17:49 The week-3 dip is a sensor fault, not weather\nGRN 17:49 Summary drafted in workspace/weekly.md\n",
        obs.replace(PRUNED, "")
    );
    let priorities = read(".self/priorities.md");
    let dream = r#"{"t":"2026-11-22T17:49:40Z","actions":14,"reflection":"The dip in week 3 came from one sensor.\nTomorrow: the summary.","priority":"Write the weekly summary","observations":2,"deep":true}"#;
    let files = [
        ProposedFile::between(".self/observations.md", &obs, &after),
        ProposedFile::between(
            ".self/priorities.md",
            &priorities,
            &priorities.replace("1. Make weekly_mean", "1. Fix weekly_mean"),
        ),
        ProposedFile::between(".self/dreams.jsonl", "", &format!("{dream}\n")),
    ]
    .into_iter()
    .flatten()
    .collect();
    let p = Proposal {
        created: clock() - Duration::seconds(20),
        deadline,
        dream: Some(21),
        t: Some(clock() - Duration::seconds(20)),
        deep: true,
        edited: false,
        started: clock() - Duration::seconds(30),
        rest_s: 300.0,
        files,
    };
    std::fs::create_dir_all(pip.join(".sys")).unwrap();
    std::fs::write(
        pip.join(".sys/proposal.json"),
        serde_json::to_vec(&p).unwrap(),
    )
    .unwrap();
    p
}

fn in_ten() -> Option<DateTime<Utc>> {
    Some(clock() + Duration::seconds(580))
}

fn open(garden: &Garden, hosted: bool, read_only: bool) -> Headless {
    let (theme, _) = Theme::load("dark", None, false);
    let hosting = if hosted {
        BTreeMap::from([(garden.creature("pip"), Cycle::default())])
    } else {
        BTreeMap::new()
    };
    let mut s = Headless::open_hosting(
        &[garden.dir.path().to_path_buf()],
        hosting,
        Settings {
            read_only,
            ..Settings::with_theme(theme)
        },
        clock(),
        120,
        40,
    )
    .unwrap();
    // ember comes first by name.
    s.press("]").unwrap();
    assert_eq!(
        s.app.selected.as_deref(),
        Some(garden.creature("pip").as_path())
    );
    s
}

fn notice(s: &Headless) -> String {
    s.app
        .notice
        .as_ref()
        .map(|n| n.text.clone())
        .unwrap_or_default()
}

fn command(jobs: &[Job]) -> Option<&ControlCommand> {
    match jobs {
        [Job::Control { command, .. }] => Some(command),
        _ => None,
    }
}

#[test]
fn a_held_dream_is_marked_and_shown_as_what_it_would_change() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    hold(&garden.creature("pip"), in_ten());
    let mut s = open(&garden, true, false);
    let text = s.text().unwrap();
    assert!(text.contains("◷ review 9m"), "{text}");
    assert!(
        text.contains("◷ dream awaiting review · applies itself in 9m"),
        "{text}"
    );
    assert!(text.contains("D review dream"), "{text}");
    assert!(s.press("D").unwrap().is_empty());
    assert_eq!(s.app.mode, Mode::Review);
    let text = s.text().unwrap();
    for shown in [
        "pip: a dream awaiting review",
        "deep sleep #21 · held since 17:49:40 UTC · applies itself in 9m",
        "priority Write the weekly summary",
        "The dip in week 3 came from one sensor.",
        "observations.md: 2 added, 1 pruned",
        "- [.] rg is not installed here; grep -rn works",
        "+ RED 17:49 The week-3 dip is a sensor fault, not weather",
        "+ 1. Fix weekly_mean",
        "a apply",
        "x reject",
        "e edit",
    ] {
        assert!(text.contains(shown), "{shown}: {text}");
    }
    filters(&garden).bind(|| insta::assert_snapshot!("review_popup", text));
    // The same key, or Esc, closes it.
    s.press("D").unwrap();
    assert_eq!(s.app.mode, Mode::Normal);
    s.press("D").unwrap();
    s.press("esc").unwrap();
    assert_eq!(s.app.mode, Mode::Normal);
}

#[test]
fn apply_is_sent_reject_asks_first_and_edit_hands_the_text_over() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let pip = garden.creature("pip");
    let p = hold(&pip, in_ten());
    let mut s = open(&garden, true, false);
    s.press("D").unwrap();
    let jobs = s.press("a").unwrap();
    assert_eq!(command(&jobs), Some(&ControlCommand::ApplyProposal));
    assert_eq!(s.app.mode, Mode::Normal, "the popup closes");

    s.press("D").unwrap();
    assert!(s.press("x").unwrap().is_empty(), "asked first");
    assert!(notice(&s).contains("x again rejects it"), "{}", notice(&s));
    // Another key cancels the question.
    s.press("j").unwrap();
    assert!(s.press("x").unwrap().is_empty());
    let jobs = s.press("x").unwrap();
    assert_eq!(command(&jobs), Some(&ControlCommand::RejectProposal));

    s.press("D").unwrap();
    let jobs = s.press("e").unwrap();
    assert_eq!(
        jobs,
        [Job::EditDream {
            creature: pip.clone(),
            name: "pip".into(),
            text: p.to_text(),
        }]
    );
}

#[test]
fn an_edit_read_back_is_checked_and_a_bad_one_is_kept() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let pip = garden.creature("pip");
    let p = hold(&pip, in_ten());
    let mut s = open(&garden, true, false);
    let file = garden.dir.path().join("edit.txt");
    // Not changed: nothing is sent.
    let same = s.app.on_dream_edited(&pip, p.to_text(), &file);
    assert!(same.jobs.is_empty() && !same.keep);
    assert!(notice(&s).contains("was not changed"), "{}", notice(&s));
    // Broken: not sent, kept, and the next edit starts from it.
    let bad = format!("stray words\n{}", p.to_text());
    let edited = s.app.on_dream_edited(&pip, bad.clone(), &file);
    assert!(edited.jobs.is_empty() && edited.keep);
    let said = notice(&s);
    assert!(
        said.contains("not sent: line 1: text before the first")
            && said.contains(&file.display().to_string())
            && said.contains("e edits it again"),
        "{said}"
    );
    s.press("D").unwrap();
    let jobs = s.press("e").unwrap();
    assert!(
        matches!(&jobs[..], [Job::EditDream { text, .. }] if *text == bad),
        "{jobs:?}"
    );
    // Fixed: sent to the runner to hold in place of the old one.
    let good = p
        .to_text()
        .replace("1. Fix weekly_mean", "1. Mend weekly_mean");
    let edited = s.app.on_dream_edited(&pip, good.clone(), &file);
    assert!(!edited.keep);
    assert_eq!(
        command(&edited.jobs),
        Some(&ControlCommand::ReplaceProposal { text: good })
    );
}

/// The text `e` hands to the editor now.
fn next_edit(s: &mut Headless) -> String {
    if s.app.mode != Mode::Review {
        s.press("D").unwrap();
    }
    match &s.press("e").unwrap()[..] {
        [Job::EditDream { text, .. }] => text.clone(),
        jobs => panic!("no edit: {jobs:?}"),
    }
}

#[test]
fn an_edit_is_kept_until_the_runner_holds_it() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let pip = garden.creature("pip");
    let p = hold(&pip, in_ten());
    let mut s = open(&garden, true, false);
    let (runner, mut requests) = ControlSender::channel();
    let (outcomes, mut told) = mpsc::unbounded_channel();
    let mut jobs = Jobs::new(HashMap::from([(pip.clone(), runner)]), outcomes);
    let file = garden.dir.path().join("edit.txt");
    let good = p
        .to_text()
        .replace("1. Fix weekly_mean", "1. Mend weekly_mean");
    let mut send = |s: &mut Headless, text: &str| {
        let edited = s.app.on_dream_edited(&pip, text.to_string(), &file);
        assert!(!edited.keep, "sent: its file goes");
        for job in edited.jobs {
            jobs.perform(&mut s.app, job);
        }
    };

    // Sent, and refused: the dream stays, the edit is the next one's draft.
    send(&mut s, &good);
    let request = requests.try_recv().unwrap();
    assert_eq!(
        request.command,
        ControlCommand::ReplaceProposal { text: good.clone() }
    );
    (request.answer)(Some(Answer::Refused {
        why: "the proposal changed meanwhile".into(),
    }));
    s.outcome(told.try_recv().unwrap());
    assert_eq!(
        notice(&s),
        "pip: cannot hold the edited dream: the proposal changed meanwhile; the dream stays as it was, your edit is kept: e edits it again"
    );
    assert!(s.app.notice.as_ref().is_some_and(|n| n.error));
    assert_eq!(next_edit(&mut s), good);

    // Sent again, and held: the next edit starts from the dream as the runner holds it.
    send(&mut s, &good);
    let request = requests.try_recv().unwrap();
    (request.answer)(Some(Answer::Replaced));
    s.outcome(told.try_recv().unwrap());
    assert_eq!(notice(&s), "pip's edited dream is held for review");
    assert_eq!(next_edit(&mut s), p.to_text());

    // A runner that stops before it answers: nothing is said, the edit is kept.
    send(&mut s, &good);
    drop(requests.try_recv().unwrap());
    assert!(told.try_recv().is_err());
    assert_eq!(next_edit(&mut s), good);

    // A runner gone before it is sent: said, and kept.
    drop(requests);
    let other = good.replace("Mend", "Repair");
    send(&mut s, &other);
    assert_eq!(
        notice(&s),
        "pip's runner has stopped: cannot hold the edited dream; the dream stays as it was, your edit is kept: e edits it again"
    );
    assert_eq!(next_edit(&mut s), other);
}

#[test]
fn read_only_shows_the_dream_and_refuses_to_decide_it() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    hold(&garden.creature("pip"), in_ten());
    let mut s = open(&garden, true, true);
    s.press("D").unwrap();
    assert_eq!(s.app.mode, Mode::Review, "watching is allowed");
    let text = s.text().unwrap();
    let hints = text.lines().last().unwrap();
    for hint in ["a apply", "x reject", "e edit"] {
        assert!(!hints.contains(hint), "{hint} offered: {hints}");
    }
    for key in ["x", "e", "a"] {
        assert!(s.press(key).unwrap().is_empty(), "{key}");
        assert!(notice(&s).starts_with("read-only: "), "{}", notice(&s));
    }
    assert!(notice(&s).contains("apply refused"), "{}", notice(&s));
    let text = s.text().unwrap();
    filters(&garden).bind(|| insta::assert_snapshot!("review_read_only", text));
}

#[test]
fn a_creature_no_runner_hosts_is_refused_with_why() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    hold(&garden.creature("pip"), None);
    let mut s = open(&garden, false, false);
    let text = s.text().unwrap();
    assert!(text.contains("◷ review (never)"), "{text}");
    assert!(
        text.contains("dream awaiting review · never applies itself"),
        "{text}"
    );
    s.press("D").unwrap();
    let text = s.text().unwrap();
    assert!(
        text.contains("never applies itself: it waits for you"),
        "{text}"
    );
    for key in ["a", "e"] {
        assert!(s.press(key).unwrap().is_empty(), "{key}");
        assert!(
            notice(&s).starts_with("cannot review pip's dream: it is only watched"),
            "{}",
            notice(&s)
        );
    }
    // An edit read back after its runner went: not sent, and its file is kept.
    let pip = garden.creature("pip");
    let p = Proposal::read(&pip).unwrap().unwrap();
    let file = garden.dir.path().join("edit.txt");
    let text = p.to_text().replace("Fix weekly_mean", "Mend weekly_mean");
    let edited = s.app.on_dream_edited(&pip, text, &file);
    assert!(edited.jobs.is_empty() && edited.keep);
    let said = notice(&s);
    assert!(
        said.starts_with("cannot review pip's dream")
            && said.contains(&format!(
                "your edit was not sent, it is kept in {}",
                file.display()
            )),
        "{said}"
    );
}

#[test]
fn a_dream_newly_held_is_said_and_one_gone_closes_its_popup() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let pip = garden.creature("pip");
    let mut s = open(&garden, true, false);
    assert!(s.press("D").unwrap().is_empty());
    assert_eq!(notice(&s), "pip has no dream awaiting review");
    hold(&pip, in_ten());
    s.refresh();
    assert_eq!(
        notice(&s),
        "pip: deep sleep #21 awaiting review: D shows it"
    );
    s.press("D").unwrap();
    assert_eq!(s.app.mode, Mode::Review);
    // Its time ran out: the runner applied it.
    std::fs::remove_file(pip.join(".sys/proposal.json")).unwrap();
    s.refresh();
    assert_eq!(s.app.mode, Mode::Normal);
    assert!(
        notice(&s).contains("no longer awaiting review"),
        "{}",
        notice(&s)
    );
    // ember, not selected, is marked when one of its dreams is held.
    hold(&garden.creature("ember"), in_ten());
    s.refresh();
    let ember = s.app.creatures.get(&garden.creature("ember")).unwrap();
    assert_eq!(
        ember.attention,
        Some(dreamwatch::ui::state::health::Attention::Review)
    );
}
