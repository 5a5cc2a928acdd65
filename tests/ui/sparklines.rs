//! Sparklines of activity and fatigue (issue 13): in the header over the same intervals,
//! and as a column of the garden list where it is wide enough; from the logs, against the
//! stopped clock.

use crate::common::ui::{Garden, clock, filters};
use chrono::Duration;
use ratatui::style::Color;

/// The rows of the screen holding `needle`.
fn rows_with<'a>(text: &'a str, needle: &str) -> Vec<&'a str> {
    text.lines().filter(|l| l.contains(needle)).collect()
}

/// The column (in characters) where the last `needle` starts in `line`.
fn column(line: &str, needle: &str) -> usize {
    let at = line.rfind(needle).expect(needle);
    line[..at].chars().count()
}

#[test]
fn the_header_and_a_wide_garden_show_the_last_intervals() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    // ember: its tool calls between 17:32 and 17:42, its last dream at 17:41.
    let mut screen = garden.screen("dark", 200, 40);
    let text = screen.text().unwrap();
    filters(&garden).bind(|| insta::assert_snapshot!("sparklines_wide", text));
    // The header's two sparklines end at the same column (the same intervals).
    let activity = rows_with(&text, "activity ·")[0];
    let fatigue = rows_with(&text, "fatigue  ·")[0];
    assert_eq!(
        column(activity, "activity "),
        column(fatigue, "fatigue  "),
        "{activity}\n{fatigue}"
    );
    // The garden's column sits under its header.
    let header = rows_with(&text, "# fatigue")[0];
    let ember = rows_with(&text, "☾11")[0];
    assert_eq!(
        column(header, "activity"),
        column(ember, "☾11") + 5,
        "{header}\n{ember}"
    );
}

#[test]
fn fatigue_is_coloured_against_the_warning_and_the_limit() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let mut screen = garden.screen("dark", 200, 40);
    let theme = screen.app.theme.clone();
    let buffer = screen.render().unwrap().clone();
    // The header's activity: each interval's block in the fatigue colour of its end.
    let styled: Vec<Color> = (0..buffer.area.height)
        .flat_map(|y| (0..buffer.area.width).map(move |x| (x, y)))
        .filter_map(|(x, y)| buffer.cell((x, y)))
        .filter(|c| "▁▂▃▄▅▆▇█".contains(c.symbol()))
        .map(|c| c.fg)
        .collect();
    assert!(
        styled.contains(&theme.fatigue_ok.fg.unwrap()),
        "some block is fine: {styled:?}"
    );
}

#[test]
fn a_narrow_garden_drops_the_column_and_the_clock_moves_the_intervals() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let mut screen = garden.screen("dark", 120, 36);
    let text = screen.text().unwrap();
    let list: Vec<String> = text.lines().map(|l| l.chars().take(30).collect()).collect();
    assert!(
        list.iter()
            .all(|l| !l.contains("activity") && !l.contains("··")),
        "{list:?}"
    );
    assert!(text.contains("activity "), "the header keeps it: {text}");
    // Hours later nothing is recent: every interval is empty, the fatigue kept.
    screen.tick(clock() + Duration::hours(3));
    let ember = screen
        .app
        .creatures
        .values()
        .find(|u| u.name == "ember")
        .unwrap();
    assert!(
        ember.pulse.calls.iter().all(|c| *c == 0),
        "{:?}",
        ember.pulse
    );
    assert!(
        ember
            .pulse
            .fatigue
            .iter()
            .all(|f| *f == ember.summary.fatigue),
        "{:?}",
        ember.pulse
    );
}

#[test]
fn an_evennia_creature_shows_activity_only() {
    dreamwatch::app::genomes::install();
    let garden = Garden::with_evennia();
    let mut screen = garden.screen("dark", 200, 40);
    let sable = screen
        .app
        .garden_order()
        .iter()
        .position(|p| p.ends_with("sable"))
        .unwrap();
    screen.press("h").unwrap();
    for _ in 0..sable {
        screen.press("h").unwrap();
        screen.press("j").unwrap();
    }
    let text = screen.text().unwrap();
    assert!(text.contains("activity "), "{text}");
    assert!(rows_with(&text, "fatigue  ").is_empty(), "{text}");
    filters(&garden).bind(|| insta::assert_snapshot!("sparklines_evennia", text));
}
