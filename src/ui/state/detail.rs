//! A document shown whole over the screen (an event of the Events view), scrolled like
//! the help; Esc closes it.

use crate::ui::doc::DocLine;
use crate::ui::doc::scroll::Anchor;

#[derive(Debug, Clone)]
pub struct Detail {
    pub title: String,
    pub lines: Vec<DocLine>,
    pub anchor: Anchor,
}
