//! Which OpenSeed orchestrator the observatory attaches to, and with which tokens.

use std::path::PathBuf;

use super::cli::OpenSeedArgs;
use super::config::OpenSeedConfig;
use super::secrets::Secrets;
use crate::openseed::discover::{local_run_file, normalize_url};
use crate::openseed::{OpenSeedError, Target, Token, Tokens};
use crate::ui::OpenSeedLink;

/// The variable whose token is sent with every request (it wins over the config file's
/// `token`); taken out of the environment at startup like every secret.
pub const TOKEN_VAR: &str = "DREAMWATCH_OPENSEED_TOKEN";

/// `--openseed URL`, else the config file's `url`; else, when no path is given, the
/// orchestrator OpenSeed's run file names (`run_file`); nothing with `--no-openseed`.
pub fn target(
    args: &OpenSeedArgs,
    config_url: Option<&str>,
    paths_given: bool,
    run_file: Option<PathBuf>,
) -> Result<Option<Target>, OpenSeedError> {
    if args.no_openseed {
        return Ok(None);
    }
    if let Some(url) = args.openseed.as_deref().or(config_url) {
        return normalize_url(url).map(|url| Some(Target::Url(url)));
    }
    Ok((!paths_given)
        .then_some(run_file)
        .flatten()
        .map(Target::RunFile))
}

/// The observatory's link to the orchestrator, if any.
pub fn link(
    args: &OpenSeedArgs,
    config: &OpenSeedConfig,
    paths_given: bool,
    secrets: &Secrets,
) -> Result<Option<OpenSeedLink>, OpenSeedError> {
    let Some(target) = target(args, config.url.as_deref(), paths_given, local_run_file())? else {
        return Ok(None);
    };
    let mut tokens: Tokens = config.tokens.clone();
    if let Some(token) = secrets.get(TOKEN_VAR).and_then(Token::new) {
        tokens.all = Some(token);
    }
    Ok(Some(OpenSeedLink { target, tokens }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(openseed: Option<&str>, no_openseed: bool) -> OpenSeedArgs {
        OpenSeedArgs {
            openseed: openseed.map(str::to_owned),
            no_openseed,
        }
    }

    #[test]
    fn the_flag_wins_then_the_config_then_the_run_file_without_paths() {
        let run = Some(PathBuf::from("/home/x/.openseed/orchestrator.json"));
        assert_eq!(
            target(
                &args(Some("127.0.0.1:9000/"), false),
                Some("http://a:1"),
                true,
                run.clone()
            )
            .unwrap(),
            Some(Target::Url("http://127.0.0.1:9000".into()))
        );
        assert_eq!(
            target(&args(None, false), Some("http://a:1"), false, run.clone()).unwrap(),
            Some(Target::Url("http://a:1".into()))
        );
        assert_eq!(
            target(&args(None, false), None, false, run.clone()).unwrap(),
            Some(Target::RunFile(run.clone().unwrap()))
        );
        assert_eq!(
            target(&args(None, false), None, true, run.clone()).unwrap(),
            None
        );
        assert_eq!(target(&args(None, false), None, false, None).unwrap(), None);
        assert_eq!(
            target(&args(None, true), Some("http://a:1"), false, run).unwrap(),
            None
        );
        assert!(target(&args(Some("ftp://x"), false), None, false, None).is_err());
    }
}
