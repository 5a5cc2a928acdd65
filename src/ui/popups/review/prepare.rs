//! The popup of a dream held for review, as lines: when it applies itself, its priority
//! and reflection, then what it would change (the lines of "what a dream changed").

use chrono::{DateTime, Utc};
use ratatui::text::{Line, Span};

use super::PendingReview;
use crate::ui::doc::DocLine;
use crate::ui::draw::fmt;
use crate::ui::prepare::changes;
use crate::ui::theme::Theme;

/// When it applies itself, as the popup, the header and the garden say it.
pub fn countdown(review: &PendingReview, now: DateTime<Utc>) -> String {
    match review.left(now) {
        None => "never applies itself".to_string(),
        Some(0) => "applies itself now".to_string(),
        Some(secs) => format!("applies itself in {}", fmt::duration(secs)),
    }
}

/// The popup's lines.
pub fn document(review: &PendingReview, now: DateTime<Utc>, theme: &Theme) -> Vec<DocLine> {
    let p = &review.proposal;
    let mut head = vec![
        Span::styled(review.what(), theme.dream),
        Span::styled(
            format!(" · held since {}", p.created.format("%H:%M:%S UTC")),
            theme.muted,
        ),
        Span::styled(format!(" · {}", countdown(review, now)), theme.accent),
    ];
    if p.deadline.is_none() {
        head.push(Span::styled(": it waits for you", theme.muted));
    }
    if p.edited {
        head.push(Span::styled(" · edited by the operator", theme.accent));
    }
    let mut lines = vec![DocLine::word(Line::from(head), 0)];
    if let Some(priority) = &review.priority {
        lines.push(DocLine::word(
            Line::from(vec![
                Span::styled("priority ", theme.muted),
                Span::styled(priority.clone(), theme.accent),
            ]),
            9,
        ));
    }
    lines.extend(
        review
            .reflection
            .iter()
            .map(|l| DocLine::word(Line::styled(l.clone(), theme.base), 0)),
    );
    lines.push(DocLine::word(Line::default(), 0));
    lines.push(DocLine::word(
        Line::styled("What it would change", theme.title),
        0,
    ));
    lines.extend(review.changes.lines.iter().map(|c| {
        DocLine::word(
            Line::styled(c.text.clone(), changes::style(c.mark, theme)),
            2,
        )
    }));
    lines
}
