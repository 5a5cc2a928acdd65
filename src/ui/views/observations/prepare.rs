//! Observations, prepared: one styled line per file line, then filtered and ordered.

use ratatui::text::{Line, Span};

use crate::memory::observations::{ObsItem, Observation, Priority};
use crate::ui::doc::DocLine;
use crate::ui::prepare::inert;
use crate::ui::theme::Theme;

/// Columns taken by `RED 17:32 `: continuation rows start here.
const TEXT_COLUMN: u16 = 10;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ObsKind {
    Header,
    Tagged(Priority),
    Prose,
}

/// One line of `observations.md`, styled.
#[derive(Debug, Clone, PartialEq)]
pub struct PreparedObs {
    /// 1-based line in the file.
    pub line_no: usize,
    pub kind: ObsKind,
    pub line: DocLine,
}

/// Which priorities are shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PriorityFilter {
    pub red: bool,
    pub ylw: bool,
    pub grn: bool,
}

impl Default for PriorityFilter {
    fn default() -> Self {
        Self {
            red: true,
            ylw: true,
            grn: true,
        }
    }
}

impl PriorityFilter {
    pub fn shows(&self, p: Priority) -> bool {
        match p {
            Priority::Red => self.red,
            Priority::Ylw => self.ylw,
            Priority::Grn => self.grn,
        }
    }

    pub fn toggle(&mut self, p: Priority) {
        match p {
            Priority::Red => self.red = !self.red,
            Priority::Ylw => self.ylw = !self.ylw,
            Priority::Grn => self.grn = !self.grn,
        }
    }
}

/// The filtered, ordered document and the file line of each of its lines.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ObsDoc {
    pub lines: Vec<DocLine>,
    pub line_nos: Vec<usize>,
}

/// Prepares file items (line number, item), as
/// [`Observations::items`](crate::memory::observations::Observations::items) holds them.
pub fn prepare_items(items: &[(usize, ObsItem)], theme: &Theme) -> Vec<PreparedObs> {
    items
        .iter()
        .filter_map(|(line_no, item)| {
            let (kind, line) = match item {
                ObsItem::Title => return None,
                ObsItem::Header { date, dream } => (ObsKind::Header, header(date, *dream, theme)),
                ObsItem::Observation(o) => (ObsKind::Tagged(o.priority), observation(o, theme)),
                ObsItem::Prose(text) => (
                    ObsKind::Prose,
                    DocLine::word(
                        Line::from(vec![
                            Span::raw("  "),
                            Span::styled(inert(text.trim()), theme.prose),
                        ]),
                        2,
                    ),
                ),
            };
            Some(PreparedObs {
                line_no: *line_no,
                kind,
                line,
            })
        })
        .collect()
}

fn header(date: &str, dream: Option<u32>, theme: &Theme) -> DocLine {
    let mut text = format!("── {}", inert(&date.replacen('T', " ", 1)));
    if let Some(n) = dream {
        text.push_str(&format!(" · dream #{n}"));
    }
    text.push_str(" ──");
    DocLine::word(Line::styled(text, theme.header), 3)
}

fn observation(o: &Observation, theme: &Theme) -> DocLine {
    let style = match o.priority {
        Priority::Red => theme.red,
        Priority::Ylw => theme.ylw,
        Priority::Grn => theme.grn,
    };
    let time = o.time.as_deref().map_or_else(|| "··:··".to_string(), inert);
    let mut spans = vec![
        Span::styled(o.priority.tag(), style),
        Span::raw(" "),
        Span::styled(time, theme.muted),
        Span::raw(" "),
    ];
    let text = inert(&o.text);
    if o.is_workflow() {
        let rest = text.strip_prefix("WORKFLOW:").unwrap_or(&text);
        spans.push(Span::styled("WORKFLOW", theme.workflow));
        spans.push(Span::styled(rest.to_string(), style));
    } else if o.is_creator_directive() {
        let rest = text.strip_prefix("Creator directive").unwrap_or(&text);
        spans.push(Span::styled("Creator directive", theme.directive));
        spans.push(Span::styled(rest.to_string(), style));
        spans.push(Span::styled("  (local time)", theme.muted));
    } else {
        spans.push(Span::styled(text, style));
    }
    if o.legacy {
        spans.push(Span::styled(
            if o.priority == Priority::Red {
                "  [!]"
            } else {
                "  [.]"
            },
            theme.muted,
        ));
    }
    DocLine::word(Line::from(spans), TEXT_COLUMN)
}

