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
    /// The command was asked for something it refuses to do (exit 2).
    #[error("{0}")]
    Usage(String),
    /// The observatory was asked for with stdout not a terminal.
    #[error(
        "the observatory needs a terminal (stdout is not one): `dreamwatch inspect` prints \
         a summary, and `run` and `demo` take --headless"
    )]
    NoTerminal,
    /// The runner could not open its creature (a sentence from the runner).
    #[error("{0}")]
    Runner(#[from] OpenError),
    #[error("{what}: {source}")]
    Io {
        what: String,
        source: std::io::Error,
    },
    /// Hosted runners that ended with an error (each said why as it ended).
    #[error("the runner of {0} failed")]
    RunnerFailed(String),
    /// The observatory (or a screenshot of it) failed.
    #[error(transparent)]
    Observatory(anyhow::Error),
}

impl AppError {
    /// The process's exit code: 2 for a refusal, 1 for a failure.
    pub fn exit_code(&self) -> u8 {
        match self {
            Self::Usage(_) => 2,
            _ => 1,
        }
    }

    /// An IO error with what was being done.
    pub fn io(what: impl Into<String>) -> impl FnOnce(std::io::Error) -> Self {
        let what = what.into();
        move |source| Self::Io { what, source }
    }
}
