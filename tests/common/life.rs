//! A hosted dreamer's life written out by hand, as its runner would leave it: each wake a
//! few events, each sleep a dream that adds one observation (every third RED), and the
//! runner's record (`.sys/recorder/`) with the texts after each sleep. Fixed times (from
//! 2026-11-22 10:00, one wake every half hour), so that screens of its past are the same
//! on every run.

use std::path::Path;

use chrono::{DateTime, TimeDelta, TimeZone, Utc};
use dreamwatch::memory::dream_diff::FileChanges;
use dreamwatch::memory::dream_diffs::DiffRecord;
use dreamwatch::memory::moments::{After, Moment, Store};

/// When the life begins.
pub fn born() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 22, 10, 0, 0).unwrap()
}

/// The observation dream `n` adds.
pub fn observation(n: usize) -> String {
    let level = match n % 3 {
        2 => "RED",
        1 => "YLW",
        _ => "GRN",
    };
    let t = born() + TimeDelta::minutes(30 * (n as i64 - 1) + 6);
    format!("{level} {} what dream {n} kept", t.format("%H:%M"))
}

fn time(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}

fn append(path: &Path, line: &str) -> u64 {
    use std::io::Write;
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .unwrap();
    writeln!(f, "{line}").unwrap();
    std::fs::metadata(path).unwrap().len()
}

/// Writes a dreamer named `name` that lived `dreams` dreams into `root`.
pub fn dreamer(root: &Path, name: &str, dreams: usize) {
    std::fs::create_dir_all(root.join(".self")).unwrap();
    std::fs::create_dir_all(root.join(".sys")).unwrap();
    std::fs::write(
        root.join("BIRTH.json"),
        format!(
            r#"{{"name":"{name}","born":"{}","genome":"dreamer","model":"rehearsal"}}"#,
            time(born())
        ),
    )
    .unwrap();
    std::fs::write(root.join("PURPOSE.md"), "Keep a tidy garden log.\n").unwrap();
    let events = root.join(".sys/events.jsonl");
    let dream_log = root.join(".self/dreams.jsonl");
    let diffs = root.join(".sys/dream-diffs.jsonl");
    let obs_path = root.join(".self/observations.md");
    let store = Store::of_creature(root);
    let mut obs = "# Observations\n\n## 2026-11-22\n\n".to_string();
    std::fs::write(&obs_path, &obs).unwrap();
    for n in 1..=dreams {
        let wake = born() + TimeDelta::minutes(30 * (n as i64 - 1));
        append(
            &events,
            &format!(
                r#"{{"t":"{}","type":"creature.wake","reason":"timer"}}"#,
                time(wake)
            ),
        );
        for (i, cmd) in ["ls", "cat notes.md"].iter().enumerate() {
            let t = wake + TimeDelta::minutes(i as i64 + 1);
            append(
                &events,
                &format!(
                    r#"{{"t":"{}","type":"creature.tool_call","tool":"bash","input":"{cmd}","ok":true,"output":"ok"}}"#,
                    time(t)
                ),
            );
        }
        let sleep = wake + TimeDelta::minutes(5);
        append(
            &events,
            &format!(
                r#"{{"t":"{}","type":"creature.sleep","seconds":1500,"text":"resting after wake {n}","actions":2}}"#,
                time(sleep)
            ),
        );
        let dream_t = sleep + TimeDelta::minutes(1);
        let before = obs.clone();
        obs.push_str(&observation(n));
        obs.push('\n');
        std::fs::write(&obs_path, &obs).unwrap();
        let reflection = format!("Dream {n}: the log is tidier.");
        let dreams_len = append(
            &dream_log,
            &format!(
                r#"{{"t":"{}","actions":2,"reflection":"{reflection}","priority":"{reflection}","observations":1,"deep":false}}"#,
                time(dream_t)
            ),
        );
        let events_len = append(
            &events,
            &format!(
                r#"{{"t":"{}","type":"creature.dream","reflection":"{reflection}","priority":"{reflection}","observations":1,"deep":false}}"#,
                time(dream_t)
            ),
        );
        let record = DiffRecord {
            dream: Some(n as u64),
            t: Some(dream_t),
            file: "observations.md".into(),
            since: None,
            review: None,
            changes: FileChanges::between("observations.md", &before, &obs),
        };
        append(&diffs, &serde_json::to_string(&record).unwrap());
        let hash = store.keep(obs.as_bytes()).unwrap();
        let purpose = store.keep(b"Keep a tidy garden log.\n").unwrap();
        store
            .append(&Moment {
                t: Some(dream_t + TimeDelta::seconds(1)),
                after: After::Sleep,
                full: true,
                docs: [
                    (".self/observations.md".to_string(), hash),
                    ("PURPOSE.md".to_string(), purpose),
                ]
                .into(),
                logs: [
                    (".sys/events.jsonl".to_string(), events_len),
                    (".self/dreams.jsonl".to_string(), dreams_len),
                ]
                .into(),
                dreams: Some(n as u64),
            })
            .unwrap();
    }
    // The last wake, going on now.
    let last = born() + TimeDelta::minutes(30 * dreams as i64);
    append(
        &events,
        &format!(
            r#"{{"t":"{}","type":"creature.wake","reason":"timer"}}"#,
            time(last)
        ),
    );
}