/// The line that says `older` items of the file are not kept (none when there are none).
pub fn older_note(older: usize, theme: &Theme) -> Option<DocLine> {
    (older > 0).then(|| {
        DocLine::word(
            Line::styled(
                format!(
                    "… {older} older line(s) of observations.md not kept here (counted in the header; search reads them)"
                ),
                theme.muted,
            ),
            2,
        )
    })
}

/// The document shown: filtered by priority, headers kept only where something under them
/// shows, and newest first (groups and lines reversed) or in file order. `older` (see
/// [`older_note`]) goes at the oldest end, with line number 0.
pub fn document(
    items: &[PreparedObs],
    filter: &PriorityFilter,
    newest_first: bool,
    older: Option<&DocLine>,
) -> ObsDoc {
    let mut groups: Vec<Vec<&PreparedObs>> = vec![Vec::new()];
    for item in items {
        if item.kind == ObsKind::Header {
            groups.push(vec![item]);
        } else if shows(item, filter)
            && let Some(g) = groups.last_mut()
        {
            g.push(item);
        }
    }
    groups.retain(|g| g.iter().any(|i| i.kind != ObsKind::Header));
    if newest_first {
        groups.reverse();
        for g in &mut groups {
            let body = if g.first().is_some_and(|i| i.kind == ObsKind::Header) {
                &mut g[1..]
            } else {
                &mut g[..]
            };
            body.reverse();
        }
    }
    let flat: Vec<&PreparedObs> = groups.into_iter().flatten().collect();
    let mut doc = ObsDoc {
        lines: flat.iter().map(|i| i.line.clone()).collect(),
        line_nos: flat.iter().map(|i| i.line_no).collect(),
    };
    if let Some(note) = older {
        let at = if newest_first { doc.lines.len() } else { 0 };
        doc.lines.insert(at, note.clone());
        doc.line_nos.insert(at, 0);
    }
    doc
}

/// Whether [`document`] shows `item` under `filter` (a header shows with what is under it).
fn shows(item: &PreparedObs, filter: &PriorityFilter) -> bool {
    match item.kind {
        ObsKind::Header => false,
        ObsKind::Tagged(p) => filter.shows(p),
        ObsKind::Prose => true,
    }
}

/// The newest group of a [`document`]: the last header and what follows it, where lines
/// appended to the file go ([`append`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Newest {
    /// Its header, an index of the items (none while the file has no header).
    header: Option<usize>,
    /// Whether something under it shows (and so its header does).
    shown: bool,
}

impl Newest {
    /// The newest group of `items` under `filter`.
    pub fn of(items: &[PreparedObs], filter: &PriorityFilter) -> Self {
        let header = items.iter().rposition(|i| i.kind == ObsKind::Header);
        let under = &items[header.map_or(0, |h| h + 1)..];
        Self {
            header,
            shown: under.iter().any(|i| shows(i, filter)),
        }
    }
}

/// Adds the items from `from` on (appended to the file) to `doc`, the [`document`] of the
/// items before them (the same filter and order) whose newest group is `newest`: `doc`
/// becomes the document of all of `items` without being made again (an observation
/// appended to a file of thousands costs its own lines, not a copy of every line).
pub fn append(
    doc: &mut ObsDoc,
    newest: &mut Newest,
    items: &[PreparedObs],
    from: usize,
    filter: &PriorityFilter,
    newest_first: bool,
) {
    // The groups the new items fall in, the newest group so far first: (header, shown
    // before, the new items that show).
    let mut groups: Vec<(Option<usize>, bool, Vec<usize>)> =
        vec![(newest.header, newest.shown, Vec::new())];
    for (i, item) in items.iter().enumerate().skip(from) {
        if item.kind == ObsKind::Header {
            groups.push((Some(i), false, Vec::new()));
        } else if shows(item, filter)
            && let Some(group) = groups.last_mut()
        {
            group.2.push(i);
        }
    }
    let after = groups
        .last()
        .map_or(*newest, |(header, was_shown, fresh)| Newest {
            header: *header,
            shown: *was_shown || !fresh.is_empty(),
        });
    if newest_first {
        groups.reverse();
    }
    let mut lines: Vec<usize> = Vec::new();
    for (header, was_shown, fresh) in &groups {
        // A header already in the document is taken out (newest first) or stays (in
        // file order): added only where it is not there.
        let shown = *was_shown || !fresh.is_empty();
        if let Some(h) = header.filter(|_| shown && (newest_first || !was_shown)) {
            lines.push(h);
        }
        if newest_first {
            lines.extend(fresh.iter().rev());
        } else {
            lines.extend(fresh);
        }
    }
    let new_lines = lines.iter().map(|&i| items[i].line.clone());
    let new_nos = lines.iter().map(|&i| items[i].line_no);
    if newest_first {
        // The newest group's header was the document's first line.
        let taken = usize::from(newest.shown && newest.header.is_some());
        doc.lines.splice(..taken, new_lines);
        doc.line_nos.splice(..taken, new_nos);
    } else {
        doc.lines.extend(new_lines);
        doc.line_nos.extend(new_nos);
    }
    *newest = after;
}

