//! The stand-in's mail and narrator, as OpenSeed's orchestrator has them (815f9fd:
//! `src/shared/mail.ts`, `src/host/index.ts:655-688, 1011-1115`, `src/host/narrator.ts`):
//! - mail is files, `MAIL_DIR/NAME/{inbox,sent,archived}/ID.json` (its mail directory is
//!   a directory of its own, or OpenSeed's home's `mail/`: [`StandIn::keep_mail_in`]);
//!   sending writes the recipient's inbox and the sender's `sent`, makes both mailboxes,
//!   and wakes a sleeping recipient (`creature.wake`, source `mail`) or tells an awake one
//!   (`creature.message`, source `system`); the recipient must be supervised (404, JSON);
//!   a bad name or id is a 400 with a JSON body and no content type, as are `read` and
//!   `archive`'s `200 {"ok":true}`;
//! - the narration is `narration.jsonl`'s entries, the last `limit` (at most 100, 20 when
//!   not said) oldest first; a new one is streamed as `narrator.entry` for `_narrator`;
//!   its config `{enabled, model, interval_minutes}`, a `PUT` of none of them valid
//!   answering `400 nothing to update`.

use std::path::{Path, PathBuf};

use chrono::Duration;
use serde_json::{Value, json};
use tokio::sync::broadcast;

use super::{JSON, NONE, Seen, Shared, StandIn, emit};

impl StandIn {
    /// Its mail is kept in `dir` (OpenSeed's home's `mail/`, for a test that reads the
    /// files as dreamwatch does where the home is on its machine).
    pub fn keep_mail_in(&self, dir: &Path) {
        self.state.lock().unwrap().mail_dir = dir.to_path_buf();
    }

    /// `from` mails `to` as a creature's own mail tool does (no recipient check); the
    /// message's id.
    pub fn mail(&self, from: &str, to: &str, subject: &str, body: &str) -> String {
        let mut state = self.state.lock().unwrap();
        state.clock += Duration::seconds(1);
        let t = state
            .clock
            .to_rfc3339_opts(chrono::SecondsFormat::Millis, true);
        state.mails += 1;
        let id = mail_id(state.mails);
        write_mail(&state.mail_dir, &id, from, to, subject, body, &t);
        id
    }

    /// The message `id` in `mailbox`'s `folder` (`inbox`, `sent`, `archived`), if there.
    pub fn mail_file(&self, mailbox: &str, folder: &str, id: &str) -> Option<Value> {
        let dir = self.state.lock().unwrap().mail_dir.clone();
        let text =
            std::fs::read_to_string(dir.join(mailbox).join(folder).join(format!("{id}.json")))
                .ok()?;
        serde_json::from_str(&text).ok()
    }

    /// The narrator tells a new entry: kept, and streamed as `narrator.entry`.
    pub fn narrate(&self, text: &str, mentioned: &[&str]) {
        let t = emit(
            &self.state,
            &self.events,
            "_narrator",
            json!({"type": "narrator.entry", "text": text, "creatures_mentioned": mentioned}),
        );
        let mut state = self.state.lock().unwrap();
        state.narration.push(
            json!({"t": t, "text": text, "creatures_mentioned": mentioned,
            "events_count": 3}),
        );
    }

    /// The narrator's config as it now is.
    pub fn narrator_config(&self) -> Value {
        self.state.lock().unwrap().narrator_config.clone()
    }
}

/// The narrator's defaults (`src/host/config.ts:34`).
pub(super) fn default_narrator_config() -> Value {
    json!({"enabled": true, "model": "claude-sonnet-4-6", "interval_minutes": 5})
}

/// A uuid-shaped id, the `n`th.
fn mail_id(n: u64) -> String {
    format!("{n:08x}-0000-4000-8000-{n:012x}")
}

