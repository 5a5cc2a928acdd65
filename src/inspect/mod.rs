//! `dreamwatch inspect`: the headless face of the memory model. A summary of creatures
//! as text or JSON, or (`--follow`) one JSON line per change.

pub mod at;
pub mod export;
mod far_openseed;
mod wire;

use std::io::{Stdout, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use chrono::{DateTime, Utc};
use serde_json::{Value, json};

use crate::memory::creature::{Change, Creature};
use crate::memory::cycle::Cycle;
use crate::memory::figures::{counted, time};
use crate::memory::garden::{Garden, Root};
use crate::memory::layout::FileKind;
use crate::memory::status::Status;
use crate::memory::summary::Summary;
use crate::text::sanitize::{inert_json, sanitize, sanitize_line};
use crate::watch::{LiveChange, LiveGarden, WatchOptions};

/// What `dreamwatch inspect` was asked for.
#[derive(Debug, Clone, Default)]
pub struct InspectOptions {
    /// Creature directories or gardens.
    pub paths: Vec<PathBuf>,
    /// One JSON object instead of text.
    pub json: bool,
    /// Keep running and print one JSON line per change.
    pub follow: bool,
    /// With `follow`: the wire protocol a far observatory reads (`remote::wire`).
    pub wire: bool,
    pub watch: WatchOptions,
    /// The constants fatigue, status and cadence are derived with.
    pub cycle: Cycle,
    /// `--at`: each creature as it was at this moment (the flight recorder).
    pub at: Option<crate::recorder::At>,
}

pub fn run(args: InspectOptions) -> ExitCode {
    let mut roots = Vec::new();
    let mut bad = false;
    for path in &args.paths {
        match Root::classify(path) {
            Ok(root) => roots.push(root),
            Err(e) => {
                eprintln!("dreamwatch inspect: {}", sanitize_line(&e.to_string()));
                bad = true;
            }
        }
    }
    if bad {
        return ExitCode::from(2);
    }
    let k = args.cycle;
    if args.follow && args.wire {
        return wire::run(roots, args.watch);
    }
    if args.follow {
        return follow(roots, args.watch, &k);
    }
    let mut garden = Garden::new(roots);
    garden.scan();
    if let Some(at) = args.at {
        let paths: Vec<PathBuf> = garden.creatures().cloned().collect();
        return at::run(&paths, at, args.json, &k);
    }
    let now = Utc::now();
    let mut out = std::io::stdout().lock();
    // One creature open at a time, written and let go: a garden of 20,000 costs what one
    // does, not 20,000 models and their JSON at once.
    let written = if args.json {
        write_json(&mut out, garden.creatures(), now, &k)
    } else {
        garden
            .creatures()
            .try_for_each(|p| write_text(&mut out, &Creature::open(p), now, &k))
    };
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => write_failed(&e),
    }
}

/// How a failed write of the output ends the command (a closed pipe is no failure).
fn write_failed(e: &std::io::Error) -> ExitCode {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        return ExitCode::SUCCESS;
    }
    eprintln!("dreamwatch inspect: {e}");
    ExitCode::from(1)
}

/// `{"creatures": [...]}` on one line, each creature opened, written and dropped in turn.
fn write_json<'a>(
    out: &mut impl Write,
    paths: impl Iterator<Item = &'a std::path::PathBuf>,
    now: DateTime<Utc>,
    k: &Cycle,
) -> std::io::Result<()> {
    out.write_all(b"{\"creatures\":[")?;
    for (i, path) in paths.enumerate() {
        if i > 0 {
            out.write_all(b",")?;
        }
        let c = Creature::open(path);
        out.write_all(json_line(&creature_json(&c, now, k)).as_bytes())?;
    }
    out.write_all(b"]}\n")?;
    out.flush()
}

/// The status as a JSON value: `"awake"`, `"deep_sleep"`, ...
fn status_name(status: &Status) -> String {
    status.label().replace(' ', "_")
}

/// Whether a dreamwatch runner hosted the creature (`runner.json`) and no longer runs.
fn runner_gone(c: &Creature) -> bool {
    c.runner().is_some() && !c.runner_probe().alive
}

