//! The command line: one definition, parsed by clap, and turned here into each module's
//! own option types (no clap type leaves `app`).

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::llm::ProviderKind;
use crate::memory::cycle::Profile;
use crate::recorder::{At, PathAt};
use crate::ui::screenshot::ScreenshotOptions;
use crate::watch::WatchOptions;

#[derive(Debug, Parser)]
#[command(
    name = "dreamwatch",
    version,
    about = "A terminal observatory for creatures that keep their memory on disk"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Creature directories or gardens (directories of creatures). Default: ~/.openseed/creatures
    pub paths: Vec<PathBuf>,
    #[command(flatten)]
    pub ui: UiArgs,
    #[command(flatten)]
    pub watch: WatchArgs,
    #[command(flatten)]
    pub openseed: OpenSeedArgs,
}

/// Attaching to an OpenSeed orchestrator (the observatory only).
#[derive(Debug, Clone, Args, Default)]
pub struct OpenSeedArgs {
    /// Attach to the OpenSeed orchestrator at URL (default: the one named in
    /// $OPENSEED_HOME/orchestrator.json, ~/.openseed by default, when no path is given)
    #[arg(long, value_name = "URL", conflicts_with = "no_openseed")]
    pub openseed: Option<String>,
    /// Watch the files only, never attaching to an OpenSeed orchestrator
    #[arg(long)]
    pub no_openseed: bool,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Print a summary of creatures (or a garden) and exit, or follow changes
    Inspect(InspectArgs),
    /// Host a creature in DIR with a real LLM (or the offline rehearsal brain)
    Run(RunArgs),
    /// A fresh garden of rehearsal creatures (one of each genome, talking to each other),
    /// shown in the observatory: no key, no network
    Demo(DemoArgs),
    /// Who wrote each line of a memory file (which wake and tool call, which dream, the
    /// operator), what it replaced, and what later dreams moved or pruned, as `git blame`
    /// prints it
    Blame(BlameArgs),
    /// A creature's life or one moment of it, for a report: its summary, memory files and
    /// dreams with what each changed, made inert
    Export(ExportArgs),
    /// Two creatures' memories side by side, and how they drifted apart dream by dream
    Diff(DiffArgs),
    /// Render the observatory on fixture creatures to SVG (and PNG when rsvg-convert is
    /// installed); needs the fixtures (the repository's tests/fixtures/openseed, see --fixtures)
    Screenshot(ScreenshotArgs),
    /// Send watched creatures' lives (their events, dreams and what each dream changed)
    /// to an OpenTelemetry collector as GenAI traces (OTEL_EXPORTER_OTLP_ENDPOINT or
    /// [telemetry] in the config file); each span once, across restarts
    ExportOtel(ExportOtelArgs),
}

#[derive(Debug, Args)]
pub struct ExportOtelArgs {
    /// Creature directories or gardens
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// Keep running and send what the creatures do as they do it
    #[arg(long)]
    pub follow: bool,
    /// Where the cursors are kept (default: dreamwatch's state directory)
    #[arg(long, env = "DREAMWATCH_EXPORT_CURSORS", value_name = "DIR")]
    pub cursors: Option<PathBuf>,
}

#[derive(Debug, Clone, Args, Default)]
pub struct UiArgs {
    /// Theme name (built in: dark, light, high-contrast) or a theme file in the config dir
    #[arg(long, global = true)]
    pub theme: Option<String>,
    /// Config file (default: the platform config dir's dreamwatch/config.toml)
    #[arg(long, global = true)]
    pub config: Option<PathBuf>,
    /// Log file (default: the platform state/cache dir's dreamwatch/dreamwatch.log)
    #[arg(long, global = true)]
    pub log_file: Option<PathBuf>,
    /// Watch only: the observatory refuses every action that writes or acts (sleep,
    /// pause, wake, messages), for watching a production garden safely
    #[arg(long, global = true)]
    pub read_only: bool,
}

#[derive(Debug, Clone, Args, Default)]
pub struct WatchArgs {
    /// Polling interval in milliseconds for the fallback poller
    #[arg(long, global = true, value_name = "MS")]
    pub poll_ms: Option<u64>,
    /// Poll instead of using filesystem events (network filesystems, some containers)
    #[arg(long, global = true)]
    pub force_poll: bool,
}

