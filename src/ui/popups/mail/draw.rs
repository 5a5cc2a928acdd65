//! Drawing the mail: mailboxes, the listed folder's messages, the reader.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};

use super::{Column, Folder, MailPopup};
use crate::openseed::{CREATOR, MailMessage};
use crate::ui::draw::DrawContext;
use crate::ui::layout;

impl MailPopup {
    pub fn draw(&self, frame: &mut Frame, cx: &DrawContext) {
        let area = layout::compare(frame.area());
        frame.render_widget(Clear, area);
        let [boxes, messages, reader] = Layout::horizontal([
            Constraint::Length(24),
            Constraint::Percentage(40),
            Constraint::Min(20),
        ])
        .areas(area);
        self.draw_boxes(frame, boxes, cx);
        self.draw_messages(frame, messages, cx);
        self.draw_reader(frame, reader, cx);
    }

    fn block(&self, column: Column, title: String, cx: &DrawContext) -> Block<'static> {
        let theme = cx.theme;
        let border = if self.column == column {
            theme.border_focused
        } else {
            theme.border
        };
        Block::default()
            .borders(Borders::ALL)
            .border_style(border)
            .style(theme.base)
            .title(Span::styled(title, theme.title))
    }

    fn draw_boxes(&self, frame: &mut Frame, area: Rect, cx: &DrawContext) {
        let theme = cx.theme;
        let lines: Vec<Line> = self
            .boxes
            .iter()
            .enumerate()
            .map(|(i, b)| {
                let style = row_style(i == self.box_at, self.column == Column::Boxes, cx);
                let name = if b.creature == CREATOR {
                    format!("{CREATOR} (you)")
                } else {
                    b.creature.clone()
                };
                let count = if b.unread > 0 {
                    format!("{}/{}", b.unread, b.total)
                } else {
                    b.total.to_string()
                };
                Line::from(vec![
                    Span::styled(format!("{name:<15}"), style),
                    Span::styled(
                        format!("{count:>6}"),
                        if b.unread > 0 {
                            theme.accent
                        } else {
                            theme.muted
                        },
                    ),
                ])
            })
            .collect();
        let top = layout::first_shown(
            Some(self.box_at),
            lines.len(),
            area.height.saturating_sub(2),
        );
        let lines: Vec<Line> = lines.into_iter().skip(top).collect();
        let block = self.block(Column::Boxes, " Mailboxes ".into(), cx);
        frame.render_widget(Paragraph::new(lines).block(block), area);
    }

    fn draw_messages(&self, frame: &mut Frame, area: Rect, cx: &DrawContext) {
        let theme = cx.theme;
        let folder = match self.folder {
            Folder::Inbox => "inbox",
            Folder::Sent => "sent",
        };
        let title = format!(" {}: {folder} ", self.shown);
        let block = self.block(Column::Messages, title, cx);
        let shown = self.messages();
        let lines: Vec<Line> = if self.loading && shown.is_empty() {
            vec![Line::styled("asking the orchestrator…", theme.muted)]
        } else if shown.is_empty() {
            vec![Line::styled(self.empty_words(), theme.muted)]
        } else {
            shown
                .iter()
                .enumerate()
                .map(|(i, m)| self.message_row(m, i == self.at, cx))
                .collect()
        };
        let inner_rows = area.height.saturating_sub(2);
        let top = layout::first_shown(Some(self.at), lines.len(), inner_rows);
        let lines: Vec<Line> = lines.into_iter().skip(top).collect();
        frame.render_widget(Paragraph::new(lines).block(block), area);
    }

    /// What an empty folder says.
    fn empty_words(&self) -> &'static str {
        match (self.folder, &self.sent) {
            (Folder::Inbox, _) => "no mail in this inbox",
            (Folder::Sent, Some(_)) => "nothing sent",
            (Folder::Sent, None) if self.shown == CREATOR => {
                "nothing sent from here (no route serves sent mail, and OpenSeed's files are not on this machine)"
            }
            (Folder::Sent, None) => {
                "no route serves sent mail, and OpenSeed's files are not on this machine"
            }
        }
    }

    fn message_row(&self, m: &MailMessage, here: bool, cx: &DrawContext) -> Line<'static> {
        let theme = cx.theme;
        let style = row_style(here, self.column == Column::Messages, cx);
        let mark = if self.folder == Folder::Inbox && !m.read {
            Span::styled("● ", theme.accent)
        } else {
            Span::raw("  ")
        };
        let who = match self.folder {
            Folder::Inbox => m.from.clone(),
            Folder::Sent => format!("→ {}", m.to),
        };
        let what = if m.subject.is_empty() {
            m.body.lines().next().unwrap_or_default().to_owned()
        } else {
            m.subject.clone()
        };
        Line::from(vec![
            mark,
            Span::styled(format!("{} ", short_time(&m.timestamp)), theme.muted),
            Span::styled(format!("{who:<12} "), style),
            Span::styled(what, style),
        ])
    }

    fn draw_reader(&self, frame: &mut Frame, area: Rect, cx: &DrawContext) {
        let theme = cx.theme;
        let block = self.block(Column::Reader, " Message ".into(), cx);
        let Some(m) = self.selected() else {
            frame.render_widget(Paragraph::new("").block(block), area);
            return;
        };
        let field = |label: &str, value: &str| {
            Line::from(vec![
                Span::styled(format!("{label:>8}: "), theme.muted),
                Span::styled(value.to_owned(), theme.base),
            ])
        };
        let mut lines = vec![
            field("from", &m.from),
            field("to", &m.to),
            field("date", &m.timestamp),
            field("subject", &m.subject),
            Line::default(),
        ];
        lines.extend(
            m.body
                .lines()
                .map(|l| Line::styled(l.to_owned(), theme.prose)),
        );
        let top = u16::try_from(self.reader_top).unwrap_or(u16::MAX);
        frame.render_widget(
            Paragraph::new(lines)
                .block(block)
                .wrap(Wrap { trim: false })
                .scroll((top, 0)),
            area,
        );
    }
}

fn row_style(here: bool, focused: bool, cx: &DrawContext) -> Style {
    match (here, focused) {
        (true, true) => cx.theme.selection,
        (true, false) => cx.theme.accent,
        _ => cx.theme.base,
    }
}

/// `2026-03-09T10:03:00.000Z` as `03-09 10:03`.
fn short_time(t: &str) -> String {
    match (t.get(5..10), t.get(11..16)) {
        (Some(day), Some(time)) => format!("{day} {time}"),
        _ => t.chars().take(11).collect(),
    }
}
