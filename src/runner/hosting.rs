//! Hosting a genome: its runner opened and handed on as one type, whatever the genome. A
//! hosted genome's plug-in gives a [`HostedGenome`]; the composition root finds it in the
//! registry by the genome's name, so the runner's core names no genome.

use std::future::Future;
use std::path::PathBuf;
use std::pin::Pin;

use super::config::RunnerConfig;
use super::driver::{RunReport, Runner, RunnerOptions};
use super::garden::Garden;
use super::genome::Genome;
use super::genome_config::ConfigSection;
use super::open::OpenError;
use crate::control::HostedCreature;

/// What tells a hosted runner to stop.
pub type Stop = Pin<Box<dyn Future<Output = ()> + Send>>;
/// A hosted runner's life, until it stops.
pub type Life = Pin<Box<dyn Future<Output = RunReport> + Send>>;

/// A creature's runner, opened, of whatever genome.
pub struct Opened {
    pub name: String,
    pub dir: PathBuf,
    pub hosted: HostedCreature,
    pub run: Box<dyn FnOnce(Stop) -> Life + Send>,
}

impl Opened {
    /// `runner`, a member of `garden`.
    pub fn of<G: Genome>(runner: Runner<G>, garden: &Garden) -> Self {
        garden.admit(&runner);
        Self {
            name: runner.name().to_string(),
            dir: runner.dir().to_path_buf(),
            hosted: runner.hosted(),
            run: Box::new(move |stop| Box::pin(runner.run(stop))),
        }
    }
}

/// The runner part of a genome's plug-in: how a creature of it is hosted.
#[derive(Debug)]
pub struct HostedGenome {
    /// Opens a runner of the genome on `opts`, a member of `garden`.
    pub open: fn(RunnerOptions, &Garden) -> Result<Opened, OpenError>,
    /// What the offline rehearsal brain needs of the genome's settings (a small context
    /// window, so that compaction shows within minutes).
    pub rehearse: fn(&mut RunnerConfig),
    /// Its own table under `[runner]` in the config file, when it has one.
    pub config: Option<ConfigSection>,
    /// It asks for embeddings (so the local hashing ones are worth a warning).
    pub embeds: bool,
}

/// [`HostedGenome::open`] for a genome `G` that starts from its default state.
pub fn open_as<G: Genome + Default>(
    opts: RunnerOptions,
    garden: &Garden,
) -> Result<Opened, OpenError> {
    Runner::open_genome(opts, G::default()).map(|runner| Opened::of(runner, garden))
}

/// [`HostedGenome::rehearse`] for a genome the rehearsal needs nothing of.
pub fn nothing_to_rehearse(_: &mut RunnerConfig) {}
