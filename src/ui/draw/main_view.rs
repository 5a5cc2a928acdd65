//! The main pane: tabs for the views the selected creature offers, and the view shown.

use ratatui::Frame;
use ratatui::text::{Line, Span};

use super::{doc, pane};
use crate::ui::doc::scroll;
use crate::ui::focus::{MainView, Pane};
use crate::ui::genome::ViewCx;
use crate::ui::input::action::Action;
use crate::ui::layout::{Areas, TAB_SEPARATOR, tab_labels};
use crate::ui::state::App;
use crate::ui::state::creature::RunnerLink;
use crate::ui::state::openseed::name_of;
use crate::ui::views::dreams::DreamsView;
use crate::ui::views::live::prepare::no_files_view;

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
    let cx = app.draw_context(areas);
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
        MainView::Observations => ui.obs.draw(frame, areas.main_view, &cx),
        MainView::Diary => {
            let runner = ui.link == RunnerLink::Hosted
                || app.selected_model().is_some_and(|m| m.runner().is_some());
            ui.diary.draw(frame, areas.main_view, runner, &cx)
        }
        MainView::Dreams => ui
            .dreams
            .draw(frame, &cx, [ui.summary.last_activity, ui.born]),
        MainView::Recall if arriving(app) => {
            let text = format!(
                "Its last lines are on their way from {}: every figure above is counted already.",
                app.selected
                    .as_deref()
                    .and_then(|p| app.remote_of(p))
                    .map_or("its machine", |r| r.host.as_str())
            );
            frame.render_widget(
                ratatui::widgets::Paragraph::new(Line::styled(text, theme.muted)),
                areas.main_view,
            );
        }
        MainView::Recall => {
            let search = &app.search;
            // A regular expression's matches are not marked: the hit's entry is.
            let query = search
                .query
                .as_deref()
                .filter(|_| !search.hits.is_empty() && !search.regex);
            ui.recall.draw(frame, areas.main_view, query, &cx)
        }
        MainView::Live => {
            if let Some(path) = app.selected.as_deref()
                && let Some(o) = app.orchestrator_of(path)
            {
                o.live
                    .draw(frame, areas.main_view, o.live.anchor(name_of(path)), &cx);
            }
        }
        MainView::Events => ui.events.draw(frame, areas.main_view, &cx),
        MainView::Own(view) => {
            if let Some(own) = &ui.own {
                let own_cx = ViewCx {
                    areas,
                    theme,
                    name: &ui.name,
                    garden: app.gardens.of(&ui.genome),
                };
                own.draw(frame, view, &own_cx);
            }
        }
        MainView::Talk => app.talk.draw(frame, areas.main_view, &cx),
    }
}

/// The right-hand title: what the view is showing (filters, follow, position).
fn status(app: &App) -> Line<'static> {
    let theme = &app.theme;
    let Some(ui) = app.selected_ui() else {
        return Line::default();
    };
    let areas = app.areas();
    let cx = app.draw_context(&areas);
    let model = app.selected_model();
    let spans = match app.shown_view() {
        MainView::Live => app
            .selected
            .as_deref()
            .and_then(|path| app.orchestrator_of(path).map(|o| (path, o)))
            .map(|(path, o)| o.live.status(o.live.anchor(name_of(path)), &cx))
            .unwrap_or_default(),
        // Nothing of its files to filter or order.
        _ if ui.without_files => Vec::new(),
        MainView::Own(view) => ui
            .own
            .as_ref()
            .map(|own| own.status(view, areas.main_viewport(), theme))
            .unwrap_or_default(),
        MainView::Observations => ui.obs.status(&cx),
        MainView::Dreams => {
            let counting = model.is_some_and(|m| m.dream_log().counting());
            DreamsView::status(ui.summary.dreams, ui.summary.deep_sleeps, counting, &cx)
        }
        MainView::Diary => Vec::new(),
        MainView::Events => {
            let total = model.map_or(0, |m| m.events().total_lines());
            ui.events.status(total, &cx)
        }
        MainView::Talk => app.talk.status(&cx),
        MainView::Recall => {
            let counting = model.is_some_and(|m| m.conversation().counting());
            ui.recall.status(counting, &cx)
        }
    };
    Line::from(spans)
}

/// Whether the creature shown is a far one whose conversation's last lines have not come
/// yet (its lines counted on the far side, none of them held here).
fn arriving(app: &App) -> bool {
    let Some(path) = app.selected.as_deref() else {
        return false;
    };
    let log = app.selected_model().map(|m| m.conversation());
    app.remote_of(path).is_some_and(|r| r.windows_left > 0)
        && log.is_some_and(|l| l.lines() > 0 && l.recent().is_empty())
}
