//! A large garden's first frame is drawn before the garden is read whole: the garden is
//! found at once, its first creatures opened and drawn, the others opened on threads
//! beside the loop and taken in as they come (`loading N/M` said meanwhile) until every
//! row is on screen; only the creature shown keeps its observations' styled lines. The
//! watched history's first looks (on a first run, files written for each creature) wait
//! until every row is in.

use std::collections::BTreeMap;

use chrono::Utc;
use dreamwatch::history::History;
use dreamwatch::memory::garden::Root;
use dreamwatch::ui::draw::draw;
use dreamwatch::ui::runtime::event_loop::{Wake, handle};
use dreamwatch::ui::state::{App, Settings};
use dreamwatch::ui::theme::Theme;
use dreamwatch::watch::{LiveGarden, WatchOptions};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::layout::Rect;
use tempfile::TempDir;

const CREATURES: usize = 20;
const FIRST: usize = 8;

/// The screen as the loop draws it.
fn frame(terminal: &mut Terminal<TestBackend>, app: &mut App) -> String {
    app.prepare();
    terminal.draw(|f| draw(f, app)).expect("drawn");
    app.drawn();
    let buffer = terminal.backend().buffer();
    let width = usize::from(buffer.area.width);
    buffer
        .content
        .chunks(width)
        .map(|row| row.iter().map(|c| c.symbol()).collect::<String>())
        .collect::<Vec<_>>()
        .join("\n")
}

/// How many of the garden's creatures have a row on `screen`.
fn rows(screen: &str) -> usize {
    (1..=CREATURES)
        .filter(|i| screen.contains(&format!("crt{i:03}")))
        .count()
}

/// A garden of [`CREATURES`] opening [`FIRST`] before its first frame, the watched
/// history kept in `history`; with a terminal where every row fits (two lines a creature).
fn loading_garden(history: Option<History>) -> (TempDir, App, Terminal<TestBackend>) {
    dreamwatch::app::genomes::install();
    let dir = tempfile::tempdir().expect("temp dir");
    for i in 1..=CREATURES {
        let c = dir.path().join(format!("crt{i:03}"));
        std::fs::create_dir_all(c.join(".self")).expect("creature");
        std::fs::write(c.join(".self/observations.md"), "RED 10:00 here\n").expect("obs");
    }
    let opts = WatchOptions {
        poll_interval: None,
        ..WatchOptions::default()
    };
    let roots = vec![Root::Garden(dir.path().to_path_buf())];
    let (garden, _hints) = LiveGarden::open_progressive(roots, opts, FIRST);
    let (theme, _) = Theme::load("dark", None, false);
    let mut settings = Settings::with_theme(theme);
    settings.history = history;
    let area = Rect::new(0, 0, 120, 2 * CREATURES as u16 + 12);
    let app = App::new(garden, settings, BTreeMap::new(), Utc::now(), area);
    let terminal = Terminal::new(TestBackend::new(area.width, area.height)).expect("terminal");
    (dir, app, terminal)
}

/// Wakes the loop to take in what the threads opened meanwhile until every row is on
/// screen (`before_each` sees the app before each wake); the last screen.
fn load_all(
    terminal: &mut Terminal<TestBackend>,
    app: &mut App,
    mut screen: String,
    mut before_each: impl FnMut(&App),
) -> String {
    let started = std::time::Instant::now();
    while rows(&screen) < CREATURES {
        before_each(app);
        handle(app, Wake::Load).expect("a load");
        screen = frame(terminal, app);
        assert!(
            started.elapsed() < std::time::Duration::from_secs(30),
            "loading never ends: {screen}"
        );
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    screen
}

#[test]
fn the_first_frame_is_drawn_before_the_garden_is_read_whole() {
    let (_dir, mut app, mut terminal) = loading_garden(None);
    let first = frame(&mut terminal, &mut app);
    assert_eq!(rows(&first), FIRST, "{first}");
    assert!(
        first.contains(&format!("loading {FIRST}/{CREATURES}")),
        "{first}"
    );
    let screen = load_all(&mut terminal, &mut app, first, |_| {});
    assert!(!screen.contains("loading"), "{screen}");
    // The styled observations are those of the creature shown, and of no other.
    let prepared = |app: &App| {
        app.creatures
            .iter()
            .filter(|(_, ui)| !ui.obs.doc.lines.is_empty())
            .map(|(path, _)| path.clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(
        prepared(&app),
        app.selected.clone().into_iter().collect::<Vec<_>>()
    );
    let before = app.selected.clone();
    app.selected = app.creatures.keys().nth(5).cloned();
    assert_ne!(app.selected, before);
    frame(&mut terminal, &mut app);
    assert_eq!(
        prepared(&app),
        app.selected.clone().into_iter().collect::<Vec<_>>()
    );
}

/// The watched history's folders: one a creature looked at.
fn folders(store: &std::path::Path) -> usize {
    std::fs::read_dir(store).map_or(0, |d| d.count())
}

#[test]
fn the_watched_history_looks_once_every_row_is_in() {
    let store = tempfile::tempdir().expect("store");
    let store = store.path().join("history");
    let (dir, mut app, mut terminal) = loading_garden(Some(History::new(store.clone(), 1 << 20)));
    let first = frame(&mut terminal, &mut app);
    load_all(&mut terminal, &mut app, first, |app| {
        assert!(!app.looks_due(), "a look before every row is in");
    });
    assert_eq!(
        folders(&store),
        0,
        "the history was written while rows came"
    );
    // A change to one creature looks at it first, before the others' turn.
    let changed = dir.path().join("crt007/.self/observations.md");
    std::fs::write(&changed, "RED 10:00 here\nYLW 10:01 more\n").expect("append");
    let path = dir.path().join("crt007");
    app.on_changes(vec![dreamwatch::watch::LiveChange::Changed(
        path,
        vec![dreamwatch::memory::creature::Change::ObservationsRewritten],
    )]);
    assert_eq!(folders(&store), 1);
    let mut wakes = 0;
    while app.looks_due() {
        handle(&mut app, Wake::Looks).expect("looks");
        wakes += 1;
        assert!(wakes <= CREATURES, "the looks never end");
    }
    assert_eq!(folders(&store), CREATURES);
    assert!(wakes > 1, "every look in one wake: {wakes}");
}
