use super::*;

fn line(text: &str, under: &str) -> ObsLine {
    ObsLine {
        text: text.into(),
        under: Some(under.into()),
    }
}

const BEFORE: &str = "# Observations\n\n## 2026-03-01\n\nRED 10:00 never delete the backups\nGRN 10:01 the weather was fine\nYLW 10:02 the api is slow at noon\n";

#[test]
fn a_consolidation_adds_under_todays_header() {
    let after = format!("{BEFORE}\n## 2026-03-02\n\nYLW 09:00 the cache helps\nGRN 09:01 tea\n");
    let d = diff_observations(BEFORE, &after);
    assert_eq!(
        d.added,
        [
            line("YLW 09:00 the cache helps", "2026-03-02"),
            line("GRN 09:01 tea", "2026-03-02")
        ]
    );
    assert!(d.pruned.is_empty() && d.moved.is_empty() && d.duplicated.is_empty());
}

#[test]
fn a_deep_sleep_prunes_and_the_red_line_stays() {
    let after = "# Observations\n\n## 2026-03-01\n\nRED 10:00 never delete the backups\n";
    let d = diff_observations(BEFORE, after);
    assert_eq!(
        d.pruned,
        [
            line("GRN 10:01 the weather was fine", "2026-03-01"),
            line("YLW 10:02 the api is slow at noon", "2026-03-01")
        ]
    );
    assert!(d.added.is_empty());
}

#[test]
fn a_line_under_another_header_moved() {
    let after = "## 2026-03-01\n\nRED 10:00 never delete the backups\nGRN 10:01 the weather was fine\n\n## 2026-03-02\n\n- YLW 10:02 the api is slow at noon\n";
    let d = diff_observations(BEFORE, after);
    assert_eq!(
        d.moved,
        [Moved {
            text: "- YLW 10:02 the api is slow at noon".into(),
            from: Some("2026-03-01".into()),
            to: Some("2026-03-02".into()),
        }]
    );
    assert!(d.added.is_empty() && d.pruned.is_empty());
}

#[test]
fn duplicates_added_and_removed_lose_nothing() {
    // The consolidation writes again what is known (another time, same text).
    let after = format!("{BEFORE}YLW 11:30 the api is slow at noon\n");
    let d = diff_observations(BEFORE, &after);
    assert_eq!(
        d.duplicated,
        [line("YLW 11:30 the api is slow at noon", "2026-03-01")]
    );
    assert!(d.added.is_empty());
    // Pruning drops one copy: the text is still there.
    let back = diff_observations(&after, BEFORE);
    assert_eq!(
        back.deduplicated,
        [line("YLW 11:30 the api is slow at noon", "2026-03-01")]
    );
    assert!(back.pruned.is_empty());
    // Two copies of a new text: one added, one duplicate.
    let twice = format!("{BEFORE}GRN 12:00 x\nGRN 12:01 x\n");
    let d = diff_observations(BEFORE, &twice);
    assert_eq!(d.added, [line("GRN 12:00 x", "2026-03-01")]);
    assert_eq!(d.duplicated, [line("GRN 12:01 x", "2026-03-01")]);
}

#[test]
fn another_priority_is_one_change_not_a_prune() {
    let after = BEFORE.replace("YLW 10:02 the api", "RED 10:02 the api");
    let d = diff_observations(BEFORE, &after);
    assert_eq!(
        d.reprioritised,
        [Reprioritised {
            before: "YLW 10:02 the api is slow at noon".into(),
            after: "RED 10:02 the api is slow at noon".into(),
        }]
    );
    assert!(d.pruned.is_empty() && d.added.is_empty());
}

#[test]
fn prose_and_legacy_lines_count_as_lines() {
    let before = "## 2026-02-12T17:32 (dream #1)\n[!] big\n[.] small\nHere is what I learned:\n";
    let after = "## 2026-02-12T17:32 (dream #1)\n[!] big\n";
    let d = diff_observations(before, after);
    assert_eq!(
        d.pruned,
        [
            line("[.] small", "2026-02-12T17:32"),
            line("Here is what I learned:", "2026-02-12T17:32")
        ]
    );
}

#[test]
fn the_same_text_is_no_change() {
    assert!(diff_observations(BEFORE, BEFORE).is_empty());
    assert!(diff_lines("a\nb\n", "a\n\nb").is_empty());
    assert!(FileChanges::between("observations.md", BEFORE, BEFORE).is_empty());
}

