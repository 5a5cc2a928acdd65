//! The model providers (Anthropic, OpenAI-compatible, embeddings) against the shared
//! local server speaking their wire formats, and how a provider is built.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a test may stop at the first failure

// Shared with the other test binaries: `pub`, so that what this one leaves unused is
// not dead code.
#[path = "../common/mod.rs"]
pub mod common;
pub mod support;

mod anthropic;
mod build;
mod embeddings;
mod openai;
