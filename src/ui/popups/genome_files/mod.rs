//! A creature's files as its genome's `genome.json` tabs declare them (OpenSeed's way of
//! showing a genome it has no page for): a tab bar, the tab's file under it, scrolled
//! like the help; Left/Right (Tab, Shift-Tab) change tabs, `r` reads them again.

pub mod prepare;

use std::path::PathBuf;

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

use crate::openseed::GenomeFiles;
use crate::ui::doc::DocLine;
use crate::ui::doc::scroll::{self, Anchor, Step, Viewport};
use crate::ui::draw::{DrawContext, doc};
use crate::ui::layout;
use crate::ui::prepare::inert;
use crate::ui::theme::Theme;

/// Where a creature's files were read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// From its orchestrator (`/api/creatures/NAME/files`).
    Orchestrator,
    /// From its directory on this machine.
    Disk,
}

#[derive(Debug, Default)]
pub struct GenomeFilesPopup {
    /// The creature it shows: its path and name.
    creature: Option<(PathBuf, String)>,
    /// Its name (inert).
    name: String,
    source: Option<Source>,
    /// Each tab's label and prepared lines.
    tabs: Vec<(String, Vec<DocLine>)>,
    at: usize,
    anchor: Anchor,
}

impl GenomeFilesPopup {
    /// Shows `files` of the creature `name`, on the tab it was on if it has the same
    /// tabs (read again), else on the first; markdown laid out for a screen of `area`.
    pub fn open(
        &mut self,
        creature: (PathBuf, String),
        source: Source,
        files: &GenomeFiles,
        theme: &Theme,
        area: Rect,
    ) {
        let width = viewport(area).width;
        let tabs: Vec<(String, Vec<DocLine>)> = files
            .tabs
            .iter()
            .map(|t| (inert(&t.label), prepare::tab_lines(t, theme, width)))
            .collect();
        let same = self.creature.as_ref() == Some(&creature)
            && tabs.iter().map(|t| &t.0).eq(self.tabs.iter().map(|t| &t.0));
        if !same {
            self.at = 0;
            self.anchor = Anchor::Line(0);
        }
        self.name = inert(&creature.1);
        self.creature = Some(creature);
        self.source = Some(source);
        self.tabs = tabs;
    }

    /// The creature it shows: its path and name.
    pub fn creature(&self) -> Option<&(PathBuf, String)> {
        self.creature.as_ref()
    }

    /// The next tab (`forward`), or the one before, round.
    pub fn turn(&mut self, forward: bool) {
        let n = self.tabs.len().max(1);
        self.at = if forward {
            (self.at + 1) % n
        } else {
            (self.at + n - 1) % n
        };
        self.anchor = Anchor::Line(0);
    }

    pub fn scroll(&mut self, area: Rect, step: Step) {
        if let Some((_, lines)) = self.tabs.get(self.at) {
            self.anchor = scroll::scroll(lines, self.anchor, viewport(area), step);
        }
    }

    pub fn draw(&self, frame: &mut Frame, cx: &DrawContext) {
        let theme = cx.theme;
        let area = layout::help(frame.area());
        frame.render_widget(Clear, area);
        let from = match self.source {
            Some(Source::Disk) => "read from its directory",
            _ => "from its orchestrator",
        };
        let block = Block::default()
            .borders(Borders::ALL)
            .border_style(theme.border_focused)
            .style(theme.base)
            .title(Span::styled(
                format!(" {}: its genome's files ({from}) ", self.name),
                theme.title,
            ));
        let inner = block.inner(area);
        let (bar, body) = split(inner);
        let Some((_, lines)) = self.tabs.get(self.at) else {
            frame.render_widget(block, area);
            frame.render_widget(
                Paragraph::new("Its genome.json declares no tabs.").style(theme.muted),
                inner,
            );
            return;
        };
        frame.render_widget(
            doc::more_marks(block, body, lines, self.anchor, theme),
            area,
        );
        let mut spans = Vec::new();
        for (i, (label, _)) in self.tabs.iter().enumerate() {
            let style = if i == self.at {
                theme.selection
            } else {
                theme.muted
            };
            spans.push(Span::styled(format!(" {label} "), style));
            spans.push(Span::raw(" "));
        }
        frame.render_widget(Paragraph::new(Line::from(spans)), bar);
        doc::render(frame, body, lines, self.anchor, "", theme);
    }
}

/// The tab bar's row and the document's area, in the popup's inner area.
fn split(inner: Rect) -> (Rect, Rect) {
    let bar = Rect {
        height: inner.height.min(1),
        ..inner
    };
    let gap = inner.height.min(2);
    let body = Rect {
        y: inner.y + gap,
        height: inner.height - gap,
        ..inner
    };
    (bar, body)
}

/// The document's viewport on a screen of `area`.
fn viewport(area: Rect) -> Viewport {
    let vp = layout::help_viewport(area);
    Viewport {
        width: vp.width,
        height: vp.height.saturating_sub(2),
    }
}
