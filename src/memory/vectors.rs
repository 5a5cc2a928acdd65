//! The vectors of the evennia genome's semantic memory: the side file
//! `.self/semantic.vectors` and exact cosine search over it.
//!
//! `.self/semantic.jsonl` says what each memory is (its `add` line names the embedding
//! `{model, dims}`); this file holds the vectors, by the same ids (`m1`, `m2`...), so the
//! JSONL stays readable and the vectors stay compact.
//!
//! # Format (version 1, little-endian)
//!
//! | bytes | what |
//! | --- | --- |
//! | 8 | magic `DWVECTOR` |
//! | 4 | version, `1` |
//! | 4 | `dims`, 1 to 16,384 |
//! | 112 | the embedding model's name, UTF-8, NUL-padded |
//!
//! then fixed-size records of `16 + 4 + 4 * dims` bytes, append-only:
//!
//! | bytes | what |
//! | --- | --- |
//! | 16 | the memory's id, UTF-8, NUL-padded (1 to 16 bytes, no NUL) |
//! | 4 | kind: `1` a vector, `2` forget (a tombstone: the id's vector is gone) |
//! | 4 * `dims` | the vector, `f32`, unit length (all zero in a tombstone) |
//!
//! Reading folds the records in order: a later vector for an id replaces the earlier, a
//! tombstone removes it. A last record cut short (the writer killed mid-append) is
//! ignored and cut off before the next append; a record of an unknown kind, a bad id, a
//! value that is not finite or values whose length overflows is skipped and counted; a bad header is an error that names
//! the file. A file shorter than a header that begins like one is a header cut short:
//! empty. Only a regular file is read (never a FIFO or `/dev/zero` behind a symlink), up
//! to the length it had when opened; the writer never follows a symlink.
//!
//! # Search
//!
//! [`VectorIndex`] keeps the unit vectors in one contiguous `Vec<f32>` and scores a query
//! against every live one (a dot product the compiler vectorises), keeping the best `k`
//! in a small heap: exact, no index to build or tune, and within budget up to the scale
//! measured in docs/memory.md ("Semantic memory: vectors and recall").

mod file;
mod index;
mod kernel;
mod store;
#[cfg(test)]
mod tests;

use std::io;
use std::path::PathBuf;

pub use file::{Header, ID_BYTES, LoadReport};
pub use index::{Hit, VectorIndex};
pub use store::{Loaded, VectorStore, load};

/// What can go wrong with the vectors.
#[derive(Debug, thiserror::Error)]
pub enum VectorError {
    #[error("{}: {source}", path.display())]
    Io { path: PathBuf, source: io::Error },
    #[error("{}: bad vector file header: {why}", path.display())]
    BadHeader { path: PathBuf, why: String },
    #[error("{}: {bytes} bytes, more than a vector file may hold (8 GiB)", path.display())]
    TooLarge { path: PathBuf, bytes: u64 },
    #[error(
        "the vector file holds {} vectors of {} dimensions, not {} of {}",
        file.model, file.dims, asked.model, asked.dims
    )]
    Mismatch { file: Header, asked: Header },
    #[error("a vector id must be 1 to {ID_BYTES} bytes without NUL, not {0:?}")]
    BadId(String),
    #[error("an embedding model name must be 1 to 112 bytes without NUL, not {0:?}")]
    BadModel(String),
    #[error("{0} dimensions: a vector file holds 1 to 16384")]
    BadDims(usize),
    #[error("a vector of {got} dimensions where {want} are kept")]
    WrongDims { got: usize, want: usize },
    #[error("a vector holds a value that is not finite")]
    NotFinite,
}

impl VectorError {
    /// The error of an IO failure on `path`.
    fn io(path: &std::path::Path) -> impl Fn(io::Error) -> Self + Copy + '_ {
        |source| Self::Io {
            path: path.to_path_buf(),
            source,
        }
    }
}

/// Where the vectors of a creature's semantic memory live, beside `.self/semantic.jsonl`.
pub fn vectors_path(creature: &std::path::Path) -> PathBuf {
    creature.join(".self").join("semantic.vectors")
}
