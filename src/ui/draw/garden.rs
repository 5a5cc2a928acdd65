//! The garden list: every creature, its status, fatigue, dreams and last activity (or its
//! genome's figures, where it has a column of its own).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};
use unicode_width::UnicodeWidthStr;

use super::fmt::{self, Part, truncate};
use super::pane;
use crate::ui::focus::Pane;
use crate::ui::genome::{self, GardenColumn, GardenCx};
use crate::ui::input::action::Action;
use crate::ui::layout::{first_shown, garden_list};
use crate::ui::state::creature::CreatureUi;
use crate::ui::state::garden::GardenSort;
use crate::ui::state::health::Attention;
use crate::ui::state::remote::RemoteLink;
use crate::ui::state::{App, Steps};

pub fn render(frame: &mut Frame, area: Rect, app: &App) {
    let theme = &app.theme;
    let order = app.garden_order();
    let block = pane::block(theme, app.pane == Pane::Garden).title(Span::styled(
        title(app, order.len(), area.width),
        theme.title,
    ));
    let inner = block.inner(area);
    frame.render_widget(block, area);
    if app.creatures.is_empty() {
        let mut lines = far_gardens(app);
        if lines.is_empty() {
            lines = vec![
                Line::styled("No creatures yet.", theme.muted),
                Line::styled("They appear here as soon", theme.muted),
                Line::styled("as their directory does.", theme.muted),
            ];
        }
        frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), inner);
        return;
    }
    let split = garden_list(inner);
    if let Some(header) = split.header {
        frame.render_widget(Paragraph::new(headers(app, header.width)), header);
    }
    let inner = split.list;
    if order.is_empty() {
        let clear = app.keymap.mention(Action::ClearFilter, "{} shows them all");
        frame.render_widget(
            Paragraph::new(vec![
                Line::styled("No creature matches.", theme.muted),
                Line::styled(clear, theme.muted),
            ]),
            inner,
        );
        return;
    }
    let shared = app.shared_names();
    let selected = app.selected_index();
    let first = first_shown(selected, order.len(), inner.height);
    let mut lines = Vec::new();
    for (i, path) in order.iter().enumerate().skip(first) {
        if lines.len() + 2 > usize::from(inner.height) {
            break;
        }
        let Some(ui) = app.creatures.get(path) else {
            continue;
        };
        let dir = shared
            .contains(&ui.name)
            .then(|| path.file_name())
            .flatten()
            .map(|d| crate::ui::prepare::inert(&d.to_string_lossy()));
        let cost = super::openseed::garden_cost(app, path)
            .or_else(|| super::cost::garden_part(app, path, ui));
        // A far creature whose connection is not up: its copy may be stale.
        let far = app.remote_of(path).and_then(|r| r.mark());
        // Whom it just wrote to, for a while.
        let sent = app
            .garden
            .creature(path)
            .and_then(|m| app.talk.fresh_recipient(m.name(), app.clock()));
        let marks = Marks {
            dir: dir.as_deref(),
            cost,
            far,
            sent,
        };
        let [a, b] = rows(ui, i + 1, marks, app, inner.width);
        let style = if Some(i) == selected {
            theme.selection
        } else {
            ratatui::style::Style::default()
        };
        lines.push(a.patch_style(style));
        lines.push(b.patch_style(style));
    }
    frame.render_widget(Paragraph::new(lines), inner);
}

/// ` Garden · 5 ` unfiltered by name; else what is shown of all, the filter, the sort;
/// what the garden cost today where `width` leaves room.
fn title(app: &App, shown: usize, width: u16) -> String {
    let all = app.creatures.len();
    let view = &app.garden_view;
    let mut title = if view.filters() {
        format!(" Garden {shown}/{all} /{}", view.filter.trim())
    } else {
        format!(" Garden · {all}")
    };
    if view.sort != GardenSort::Name {
        title.push_str(&format!(" · by {}", view.sort.label()));
    }
    if let Some(cost) = super::cost::garden_title(app)
        .filter(|c| title.width() + c.width() + 3 <= usize::from(width))
    {
        title.push_str(&cost);
    }
    title.push(' ');
    title
}

