//! `dreamwatch run` and `dreamwatch demo`: a runner hosting a creature, headless or with
//! the observatory opened on it (the two wired together here, neither knowing the other).

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use super::AppError;
use super::cli::{Cli, DemoArgs, GenomeArg, RunArgs};
use super::config::{ConfigFile, Watching};
use super::secrets::{Redacting, Secrets, refuse_dumps};
use super::settings::{Flags, Settings};
use crate::control::socket_path;
use crate::llm::{EmbedSettings, Embedder, ProviderKind, ProviderOptions, RetryPolicy};
use crate::memory::cycle::Profile;
use crate::runner::adoption::adoption_needed;
use crate::runner::brain::rehearsal::{self, Rehearsal};
use crate::runner::brain::{Brain, Model};
use crate::runner::driver::{RunReport, RunnerOptions};
use crate::runner::garden::Garden;
use crate::runner::hosting::{HostedGenome, Opened, Stop};
use crate::runner::telemetry::TelemetryOptions;
use crate::telemetry::{Exporter, TelemetryConfig};
use crate::ui::ObservatoryOptions;

/// The demo's garden: one creature of each genome dreamwatch hosts, by name (`demo
/// --genome G` hosts only its own).
const DEMO_GARDEN: [(&str, &str); 3] = [
    ("sprout", "dreamer"),
    ("fern", "evennia"),
    ("moss", "emergence"),
];

/// A genome dreamwatch hosts: its name and the runner part of its plug-in.
type Hosting = (&'static str, &'static HostedGenome);
const DEMO_PURPOSE: &str = "You are a rehearsal creature in a dreamwatch demo, run by the offline \
rehearsal brain: no model, no network. Keep notes of each session in workspace/notes.md, and \
read MESSAGES.md when your creator writes. Other rehearsal creatures live in your garden: \
write to them with send_message.";
fn demo_welcome(name: &str) -> String {
    format!(
        "# Messages\n\nWelcome, {name}. Keep your notes short, and tell me in \
         workspace/notes.md what you found.\n"
    )
}

/// The config file, read once, and the command line over it.
fn settings(cli: &Cli, flags: Flags) -> Result<Settings, AppError> {
    let file = ConfigFile::load(cli.ui.config.as_deref())?;
    let settings = Settings::resolve(&file, flags)?;
    super::warn(&settings.watching.warnings);
    Ok(settings)
}

pub fn run(args: &RunArgs, cli: &Cli, secrets: &Secrets) -> Result<(), AppError> {
    let Settings {
        runner: config,
        watching,
        telemetry,
        guardrails,
    } = settings(
        cli,
        Flags {
            profile: args.profile.map(Profile::from),
            speed: args.speed,
            review_dreams: args.review_dreams,
            unconfined: args.unconfined,
        },
    )?;
    if let Some(parent) = &args.fork {
        let (_, model) = provider_for(args, secrets)?;
        super::recorder::fork(parent, &args.dir, &model)?;
    }
    let dirs = match super::garden::plan(&args.dir, args.creatures)? {
        Some(dirs) => dirs,
        None => vec![args.dir.clone()],
    };
    let mut creatures = Vec::new();
    for dir in dirs {
        if !args.adopt {
            refuse_foreign(&dir)?;
        }
        // In a garden, `--genome` is for the creatures born now; the others keep theirs.
        let asked = if dir.join("BIRTH.json").exists() && args.creatures.is_some() {
            None
        } else {
            args.genome
        };
        let genome = genome_for(&dir, asked.map(GenomeArg::name))?;
        let (provider, model) = provider_for(args, secrets)?;
        let embedder = embedder_for(args, genome, secrets)?;
        let mut opts = RunnerOptions::new(dir, config.clone(), provider, model);
        opts.embedder = embedder;
        opts.purpose = args.purpose.clone();
        opts.max_dreams = args.max_dreams;
        opts.max_sleeps = args.max_sleeps;
        guardrails.apply(&mut opts, &watching);
        creatures.push((opts, genome));
    }
    host(
        creatures,
        args.headless,
        (vec![args.dir.clone()], None),
        cli,
        (watching, telemetry),
        secrets,
    )
}