fn valid_name(name: &str) -> bool {
    name.chars()
        .next()
        .is_some_and(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

fn valid_id(id: &str) -> bool {
    id.len() == 36 && id.chars().all(|c| matches!(c, 'a'..='f' | '0'..='9' | '-'))
}

fn error(status: u16, content_type: &'static str, text: &str) -> (u16, &'static str, String) {
    (status, content_type, json!({"error": text}).to_string())
}

fn bad_name(name: &str) -> (u16, &'static str, String) {
    error(400, NONE, &format!("invalid creature name: \"{name}\""))
}

/// `ensureMailbox`, then the message written to `to`'s inbox and `from`'s `sent`.
fn write_mail(dir: &Path, id: &str, from: &str, to: &str, subject: &str, body: &str, t: &str) {
    let msg = json!({"id": id, "from": from, "to": to, "subject": subject, "body": body,
        "timestamp": t, "read": false});
    for name in [from, to] {
        for folder in ["inbox", "sent", "archived"] {
            std::fs::create_dir_all(dir.join(name).join(folder)).unwrap();
        }
    }
    let text = serde_json::to_string_pretty(&msg).unwrap();
    std::fs::write(dir.join(to).join("inbox").join(format!("{id}.json")), &text).unwrap();
    std::fs::write(
        dir.join(from).join("sent").join(format!("{id}.json")),
        &text,
    )
    .unwrap();
}

/// `readInbox`: the inbox's messages, newest first (corrupt files skipped).
fn read_inbox(dir: &Path) -> Vec<Value> {
    let mut messages: Vec<Value> = std::fs::read_dir(dir.join("inbox"))
        .into_iter()
        .flatten()
        .filter_map(Result::ok)
        .filter(|e| e.path().extension().is_some_and(|x| x == "json"))
        .filter_map(|e| serde_json::from_str(&std::fs::read_to_string(e.path()).ok()?).ok())
        .collect();
    messages.sort_by(|a: &Value, b: &Value| b["timestamp"].as_str().cmp(&a["timestamp"].as_str()));
    messages
}

/// The mail and narrator routes; `None` for any other.
pub(super) fn route(
    state: &Shared,
    events: &broadcast::Sender<String>,
    seen: &Seen,
    path: &[&str],
    query: &str,
) -> Option<(u16, &'static str, String)> {
    let mail_dir: PathBuf = state.lock().unwrap().mail_dir.clone();
    Some(match (seen.method.as_str(), path) {
        ("GET", ["api", "mail", "directory"]) => {
            let mut boxes: Vec<(String, Value)> = std::fs::read_dir(&mail_dir)
                .into_iter()
                .flatten()
                .filter_map(Result::ok)
                .filter(|e| e.path().is_dir())
                .filter_map(|e| e.file_name().into_string().ok())
                .filter(|n| valid_name(n))
                .map(|n| {
                    let inbox = read_inbox(&mail_dir.join(&n));
                    let unread = inbox.iter().filter(|m| m["read"] != json!(true)).count();
                    let entry = json!({"creature": n, "total": inbox.len(), "unread": unread});
                    (n, entry)
                })
                .collect();
            boxes.sort_by(|a, b| a.0.cmp(&b.0));
            let list: Vec<Value> = boxes.into_iter().map(|(_, v)| v).collect();
            (200, JSON, Value::from(list).to_string())
        }
        ("POST", ["api", "creatures", from, "mail"]) => send(state, events, seen, from),
        ("GET", ["api", "creatures", name, "mail"]) => {
            if !valid_name(name) {
                return Some(bad_name(name));
            }
            let messages = read_inbox(&mail_dir.join(name));
            let unread = messages.iter().filter(|m| m["read"] != json!(true)).count();
            (
                200,
                JSON,
                json!({"total": messages.len(), "unread": unread, "messages": messages})
                    .to_string(),
            )
        }
        ("GET", ["api", "creatures", name, "mail", id]) => {
            if !valid_id(id) {
                return Some(error(400, NONE, "invalid message id"));
            }
            match std::fs::read_to_string(
                mail_dir.join(name).join("inbox").join(format!("{id}.json")),
            ) {
                Ok(raw) => (200, JSON, raw),
                Err(_) => error(404, NONE, "not found"),
            }
        }
        ("POST", ["api", "creatures", name, "mail", id, "read"]) => {
            if !valid_name(name) {
                return Some(bad_name(name));
            }
            let file = mail_dir.join(name).join("inbox").join(format!("{id}.json"));
            if valid_id(id)
                && let Some(mut msg) = std::fs::read_to_string(&file)
                    .ok()
                    .and_then(|t| serde_json::from_str::<Value>(&t).ok())
                && msg["read"] != json!(true)
            {
                msg["read"] = json!(true);
                std::fs::write(&file, serde_json::to_string_pretty(&msg).unwrap()).unwrap();
            }
            (200, NONE, json!({"ok": true}).to_string())
        }
        ("POST", ["api", "creatures", name, "mail", id, "archive"]) => {
            if !valid_id(id) {
                return Some(error(400, NONE, "invalid message id"));
            }
            if !valid_name(name) {
                return Some(bad_name(name));
            }
            let base = mail_dir.join(name);
            std::fs::create_dir_all(base.join("archived")).unwrap();
            let file = format!("{id}.json");
            let moved = std::fs::rename(
                base.join("inbox").join(&file),
                base.join("archived").join(&file),
            )
            .is_ok();
            (
                200,
                NONE,
                json!({"ok": true, "archived": u32::from(moved)}).to_string(),
            )
        }
        ("GET", ["api", "narrator", "config"]) => {
            (200, JSON, state.lock().unwrap().narrator_config.to_string())
        }
        ("PUT", ["api", "narrator", "config"]) => {
            let body = &seen.body;
            let mut patch = serde_json::Map::new();
            if let Some(enabled) = body["enabled"].as_bool() {
                patch.insert("enabled".into(), json!(enabled));
            }
            if let Some(model) = body["model"].as_str().filter(|m| !m.is_empty()) {
                patch.insert("model".into(), json!(model));
            }
            if body["interval_minutes"].as_f64().is_some_and(|m| m >= 1.0) {
                patch.insert("interval_minutes".into(), body["interval_minutes"].clone());
            }
            if patch.is_empty() {
                return Some((400, NONE, "nothing to update".into()));
            }
            let mut state = state.lock().unwrap();
            for (k, v) in patch {
                state.narrator_config[k] = v;
            }
            (200, JSON, state.narrator_config.to_string())
        }
        ("GET", ["api", "narration"]) => {
            let limit = query
                .split('&')
                .find_map(|p| p.strip_prefix("limit="))
                .map_or(20, |l| l.parse::<usize>().unwrap_or(20))
                .min(100);
            let state = state.lock().unwrap();
            let all = &state.narration;
            let recent = &all[all.len().saturating_sub(limit)..];
            (200, JSON, Value::from(recent.to_vec()).to_string())
        }
        _ => return None,
    })
}

/// `POST /api/creatures/:from/mail`.
fn send(
    state: &Shared,
    events: &broadcast::Sender<String>,
    seen: &Seen,
    from: &str,
) -> (u16, &'static str, String) {
    let to = seen.body["to"].as_str().unwrap_or_default().to_owned();
    let body = seen.body["body"].as_str().unwrap_or_default().to_owned();
    let subject = seen.body["subject"].as_str().unwrap_or_default().to_owned();
    if to.is_empty() || body.is_empty() {
        return error(400, NONE, "to and body are required");
    }
    let recipient = {
        let state = state.lock().unwrap();
        let supervised: Vec<&String> = state
            .creatures
            .iter()
            .filter(|(_, c)| c.supervised)
            .map(|(n, _)| n)
            .collect();
        if !supervised.contains(&&to) {
            let known: Vec<&str> = supervised.iter().map(|n| n.as_str()).collect();
            return error(
                404,
                JSON,
                &format!(
                    "unknown recipient \"{to}\". known creatures: {}",
                    known.join(", ")
                ),
            );
        }
        state.creatures[&to].clone()
    };
    for name in [from, to.as_str()] {
        if !valid_name(name) {
            return bad_name(name);
        }
    }
    let (id, t, dir) = {
        let mut state = state.lock().unwrap();
        state.clock += Duration::seconds(1);
        let t = state
            .clock
            .to_rfc3339_opts(chrono::SecondsFormat::Millis, true);
        state.mails += 1;
        (mail_id(state.mails), t, state.mail_dir.clone())
    };
    write_mail(&dir, &id, from, &to, &subject, &body, &t);
    if recipient.port.is_some() && recipient.reachable {
        let subject_line = if subject.is_empty() {
            String::new()
        } else {
            format!(" (subject: \"{subject}\")")
        };
        if recipient.status == "sleeping" {
            {
                let mut state = state.lock().unwrap();
                let c = state.creatures.get_mut(&to).unwrap();
                c.status = "running".into();
                c.sleep_reason = None;
            }
            emit(
                state,
                events,
                &to,
                json!({"type": "creature.wake",
                "reason": format!("mail from {from}{subject_line}"), "source": "mail"}),
            );
        } else {
            emit(
                state,
                events,
                &to,
                json!({"type": "creature.message",
                "text": format!("[MAIL] New message from {from}{subject_line}. Check your inbox at a natural pause: ls /mail/inbox/"),
                "source": "system"}),
            );
        }
    }
    (200, JSON, json!({"ok": true, "id": id}).to_string())
}
