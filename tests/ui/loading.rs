//! A large garden's first frame is drawn before the garden is read whole: the garden is
//! found at once, its first creatures opened and drawn, the others opened a batch per
//! wake of the loop (`loading N/M` said meanwhile) until every row is on screen.

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
    // Each wake of the loop opens a batch more, and the screen says how far it is.
    let mut screen = first;
    let mut wakes = 0;
    let mut said_loading = false;
    while rows(&screen) < CREATURES {
        handle(&mut app, Wake::Load).expect("a load");
        screen = frame(&mut terminal, &mut app);
        said_loading |= screen.contains(&format!("loading {}/{CREATURES}", rows(&screen)));
        wakes += 1;
        assert!(wakes <= CREATURES, "loading never ends: {screen}");
    }
    assert!(wakes > 1, "opened a batch per wake, not all at once");
    assert!(said_loading, "the status line says how far loading is");
    assert!(!screen.contains("loading"), "{screen}");
}
