//! The core views of the main pane, one component each: a struct that owns the view's
//! state (per creature, in [`crate::ui::state::creature::CreatureUi`], or of the whole
//! garden), its preparation (text made inert and styled when the files change), the
//! actions it understands (scrolling, filters, order) and its drawing. A genome's own
//! views are components of the same shape behind [`crate::ui::genome::GenomeUi`].

pub mod diary;
pub mod dreams;
pub mod events;
pub mod live;
pub mod observations;
pub mod recall;
pub mod side;
pub mod talk;
