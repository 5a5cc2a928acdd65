//! The brain the runner talks to, and what each request to it is for ([`task`]).

pub mod task;