/// The column headers over the two rows of each creature; the sorted column is marked.
fn headers(app: &App, width: u16) -> Vec<Line<'static>> {
    let style = app.theme.muted;
    let sort = app.garden_view.sort;
    let name = |label: &str, by: GardenSort| {
        if sort == by {
            format!("{label}▾")
        } else {
            label.to_string()
        }
    };
    // A row shows the cycle's fatigue and dreams, or its genome's column: a mixed
    // garden's header names each.
    let (load, count) = column_header(app);
    let load = load.as_str();
    let width = usize::from(width);
    let first_left = format!("  {}", name("name", GardenSort::Name));
    let first_right = name("status", GardenSort::Status);
    let pad = width.saturating_sub(first_left.width() + first_right.width());
    let mut second = format!(
        "# {:<11}{count:<4}{}",
        name(load, GardenSort::Fatigue),
        name("last", GardenSort::Activity)
    );
    if let Some(cells) = spark_column(app, width) {
        second = format!(
            "# {:<11}{count:<4} {:<cells$} {}",
            name(load, GardenSort::Fatigue),
            "activity",
            name("last", GardenSort::Activity)
        );
    }
    let cost = format!("    {}", name("cost", GardenSort::Cost));
    if costs_shown(app) && second.width() + cost.width() <= width {
        second.push_str(&cost);
    }
    vec![
        Line::styled(
            format!("{first_left}{}{first_right}", " ".repeat(pad)),
            style,
        ),
        Line::styled(truncate(&second, width), style),
    ]
}

/// A row for each far garden while none of its creatures is here yet: whether it is
/// connecting, or why it is not followed (a garden that failed is not an empty one).
fn far_gardens(app: &App) -> Vec<Line<'static>> {
    let theme = &app.theme;
    app.remotes
        .values()
        .map(|r| {
            let (state, style) = match &r.link {
                RemoteLink::Connecting => ("connecting…".to_string(), theme.muted),
                RemoteLink::Up => ("connected: no creatures there yet".to_string(), theme.muted),
                RemoteLink::Down {
                    error, retry_in, ..
                } => (
                    format!(
                        "⚡ {error} (tried again in {})",
                        fmt::duration(retry_in.as_secs() as i64)
                    ),
                    theme.error,
                ),
                RemoteLink::Refused { error } => (format!("⚡ not followed: {error}"), theme.error),
            };
            Line::from(vec![
                Span::styled(format!("{} ", r.place), theme.accent),
                Span::styled(state, style),
            ])
        })
        .collect()
}

/// The garden column a creature's row shows: its genome's, else the cycle's fatigue and
/// dreams (`None`).
fn column_of(ui: &CreatureUi) -> Option<&'static GardenColumn> {
    ui.own.as_ref()?;
    genome::of(&ui.genome).garden.as_ref()
}

/// The header of the column of figures, and of their counts: one column's own; two
/// columns' short headers; three or more, `load`.
fn column_header(app: &App) -> (String, String) {
    let columns = app.garden_columns(|| {
        let mut columns: Vec<&'static GardenColumn> = Vec::new();
        if app.creatures.values().any(|u| column_of(u).is_none()) {
            columns.push(&genome::FATIGUE);
        }
        for g in genome::installed() {
            if let Some(column) = &g.garden
                && app
                    .creatures
                    .values()
                    .any(|u| column_of(u).is_some_and(|c| std::ptr::eq(c, column)))
            {
                columns.push(column);
            }
        }
        columns.into()
    });
    match &*columns {
        [] => (
            genome::FATIGUE.label.to_string(),
            genome::FATIGUE.glyph.to_string(),
        ),
        [one] => (one.label.to_string(), one.glyph.to_string()),
        [a, b] => (
            format!("{}/{}", a.short, b.short),
            format!("{}{}", a.glyph, b.glyph),
        ),
        all => ("load".to_string(), all.iter().map(|c| c.glyph).collect()),
    }
}

/// Cells of the activity column.
const SPARK_CELLS: usize = 8;
/// The garden list is this wide, or wider, where it shows the activity column (after the
/// row number, the gauge and the dreams; the last activity then reads short: `7m`).
const SPARK_MIN_WIDTH: usize = 32;

/// Whether the garden has a cost column.
fn costs_shown(app: &App) -> bool {
    app.garden_cost_today().is_some() || app.garden_view.sort == GardenSort::Cost
}

/// The cells of the activity column where the list is wide enough for it (beside the
/// cost column where there is one): the same for every row, so the headers stay over it.
fn spark_column(app: &App, width: usize) -> Option<usize> {
    let cost = if costs_shown(app) { 8 } else { 0 };
    (width >= SPARK_MIN_WIDTH + cost).then_some(SPARK_CELLS)
}

/// What a row says beside the creature's own summary.
struct Marks<'a> {
    /// Its directory, where its name is not unique.
    dir: Option<&'a str>,
    /// What it spent today.
    cost: Option<Part>,
    /// What a far creature is marked with while its connection is not up (said first).
    far: Option<&'static str>,
    /// Whom it wrote to in the last seconds (inert).
    sent: Option<String>,
}

