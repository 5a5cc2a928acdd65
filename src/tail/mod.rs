//! Following files that other processes append to.
//!
//! A [`Tailer`] remembers, per file, the byte offset read so far, the file's identity
//! (device, inode) and length. On a hint it stats the file and reads only what was
//! appended; an incomplete last line is held until its newline arrives; a shrink or a new
//! inode (truncation, rename-replace, delete-recreate) means the file is read again.
//! [`LineIndex`] keeps every 64th line's offset so a huge file is never held in memory.
//! Every creature file is opened with [`open_regular`]: regular files only, never a hang.

mod back;
mod index;
mod open;
mod since;
mod start;
mod tailer;

pub use back::{Back, read_back};
pub use index::LineIndex;
pub use open::{
    ensure_regular, open_append, open_regular, open_regular_nofollow, open_write, read_bounded,
    too_large,
};
pub use since::lines_since;
pub use start::tail_start;
pub use tailer::{MAX_LINE, Poll, TailEvent, Tailer};
