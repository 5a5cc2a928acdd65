//! Where everything goes on screen: the panes for a terminal size, the overlays, the
//! main pane's tabs and the garden list's rows. Pure functions, used by drawing, by
//! scrolling (page sizes) and by the mouse (what was clicked).

use ratatui::layout::{Constraint, Layout, Position, Rect};
use unicode_width::UnicodeWidthStr;

use super::doc::scroll::Viewport;
use super::focus::{MainView, Pane, ViewLayout};
use super::input::action::Action;
use super::input::keymap::Keymap;

/// Rows of the dreams timeline strip: axis labels, the strip, the cursor.
pub const TIMELINE_ROWS: u16 = 3;
/// Rows of a gauge over a view (the evennia journal's: the gauge and the counts, then a
/// rule).
pub const GAUGE_ROWS: u16 = 3;
/// A view with a graph draws it from this many columns and rows of text.
pub const GRAPH_MIN_WIDTH: u16 = 76;
pub const GRAPH_MIN_HEIGHT: u16 = 14;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Areas {
    /// The garden list (with its border); hidden on narrow terminals.
    pub garden: Option<Rect>,
    /// The selected creature's header (with its border).
    pub header: Rect,
    /// The main view (with its border).
    pub main: Rect,
    /// The text area of the main view (for dreams and a genome's list view: the list).
    pub main_view: Rect,
    /// Dreams only: the timeline strip.
    pub timeline: Option<Rect>,
    /// Dreams: the selected dream; a genome's list view: the selected row's detail (an
    /// entity's profile, an agent's history).
    pub detail: Option<Rect>,
    /// A genome's view with a graph (the relations), where the terminal is large enough.
    pub graph: Option<Rect>,
    /// A genome's view with a gauge (the journal's importance) above its document.
    pub gauge: Option<Rect>,
    /// Priorities and rules (with its border); hidden on narrow terminals.
    pub side: Option<Rect>,
    pub status: Rect,
    pub hints: Rect,
}

fn inner(r: Rect) -> Rect {
    Rect {
        x: r.x.saturating_add(1),
        y: r.y.saturating_add(1),
        width: r.width.saturating_sub(2),
        height: r.height.saturating_sub(2),
    }
}

impl Areas {
    pub fn compute(area: Rect, view: MainView) -> Self {
        let [body, status, hints] = Layout::vertical([
            Constraint::Min(0),
            Constraint::Length(1),
            Constraint::Length(1),
        ])
        .areas(area);
        let (garden, right) = if area.width >= 70 {
            let w = (area.width / 4).clamp(26, 34);
            let [g, r] =
                Layout::horizontal([Constraint::Length(w), Constraint::Min(0)]).areas(body);
            (Some(g), r)
        } else {
            (None, body)
        };
        let [header, rest] =
            Layout::vertical([Constraint::Length(4), Constraint::Min(0)]).areas(right);
        let (main, side) = if right.width >= 90 {
            let w = (right.width / 4).clamp(28, 44);
            let [m, s] =
                Layout::horizontal([Constraint::Min(0), Constraint::Length(w)]).areas(rest);
            (m, Some(s))
        } else {
            (rest, None)
        };
        let text = inner(main);
        let (mut main_view, mut timeline, mut detail, mut gauge) = (text, None, None, None);
        let mut graph = None;
        match view {
            MainView::Dreams => {
                let below = text.height.saturating_sub(TIMELINE_ROWS);
                let list_h = (below / 2).max(3).min(below);
                let [t, l, d] = Layout::vertical([
                    Constraint::Length(TIMELINE_ROWS),
                    Constraint::Length(list_h),
                    Constraint::Min(0),
                ])
                .areas(text);
                (main_view, timeline, detail) = (l, Some(t), Some(d));
            }
            MainView::Own(own) => match own.layout {
                ViewLayout::Text => {}
                ViewLayout::Gauge => {
                    let [g, l] =
                        Layout::vertical([Constraint::Length(GAUGE_ROWS), Constraint::Min(0)])
                            .areas(text);
                    (main_view, gauge) = (l, Some(g));
                }
                ViewLayout::ListGraph { width }
                    if text.width >= GRAPH_MIN_WIDTH && text.height >= GRAPH_MIN_HEIGHT =>
                {
                    let w = (text.width * 9 / 20).max(width);
                    let [left, g] =
                        Layout::horizontal([Constraint::Length(w), Constraint::Min(0)]).areas(text);
                    let list_h = (left.height * 2 / 5).max(3);
                    let [l, d] = Layout::vertical([Constraint::Length(list_h), Constraint::Min(0)])
                        .areas(left);
                    (main_view, detail, graph) = (l, Some(d), Some(g));
                }
                ViewLayout::List { width } | ViewLayout::ListGraph { width } => {
                    let w = (text.width * 9 / 20).clamp(16, width).min(text.width);
                    let [l, d] =
                        Layout::horizontal([Constraint::Length(w), Constraint::Min(0)]).areas(text);
                    (main_view, detail) = (l, Some(d));
                }
            },
            _ => {}
        }
        Self {
            garden,
            header,
            main,
            main_view,
            timeline,
            detail,
            graph,
            gauge,
            side,
            status,
            hints,
        }
    }