/// The genome to host: a resumed creature's (its BIRTH.json; a genome dreamwatch does not
/// host, when adopted, is hosted as the default genome), else `--genome`, else the
/// default. Asking another genome for a creature born with one is refused.
fn genome_for(dir: &Path, asked: Option<&str>) -> Result<Hosting, AppError> {
    let fallback = super::genomes::default_hosted();
    let born = crate::runner::adoption::birth_genome(dir)
        .map(|name| super::genomes::hosted(&name).unwrap_or(fallback));
    let asked = match asked {
        Some(name) => Some(super::genomes::hosted(name).ok_or_else(|| {
            AppError::Usage(format!("dreamwatch does not host the {name} genome"))
        })?),
        None => None,
    };
    match (born, asked) {
        (Some(b), Some(a)) if a.0 != b.0 => Err(AppError::Usage(format!(
            "{} was born with the {} genome; a creature keeps its genome (leave out --genome)",
            dir.display(),
            b.0
        ))),
        (Some(g), _) | (None, Some(g)) => Ok(g),
        (None, None) => Ok(fallback),
    }
}

/// Refuses a creature another runner created (see [`adoption`](crate::runner::adoption)).
fn refuse_foreign(dir: &Path) -> Result<(), AppError> {
    match adoption_needed(dir) {
        None => Ok(()),
        Some(why) => Err(AppError::Usage(format!(
            "{} holds a creature not created by dreamwatch ({why}). Hosting it would write \
             its logs, end its sleep and give it this runner's model. \
             `dreamwatch run --adopt {}` takes it over (keeping its name); \
             `dreamwatch {}` only watches it.",
            dir.display(),
            dir.display(),
            dir.display()
        ))),
    }
}

pub fn demo(args: &DemoArgs, cli: &Cli, secrets: &Secrets) -> Result<(), AppError> {
    if !args.headless {
        super::needs_terminal()?;
    }
    let Settings {
        runner: config,
        watching,
        telemetry,
        guardrails,
    } = settings(
        cli,
        Flags {
            speed: args.speed,
            review_dreams: args.review_dreams,
            ..Flags::default()
        },
    )?;
    let planted: Vec<(&str, &str)> = DEMO_GARDEN
        .iter()
        .filter(|(_, g)| args.genome.is_none_or(|asked| asked.name() == *g))
        .copied()
        .collect();
    let temp;
    let garden: PathBuf = match &args.dir {
        Some(d) => {
            check_demo_garden(d)?;
            d.clone()
        }
        None => {
            temp = tempfile::Builder::new()
                .prefix("dreamwatch-demo-")
                .tempdir()
                .map_err(AppError::io("cannot create a temporary garden"))?;
            say!(
                "dreamwatch demo: garden in {} (removed on exit; pass --dir to keep one)",
                temp.path().display()
            );
            temp.path().to_path_buf()
        }
    };
    // Everything is checked before anything is created.
    let mut creatures = Vec::new();
    for (name, genome) in &planted {
        let dir = garden.join(name);
        crate::runner::open::check_dir(&dir).map_err(AppError::Runner)?;
        refuse_foreign(&dir)?;
        creatures.push((dir, genome_for(&garden.join(name), Some(genome))?));
    }
    let mut hosted = Vec::new();
    for (creature, genome) in creatures {
        std::fs::create_dir_all(&creature).map_err(AppError::io(format!(
            "cannot create {}",
            creature.display()
        )))?;
        let messages = creature.join("MESSAGES.md");
        if !messages.exists() && !creature.join("BIRTH.json").exists() {
            std::fs::write(&messages, demo_welcome(&creature_name(&creature)))
                .map_err(AppError::io(format!("cannot write {}", messages.display())))?;
        }
        // One rehearsal per creature: each follows its own script.
        let mut opts = RunnerOptions::new(
            creature,
            config.clone(),
            Arc::new(Rehearsal::new()),
            rehearsal::MODEL.into(),
        );
        opts.purpose = Some(DEMO_PURPOSE.into());
        opts.max_dreams = args.max_dreams;
        opts.max_sleeps = args.max_sleeps;
        guardrails.apply(&mut opts, &watching);
        hosted.push((opts, genome));
    }
    // The observatory's speed keys start from the speed asked for (whole times).
    let speed = (args.speed.round() as u32).max(1);
    host(
        hosted,
        args.headless,
        (vec![garden.clone()], Some(speed)),
        cli,
        (watching, telemetry),
        secrets,
    )?;
    if args.dir.is_some() {
        say!(
            "dreamwatch demo: the garden is kept in {dir}: `dreamwatch {dir}` watches it, \
             `dreamwatch demo --dir {dir}` wakes it again",
            dir = garden.display()
        );
    }
    Ok(())
}

