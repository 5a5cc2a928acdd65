//! The plans view's document at the app's clock: the to-dos (overdue first, then by due
//! time; done ones after), the calendar as an agenda of the next days with recurrences
//! expanded (bounded), and every event with its next occurrence.

use chrono::{DateTime, Days, Utc};
use ratatui::text::{Line, Span};

use super::figures::{stamp, text_under};
use crate::genomes::emergence::memory::EmergenceMemory;
use crate::genomes::emergence::memory::todos::{Due, Todo};
use crate::ui::doc::DocLine;
use crate::ui::draw::fmt::duration;
use crate::ui::prepare::inert;
use crate::ui::prepare::items::ItemDoc;
use crate::ui::theme::Theme;

/// Days the agenda covers from the clock.
pub const AGENDA_DAYS: u64 = 14;
/// Occurrences the agenda lists at most.
pub const AGENDA_MAX: usize = 200;
/// Done to-dos listed, the latest done.
const DONE_SHOWN: usize = 50;
/// Columns before a to-do's description.
const TEXT_COLUMN: u16 = 10;

pub fn prepare(m: &EmergenceMemory, now: DateTime<Utc>, theme: &Theme) -> ItemDoc {
    let mut doc = ItemDoc::default();
    todos(&mut doc, m, now, theme);
    agenda(&mut doc, m, now, theme);
    events(&mut doc, m, now, theme);
    doc
}

fn title(doc: &mut ItemDoc, text: &str, extra: String, theme: &Theme) {
    if !doc.lines.is_empty() {
        doc.lines.push(DocLine::hard(Line::default()));
    }
    doc.lines.push(DocLine::word(
        Line::from(vec![
            Span::styled(text.to_string(), theme.title),
            Span::styled(extra, theme.muted),
        ]),
        2,
    ));
}

fn todos(doc: &mut ItemDoc, m: &EmergenceMemory, now: DateTime<Utc>, theme: &Theme) {
    let t = &m.todos;
    let overdue = t.overdue(now);
    let overdue = if overdue > 0 {
        format!(" ({overdue} overdue)")
    } else {
        String::new()
    };
    title(
        doc,
        "To-dos",
        format!(" · {} open{overdue} · {} done", t.open(), t.done()),
        theme,
    );
    let mut open: Vec<&Todo> = t.all().filter(|t| !t.is_done()).collect();
    // Overdue first, then by due time, then those without one, in the order added.
    open.sort_by_key(|t| (t.due.is_none(), t.due.map(Due::deadline)));
    let mut done: Vec<&Todo> = t.all().filter(|t| t.is_done()).collect();
    done.sort_by_key(|t| std::cmp::Reverse(t.done_at));
    if open.is_empty() && done.is_empty() {
        doc.lines
            .push(DocLine::word(Line::styled("  none", theme.muted), 2));
    }
    for todo in open
        .iter()
        .copied()
        .chain(done.iter().copied().take(DONE_SHOWN))
    {
        self::todo(doc, todo, now, theme);
    }
}

fn todo(doc: &mut ItemDoc, todo: &Todo, now: DateTime<Utc>, theme: &Theme) {
    doc.item(crate::genomes::emergence::memory::TODOS, &[todo.line]);
    let overdue = todo.overdue(now);
    let (mark, mark_style) = match (todo.is_done(), overdue) {
        (true, _) => ("✓", theme.grn),
        (false, true) => ("!", theme.red),
        (false, false) => ("○", theme.ylw),
    };
    let title_style = if todo.is_done() {
        theme.muted
    } else {
        theme.base
    };
    let mut head = vec![
        Span::styled(format!("  {mark} "), mark_style),
        Span::styled(format!("{:<5} ", inert(&todo.id)), theme.accent),
        Span::styled(inert(&todo.title), title_style),
    ];
    if let Some(p) = &todo.priority {
        let style = match p.as_str() {
            "high" => theme.red,
            "medium" => theme.ylw,
            _ => theme.muted,
        };
        head.push(Span::styled(format!("  {}", inert(p)), style));
    }
    if let Some(due) = todo.due {
        let when = match due {
            Due::Date(d) => d.format("%m-%d").to_string(),
            Due::At(t) => stamp(Some(t)),
        };
        head.push(Span::styled(format!("  due {when}"), theme.muted));
        let left = (due.deadline() - now).num_seconds();
        if overdue {
            head.push(Span::styled(
                format!("  overdue {}", duration(-left)),
                theme.red,
            ));
        } else if !todo.is_done() {
            head.push(Span::styled(
                format!("  in {}", duration(left)),
                theme.muted,
            ));
        }
    }
    if todo.is_done() {
        head.push(Span::styled(
            format!("  done {}", stamp(todo.done_at)),
            theme.grn,
        ));
    }
    doc.lines.push(DocLine::hanging(Line::from(head), 2));
    if let Some(text) = &todo.description {
        let indent = vec![Span::raw(" ".repeat(usize::from(TEXT_COLUMN)))];
        doc.lines.extend(text_under(indent, text, theme.muted));
    }
}

