//! What can stop a command, as the operator reads it.

use crate::app::config::ConfigError;
use crate::llm::ProviderError;
use crate::runner::config::RunnerConfigError;
use crate::runner::open::OpenError;

#[derive(Debug, thiserror::Error)]
pub enum AppError {
    #[error(transparent)]
    Config(#[from] ConfigError),
    #[error(transparent)]
    Provider(#[from] ProviderError),
    #[error(transparent)]
    Settings(#[from] RunnerConfigError),
    /// The runner could not open its creature (a sentence from the runner).
    #[error("{0}")]
    Runner(#[from] OpenError),
    #[error("{what}: {source}")]
    Io {
        what: String,
        source: std::io::Error,
    },
    /// The observatory (or a screenshot of it) failed.
    #[error(transparent)]
    Observatory(anyhow::Error),
}

impl AppError {
    /// An IO error with what was being done.
    pub fn io(what: impl Into<String>) -> impl FnOnce(std::io::Error) -> Self {
        let what = what.into();
        move |source| Self::Io { what, source }
    }
}