/// The two rows of the `number`th creature.
fn rows(ui: &CreatureUi, number: usize, marks: Marks, app: &App, width: u16) -> [Line<'static>; 2] {
    let Marks {
        dir,
        cost,
        far,
        sent,
    } = marks;
    let theme = &app.theme;
    let s = &ui.summary;
    let (glyph, mut style) = fmt::status_glyph(&s.status, theme);
    // Failing, stalled, runner gone: said instead of the status, marked, never "awake".
    let (status, mark, mark_style) = match (far, ui.health.label(), &ui.review) {
        (Some(far), ..) => {
            style = theme.error;
            (far.to_string(), "⚡ ", theme.error)
        }
        (None, Some(label), _) => {
            style = theme.error;
            (label.to_string(), "⚠ ", theme.error)
        }
        // Held asleep by a guardrail until a person wakes it.
        (None, None, _) if ui.held.is_some() => {
            style = theme.dream;
            let held = ui.held.clone().unwrap_or_default();
            (held, "⊘ ", theme.dream)
        }
        // A dream held for review: how long before it applies itself.
        (None, None, Some(review)) => {
            style = theme.dream;
            let left = review
                .left(app.clock().at())
                .map_or_else(|| "(never)".to_string(), fmt::duration);
            (format!("review {left}"), "◷ ", theme.dream)
        }
        (None, None, None) => (app.clock().status_text(&s.status), "", theme.error),
    };
    // Something arrived while it was not selected.
    let (news, news_style) = match ui.attention {
        Some(Attention::Dream | Attention::Review) => (" ✱", theme.dream),
        Some(_) => (" ✱", theme.error),
        None => ("", theme.muted),
    };
    let width = usize::from(width);
    let room = width.saturating_sub(mark.width() + status.width() + news.width() + 3);
    let name = match dir {
        Some(dir) if dir != ui.name => truncate(&format!("{} ({dir})", ui.name), room),
        _ => truncate(&ui.name, room),
    };
    let pad = width.saturating_sub(2 + name.width() + news.width() + mark.width() + status.width());
    let first = Line::from(vec![
        Span::styled(glyph, style),
        Span::raw(" "),
        Span::styled(name, theme.title),
        Span::styled(news, news_style),
        Span::raw(" ".repeat(pad)),
        Span::styled(mark, mark_style),
        Span::styled(status, style),
    ]);
    let spark = spark_column(app, width);
    // With the activity column the count is padded to it.
    let cx = GardenCx {
        spark,
        now: app.clock(),
        theme,
    };
    // Its row number, for jumping to it (`/3`).
    let mut second = vec![Part::keep(Span::styled(
        format!("{number:<2}"),
        theme.muted,
    ))];
    match column_of(ui) {
        // Nothing of its files is known: no gauge to draw.
        None if ui.without_files => {
            let text = match spark {
                Some(cells) => format!("{:<w$}", "no files here", w = 16 + cells),
                None => "no files here".to_string(),
            };
            second.push(Part::keep(Span::styled(text, theme.muted)));
        }
        Some(_) => {
            if let Some(own) = &ui.own {
                second.extend(own.garden(&cx));
            }
        }
        None => {
            let (warning, limit) = (ui.cycle.fatigue_warning, ui.cycle.fatigue_limit);
            second.push(Part {
                drop: 0,
                spans: fmt::fatigue_bar(s.fatigue, warning, limit, 6, theme),
                short: None,
            });
            second.push(Part::keep(Span::styled(
                format!(" {:>2}", s.fatigue),
                fmt::fatigue_style(s.fatigue, warning, limit, theme),
            )));
            second.push(Part::keep(Span::styled(
                cx.count('☾', s.dreams),
                theme.dream,
            )));
        }
    }
    if let Some(cells) = spark.filter(|_| !ui.without_files) {
        // Coloured by fatigue where the row shows the fatigue gauge.
        let by_fatigue = column_of(ui).is_none();
        let mut spans = vec![Span::raw(" ")];
        spans.extend(super::spark::activity(ui, cells, by_fatigue, theme));
        second.push(Part {
            drop: 0,
            spans,
            short: None,
        });
    }
    // A narrow list keeps the time and loses the words: `1h26m`, `now`.
    let short = match s
        .last_activity
        .map(|t| app.clock().secs_since(t, Steps::Ago))
    {
        None => "-".to_string(),
        Some(secs) if secs < 60 => "now".to_string(),
        Some(secs) => fmt::duration(secs),
    };
    second.push(match sent {
        // It just wrote to another creature: said instead of its last activity.
        Some(to) => Part {
            drop: 1,
            spans: vec![Span::styled(format!("  → {to}"), theme.accent)],
            short: Some((2, vec![Span::styled(format!(" →{to}"), theme.accent)])),
        },
        // Under its header, the short form only.
        None if spark.is_some() => {
            Part::optional(2, Span::styled(format!(" {short}"), theme.muted))
        }
        None => Part {
            drop: 1,
            spans: vec![Span::styled(
                format!("  {}", app.clock().ago(s.last_activity)),
                theme.muted,
            )],
            short: Some((2, vec![Span::styled(format!(" {short}"), theme.muted)])),
        },
    });
    second.extend(cost);
    let second = fmt::fit(second, width);
    [first, second]
}