fn agenda(doc: &mut ItemDoc, m: &EmergenceMemory, now: DateTime<Utc>, theme: &Theme) {
    let to = now
        .checked_add_days(Days::new(AGENDA_DAYS))
        .unwrap_or(DateTime::<Utc>::MAX_UTC);
    let look = m.calendar.agenda(now, to, AGENDA_MAX);
    let occurrences = look.found;
    let mut more = if occurrences.len() == AGENDA_MAX {
        format!(" · the first {AGENDA_MAX} shown")
    } else {
        String::new()
    };
    if look.not_within_bound > 0 {
        more.push_str(&format!(
            " · {} whose rule finds nothing within the search bound",
            look.not_within_bound
        ));
    }
    if look.not_searched > 0 {
        more.push_str(&format!(
            " · {} not searched (the search budget was spent)",
            look.not_searched
        ));
    }
    title(
        doc,
        "Agenda",
        format!(
            " · the next {AGENDA_DAYS} days from {}, recurrences expanded{more}",
            stamp(Some(now))
        ),
        theme,
    );
    if occurrences.is_empty() {
        doc.lines.push(DocLine::word(
            Line::styled("  nothing planned", theme.muted),
            2,
        ));
    }
    let mut day = None;
    for o in occurrences {
        let date = o.at.date_naive();
        if day != Some(date) {
            day = Some(date);
            doc.lines.push(DocLine::hard(Line::from(Span::styled(
                format!("  {}", date.format("%a %Y-%m-%d")),
                theme.header,
            ))));
        }
        doc.item(crate::genomes::emergence::memory::CALENDAR, &[o.event.line]);
        let mut spans = vec![
            Span::styled(format!("    {}  ", o.at.format("%H:%M")), theme.accent),
            Span::styled(inert(&o.event.description), theme.base),
        ];
        if let Some(place) = &o.event.location {
            spans.push(Span::styled(format!("  @ {}", inert(place)), theme.muted));
        }
        if o.event.repeats() {
            spans.push(Span::styled(
                format!("  ↻ {}", inert(o.event.recurrence.label())),
                theme.dream,
            ));
        }
        doc.lines.push(DocLine::hanging(Line::from(spans), 1));
    }
}

fn events(doc: &mut ItemDoc, m: &EmergenceMemory, now: DateTime<Utc>, theme: &Theme) {
    let c = &m.calendar;
    title(
        doc,
        "Calendar",
        format!(" · {} events · {} removed", c.len(), c.removed),
        theme,
    );
    for (event, next) in c.with_next(now) {
        doc.item(crate::genomes::emergence::memory::CALENDAR, &[event.line]);
        let next = match next.at() {
            Some(t) => format!("  next {}", stamp(Some(t))),
            None => format!("  {}", next.label()),
        };
        let mut spans = vec![
            Span::styled(format!("  {:<5} ", inert(&event.id)), theme.accent),
            Span::styled(
                format!(
                    "{} from {}  ",
                    inert(event.recurrence.label()),
                    stamp(Some(event.at))
                ),
                theme.dream,
            ),
            Span::styled(inert(&event.description), theme.base),
            Span::styled(next, theme.muted),
        ];
        if let Some(e) = &event.recurrence_error {
            spans.push(Span::styled(
                format!("  (not a recurrence: {}; shown once)", inert(e)),
                theme.ylw,
            ));
        }
        doc.lines.push(DocLine::hanging(Line::from(spans), 1));
    }
}