#[derive(Debug, Args)]
pub struct InspectArgs {
    /// Creature directories or gardens
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// One JSON object `{"creatures": [...]}` instead of text
    #[arg(long)]
    pub json: bool,
    /// Keep running and print one JSON line per change
    #[arg(long)]
    pub follow: bool,
    /// With --follow: speak the wire protocol a far observatory reads (files and
    /// their changes; requests on stdin; exits when stdin closes)
    #[arg(long, requires = "follow")]
    pub wire: bool,
    /// The summary as of a moment of each creature's life: dream:N (right after dream N),
    /// wake:N (as wake N began) or an RFC 3339 time
    #[arg(long, value_name = "MOMENT", conflicts_with = "follow")]
    pub at: Option<At>,
}

#[derive(Debug, Args)]
pub struct BlameArgs {
    /// The creature's directory
    pub path: PathBuf,
    /// The memory file: a path in the creature's directory, or a name in its .self/
    pub file: String,
    /// One JSON object instead of text
    #[arg(long)]
    pub json: bool,
}

/// `--format` of `export`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ExportFormat {
    Md,
    Json,
}

#[derive(Debug, Args)]
pub struct ExportArgs {
    /// The creature's directory
    pub path: PathBuf,
    /// A moment instead of now: dream:N, wake:N or an RFC 3339 time
    #[arg(long, value_name = "MOMENT")]
    pub at: Option<At>,
    #[arg(long, value_enum, default_value_t = ExportFormat::Md)]
    pub format: ExportFormat,
}

#[derive(Debug, Args)]
pub struct DiffArgs {
    /// One creature's directory
    pub a: PathBuf,
    /// The other's
    pub b: PathBuf,
    /// One JSON object instead of text
    #[arg(long)]
    pub json: bool,
}

/// `--provider`: [`ProviderKind`] as clap spells it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ProviderArg {
    Anthropic,
    Openai,
    Rehearsal,
}

impl From<ProviderArg> for ProviderKind {
    fn from(arg: ProviderArg) -> Self {
        match arg {
            ProviderArg::Anthropic => Self::Anthropic,
            ProviderArg::Openai => Self::Openai,
            ProviderArg::Rehearsal => Self::Rehearsal,
        }
    }
}

/// `--genome`: the memory systems the runner hosts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum GenomeArg {
    /// OpenSeed's dreamer (the seed's): observations, dreams, deep sleep
    Dreamer,
    /// evennia_ai's memory and sleep: journal, semantic memory, entities, sleep phases
    Evennia,
    /// Emergence World's cognition: soul, long-term memory, self-care, diary, plans, relations
    Emergence,
}

impl GenomeArg {
    /// The genome's name, as BIRTH.json and the registry of genomes say it.
    pub fn name(self) -> &'static str {
        match self {
            GenomeArg::Dreamer => "dreamer",
            GenomeArg::Evennia => "evennia",
            GenomeArg::Emergence => "emergence",
        }
    }
}

/// `--profile`: [`Profile`] as clap spells it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ProfileArg {
    /// The seed's constants (listed in config.sample.toml's `[runner]` table).
    Seed,
    /// OpenSeed since February 2026: deep sleep every 5th dream, without the pause.
    Openseed,
}

impl From<ProfileArg> for Profile {
    fn from(arg: ProfileArg) -> Self {
        match arg {
            ProfileArg::Seed => Self::Seed,
            ProfileArg::Openseed => Self::Openseed,
        }
    }
}