/// Refuses a `demo --dir` that is not a demo's garden: the demo plants its creatures only
/// in a new or empty directory, or in the garden of an earlier demo (its creatures' folders
/// and nothing else), never inside a creature or a project.
fn check_demo_garden(garden: &Path) -> Result<(), AppError> {
    if !garden.exists() {
        return Ok(());
    }
    let refuse = |why: String| {
        AppError::Usage(format!(
            "{} {why}; the demo plants its creatures only in a new or empty directory, or \
             in the garden of an earlier demo",
            garden.display()
        ))
    };
    if !garden.is_dir() {
        return Err(refuse("is not a directory".into()));
    }
    if garden.join(".self").is_dir() || garden.join("BIRTH.json").is_file() {
        return Err(refuse("is a creature, not a garden".into()));
    }
    let entries = std::fs::read_dir(garden)
        .map_err(AppError::io(format!("cannot read {}", garden.display())))?;
    let mut others: Vec<String> = entries
        .flatten()
        .filter(|e| {
            let name = e.file_name();
            let demo = DEMO_GARDEN.iter().any(|(n, _)| name.to_str() == Some(n));
            !(demo && e.path().is_dir())
        })
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    if others.is_empty() {
        return Ok(());
    }
    others.sort();
    let shown = others.len().min(3);
    let more = if others.len() > shown { ", ..." } else { "" };
    Err(refuse(format!(
        "holds other things ({}{more})",
        others[..shown].join(", ")
    )))
}

/// The brain `--provider` asks for, its key from the secrets taken at startup (the
/// environment no longer has it).
fn provider_for(args: &RunArgs, secrets: &Secrets) -> Result<(Arc<dyn Brain>, String), AppError> {
    let kind = ProviderKind::from(args.provider);
    if kind == ProviderKind::Rehearsal {
        return Ok((Arc::new(Rehearsal::new()), rehearsal::MODEL.into()));
    }
    let provider = crate::llm::build_provider_with(
        kind,
        args.model.clone(),
        args.base_url.clone(),
        &|name| secrets.get(name).or_else(|| std::env::var(name).ok()),
        hosted_provider_options(),
    )?;
    let model = args
        .model
        .clone()
        .unwrap_or_else(|| model_of(&provider.label()));
    Ok((Arc::new(Model(Arc::from(provider))), model))
}

/// The embedder `--embed-model` and `--embed-base-url` ask for (see
/// [`crate::llm::build_embedder`]), with the provider's own retries: embeddings are asked
/// for during sleep work, where no creature turn waits on them. The local embedding
/// standing in for a provider without embeddings is said on stderr, once.
fn embedder_for(
    args: &RunArgs,
    genome: Hosting,
    secrets: &Secrets,
) -> Result<Arc<dyn Embedder>, AppError> {
    let chosen = crate::llm::build_embedder(
        ProviderKind::from(args.provider),
        args.base_url.clone(),
        EmbedSettings {
            model: args.embed_model.clone(),
            base_url: args.embed_base_url.clone(),
        },
        &|name| secrets.get(name).or_else(|| std::env::var(name).ok()),
        ProviderOptions::default(),
    )?;
    // Only a genome that embeds needs to hear that its embeddings are the local ones.
    if let Some(warning) = chosen.warning.as_ref().filter(|_| genome.1.embeds) {
        super::warn(std::slice::from_ref(warning));
    }
    Ok(chosen.embedder)
}