    /// The text viewport of the main view.
    pub fn main_viewport(&self) -> Viewport {
        viewport(self.main_view)
    }

    /// The text viewport of the side panel, if shown.
    pub fn side_viewport(&self) -> Option<Viewport> {
        self.side.map(|s| viewport(inner(s)))
    }

    /// The text area inside the garden list's border.
    pub fn garden_inner(&self) -> Option<Rect> {
        self.garden.map(inner)
    }

    /// The pane under a screen position.
    pub fn pane_at(&self, column: u16, row: u16) -> Option<Pane> {
        let p = Position::new(column, row);
        if self.garden.is_some_and(|g| g.contains(p)) {
            Some(Pane::Garden)
        } else if self.side.is_some_and(|s| s.contains(p)) {
            Some(Pane::Side)
        } else if self.main.contains(p) || self.header.contains(p) {
            Some(Pane::Main)
        } else {
            None
        }
    }

    /// Panes that can take the focus, in order: the side panel always (on a narrow
    /// terminal it shows in the main pane's place while focused).
    pub fn panes(&self) -> Vec<Pane> {
        let mut panes = Vec::with_capacity(3);
        if self.garden.is_some() {
            panes.push(Pane::Garden);
        }
        panes.push(Pane::Main);
        panes.push(Pane::Side);
        panes
    }

    /// The side panel in the main pane's place (a narrow terminal, the side focused).
    pub fn side_over_main(self) -> Self {
        if self.side.is_some() {
            return self;
        }
        Self {
            side: Some(self.main),
            main: Rect::default(),
            main_view: Rect::default(),
            timeline: None,
            detail: None,
            graph: None,
            gauge: None,
            ..self
        }
    }
}

pub fn viewport(r: Rect) -> Viewport {
    Viewport {
        width: r.width,
        height: r.height,
    }
}

/// The text of the selected dream's detail (`detail` less its title rule).
pub fn dream_detail_text(detail: Rect) -> Rect {
    Rect {
        y: detail.y.saturating_add(1),
        height: detail.height.saturating_sub(1),
        ..detail
    }
}

/// Inner area of a bordered pane.
pub fn inside(r: Rect) -> Rect {
    inner(r)
}

/// A box of at most `width` x `height` centred on a screen of `area`, two cells clear of
/// each edge.
fn centred(area: Rect, width: u16, height: u16) -> Rect {
    let width = area.width.saturating_sub(4).min(width);
    let height = area.height.saturating_sub(4).min(height);
    Rect {
        x: area.x + (area.width - width) / 2,
        y: area.y + (area.height - height) / 2,
        width,
        height,
    }
}

/// Where the help overlay goes on a screen of `area`.
pub fn help(area: Rect) -> Rect {
    centred(area, 84, 40)
}

/// The text area inside the help overlay (for scrolling).
pub fn help_viewport(area: Rect) -> Viewport {
    viewport(inner(help(area)))
}

/// Where the popup of a dream held for review goes on a screen of `area`: as high as its
/// `lines` (a row or two more for the long ones that wrap), at most 36 rows.
pub fn review(area: Rect, lines: usize) -> Rect {
    let rows = u16::try_from(lines + 4).unwrap_or(u16::MAX).clamp(8, 36);
    centred(area, 100, rows)
}

/// The text area inside the review popup (for scrolling).
pub fn review_viewport(area: Rect, lines: usize) -> Viewport {
    viewport(inner(review(area, lines)))
}

/// Where the compare view goes on a screen of `area`: all of it but a margin.
pub fn compare(area: Rect) -> Rect {
    centred(area, u16::MAX, u16::MAX)
}

/// The text area inside the compare view (for scrolling).
pub fn compare_viewport(area: Rect) -> Viewport {
    viewport(inner(compare(area)))
}

/// Where the list of creatures to compare with goes: as high as its `rows`.
pub fn compare_pick(area: Rect, rows: usize) -> Rect {
    let height = u16::try_from(rows + 2).unwrap_or(u16::MAX).clamp(3, 24);
    centred(area, 60, height)
}

/// Where the list of a search's hits goes on a screen of `area`.
pub fn hit_list(area: Rect) -> Rect {
    centred(area, 160, 40)
}

