//! The main pane: tabs for the views the selected creature offers, and the view shown.

use ratatui::Frame;
use ratatui::text::{Line, Span};

use super::{doc, dreams, events, pane, recall};
use crate::ui::doc::scroll;
use crate::ui::focus::{MainView, Pane};
use crate::ui::genome::ViewCx;
use crate::ui::input::action::Action;
use crate::ui::layout::{Areas, TAB_SEPARATOR, tab_labels};
use crate::ui::prepare::openseed::no_files_view;
use crate::ui::state::App;
use crate::ui::state::creature::{CreatureUi, RunnerLink};
use crate::ui::state::recall::Follow;

pub fn render(frame: &mut Frame, areas: &Areas, app: &App) {
    let theme = &app.theme;
    let mut tabs = vec![Span::raw(" ")];
    let shown = app.shown_view();
    let labels = tab_labels(&app.keymap, app.views(), shown, areas.main.width);
    for (i, (view, label)) in labels.into_iter().enumerate() {
        if i > 0 {
            tabs.push(Span::styled(TAB_SEPARATOR, theme.border));
        }
        let style = if view == shown {
            theme.accent
        } else {
            theme.muted
        };
        tabs.push(Span::styled(label, style));
    }
    tabs.push(Span::raw(" "));
    let block = pane::block(theme, app.pane == Pane::Main)
        .title(Line::from(tabs))
        .title_bottom(status(app).right_aligned());
    frame.render_widget(block, areas.main);
    let Some(ui) = app.selected_ui() else {
        return;
    };
    if shown != MainView::Live && ui.without_files {
        let live = app.keymap.mention(Action::ViewLive, " ({} shows them)");
        let lines = no_files_view(&ui.name, &shown.title().to_lowercase(), &live, theme);
        doc::render(
            frame,
            areas.main_view,
            &lines,
            scroll::Anchor::Line(0),
            "",
            theme,
        );
        return;
    }
    match shown {
        MainView::Observations => doc::render(
            frame,
            areas.main_view,
            &ui.obs_doc.lines,
            ui.obs_anchor,
            "No observations shown: none yet (they come with the first dream), or all filtered out.",
            theme,
        ),
        MainView::Diary => doc::render(
            frame,
            areas.main_view,
            &ui.diary,
            ui.diary_anchor,
            no_diary(app, ui),
            theme,
        ),
        MainView::Dreams => dreams::render(frame, areas, ui, app),
        MainView::Recall => recall::render(frame, areas.main_view, ui, app),
        MainView::Live => {
            if let Some(path) = app.selected.as_deref()
                && let Some(o) = app.orchestrator_of(path)
            {
                doc::render(
                    frame,
                    areas.main_view,
                    &o.live_doc,
                    o.anchor(path),
                    "No live events yet: they come as the orchestrator sends them.",
                    theme,
                );
            }
        }
        MainView::Events => events::render(frame, areas.main_view, ui, app),
        MainView::Own(view) => {
            if let Some(own) = &ui.own {
                let cx = ViewCx {
                    areas,
                    theme,
                    name: &ui.name,
                    garden: app.gardens.of(&ui.genome),
                };
                own.draw(frame, view, &cx);
            }
        }
        MainView::Talk => doc::render(
            frame,
            areas.main_view,
            &app.talk.doc,
            app.talk.anchor,
            "No messages yet: what the creatures write to each other (send_message) and their creator's messages show here, newest first.",
            theme,
        ),
    }
}

/// Why the diary is empty: a dreamwatch runner writes it at deep sleep; an OpenSeed
/// creature's genome may keep none at all.
fn no_diary(app: &App, ui: &CreatureUi) -> &'static str {
    let runner =
        ui.link == RunnerLink::Hosted || app.selected_model().is_some_and(|m| m.runner().is_some());
    if runner {
        "No diary yet: it is written at deep sleep."
    } else {
        "This creature writes no diary (an OpenSeed creature whose genome keeps none)."
    }
}

/// The right-hand title: what the view is showing (filters, follow, position).
fn status(app: &App) -> Line<'static> {
    let theme = &app.theme;
    let Some(ui) = app.selected_ui() else {
        return Line::default();
    };
    let spans = match app.shown_view() {
        MainView::Live => super::openseed::live_status(app),
        // Nothing of its files to filter or order.
        _ if ui.without_files => Vec::new(),
        MainView::Own(view) => ui
            .own
            .as_ref()
            .map(|own| own.status(view, app.areas().main_viewport(), theme))
            .unwrap_or_default(),
        MainView::Observations => {
            let f = ui.obs_filter;
            let mut spans = Vec::new();
            let lines = &ui.obs_doc.lines;
            if !lines.is_empty() {
                let top = scroll::top(lines, ui.obs_anchor, app.areas().main_viewport());
                spans.push(Span::styled(
                    format!(" {}/{} ·", top + 1, lines.len()),
                    theme.muted,
                ));
            }
            for (shown, tag, style) in [
                (f.red, "RED", theme.red),
                (f.ylw, "YLW", theme.ylw),
                (f.grn, "GRN", theme.grn),
            ] {
                let (mark, style) = if shown {
                    ("✓", style)
                } else {
                    ("✗", theme.muted)
                };
                spans.push(Span::styled(format!(" {tag}{mark}"), style));
            }
            let order = if ui.obs_newest_first {
                " · newest first "
            } else {
                " · oldest first "
            };
            spans.push(Span::styled(order, theme.muted));
            spans
        }
        MainView::Dreams => vec![Span::styled(
            format!(
                " {} dreams · {} deep ",
                ui.summary.dreams, ui.summary.deep_sleeps
            ),
            theme.muted,
        )],
        MainView::Diary => Vec::new(),
        MainView::Events => events::status(ui, app),
        MainView::Talk => talk_status(app),
        MainView::Recall
            if app
                .selected_model()
                .is_some_and(|m| m.conversation().counting()) =>
        {
            vec![Span::styled(
                " counting the log's lines… (numbers from its tail) ",
                theme.muted,
            )]
        }
        MainView::Recall => {
            let r = &ui.recall;
            match r.follow {
                Follow::On => vec![Span::styled(" following ", theme.accent)],
                Follow::At(_) => vec![
                    Span::styled(format!(" line {}/{} · ", r.top.0 + 1, r.total), theme.muted),
                    Span::styled(
                        app.keymap
                            .first(Action::Bottom)
                            .map(|k| k.to_string())
                            .unwrap_or_default(),
                        theme.key,
                    ),
                    Span::styled(" follow ", theme.muted),
                ],
            }
        }
    };
    Line::from(spans)
}

/// What the talk view's title says: where the reader is, how many messages, following.
fn talk_status(app: &App) -> Vec<Span<'static>> {
    let t = &app.talk;
    let n = t.said.len();
    if t.doc.is_empty() {
        return Vec::new();
    }
    let top = scroll::top(&t.doc, t.anchor, app.areas().main_viewport());
    let plural = if n == 1 { "" } else { "s" };
    let mut spans = vec![Span::styled(
        format!(" {}/{n} · {n} message{plural} · newest first ", top + 1),
        app.theme.muted,
    )];
    if top == 0 {
        spans.push(Span::styled("following ", app.theme.accent));
    }
    spans
}