#[test]
fn rules_and_priorities_changed_line_by_line() {
    let before = "- ALWAYS: read MESSAGES.md\n- NEVER: push to main\n";
    let after = "- ALWAYS: read MESSAGES.md\n- NEVER: force-push\n- ALWAYS: test first\n";
    let FileChanges::Lines(d) = FileChanges::between("rules.md", before, after) else {
        panic!("rules are lines");
    };
    assert_eq!(d.removed, ["- NEVER: push to main"]);
    assert_eq!(d.added, ["- NEVER: force-push", "- ALWAYS: test first"]);
}

#[test]
fn a_rewritten_briefing_shows_old_and_new_prose() {
    let before = "# Briefing\n\nThe build is red.\nWaiting on the key.\n";
    let after = "# Briefing\n\nThe build is green.\nWaiting on the key.\nNext: ship.\n";
    let d = diff_lines(before, after);
    assert_eq!(d.removed, ["The build is red."]);
    assert_eq!(d.added, ["The build is green.", "Next: ship."]);
}

#[test]
fn the_record_round_trips_compactly() {
    let c = FileChanges::Observations(ObservationChanges {
        pruned: vec![line("GRN 10:01 x", "2026-03-01")],
        ..Default::default()
    });
    let json = serde_json::to_string(&c).unwrap();
    assert_eq!(
        json,
        r#"{"kind":"observations","pruned":[{"text":"GRN 10:01 x","under":"2026-03-01"}]}"#
    );
    assert_eq!(serde_json::from_str::<FileChanges>(&json).unwrap(), c);
}

#[test]
fn a_restored_line_keeps_its_priority_and_says_so() {
    assert_eq!(
        restored_line("- YLW 09:02 the api is slow at noon", "14:30"),
        "YLW 14:30 the api is slow at noon (restored by the operator)"
    );
    assert_eq!(
        restored_line("[.] small", "14:30"),
        "GRN 14:30 small (restored by the operator)"
    );
    assert_eq!(
        restored_line("Here is what I learned:", "14:30"),
        "Here is what I learned: (restored by the operator)"
    );
}

/// Lines of an observations file, a few texts in several copies, priorities and headers.
fn obs_lines() -> impl proptest::strategy::Strategy<Value = Vec<String>> {
    use proptest::prelude::*;
    let line = prop_oneof![
        (0..3usize, 0..4usize)
            .prop_map(|(p, t)| { format!("{} 10:0{t} text {t}", ["RED", "YLW", "GRN"][p]) }),
        (0..3usize).prop_map(|d| format!("## 2026-03-0{d}")),
        (0..2usize).prop_map(|t| format!("some prose {t}")),
        Just(String::new()),
        Just("# Observations".to_string()),
        // A text inside another's, twice on a line, a line ended by `\r\n`, a marker.
        (0..2usize).prop_map(|t| format!("RED 10:00 text {t} text {t}")),
        (0..2usize).prop_map(|t| format!("GRN 10:01 text {t}\r")),
        (0..2usize).prop_map(|t| format!("- [!] text {t}")),
        // A header after spaces, and `## ` within a line that is none.
        (0..3usize).prop_map(|d| format!("  ## 2026-03-0{d}")),
        (0..2usize).prop_map(|t| format!("GRN 10:02 text {t} ## notes")),
    ];
    proptest::collection::vec(line, 0..12)
}

proptest::proptest! {
    /// A file that only grew is diffed from what it added, with the answer of a count of
    /// every line.
    #[test]
    fn lines_appended_are_diffed_as_the_whole_files_are(
        before in obs_lines(),
        tail in obs_lines(),
    ) {
        let before: String = before.iter().map(|l| format!("{l}\n")).collect();
        let after = format!("{before}{}", tail.iter().map(|l| format!("{l}\n")).collect::<String>());
        let tail = appended(&before, &after).expect("only appended");
        proptest::prop_assert_eq!(diff_appended(&before, tail), diff_whole(&before, &after));
    }
}

#[test]
fn a_file_that_did_not_only_grow_is_diffed_whole() {
    assert_eq!(appended("RED 10:00 a", "RED 10:00 ab\n"), None);
    assert_eq!(appended("RED 10:00 a\n", "GRN 10:00 a\n"), None);
    assert_eq!(
        appended("RED 10:00 a\n", "RED 10:00 a\nGRN 10:01 b\n"),
        Some("GRN 10:01 b\n")
    );
}
