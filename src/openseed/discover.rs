//! Where the orchestrator is: a URL given, or the `orchestrator.json` it writes into
//! OpenSeed's home while it runs (read again before every connection attempt, so an
//! orchestrator restarted on another port is found again).

use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::OpenSeedError;
use crate::memory::garden::openseed_home;

/// The file a running orchestrator writes, in OpenSeed's home.
pub const RUN_FILE: &str = "orchestrator.json";

/// How to find the orchestrator.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// A base URL (`http://127.0.0.1:7770`, an SSH tunnel's port...).
    Url(String),
    /// The port named in this `orchestrator.json`.
    RunFile(PathBuf),
}

/// `orchestrator.json` as the orchestrator writes it.
#[derive(Debug, Clone, Deserialize)]
pub struct RunFile {
    pub port: u16,
    #[serde(default)]
    pub pid: Option<u32>,
    #[serde(default)]
    pub started_at: Option<String>,
}

/// `orchestrator.json` in OpenSeed's home (`$OPENSEED_HOME`, else `~/.openseed`), when
/// it exists: an orchestrator runs, or ran and died without removing it.
pub fn local_run_file() -> Option<PathBuf> {
    openseed_home()
        .map(|home| home.join(RUN_FILE))
        .filter(|p| p.is_file())
}

/// A base URL as given: `http(s)://...`, without a trailing slash; a bare `host:port`
/// means `http://host:port`.
pub fn normalize_url(url: &str) -> Result<String, OpenSeedError> {
    let url = url.trim().trim_end_matches('/');
    let url = if url.contains("://") {
        url.to_owned()
    } else {
        format!("http://{url}")
    };
    let valid = reqwest::Url::parse(&url)
        .ok()
        .is_some_and(|u| matches!(u.scheme(), "http" | "https") && u.host().is_some());
    if valid {
        Ok(url)
    } else {
        Err(OpenSeedError::BadUrl(url))
    }
}

impl Target {
    /// The base URL to connect to now.
    pub fn resolve(&self) -> Result<String, OpenSeedError> {
        match self {
            Self::Url(url) => normalize_url(url),
            Self::RunFile(path) => {
                read_run_file(path).map(|f| format!("http://127.0.0.1:{}", f.port))
            }
        }
    }

    /// Where it is, for the screen.
    pub fn describe(&self) -> String {
        match self {
            Self::Url(url) => url.clone(),
            Self::RunFile(path) => path.display().to_string(),
        }
    }
}

fn read_run_file(path: &Path) -> Result<RunFile, OpenSeedError> {
    let bytes = std::fs::read(path).map_err(|e| {
        OpenSeedError::NotRunning(format!("{} cannot be read ({e})", path.display()))
    })?;
    serde_json::from_slice(&bytes).map_err(|e| {
        OpenSeedError::Malformed(format!(
            "{} is not an orchestrator's run file: {e}",
            path.display()
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_are_normalized() {
        assert_eq!(
            normalize_url("http://127.0.0.1:7770/").unwrap(),
            "http://127.0.0.1:7770"
        );
        assert_eq!(
            normalize_url("localhost:9000").unwrap(),
            "http://localhost:9000"
        );
        let err = normalize_url("ftp://x").unwrap_err().to_string();
        assert_eq!(err, "ftp://x is not an http(s) URL of an orchestrator");
        assert!(normalize_url("").is_err());
    }

    #[test]
    fn the_run_file_names_the_port() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(RUN_FILE);
        let target = Target::RunFile(path.clone());
        assert!(matches!(
            target.resolve(),
            Err(OpenSeedError::NotRunning(_))
        ));
        std::fs::write(
            &path,
            r#"{"port": 7790, "pid": 4242, "started_at": "2026-03-09T10:00:00.000Z"}"#,
        )
        .unwrap();
        assert_eq!(target.resolve().unwrap(), "http://127.0.0.1:7790");
        std::fs::write(&path, "{").unwrap();
        assert!(matches!(target.resolve(), Err(OpenSeedError::Malformed(_))));
    }
}
