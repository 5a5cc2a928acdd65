//! The emergence genome's IO, run by the driver: its appends, and the restore (a fold of
//! its files by the memory model, `memory::emergence`, the observatory's own readers).

use std::collections::BTreeMap;

use super::calendar::Event;
use super::{
    DiaryEntry, Emergence, EmergenceDone, EmergenceIo, EmergenceRestored, IdKind, Memory, Relation,
    Said, SoulEntry, Summary, SummaryKind, Todo,
};
use crate::genomes::emergence::memory::summaries::SummaryKind as ReadKind;
use crate::genomes::emergence::memory::{EmergenceMemory, FILES};
use crate::memory::identity::Birth;
use crate::memory::time::format_time;
use crate::memory::write::SeedPaths;
use crate::runner::genome::{
    GenomeFiles, GenomeRestore, Performed, append_lines, file_name, file_path as path,
};
use crate::tail::read_bounded;

/// A genome file is read whole at restore up to this size; past it, a problem line.
const MAX_FILE: u64 = 256 << 20;

/// The genome's files folded by the memory model. Bad lines are counted, listed in
/// `errors`, and skipped.
pub fn fold(paths: &SeedPaths, errors: &mut Vec<String>) -> EmergenceMemory {
    let mut mem = EmergenceMemory::default();
    for file in FILES {
        let bytes = match read_bounded(&path(paths, file), MAX_FILE) {
            Ok(Some(b)) => b,
            Ok(None) => continue,
            Err(e) => {
                errors.push(format!("{}: {e}", file_name(file)));
                continue;
            }
        };
        let mut bad = 0;
        let lines = bytes
            .split(|b| *b == b'\n')
            .filter(|l| !l.iter().all(u8::is_ascii_whitespace));
        for (n, line) in lines.enumerate() {
            if mem.fold(file, n as u64, line).is_err() {
                bad += 1;
            }
        }
        if bad > 0 {
            errors.push(format!("{}: {bad} bad line(s) skipped", file_name(file)));
        }
    }
    mem
}