/// A hosted creature's provider tries once: the runner's own backoff retries, so that each
/// failure is shown and recorded as it happens (`creature.error` with the next attempt's
/// delay), not after a hidden minute of retries inside the provider.
fn hosted_provider_options() -> ProviderOptions {
    ProviderOptions {
        retry: RetryPolicy {
            max_tries: 1,
            ..RetryPolicy::default()
        },
        ..ProviderOptions::default()
    }
}

/// `anthropic/claude-x @ http://host` -> `claude-x`.
fn model_of(label: &str) -> String {
    let no_base = label.split(" @ ").next().unwrap_or(label);
    no_base
        .split_once('/')
        .map_or(no_base, |(_, m)| m)
        .to_string()
}

/// Runs the creatures headless (progress lines until each is done, or a signal), or in
/// the observatory opened on `watch` with the creatures hosted in-process. Several
/// creatures live in one garden: each can write to the others (`send_message`).
/// `watch`: the directories the observatory watches, and the demo's speed when this is
/// the demo.
fn host(
    creatures: Vec<(RunnerOptions, Hosting)>,
    headless: bool,
    watch: (Vec<PathBuf>, Option<u32>),
    cli: &Cli,
    (watching, telemetry): (Watching, Option<TelemetryConfig>),
    secrets: &Secrets,
) -> Result<(), AppError> {
    refuse_dumps();
    if !headless {
        super::needs_terminal()?;
    }
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(AppError::io("cannot start the async runtime"))?;
    let exporter = telemetry.and_then(|config| {
        let _in = rt.enter();
        match Exporter::start(&config) {
            Ok(e) => Some((e, config.capture)),
            Err(e) => {
                say!("dreamwatch: {e} (telemetry is off)");
                None
            }
        }
    });
    let garden = Arc::new(Garden::new());
    let names: Vec<String> = creatures
        .iter()
        .map(|(o, _)| creature_name(&o.dir))
        .collect();
    let together = creatures.len() > 1;
    let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
    let mut opened = Vec::new();
    for (i, (mut opts, genome)) in creatures.into_iter().enumerate() {
        opts.control_socket = true;
        opts.telemetry = exporter.as_ref().map(|(e, capture)| TelemetryOptions {
            sink: e.sink(),
            capture: *capture,
        });
        opts.tools = Arc::new(Redacting::new(Arc::clone(&opts.tools), secrets));
        if headless {
            let stop = stop_tx.clone();
            opts.progress = Some(Box::new(move |line| print_progress(line, &stop)));
        }
        if opts.brain.kind() == crate::runner::brain::BrainKind::Rehearsal {
            (genome.1.rehearse)(&mut opts.config);
        }
        if together {
            opts.config.garden = names
                .iter()
                .enumerate()
                .filter(|(j, _)| *j != i)
                .map(|(_, n)| n.clone())
                .collect();
            opts.postbox = Some(garden.clone());
        }
        opened.push((genome.1.open)(opts, &garden).map_err(AppError::Runner)?);
    }
    let ended = host_runners(
        opened,
        &rt,
        (stop_tx, stop_rx),
        headless,
        watch,
        cli,
        watching,
    );
    if let Some((exporter, _)) = exporter {
        rt.block_on(exporter.shutdown());
    }
    rt.shutdown_timeout(Duration::from_secs(1));
    ended
}

/// Prints a headless runner's progress line. A reader that went away (`| head`) is a
/// normal end: the runners are asked to stop, and nothing more is printed.
fn print_progress(line: &str, stop: &tokio::sync::watch::Sender<bool>) {
    use std::io::Write;
    if *stop.borrow() {
        return;
    }
    let mut out = std::io::stdout().lock();
    let written =
        writeln!(out, "{}", crate::text::sanitize::sanitize(line)).and_then(|()| out.flush());
    if written.is_err() {
        let _ = stop.send(true);
    }
}

