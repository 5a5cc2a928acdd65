//! Drawing: a pure function of the state. Nothing here reads files, parses, sanitises or
//! highlights; it lays out text prepared earlier.

mod bars;
mod cost;
pub(crate) mod doc;
mod dreams;
mod events;
pub(crate) mod fmt;
mod garden;
mod header;
mod help;
mod hits;
mod main_view;
mod message;
mod openseed;
mod pane;
mod recall;
mod review;
mod side;
mod spark;
mod strip;

use ratatui::Frame;
use ratatui::widgets::Block;

use crate::ui::focus::Mode;
use crate::ui::state::App;

/// Draws the whole screen.
pub fn draw(frame: &mut Frame, app: &App) {
    frame.render_widget(Block::default().style(app.theme.base), frame.area());
    let areas = app.areas();
    if let Some(area) = areas.garden {
        garden::render(frame, area, app);
    }
    header::render(frame, areas.header, app);
    if !areas.main.is_empty() {
        main_view::render(frame, &areas, app);
    }
    if let Some(area) = areas.side {
        side::render(frame, area, app);
    }
    bars::render_status(frame, areas.status, app);
    bars::render_hints(frame, areas.hints, app);
    match app.mode {
        Mode::Help => help::render(frame, app),
        Mode::Message => message::render(frame, app),
        Mode::Review => review::render(frame, app),
        Mode::Hits => hits::render(frame, app),
        Mode::Log => help::render_log(frame, app),
        Mode::Detail => help::render_detail(frame, app),
        Mode::Normal | Mode::Garden | Mode::Search | Mode::Filter => {}
    }
}