#[derive(Debug, Args)]
pub struct RunArgs {
    /// The creature's directory (created when new, resumed otherwise), or a garden: a
    /// directory of creatures, all hosted in this process, able to write to each other
    pub dir: PathBuf,
    /// Host DIR as a garden of N creatures: those in it, and new ones (c1, c2, ...) up to
    /// N, born with --genome
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub creatures: Option<u64>,
    /// Host a creature dreamwatch did not create (its BIRTH.json names another genome, as
    /// OpenSeed's do): its logs are written and its sleep is ended by this runner
    #[arg(long)]
    pub adopt: bool,
    #[arg(long, value_enum, default_value_t = ProviderArg::Anthropic)]
    pub provider: ProviderArg,
    /// Model name (default depends on the provider)
    #[arg(long)]
    pub model: Option<String>,
    /// API base URL: Anthropic without /v1, OpenAI-compatible with /v1
    #[arg(long)]
    pub base_url: Option<String>,
    /// Embeddings model for semantic memory (default: text-embedding-3-small)
    #[arg(long, value_name = "MODEL")]
    pub embed_model: Option<String>,
    /// OpenAI-compatible embeddings base URL with /v1 (default: the openai provider's;
    /// anthropic and rehearsal use the local hashing embedding without it)
    #[arg(long, value_name = "URL")]
    pub embed_base_url: Option<String>,
    /// Run the clock this many times faster (sleeps, pauses, dream intervals)
    #[arg(long, default_value_t = 1.0)]
    pub speed: f64,
    /// Exit cleanly after this many dreams (the dreamer's consolidations)
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub max_dreams: Option<u64>,
    /// Exit cleanly after this many completed sleeps (every genome)
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub max_sleeps: Option<u64>,
    /// The memory system of a new creature (a resumed one keeps the genome its BIRTH.json
    /// names)
    #[arg(long, value_enum)]
    pub genome: Option<GenomeArg>,
    /// Print one progress line per event instead of opening the observatory
    #[arg(long)]
    pub headless: bool,
    /// PURPOSE.md text for a new creature
    #[arg(long)]
    pub purpose: Option<String>,
    /// Cycle constants to start from (a `[runner]` table in the config file overrides them):
    /// the seed's, or today's OpenSeed (deep sleep every 5th dream, no pause)
    #[arg(long, value_enum)]
    pub profile: Option<ProfileArg>,
    /// Hold each dream (a consolidation's writes, a deep sleep's pruning) as a proposal
    /// for the operator to apply, reject or edit, until `review_timeout` (config, default
    /// 10m) applies it; the dreamer's dreams (other genomes are not held)
    #[arg(long)]
    pub review_dreams: bool,
    /// Run the creature's commands unconfined, as your user, able to reach everything you
    /// can (your config, other creatures, this runner's control token). By default they
    /// are confined by Landlock, and refused where the kernel has none
    #[arg(long)]
    pub unconfined: bool,
    /// A new creature in DIR from the memory of the creature at PATH as it was at MOMENT
    /// (dream:N, wake:N or an RFC 3339 time; now without one); PATH is only read, and
    /// BIRTH.json records it and the moment as the parent and the fork point
    #[arg(long, value_name = "PATH[@MOMENT]", conflicts_with_all = ["creatures", "adopt"])]
    pub fork: Option<PathAt>,
}

#[derive(Debug, Args)]
pub struct DemoArgs {
    /// Garden directory (default: a fresh temporary directory)
    #[arg(long)]
    pub dir: Option<PathBuf>,
    /// Clock speed-up for the rehearsal creature
    #[arg(long, default_value_t = 60.0)]
    pub speed: f64,
    /// Print progress lines instead of opening the observatory
    #[arg(long)]
    pub headless: bool,
    /// Exit after this many dreams
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub max_dreams: Option<u64>,
    /// Exit after this many completed sleeps
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub max_sleeps: Option<u64>,
    /// Only the demo creature of this memory system (default: one of each, talking to
    /// each other)
    #[arg(long, value_enum)]
    pub genome: Option<GenomeArg>,
    /// Hold each dream (a consolidation's writes, a deep sleep's pruning) as a proposal
    /// for the operator to apply, reject or edit, until `review_timeout` (config, default
    /// 10m) applies it; the dreamer's dreams (other genomes are not held)
    #[arg(long)]
    pub review_dreams: bool,
}