/// The name a creature goes by in its garden: its birth name, else its directory's.
fn creature_name(dir: &Path) -> String {
    crate::runner::adoption::birth_name(dir)
        .or_else(|| dir.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_else(|| "creature".into())
}

fn host_runners(
    opened: Vec<Opened>,
    rt: &tokio::runtime::Runtime,
    (stop_tx, stop_rx): (
        tokio::sync::watch::Sender<bool>,
        tokio::sync::watch::Receiver<bool>,
    ),
    headless: bool,
    (watch, demo_speed): (Vec<PathBuf>, Option<u32>),
    cli: &Cli,
    watching: Watching,
) -> Result<(), AppError> {
    let mut hosted = Vec::new();
    let mut tasks = Vec::new();
    for o in opened {
        if headless {
            say!(
                "dreamwatch: hosting {} in {}; control socket {}; Ctrl-C stops it",
                o.name,
                o.dir.display(),
                socket_path(&o.dir).display()
            );
        }
        let mut rx = stop_rx.clone();
        let stop: Stop = Box::pin(async move {
            let _ = rx.wait_for(|stop| *stop).await;
        });
        hosted.push(o.hosted);
        tasks.push((o.name, rt.spawn((o.run)(stop))));
    }
    let many = tasks.len() > 1;
    let ui = if headless {
        let stop = stop_tx.clone();
        rt.spawn(async move {
            shutdown_signal().await;
            let _ = stop.send(true);
        });
        Ok(())
    } else {
        let options = ObservatoryOptions {
            paths: watch,
            theme: cli.ui.theme.clone(),
            watch: cli.watch.options(watching.observatory.poll_ms),
            config: watching.observatory,
            cycle: watching.cycle,
            warnings: watching.warnings,
            openseed: None,
            read_only: cli.ui.read_only,
            remotes: Vec::new(),
            demo_speed,
        };
        let ui = crate::ui::run_observatory(options, hosted).map_err(AppError::Observatory);
        let _ = stop_tx.send(true);
        ui
    };
    let mut failed = Vec::new();
    for (name, task) in tasks {
        let finished = if headless {
            Ok(rt.block_on(task))
        } else {
            rt.block_on(async { tokio::time::timeout(Duration::from_secs(10), task).await })
        };
        let who = if many {
            format!("{name}: ")
        } else {
            String::new()
        };
        match finished {
            Ok(Ok(report)) => say!("{}", closing_line(&who, &report)),
            Ok(Err(e)) => {
                say!("dreamwatch: {who}the runner ended badly: {e}");
                failed.push(name);
            }
            Err(_) => {
                say!("dreamwatch: {who}the runner did not stop within 10 s; leaving it");
                failed.push(name);
            }
        }
    }
    ui?;
    if failed.is_empty() {
        Ok(())
    } else {
        Err(AppError::RunnerFailed(failed.join(", ")))
    }
}

/// What a hosting run says when it ends, headless or in the observatory.
fn closing_line(who: &str, report: &RunReport) -> String {
    format!(
        "dreamwatch: {who}stopped after {} this run, {} in all",
        crate::text::count(report.dreams_this_run, "dream", "dreams"),
        report.dreams
    )
}

/// Completes on Ctrl-C or SIGTERM.
async fn shutdown_signal() {
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    tokio::select! {
        _ = tokio::signal::ctrl_c() => {}
        () = term => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hosted_provider_leaves_retries_to_the_runner() {
        assert_eq!(hosted_provider_options().retry.max_tries, 1);
    }

    #[test]
    fn model_names_from_labels() {
        assert_eq!(model_of("anthropic/claude-sonnet-4-5"), "claude-sonnet-4-5");
        assert_eq!(
            model_of("openai/llama3 @ http://localhost:11434/v1"),
            "llama3"
        );
        assert_eq!(model_of("odd"), "odd");
    }
}
