//! The flight recorder: a creature's whole life, replayed. Its time index ([`index`]) and
//! its state at any moment ([`past`]: from the runner's record, the watched history, git
//! history and the logs).

pub mod at;
pub mod blame;
pub mod compare;
pub mod cut;
pub mod entries;
pub mod git;
pub mod index;
pub mod past;
pub mod side;

pub use at::{At, PathAt};
pub use past::{
    Past, PastError, Sources, copy_record, materialize, materialize_window, resolve,
    resolve_indexed,
};