/// Takes out of `doc` the lines of the `dropped` oldest items of its document, no longer
/// kept, and moves `newest` onto `kept`, the items left: the document of those, without
/// being made again.
pub fn drop_oldest(
    doc: &mut ObsDoc,
    newest: &mut Newest,
    kept: &[PreparedObs],
    dropped: usize,
    filter: &PriorityFilter,
) {
    if dropped == 0 {
        return;
    }
    let first = kept.first().map_or(usize::MAX, |i| i.line_no);
    // The note of lines not kept (line 0) stays.
    let stays = |n: usize| n == 0 || n >= first;
    let mut stay = doc.line_nos.iter().map(|&n| stays(n));
    doc.lines.retain(|_| stay.next().unwrap_or(true));
    doc.line_nos.retain(|&n| stays(n));
    *newest = match newest.header.and_then(|h| h.checked_sub(dropped)) {
        // Its header kept, all under it is.
        Some(header) => Newest {
            header: Some(header),
            ..*newest
        },
        None => Newest::of(kept, filter),
    };
}

/// Puts `older` (see [`older_note`]) at the oldest end of `doc` in place of the note there.
pub fn set_older(doc: &mut ObsDoc, older: Option<&DocLine>, newest_first: bool) {
    let end = if newest_first {
        doc.lines.len().checked_sub(1)
    } else {
        (!doc.lines.is_empty()).then_some(0)
    };
    let at = end.filter(|&i| doc.line_nos.get(i) == Some(&0));
    match (at, older) {
        (Some(i), Some(note)) => doc.lines[i] = note.clone(),
        (Some(i), None) => {
            doc.lines.remove(i);
            doc.line_nos.remove(i);
        }
        (None, Some(note)) => {
            let i = if newest_first { doc.lines.len() } else { 0 };
            doc.lines.insert(i, note.clone());
            doc.line_nos.insert(i, 0);
        }
        (None, None) => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::observations::Observations;

    fn texts(doc: &ObsDoc) -> Vec<String> {
        doc.lines.iter().map(|l| l.line.to_string()).collect()
    }

    const FILE: &str = "# Observations\n\n## 2026-03-01\n\nRED 10:00 a\nYLW 10:01 b\n## 2026-03-02\nGRN 11:00 c\nprose here\nRED 11:02 WORKFLOW: check\n";

    #[test]
    fn file_order_and_newest_first() {
        let items = prepare_items(&Observations::parse(FILE).items, &Theme::default());
        let doc = document(&items, &PriorityFilter::default(), false, None);
        assert_eq!(
            texts(&doc),
            [
                "── 2026-03-01 ──",
                "RED 10:00 a",
                "YLW 10:01 b",
                "── 2026-03-02 ──",
                "GRN 11:00 c",
                "  prose here",
                "RED 11:02 WORKFLOW check",
            ]
        );
        assert_eq!(doc.line_nos[1], 5);
        let newest = document(&items, &PriorityFilter::default(), true, None);
        assert_eq!(
            texts(&newest),
            [
                "── 2026-03-02 ──",
                "RED 11:02 WORKFLOW check",
                "  prose here",
                "GRN 11:00 c",
                "── 2026-03-01 ──",
                "YLW 10:01 b",
                "RED 10:00 a",
            ]
        );
    }

    #[test]
    fn filters_drop_lines_and_empty_groups() {
        let items = prepare_items(
            &Observations::parse("## d1\nGRN 01:00 x\n## d2\nRED 10:00 y\n").items,
            &Theme::default(),
        );
        let filter = PriorityFilter {
            grn: false,
            ..PriorityFilter::default()
        };
        assert_eq!(
            texts(&document(&items, &filter, false, None)),
            ["── d2 ──", "RED 10:00 y"]
        );
    }

    #[test]
    fn legacy_directive_and_escapes() {
        let items = prepare_items(
            &Observations::parse(
                "[!] big\n[.] small\nRED 23:04 Creator directive: hi\nYLW 10:00 \u{1b}[2Jboom\n",
            )
            .items,
            &Theme::default(),
        );
        let doc = document(&items, &PriorityFilter::default(), false, None);
        assert_eq!(
            texts(&doc),
            [
                "RED ··:·· big  [!]",
                "GRN ··:·· small  [.]",
                "RED 23:04 Creator directive: hi  (local time)",
                "YLW 10:00 ^[[2Jboom",
            ]
        );
    }

    #[test]
    fn items_not_kept_are_said_at_the_oldest_end() {
        let theme = Theme::default();
        let items = prepare_items(
            &Observations::parse("RED 10:00 a\nRED 10:01 b\n").items,
            &theme,
        );
        assert_eq!(older_note(0, &theme), None);
        let note = older_note(5, &theme);
        let newest = document(&items, &PriorityFilter::default(), true, note.as_ref());
        assert_eq!(newest.line_nos, [2, 1, 0]);
        assert!(texts(&newest)[2].starts_with("… 5 older line(s)"));
        let oldest = document(&items, &PriorityFilter::default(), false, note.as_ref());
        assert_eq!(oldest.line_nos, [0, 1, 2]);
    }

    /// Items of a file: headers, observations of each priority, prose (line numbers in
    /// order, as the file's).
    fn any_items() -> impl proptest::strategy::Strategy<Value = Vec<PreparedObs>> {
        use proptest::prelude::*;
        let kind = prop_oneof![
            Just(ObsKind::Header),
            Just(ObsKind::Tagged(Priority::Red)),
            Just(ObsKind::Tagged(Priority::Ylw)),
            Just(ObsKind::Tagged(Priority::Grn)),
            Just(ObsKind::Prose),
        ];
        proptest::collection::vec(kind, 0..16).prop_map(|kinds| {
            kinds
                .into_iter()
                .enumerate()
                .map(|(n, kind)| PreparedObs {
                    line_no: n + 1,
                    kind,
                    line: DocLine::word(Line::raw(format!("{kind:?} {n}")), 2),
                })
                .collect()
        })
    }

    proptest::proptest! {
        /// Items appended to a document make the document of all of them.
        #[test]
        fn appended_items_make_the_document_of_all(
            items in any_items(),
            split in 0..17usize,
            (red, ylw, grn) in (proptest::bool::ANY, proptest::bool::ANY, proptest::bool::ANY),
            newest_first in proptest::bool::ANY,
            older in proptest::bool::ANY,
        ) {
            let filter = PriorityFilter { red, ylw, grn };
            let note = older.then(|| DocLine::word(Line::raw("older"), 2));
            let split = split.min(items.len());
            let mut doc = document(&items[..split], &filter, newest_first, note.as_ref());
            let mut newest = Newest::of(&items[..split], &filter);
            append(&mut doc, &mut newest, &items, split, &filter, newest_first);
            proptest::prop_assert_eq!(&doc, &document(&items, &filter, newest_first, note.as_ref()));
            proptest::prop_assert_eq!(newest, Newest::of(&items, &filter));
        }

        /// The oldest items no longer kept, the note of them changed and items appended
        /// make the document of the items left.
        #[test]
        fn the_oldest_dropped_and_items_appended_make_the_document_of_those_left(
            items in any_items(),
            (dropped, split) in (0..17usize, 0..17usize),
            (red, ylw, grn) in (proptest::bool::ANY, proptest::bool::ANY, proptest::bool::ANY),
            newest_first in proptest::bool::ANY,
            (older_before, older_after) in (0..3usize, 0..3usize),
        ) {
            let filter = PriorityFilter { red, ylw, grn };
            let theme = Theme::default();
            let (before, after) = (older_note(older_before, &theme), older_note(older_after, &theme));
            let split = split.min(items.len());
            let dropped = dropped.min(split);
            let mut doc = document(&items[..split], &filter, newest_first, before.as_ref());
            let mut newest = Newest::of(&items[..split], &filter);
            let left = &items[dropped..];
            drop_oldest(&mut doc, &mut newest, &left[..split - dropped], dropped, &filter);
            set_older(&mut doc, after.as_ref(), newest_first);
            append(&mut doc, &mut newest, left, split - dropped, &filter, newest_first);
            proptest::prop_assert_eq!(&doc, &document(left, &filter, newest_first, after.as_ref()));
            proptest::prop_assert_eq!(newest, Newest::of(left, &filter));
        }
    }
}