/// The rows inside the hits list.
pub fn hit_list_viewport(area: Rect) -> Viewport {
    viewport(inner(hit_list(area)))
}

/// Where the message box goes on a screen of `area`.
pub fn message_box(area: Rect) -> Rect {
    centred(area, 90, 12)
}

/// Where a popup of `lines` rows (a menu, a form) at most `width` wide goes on a screen
/// of `area`.
pub fn small_popup(area: Rect, width: u16, lines: usize) -> Rect {
    centred(area, width, u16::try_from(lines + 2).unwrap_or(u16::MAX))
}

/// Between two tabs in the main pane's title.
pub const TAB_SEPARATOR: &str = " │ ";

/// Each offered view's tab label in a main pane `width` columns wide: its first key and
/// its title (`1 Observations`); where they do not all fit, the views not shown give only
/// their key (`1 Observations │ 2 │ 3`).
pub fn tab_labels(
    keymap: &Keymap,
    views: &[MainView],
    shown: MainView,
    width: u16,
) -> Vec<(MainView, String)> {
    let key = |view: MainView| keymap.first(Action::show(view)).map(|k| k.to_string());
    let full: Vec<(MainView, String)> = views
        .iter()
        .map(|&view| {
            let label = match key(view) {
                Some(k) => format!("{k} {}", view.title()),
                None => view.title().to_string(),
            };
            (view, label)
        })
        .collect();
    // The corners, a space either side, and the separators.
    let needed = 4
        + full.iter().map(|(_, l)| l.width()).sum::<usize>()
        + TAB_SEPARATOR.width() * full.len().saturating_sub(1);
    if needed <= usize::from(width) {
        return full;
    }
    full.into_iter()
        .map(|(view, label)| match key(view) {
            Some(k) if view != shown => (view, k),
            _ => (view, label),
        })
        .collect()
}

/// The view whose tab is at a screen position (the main pane's top border).
pub fn tab_at(
    keymap: &Keymap,
    views: &[MainView],
    shown: MainView,
    main: Rect,
    column: u16,
    row: u16,
) -> Option<MainView> {
    if row != main.y {
        return None;
    }
    // The title starts after the corner and one space.
    let mut x = main.x + 2;
    for (view, label) in tab_labels(keymap, views, shown, main.width) {
        let width = label.width() as u16;
        if (x..x + width).contains(&column) {
            return Some(view);
        }
        x += width + TAB_SEPARATOR.width() as u16;
    }
    None
}

/// Screen rows per creature in the garden list.
pub const ROWS_PER_CREATURE: u16 = 2;
/// Rows of the garden's column headers (one per row of a creature).
pub const GARDEN_HEADER_ROWS: u16 = ROWS_PER_CREATURE;
/// The garden list shows its column headers from this width and height on.
const GARDEN_HEADER_MIN: (u16, u16) = (22, 8);

/// The garden pane's text area split into column headers (where there is room) and the
/// list of creatures.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GardenList {
    pub header: Option<Rect>,
    pub list: Rect,
}

/// Splits the garden's text area `inner`: headers above the list when it is wide and high
/// enough for them and a few creatures.
pub fn garden_list(inner: Rect) -> GardenList {
    let (w, h) = GARDEN_HEADER_MIN;
    if inner.width < w || inner.height < h {
        return GardenList {
            header: None,
            list: inner,
        };
    }
    let [header, list] =
        Layout::vertical([Constraint::Length(GARDEN_HEADER_ROWS), Constraint::Min(0)]).areas(inner);
    GardenList {
        header: Some(header),
        list,
    }
}

/// The first creature shown in a garden list `height` rows high so that the selected one
/// is visible.
pub fn first_shown(selected: Option<usize>, count: usize, height: u16) -> usize {
    let fits = usize::from((height / ROWS_PER_CREATURE).max(1));
    let sel = selected.unwrap_or(0);
    if count <= fits {
        0
    } else {
        (sel + 1).saturating_sub(fits).min(count - fits)
    }
}

/// The index of the creature whose rows hold screen row `row` of the garden list `list`,
/// the selected one being `selected` of `count`.
pub fn creature_at(list: Rect, selected: Option<usize>, count: usize, row: u16) -> Option<usize> {
    if row < list.y {
        return None;
    }
    let top = first_shown(selected, count, list.height);
    Some(top + usize::from((row - list.y) / ROWS_PER_CREATURE))
}

/// The first row the dreams list shows, of `n` dreams newest first (row r is dream
/// n-1-r) in `height` rows: the selected one stays on screen.
pub fn first_dream_row(n: usize, selected: Option<usize>, height: usize) -> usize {
    let sel_row = selected.map_or(0, |i| n.saturating_sub(1 + i));
    (sel_row + 1).saturating_sub(height)
}

