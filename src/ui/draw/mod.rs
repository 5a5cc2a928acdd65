//! Drawing: a pure function of the state. Nothing here reads files, parses, sanitises or
//! highlights; it lays out text prepared earlier.

mod bars;
mod context;
mod cost;
pub(crate) mod doc;
pub(crate) mod fmt;
mod garden;
mod header;
mod main_view;
mod openseed;
pub(crate) mod pane;
mod spark;

use ratatui::Frame;
use ratatui::widgets::Block;

pub use context::DrawContext;

use crate::ui::focus::{Mode, Pane};
use crate::ui::state::App;
use crate::ui::views::side::SidePanel;

/// Draws the whole screen.
pub fn draw(frame: &mut Frame, app: &App) {
    app.begin_frame();
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
        let ui = app.selected_ui();
        let title = ui.map_or(" Creature ", |ui| {
            crate::ui::genome::of(&ui.genome).side_title
        });
        let cx = app.draw_context(&areas);
        let side = ui.map(|ui| &ui.side);
        SidePanel::draw(side, frame, area, title, app.pane == Pane::Side, &cx);
    }
    bars::render_status(frame, areas.status, app);
    bars::render_hints(frame, areas.hints, app);
    draw_overlay(frame, app, &app.draw_context(&areas));
    if app.ascii {
        in_ascii(frame.buffer_mut());
    }
}

/// Every cell's glyph as its ASCII stand-in; a wide character's cell and the one it
/// covers become one stand-in and a space.
fn in_ascii(buffer: &mut ratatui::buffer::Buffer) {
    use unicode_width::UnicodeWidthStr;
    let mut covered = false;
    for cell in buffer.content.iter_mut() {
        if std::mem::take(&mut covered) {
            cell.set_symbol(" ");
            continue;
        }
        let symbol = cell.symbol();
        if symbol.is_ascii() {
            continue;
        }
        covered = symbol.width() > 1;
        let c = symbol.chars().next().map_or(' ', crate::text::ascii::fold);
        cell.set_char(c);
    }
}

/// The overlay of the mode, over everything else.
fn draw_overlay(frame: &mut Frame, app: &App, cx: &DrawContext) {
    let popups = &app.popups;
    match app.mode {
        Mode::Help => popups.help.draw(frame, &app.help_document(), cx),
        Mode::Message => popups.message.draw(frame, cx),
        Mode::Review => {
            if let Some(ui) = app.selected_ui() {
                popups
                    .review
                    .draw(frame, &ui.name, &app.review_document(), cx);
            }
        }
        Mode::Hits => crate::ui::popups::hits::draw(frame, &app.search, cx),
        Mode::Log => popups.log.draw(frame, cx),
        Mode::Palette => crate::ui::popups::palette::draw(frame, &popups.palette, cx),
        Mode::Detail => {
            if let Some(d) = &popups.detail {
                d.draw(frame, cx);
            }
        }
        Mode::Blame => popups.blame.draw(frame, cx),
        Mode::ComparePick => {
            let name = app.selected_ui().map_or("", |ui| ui.name.as_str());
            popups.compare.draw_pick(frame, name, cx);
        }
        Mode::Compare => popups.compare.draw(frame, cx),
        Mode::OpenSeedMenu => popups.openseed_menu.draw(frame, cx),
        Mode::GenomeFiles => popups.genome_files.draw(frame, cx),
        Mode::Ranger => popups.ranger.draw(frame, cx),
        Mode::OpenSeedForm => {
            if let Some(form) = &popups.openseed_form {
                form.draw(frame, cx);
            }
        }
        Mode::Mail => popups.mail.draw(frame, cx),
        Mode::Narration => {
            let live = app
                .openseed
                .as_ref()
                .and_then(|o| o.events.get(crate::openseed::NARRATOR));
            popups.narration.draw(frame, live, cx);
        }
        Mode::Normal | Mode::Garden | Mode::Search | Mode::Filter | Mode::Past | Mode::Jump => {}
    }
}
