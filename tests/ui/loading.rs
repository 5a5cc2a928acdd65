//! A large garden's first frame is drawn before the garden is read whole: the garden is
//! found at once, its first creatures opened and drawn, the others opened on threads
//! beside the loop and taken in as they come (`loading N/M` said meanwhile) until every
//! row is on screen; only the creature shown keeps its observations' styled lines.

use std::collections::BTreeMap;

use chrono::Utc;
use dreamwatch::memory::garden::Root;
use dreamwatch::ui::draw::draw;
use dreamwatch::ui::runtime::event_loop::{Wake, handle};
use dreamwatch::ui::state::{App, Settings};
use dreamwatch::ui::theme::Theme;
use dreamwatch::watch::{LiveGarden, WatchOptions};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::layout::Rect;

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

#[test]
fn the_first_frame_is_drawn_before_the_garden_is_read_whole() {
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
    // Two lines a creature in the garden list: all of them fit.
    let area = Rect::new(0, 0, 120, 2 * CREATURES as u16 + 12);
    let mut app = App::new(
        garden,
        Settings::with_theme(theme),
        BTreeMap::new(),
        Utc::now(),
        area,
    );
    let mut terminal = Terminal::new(TestBackend::new(area.width, area.height)).expect("terminal");

    let first = frame(&mut terminal, &mut app);
    assert_eq!(rows(&first), FIRST, "{first}");
    assert!(
        first.contains(&format!("loading {FIRST}/{CREATURES}")),
        "{first}"
    );
    // Each wake of the loop takes in what the threads opened meanwhile.
    let mut screen = first;
    let started = std::time::Instant::now();
    while rows(&screen) < CREATURES {
        handle(&mut app, Wake::Load).expect("a load");
        screen = frame(&mut terminal, &mut app);
        assert!(
            started.elapsed() < std::time::Duration::from_secs(30),
            "loading never ends: {screen}"
        );
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
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
