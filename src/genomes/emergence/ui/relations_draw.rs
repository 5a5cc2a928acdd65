//! The relations view: every agent with its type, trust and interactions, the selected
//! one's history, and (where the terminal is large enough) the garden's relationships
//! drawn as a graph: the creatures on a circle, each relation a line from the one who
//! holds it, labelled with its type near that end and coloured by its trust.

use std::f64::consts::TAU;

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color, Style};
use ratatui::symbols::Marker;
use ratatui::text::{Line, Span};
use ratatui::widgets::canvas::{Canvas, Line as Edge};
use ratatui::widgets::{Block, Borders, Paragraph};

use super::RELATIONS;
use super::figures::trust_style;
use super::graph::GardenGraph;
use super::state::EmergenceUi;
use crate::ui::draw::doc;
use crate::ui::layout::Areas;
use crate::ui::theme::Theme;

/// Where along an edge (from its holder) its label goes: the two directions of a pair
/// land apart.
const LABEL_AT: f64 = 0.3;

pub fn render(
    frame: &mut Frame,
    areas: &Areas,
    e: &EmergenceUi,
    graph: &GardenGraph,
    selected: &str,
    theme: &Theme,
) {
    if e.relations.is_empty() {
        frame.render_widget(
            Paragraph::new(Line::styled(RELATIONS.empty, theme.muted)),
            areas.main_view,
        );
    } else {
        list(frame, areas.main_view, e, theme);
    }
    if let Some(area) = areas.detail {
        // Below the list when the graph takes the right, else beside it.
        let borders = if areas.graph.is_some() {
            Borders::TOP
        } else {
            Borders::LEFT
        };
        let block = Block::default().borders(borders).border_style(theme.border);
        let inner = block.inner(area);
        frame.render_widget(block, area);
        let inner = Rect {
            x: inner.x.saturating_add(1),
            width: inner.width.saturating_sub(1),
            ..inner
        };
        doc::render(frame, inner, &e.history, e.history_anchor, "", theme);
    }
    if let Some(area) = areas.graph {
        draw_graph(frame, area, graph, selected, theme);
    }
}

fn list(frame: &mut Frame, area: Rect, e: &EmergenceUi, theme: &Theme) {
    let rows = e.relations.iter().map(|row| &row.line);
    doc::selectable_list(frame, area, rows, e.selected_agent(), theme);
}

/// The garden's graph in `area` (with a left border and a title); `selected` is the
/// creature shown.
fn draw_graph(frame: &mut Frame, area: Rect, graph: &GardenGraph, selected: &str, theme: &Theme) {
    let left_out = if graph.left_out > 0 {
        format!(" · {} not drawn", graph.left_out)
    } else {
        String::new()
    };
    let block = Block::default()
        .borders(Borders::LEFT)
        .border_style(theme.border)
        .title(Line::from(vec![
            Span::styled(" The garden ", theme.title),
            Span::styled(format!("· who holds what of whom{left_out} "), theme.muted),
        ]));
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let n = graph.nodes.len();
    // On a circle, the first at the top, clockwise; one node in the middle.
    let at = |i: usize| -> (f64, f64) {
        if n <= 1 {
            return (0.0, 0.0);
        }
        let angle = TAU * i as f64 / n as f64;
        (angle.sin(), angle.cos())
    };
    let colour = |style: Style| style.fg.unwrap_or(Color::Reset);
    let canvas = Canvas::default()
        .marker(Marker::Braille)
        .x_bounds([-1.4, 1.4])
        .y_bounds([-1.25, 1.25])
        .paint(|ctx| {
            for edge in &graph.edges {
                let ((x1, y1), (x2, y2)) = (at(edge.from), at(edge.to));
                ctx.draw(&Edge {
                    x1,
                    y1,
                    x2,
                    y2,
                    color: colour(trust_style(edge.trust, theme)),
                });
            }
            ctx.layer();
            for edge in &graph.edges {
                let ((x1, y1), (x2, y2)) = (at(edge.from), at(edge.to));
                if let Some(kind) = &edge.kind {
                    ctx.print(
                        x1 + (x2 - x1) * LABEL_AT,
                        y1 + (y2 - y1) * LABEL_AT,
                        Span::styled(kind.clone(), trust_style(edge.trust, theme)),
                    );
                }
            }
            for (i, node) in graph.nodes.iter().enumerate() {
                let (x, y) = at(i);
                let style = if node.name == selected {
                    theme.accent
                } else if node.in_garden {
                    theme.title
                } else {
                    theme.muted
                };
                ctx.print(x, y, Span::styled(format!("● {}", node.name), style));
            }
        });
    frame.render_widget(canvas, inner);
}