/// What the genome restores from the folded files.
pub fn restored(mem: &EmergenceMemory) -> EmergenceRestored {
    let summaries: Vec<Summary> = mem
        .summaries
        .all()
        .filter_map(|s| {
            let kind = match s.kind {
                ReadKind::Memories => SummaryKind::Memories,
                ReadKind::Conversations => SummaryKind::Conversations,
                ReadKind::Other(_) => return None,
            };
            Some(Summary {
                id: s.id.clone(),
                t: s.t.unwrap_or_default(),
                kind,
                focus: s.focus.clone().unwrap_or_default(),
                text: s.text.clone(),
                covers: s.covers.clone(),
                folded: s.folded.clone(),
                watermark: s.watermark.clone(),
                from: s.from.clone(),
            })
        })
        .collect();
    // Which conversation summary of its own covers each dialogue line.
    let mut covered: BTreeMap<&str, &str> = BTreeMap::new();
    for s in summaries
        .iter()
        .filter(|s| s.kind == SummaryKind::Conversations && s.from.is_none())
    {
        for id in &s.covers {
            covered.insert(id, &s.id);
        }
    }
    let dialogues = mem
        .dialogues
        .all()
        .map(|d| Said {
            id: d.id.clone(),
            t: d.t.unwrap_or_default(),
            with: d.with.clone(),
            from: d.from.clone(),
            text: d.text.clone(),
            summary: covered
                .get(d.id.as_str())
                .map(|s| (*s).to_string())
                .or_else(|| d.archived.clone()),
            archived: d.archived.is_some(),
        })
        .collect();
    let next_ids = [
        (IdKind::Soul, crate::genomes::emergence::memory::SOUL),
        (IdKind::Memory, crate::genomes::emergence::memory::LONG_TERM),
        (
            IdKind::Summary,
            crate::genomes::emergence::memory::SUMMARIES,
        ),
        (IdKind::Todo, crate::genomes::emergence::memory::TODOS),
        (IdKind::Event, crate::genomes::emergence::memory::CALENDAR),
        (IdKind::Said, crate::genomes::emergence::memory::DIALOGUES),
    ]
    .into_iter()
    .map(|(kind, file)| (kind, mem.counts(file).max_number))
    .collect();
    let self_cares = self_cares(&summaries);
    EmergenceRestored {
        soul: mem
            .soul
            .entries()
            .map(|e| SoulEntry {
                id: e.id.clone(),
                text: e.text.clone(),
            })
            .collect(),
        memories: mem
            .longterm
            .all()
            .map(|m| Memory {
                id: m.id.clone(),
                t: m.t.unwrap_or_default(),
                text: m.text.clone(),
                archived: m.archived.clone(),
                from: m.from.clone(),
            })
            .collect(),
        diary: mem
            .diary
            .days()
            .map(|d| {
                let entry = DiaryEntry {
                    text: d.text.clone(),
                    mood: d.mood.clone(),
                    location: d.location.clone(),
                };
                (d.date, entry)
            })
            .collect(),
        todos: mem
            .todos
            .all()
            .map(|t| Todo {
                id: t.id.clone(),
                title: t.title.clone(),
                description: t.description.clone().unwrap_or_default(),
                priority: t.priority.clone().unwrap_or_else(|| "medium".into()),
                due: t.due.map(|d| match d {
                    crate::genomes::emergence::memory::todos::Due::Date(d) => {
                        d.format("%Y-%m-%d").to_string()
                    }
                    crate::genomes::emergence::memory::todos::Due::At(t) => format_time(t),
                }),
                done: t.done,
            })
            .collect(),
        calendar: mem
            .calendar
            .events()
            .map(|e| Event {
                id: e.id.clone(),
                at: e.at,
                location: e.location.clone().unwrap_or_default(),
                description: e.description.clone(),
                recurrence: e.recurrence.clone(),
            })
            .collect(),
        relations: mem
            .relations
            .agents()
            .filter_map(|a| {
                let r = a.current()?;
                let relation = Relation {
                    relationship_type: r.relationship_type.clone().unwrap_or_default(),
                    trust_level: r.trust_level,
                    emotional_tone: r.emotional_tone.clone().unwrap_or_default(),
                    rationale: r.rationale.clone().unwrap_or_default(),
                    interaction_count: r.interaction_count.unwrap_or(0),
                    first_met_at: r.first_met_at,
                    notes: r.notes.clone().unwrap_or_default(),
                };
                Some((a.agent.clone(), relation))
            })
            .collect(),
        dialogues,
        last_self_care_at: summaries
            .iter()
            .rev()
            .find(|s| s.from.is_none())
            .map(|s| s.t),
        self_cares,
        summaries,
        next_ids,
        name: String::new(),
    }
}

/// Self-cares on disk: each begins with a memory summary of its own that follows a
/// conversation summary, or another focus, or nothing.
fn self_cares(summaries: &[Summary]) -> u64 {
    let mut n = 0;
    let mut last: Option<&Summary> = None;
    for s in summaries.iter().filter(|s| s.from.is_none()) {
        let starts = s.kind == SummaryKind::Memories
            && last.is_none_or(|l| l.kind == SummaryKind::Conversations || l.focus != s.focus);
        n += u64::from(starts);
        last = Some(s);
    }
    n
}

/// BIRTH.json's name, else the directory's.
fn name_of(paths: &SeedPaths) -> String {
    read_bounded(&paths.birth(), MAX_FILE)
        .ok()
        .flatten()
        .and_then(|b| Birth::parse(&b).ok())
        .map(|b| b.name)
        .filter(|n| !n.trim().is_empty())
        .or_else(|| {
            paths
                .root
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
        })
        .unwrap_or_default()
}

#[derive(Default)]
pub struct EmergenceFiles;

impl GenomeFiles<Emergence> for EmergenceFiles {
    fn restore(&mut self, paths: &SeedPaths) -> GenomeRestore<EmergenceRestored> {
        let mut errors = Vec::new();
        let mem = fold(paths, &mut errors);
        let mut state = restored(&mem);
        state.name = name_of(paths);
        GenomeRestore {
            lived: FILES.iter().any(|f| mem.counts(*f).lines > 0),
            last_consolidated: state.last_self_care_at,
            state,
            errors,
        }
    }

    fn refresh(_paths: &SeedPaths) -> ((), Vec<String>) {
        ((), Vec::new())
    }

    fn perform(&mut self, paths: &SeedPaths, io: EmergenceIo) -> Performed<EmergenceDone> {
        match io {
            EmergenceIo::Append { file, lines } => append_lines(paths, file, &lines),
        }
    }
}