/// The dream at screen `row` of the dreams list in `area`, if a dream is there.
pub fn dream_at(area: Rect, n: usize, selected: Option<usize>, row: u16) -> Option<usize> {
    let offset = usize::from(row.checked_sub(area.y).filter(|r| *r < area.height)?);
    let r = first_dream_row(n, selected, usize::from(area.height)) + offset;
    (r < n).then(|| n - 1 - r)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::focus::test_views;

    #[test]
    fn wide_terminals_show_every_pane_and_narrow_ones_drop_the_sides() {
        let wide = Areas::compute(Rect::new(0, 0, 200, 60), MainView::Observations);
        assert_eq!(wide.panes(), [Pane::Garden, Pane::Main, Pane::Side]);
        assert!(wide.side.is_some());
        assert_eq!(wide.hints.y, 59);
        let narrow = Areas::compute(Rect::new(0, 0, 60, 20), MainView::Observations);
        assert_eq!(narrow.panes(), [Pane::Main, Pane::Side]);
        assert_eq!(narrow.main_view.width, 58);
        assert_eq!(narrow.side, None);
        let swapped = narrow.side_over_main();
        assert_eq!(swapped.side, Some(narrow.main));
        assert_eq!(swapped.main_view.width, 0);
        assert_eq!(wide.side_over_main(), wide);
        let dreams = Areas::compute(Rect::new(0, 0, 120, 40), MainView::Dreams);
        assert_eq!(dreams.timeline.map(|t| t.height), Some(TIMELINE_ROWS));
        assert!(dreams.detail.is_some_and(|d| d.height > 0));
        let journal = Areas::compute(Rect::new(0, 0, 120, 40), test_views::FIRST);
        assert_eq!(journal.gauge.map(|g| g.height), Some(GAUGE_ROWS));
        let entities = Areas::compute(Rect::new(0, 0, 120, 40), test_views::SECOND);
        let (list, profile) = (entities.main_view, entities.detail.unwrap());
        assert_eq!(list.x + list.width, profile.x);
    }

    #[test]
    fn the_selection_stays_in_view() {
        assert_eq!(first_shown(Some(0), 20, 10), 0);
        assert_eq!(first_shown(Some(4), 20, 10), 0);
        assert_eq!(first_shown(Some(5), 20, 10), 1);
        assert_eq!(first_shown(Some(19), 20, 10), 15);
        assert_eq!(first_shown(Some(3), 3, 10), 0);
        assert_eq!(first_shown(None, 3, 0), 0);
    }

    #[test]
    fn tabs_are_found_where_their_labels_are_drawn() {
        let keymap = Keymap::default();
        let main = Rect::new(10, 4, 80, 20);
        let views = crate::ui::focus::test_views::OBSERVATIONS_FIRST;
        let shown = MainView::Observations;
        // ` 1 Observations │ 2 Dreams`, after the corner.
        assert_eq!(
            tab_at(&keymap, views, shown, main, 12, 4),
            Some(MainView::Observations)
        );
        assert_eq!(tab_at(&keymap, views, shown, main, 27, 4), None);
        assert_eq!(
            tab_at(&keymap, views, shown, main, 30, 4),
            Some(MainView::Dreams)
        );
        assert_eq!(tab_at(&keymap, views, shown, main, 12, 5), None);
        // ` 1 Journal │ 2 Entities`.
        let views = test_views::OWN_FIRST;
        assert_eq!(
            tab_at(&keymap, views, test_views::FIRST, main, 25, 4),
            Some(test_views::SECOND)
        );
        // Too narrow for every title: ` 1 │ 2 Dreams │ 3 │ 4 │ 6`, the shown view's whole.
        let narrow = Rect::new(10, 4, 30, 20);
        let views = crate::ui::focus::test_views::OBSERVATIONS_FIRST;
        let labels: Vec<String> = tab_labels(&keymap, views, MainView::Dreams, narrow.width)
            .into_iter()
            .map(|(_, l)| l)
            .collect();
        assert_eq!(labels, ["1", "2 Dreams", "3", "4", "6"]);
        assert_eq!(
            tab_at(&keymap, views, MainView::Dreams, narrow, 17, 4),
            Some(MainView::Dreams)
        );
    }

    #[test]
    fn tiny_terminals_do_not_panic() {
        for (w, h) in [(0, 0), (1, 1), (10, 3), (69, 5)] {
            for view in [MainView::Dreams, test_views::FIRST, test_views::SECOND] {
                let a = Areas::compute(Rect::new(0, 0, w, h), view);
                assert!(a.main_view.width <= w);
            }
        }
    }
}
