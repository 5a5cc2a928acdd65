//! Drawing the Dreams view: the [`strip`](super::strip), the list, the selected dream's
//! detail.

use chrono::{DateTime, Utc};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};

use super::{DreamsView, strip};
use crate::ui::draw::DrawContext;
use crate::ui::draw::doc;
use crate::ui::draw::fmt::truncate;
use crate::ui::layout;
use crate::ui::theme::Theme;

impl DreamsView {
    /// Draws the view in the main pane's parts; `seen`: other times the creature was
    /// alive, for the strip (its last activity, its birth).
    pub fn draw(&self, frame: &mut Frame, cx: &DrawContext, seen: [Option<DateTime<Utc>>; 2]) {
        let (theme, areas) = (cx.theme, cx.areas);
        if self.list.is_empty() {
            frame.render_widget(
                Paragraph::new(Line::styled(
                    "No dreams yet: the first comes when the creature sleeps after enough work.",
                    theme.muted,
                )),
                areas.main_view,
            );
            return;
        }
        let selected = self.selected();
        if let Some(area) = areas.timeline {
            frame.render_widget(
                Paragraph::new(strip::rows(
                    self,
                    seen,
                    selected,
                    cx.now.at(),
                    area.width,
                    theme,
                )),
                area,
            );
        }
        list(frame, areas.main_view, self, selected, theme);
        if let (Some(area), Some(i)) = (areas.detail, selected) {
            detail(frame, area, self, i, theme);
        }
    }

    /// The title's right-hand part (`counting`: a large log's last dreams are read, its
    /// earlier ones are being counted).
    pub fn status(dreams: u64, deep: u64, counting: bool, cx: &DrawContext) -> Vec<Span<'static>> {
        if counting {
            return vec![Span::styled(
                " counting the dreams… (numbers from its last ones) ",
                cx.theme.muted,
            )];
        }
        vec![Span::styled(
            format!(" {dreams} dreams · {deep} deep "),
            cx.theme.muted,
        )]
    }
}

fn list(frame: &mut Frame, area: Rect, ui: &DreamsView, selected: Option<usize>, theme: &Theme) {
    let n = ui.list.len();
    let height = usize::from(area.height);
    if height == 0 {
        return;
    }
    let first = layout::first_dream_row(n, selected, height);
    let width = usize::from(area.width);
    let rows: Vec<Line> = (first..n.min(first + height))
        .map(|r| {
            let i = n - 1 - r;
            let d = &ui.list[i];
            let (mark, style) = if d.deep {
                ("◆", theme.deep_sleep)
            } else {
                ("●", theme.dream)
            };
            let when =
                d.t.map_or_else(|| "--".into(), |t| t.format("%m-%d %H:%M").to_string());
            let head = format!("#{:<4}", i + 1);
            let stats = format!(" {when}  {:>3} act  {:>2} obs  ", d.actions, d.observations);
            let room = width.saturating_sub(head.len() + 2 + stats.chars().count());
            let line = Line::from(vec![
                Span::styled(head, theme.muted),
                Span::styled(format!("{mark} "), style),
                Span::styled(stats, theme.muted),
                Span::styled(truncate(&d.priority, room), theme.base),
            ]);
            if Some(i) == selected {
                line.patch_style(theme.selection)
            } else {
                line
            }
        })
        .collect();
    frame.render_widget(Paragraph::new(rows), area);
}

fn detail(frame: &mut Frame, area: Rect, ui: &DreamsView, i: usize, theme: &Theme) {
    let d = &ui.list[i];
    let kind = if d.deep { "deep sleep" } else { "dream" };
    let when = d.t.map_or_else(String::new, |t| {
        t.format(" · %Y-%m-%d %H:%M:%S UTC").to_string()
    });
    let block = Block::default()
        .borders(Borders::TOP)
        .border_style(theme.border)
        .title(Span::styled(
            format!(" Dream {} · {kind}{when} ", i + 1),
            theme.title,
        ));
    frame.render_widget(block, area);
    let lines = ui.document(i, theme);
    doc::render(
        frame,
        layout::dream_detail_text(area),
        &lines,
        ui.anchor,
        "",
        theme,
    );
}