#[derive(Debug, Args)]
pub struct ScreenshotArgs {
    /// Output directory
    #[arg(long, default_value = "screenshots")]
    pub out: PathBuf,
    #[arg(long, default_value_t = 120)]
    pub width: u16,
    #[arg(long, default_value_t = 36)]
    pub height: u16,
    /// Directory of `*/creature` fixtures to draw (default: the tests/fixtures/openseed of
    /// the repository this binary was built from)
    #[arg(long, env = "DREAMWATCH_FIXTURES", value_name = "DIR", default_value_os_t = built_fixtures("openseed"))]
    pub fixtures: PathBuf,
    /// Directory of `*/creature` evennia fixtures, drawn in the evennia views' pictures
    /// (default: the tests/fixtures/evennia of the repository this binary was built from)
    #[arg(long, env = "DREAMWATCH_EVENNIA_FIXTURES", value_name = "DIR", default_value_os_t = built_fixtures("evennia"))]
    pub evennia_fixtures: PathBuf,
    /// Directory of `*/creature` emergence fixtures, drawn in the emergence views' pictures
    /// (default: the tests/fixtures/emergence of the repository this binary was built from)
    #[arg(long, env = "DREAMWATCH_EMERGENCE_FIXTURES", value_name = "DIR", default_value_os_t = built_fixtures("emergence"))]
    pub emergence_fixtures: PathBuf,
}

impl ScreenshotArgs {
    /// The directories of fixtures drawn beside `fixtures` (each genome's pictures are of
    /// the creatures of that genome).
    pub fn more_fixtures(&self) -> Vec<PathBuf> {
        vec![
            self.evennia_fixtures.clone(),
            self.emergence_fixtures.clone(),
        ]
    }
}

/// A set of fixture creatures of the repository the binary was built from.
fn built_fixtures(set: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(set)
}

impl ScreenshotArgs {
    /// The screenshots' options, in `theme`.
    pub fn options(&self, theme: Option<String>) -> ScreenshotOptions {
        ScreenshotOptions {
            out: self.out.clone(),
            width: self.width,
            height: self.height,
            theme,
            fixtures: self.fixtures.clone(),
            more_fixtures: self.more_fixtures(),
        }
    }
}

impl WatchArgs {
    /// The watcher's options: `--poll-ms` wins over the config file's `poll_ms`; 0 turns
    /// the polling fallback off.
    pub fn options(&self, config_poll_ms: Option<u64>) -> WatchOptions {
        let defaults = WatchOptions::default();
        WatchOptions {
            poll_interval: match self.poll_ms.or(config_poll_ms) {
                Some(0) => None,
                Some(ms) => Some(std::time::Duration::from_millis(ms)),
                None => defaults.poll_interval,
            },
            force_poll: self.force_poll,
            ..defaults
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn the_definition_is_consistent() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }

    #[test]
    fn poll_ms_from_the_command_line_wins_and_zero_turns_polling_off() {
        let args = |poll_ms| WatchArgs {
            poll_ms,
            force_poll: false,
        };
        let default = WatchOptions::default().poll_interval;
        assert_eq!(args(None).options(None).poll_interval, default);
        assert_eq!(
            args(None).options(Some(250)).poll_interval,
            Some(Duration::from_millis(250))
        );
        assert_eq!(
            args(Some(40)).options(Some(250)).poll_interval,
            Some(Duration::from_millis(40))
        );
        assert_eq!(args(Some(0)).options(Some(250)).poll_interval, None);
    }

    #[test]
    fn enums_map_onto_the_modules_own() {
        let cli = Cli::parse_from([
            "dreamwatch",
            "run",
            "x",
            "--provider",
            "openai",
            "--profile",
            "openseed",
            "--embed-model",
            "nomic-embed-text",
            "--embed-base-url",
            "http://127.0.0.1:11434/v1",
        ]);
        let Some(Command::Run(run)) = cli.command else {
            panic!("not a run: {cli:?}");
        };
        assert_eq!(ProviderKind::from(run.provider), ProviderKind::Openai);
        assert_eq!(run.profile.map(Profile::from), Some(Profile::Openseed));
        assert_eq!(run.embed_model.as_deref(), Some("nomic-embed-text"));
        assert_eq!(
            run.embed_base_url.as_deref(),
            Some("http://127.0.0.1:11434/v1")
        );
    }
}