/// One creature as the documented `inspect --json` object.
pub fn creature_json(c: &Creature, now: DateTime<Utc>, k: &Cycle) -> Value {
    let s = c.summary(now, k);
    let events = c.events();
    let genome = c.genome();
    let mut value = json!({
        "name": s.name,
        "genome": genome,
        "path": s.path,
        "model": s.model,
        "status": status_name(&s.status),
        "runner_gone": runner_gone(c),
        "wakes_at": time(s.status.wakes_at()),
        "fatigue": s.fatigue,
        "dreams": s.dreams,
        "deep_sleeps": s.deep_sleeps,
        "deep_every": s.deep_every,
        "dreams_until_deep": s.dreams_until_deep,
        "observations": s.observations,
        "last_dream": c.dream_log().last().map(|d| json!({
            "t": time(d.t),
            "reflection": d.reflection,
            "priority": d.priority,
            "deep": d.deep,
            "actions": d.actions,
            "observations": d.observations,
        })),
        "last_activity": time(s.last_activity),
        "priorities": c.priorities().items,
        "rules": c.rules().len(),
        "diary_entries": c.diary().len(),
        "conversation": {
            "entries": c.conversation().entries(),
            "bad_lines": c.conversation().bad_lines(),
            "counting": c.conversation().counting(),
        },
        "events": { "entries": events.lines, "bad_lines": events.bad_lines },
        "problems": c.problems(),
        "problems_not_listed": c.problems_dropped(),
    });
    // A guardrail's morning report (`.sys/guardrail.json`), and whether it holds the
    // creature asleep.
    if let (Some(report), Value::Object(fields)) = (c.guardrail(), &mut value) {
        let mut said = serde_json::to_value(report).unwrap_or(Value::Null);
        if let Value::Object(r) = &mut said {
            r.insert("held".into(), report.held().into());
        }
        fields.insert("guardrail".into(), said);
    }
    // The genome's own figures, under its name.
    if let (Some(memory), Value::Object(fields)) = (c.genome_memory(), &mut value) {
        fields.insert(genome.name().to_string(), memory.figures(now));
    }
    value
}

fn write_text(
    out: &mut impl Write,
    c: &Creature,
    now: DateTime<Utc>,
    k: &Cycle,
) -> std::io::Result<()> {
    let s: Summary = c.summary(now, k);
    writeln!(
        out,
        "{}  ({})",
        sanitize_line(&s.name),
        sanitize_line(&s.path.display().to_string())
    )?;
    let wake = s
        .status
        .wakes_at()
        .map(|t| format!(", wakes {}", t.format("%Y-%m-%d %H:%M:%S UTC")))
        .unwrap_or_default();
    // A dreamwatch runner hosted it and is gone: its files are as the runner left them
    // (a mode or a sleep they name is not going on now), as the observatory says it.
    let gone = if runner_gone(c) {
        " · runner gone (its files are as the runner left them)"
    } else {
        ""
    };
    writeln!(out, "  status        {}{wake}{gone}", s.status.label())?;
    if let Some(report) = c.guardrail().filter(|r| r.held()) {
        writeln!(out, "  guardrail     {}", sanitize_line(&report.headline()))?;
        for line in report.lines() {
            writeln!(out, "    {}", sanitize_line(&line))?;
        }
    }
    if let Some(model) = &s.model {
        writeln!(out, "  model         {}", sanitize_line(model))?;
    }
    let genome = c.genome();
    writeln!(out, "  genome        {}", sanitize_line(genome.name()))?;
    match c.genome_memory() {
        Some(memory) => memory.write_text(out, now)?,
        None => write_contract(out, c, &s, k)?,
    }
    let conv = c.conversation();
    writeln!(
        out,
        "  conversation  {}, {}",
        counted(conv.entries(), "entry", "entries"),
        counted(conv.bad_lines(), "bad line", "bad lines")
    )?;
    if let Some(t) = s.last_activity {
        writeln!(out, "  last activity {}", t.format("%Y-%m-%d %H:%M:%S UTC"))?;
    }
    let problems = c.problems();
    if !problems.is_empty() {
        writeln!(
            out,
            "  problems      {}",
            problems.len() as u64 + c.problems_dropped()
        )?;
        for p in problems.iter().take(10) {
            let line = p.line.map(|l| format!(":{l}")).unwrap_or_default();
            writeln!(
                out,
                "    {}{line}: {}",
                sanitize_line(&p.file),
                sanitize_line(&p.what)
            )?;
        }
    }
    writeln!(out)
}

