//! The flight recorder in the observatory: `b` blames the selected observation (a line a
//! dream wrote, a line the operator restored) in a popup, Enter shows the whole file's
//! blame; `C` compares two creatures side by side, with their drift dream by dream.

use std::path::Path;

use chrono::{DateTime, TimeDelta, TimeZone, Utc};

use crate::common::ui::{Garden, append, copy_dir, filters};
use dreamwatch::memory::moments::{After, Store, take};
use dreamwatch::ui::focus::Mode;
use dreamwatch::ui::headless::Headless;

const DREAMT: &str = "[!] The pond freezes at night: move the sensor";

fn start() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 22, 17, 48, 30).unwrap()
}

/// The runner's record of `pip`: the memory as it was, then dream 21 writes a line, then
/// the operator restores one.
fn record(pip: &Path) {
    let store = Store::of_creature(pip);
    let moment = |t: DateTime<Utc>, after: After, dreams: u64| {
        let mut m = take(pip, &store, t, after).unwrap();
        m.dreams = Some(dreams);
        store.append(&m).unwrap();
    };
    let obs = pip.join(".self/observations.md");
    moment(start(), After::Asleep, 20);
    append(
        &obs,
        &format!("\n## 2026-11-22T17:49 (dream #21)\n{DREAMT}\n"),
    );
    moment(start() + TimeDelta::seconds(40), After::Sleep, 21);
    let restored =
        dreamwatch::memory::dream_diff::restored_line("[.] Week 3 data had gaps", "17:49");
    append(&obs, &format!("{restored}\n"));
    moment(start() + TimeDelta::seconds(60), After::Wake, 21);
}

/// Moves down the observations from the top, blaming each row, until the popup says
/// `what`; leaves it open.
fn blame_row_with(s: &mut Headless, what: &str) -> String {
    for _ in 0..8 {
        assert!(s.press("b").unwrap().is_empty(), "blamed in place here");
        assert_eq!(s.app.mode, Mode::Blame);
        let text = s.text().unwrap();
        if text.contains(what) {
            return text;
        }
        s.press("esc").unwrap();
        s.press("j").unwrap();
    }
    panic!("no row's blame says {what}:\n{}", s.text().unwrap());
}

#[test]
fn blame_names_the_dream_and_the_operator() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    record(&garden.creature("pip"));
    let mut s = garden.screen("dark", 120, 40);
    s.press("]").unwrap();
    let text = blame_row_with(&mut s, "operator (restore)");
    filters(&garden).bind(|| insta::assert_snapshot!("blame_operator", text));
    s.press("esc").unwrap();
    assert_eq!(s.app.mode, Mode::Normal);
    // Below it (newest first), the line the dream wrote before it.
    let text = blame_row_with(&mut s, "The pond freezes");
    assert!(text.contains("written   dream 21"), "{text}");
    filters(&garden).bind(|| insta::assert_snapshot!("blame_dream", text));
    // The whole file: each line's author, the selected one marked.
    s.press("enter").unwrap();
    let text = s.text().unwrap();
    assert!(text.contains("before the record"), "{text}");
    assert!(text.contains("operator (restore)"), "{text}");
    s.press("b").unwrap();
    assert_eq!(s.app.mode, Mode::Normal);
}

/// Keys between two frames: `]` chooses the other creature and `b` blames its top
/// observation at once (its observations are prepared for the key, not only for a frame).
#[test]
fn blame_right_after_choosing_a_creature_reads_its_top_line() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    record(&garden.creature("pip"));
    let mut s = garden.screen("dark", 120, 40);
    s.press("]").unwrap();
    s.press("b").unwrap();
    let text = s.text().unwrap();
    assert!(!text.contains("is not a line"), "{text}");
    assert!(
        text.contains("Blame · pip · .self/observations.md line "),
        "{text}"
    );
}

#[test]
fn blame_refuses_what_is_no_memory_file() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let mut s = garden.screen("dark", 120, 40);
    s.press("6").unwrap();
    s.press("b").unwrap();
    assert_eq!(s.app.mode, Mode::Normal);
    let notice = s.app.notice.as_ref().map(|n| n.text.clone()).unwrap();
    assert!(
        notice.contains("blame is for a line of a memory file"),
        "{notice}"
    );
}

#[test]
fn compare_shows_two_memories_side_by_side() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let pip = garden.creature("pip");
    let twin = garden.creature("pip-twin");
    copy_dir(&pip, &twin);
    append(&twin.join(".self/observations.md"), &format!("{DREAMT}\n"));
    let mut s = garden.screen("dark", 120, 40);
    s.press("]").unwrap();
    s.press("C").unwrap();
    assert_eq!(s.app.mode, Mode::ComparePick);
    let text = s.text().unwrap();
    assert!(text.contains("Compare pip with"), "{text}");
    s.press("j").unwrap();
    s.press("enter").unwrap();
    assert_eq!(s.app.mode, Mode::Compare);
    let text = s.text().unwrap();
    assert!(text.contains("drift"), "{text}");
    assert!(text.contains("1 only in pip-twin"), "{text}");
    filters(&garden).bind(|| insta::assert_snapshot!("compare", text));
    s.press("esc").unwrap();
    assert_eq!(s.app.mode, Mode::Normal);
}

/// Asked of a past moment (as the time cursor asks it): the file as it was then, and
/// what became of the line since.
#[test]
fn blame_of_the_past_says_what_became_of_the_line() {
    use dreamwatch::recorder::At;
    use dreamwatch::ui::popups::blame::{BlameAsk, FileBlame};
    use dreamwatch::ui::runtime::jobs::recorder;
    let garden = Garden::new();
    let pip = garden.creature("pip");
    record(&pip);
    let ask = BlameAsk {
        creature: pip,
        name: "pip".into(),
        file: Some(".self/observations.md".into()),
        line: None,
        text: Some(DREAMT.into()),
        at: Some(At::Time(start() + TimeDelta::seconds(50))),
    };
    let b = recorder::blame(&ask, None, start() + TimeDelta::hours(1)).unwrap();
    let FileBlame::Doc(doc) = &b.blame else {
        panic!("a document: {b:?}");
    };
    let line = &doc.lines[b.line.unwrap() - 1];
    assert_eq!(line.text, DREAMT);
    assert_eq!(line.written.author.describe(), "dream 21");
    // Then, the operator's line was not there yet; it is now.
    assert!(!doc.lines.iter().any(|l| l.text.contains("restored")));
    let now = b.now.as_ref().unwrap();
    assert!(now.lines.iter().any(|l| l.text.contains("restored")));
}