/// The figures of the OpenSeed contract: fatigue, dreams, observations, the last dream,
/// priorities.
fn write_contract(
    out: &mut impl Write,
    c: &Creature,
    s: &Summary,
    k: &Cycle,
) -> std::io::Result<()> {
    let o = s.observations;
    writeln!(
        out,
        "  fatigue       {} / {} (warning at {})",
        s.fatigue, k.fatigue_limit, k.fatigue_warning
    )?;
    writeln!(
        out,
        "  dreams        {} ({} deep, every {}; next deep in {})",
        s.dreams, s.deep_sleeps, s.deep_every, s.dreams_until_deep
    )?;
    writeln!(
        out,
        "  observations  RED {}  YLW {}  GRN {}  other {}",
        o.red, o.ylw, o.grn, o.other
    )?;
    if let Some(d) = c.dream_log().last() {
        let when =
            d.t.map(|t| t.format("%Y-%m-%d %H:%M").to_string())
                .unwrap_or_default();
        writeln!(
            out,
            "  last dream    {when}{}",
            if d.deep { " (deep)" } else { "" }
        )?;
        writeln!(out, "    reflection  {}", indented(&d.reflection, 16))?;
        writeln!(out, "    priority    {}", indented(&d.priority, 16))?;
    }
    for (i, p) in c.priorities().items.iter().enumerate() {
        writeln!(out, "  priority {}    {}", i + 1, indented(p, 16))?;
    }
    Ok(())
}

/// `n` and its noun, singular for one: `1 entry`, `2 entries`.
/// Text made inert for a terminal, its lines after the first indented by `column` spaces
/// (so a multi-line reflection reads as a block under its label).
fn indented(text: &str, column: usize) -> String {
    let pad = format!("\n{}", " ".repeat(column));
    sanitize(text.trim_end()).replace('\n', &pad)
}

/// `--follow`: one JSON line per change, until interrupted.
fn follow(roots: Vec<Root>, watch: WatchOptions, k: &Cycle) -> ExitCode {
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("dreamwatch inspect: cannot start: {e}");
            return ExitCode::from(1);
        }
    };
    runtime.block_on(async {
        let (mut live, mut rx) = LiveGarden::open(roots, watch);
        let mut last: std::collections::BTreeMap<std::path::PathBuf, Summary> = Default::default();
        let mut out = std::io::stdout();
        for (path, c) in live.creatures() {
            let s = c.summary(Utc::now(), k);
            emit(&mut out, json!({"event": "creature_added", "creature": s.name, "path": path, "summary": creature_json(c, Utc::now(), k)}));
            last.insert(path.clone(), s);
        }
        let mut tick = tokio::time::interval(std::time::Duration::from_secs(1));
        loop {
            let changes = tokio::select! {
                batch = rx.recv() => match batch {
                    Some(batch) => live.apply(&batch),
                    None => break,
                },
                _ = tick.tick() => Vec::new(),
                _ = tokio::signal::ctrl_c() => break,
            };
            let now = Utc::now();
            for change in changes {
                match change {
                    LiveChange::Added(path) => {
                        if let Some(c) = live.creature(&path) {
                            emit(&mut out, json!({"event": "creature_added", "creature": c.name(), "path": path, "summary": creature_json(c, now, k)}));
                            last.insert(path, c.summary(now, k));
                        }
                    }
                    LiveChange::Removed(path) => {
                        let name = last.remove(&path).map(|s| s.name).unwrap_or_default();
                        emit(&mut out, json!({"event": "creature_removed", "creature": name, "path": path}));
                    }
                    LiveChange::Changed(path, changes) => {
                        if let Some(c) = live.creature(&path) {
                            for change in changes {
                                for line in change_json(c, &change) {
                                    emit(&mut out, line);
                                }
                            }
                        }
                    }
                }
            }
            for (path, c) in live.creatures() {
                let mut s = c.summary(now, k);
                // A creature being removed loses BIRTH.json before its directory goes: it
                // keeps the name it was known by (identity is written once).
                if c.birth().is_none()
                    && let Some(before) = last.get(path)
                {
                    s.name.clone_from(&before.name);
                }
                if let Some(before) = last.get(path) {
                    if before.status != s.status {
                        emit(&mut out, json!({"event": "status", "creature": s.name, "from": status_name(&before.status), "to": status_name(&s.status), "wakes_at": time(s.status.wakes_at())}));
                    }
                    if before.fatigue != s.fatigue {
                        emit(&mut out, json!({"event": "fatigue", "creature": s.name, "from": before.fatigue, "to": s.fatigue}));
                    }
                }
                last.insert(path.clone(), s);
            }
        }
    });
    ExitCode::SUCCESS
}

fn emit(out: &mut Stdout, value: Value) {
    let line = json_line(&value);
    // A closed pipe ends nothing here: the loop stops at the next signal or channel close.
    let _ = writeln!(out, "{line}").and_then(|()| out.flush());
}

/// One JSON value as a line, terminal or not (a pipe often ends on one: `| less -R`,
/// `| tee`). JSON escapes only C0 controls: the rest that a terminal may obey (DEL, C1
/// controls such as CSI U+009B, bidi overrides) is written as `\uXXXX` escapes, so the
/// line says the same to a JSON reader and nothing to a terminal.
fn json_line(value: &Value) -> String {
    inert_json(&value.to_string())
}

/// The most characters of a conversation entry's text a `--follow` line carries.
const FOLLOW_TEXT_MAX: usize = 2000;

/// The JSON lines one model change produces.
fn change_json(c: &Creature, change: &Change) -> Vec<Value> {
    let name = c.name();
    match change {
        Change::ObservationsAdded(added) => added
            .iter()
            .map(|o| json!({"event": "observation", "creature": name, "priority": o.priority, "time": o.time, "text": o.text, "legacy": o.legacy}))
            .collect(),
        Change::ObservationsRewritten => vec![json!({"event": "observations_rewritten", "creature": name, "counts": c.observation_counts()})],
        Change::Dream(d) => vec![json!({"event": "dream", "creature": name, "t": time(d.t), "reflection": d.reflection, "priority": d.priority, "deep": d.deep, "actions": d.actions, "observations": d.observations})],
        Change::Conversation { new_entries } => {
            let recent = c.conversation().recent();
            let skip = recent.len().saturating_sub(*new_entries as usize);
            recent
                .iter()
                .skip(skip)
                .map(|(line, e)| {
                    let (text, text_cut) = e.text(FOLLOW_TEXT_MAX);
                    json!({"event": "conversation", "creature": name, "line": line + 1, "t": time(e.t), "role": e.role, "tool_calls": e.tool_calls(), "cut": e.content.is_cut(), "text": text, "text_cut": text_cut})
                })
                .collect()
        }
        Change::ConversationCounted => vec![json!({"event": "conversation_counted", "creature": name, "entries": c.conversation().entries(), "bad_lines": c.conversation().bad_lines()})],
        Change::DreamsCounted => vec![json!({"event": "dreams_counted", "creature": name, "dreams": c.dream_log().count(), "deep": c.dream_log().deep_count()})],
        Change::Reset(kind) => vec![json!({"event": "reread", "creature": name, "file": file_label(*kind)})],
        Change::Problem(p) => vec![json!({"event": "problem", "creature": name, "problem": p})],
        Change::Diary => vec![json!({"event": "diary", "creature": name, "entries": c.diary().len()})],
        Change::Priorities => vec![json!({"event": "priorities", "creature": name, "items": c.priorities().items})],
        Change::Genome(kind) => c.genome_memory().map_or_else(Vec::new, |memory| {
            let mut line = serde_json::Map::new();
            line.insert("event".into(), json!(c.genome().name()));
            line.insert("creature".into(), json!(name));
            line.insert("file".into(), json!(kind.candidates().first()));
            line.extend(memory.file_figures(*kind, Utc::now()));
            vec![Value::Object(line)]
        }),
        _ => Vec::new(),
    }
}

/// A kind of file as `--follow` names it: `Conversation`, or a genome file's name.
fn file_label(kind: FileKind) -> String {
    match kind {
        FileKind::Genome(file) => file.file_name().to_string(),
        kind => format!("{kind:?}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_lines_are_inert_and_say_the_same() {
        let value = json!({"name": "a\u{9b}31mb\u{7f}\u{202e}c\u{1b}[2J"});
        let shown = json_line(&value);
        assert!(
            !shown
                .chars()
                .any(|c| c.is_control() || ('\u{202a}'..='\u{202e}').contains(&c)),
            "{shown:?}"
        );
        let back: Value = serde_json::from_str(&shown).unwrap();
        assert_eq!(back, value);
    }
}
