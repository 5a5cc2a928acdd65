//! A small form for the orchestrator, as its dashboard's dialogs ask: a new creature's
//! name, genome, model and purpose; a daily cap and what happens at it. Fields are
//! typed into, or choose among what the orchestrator offers (Left, Right); Tab and
//! Shift-Tab move between them.

use std::path::PathBuf;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::Frame;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};

use crate::openseed::{CAP_ACTIONS, GenomeInfo, ModelInfo, NarratorConfig};
use crate::ui::draw::DrawContext;
use crate::ui::layout;
use crate::ui::prepare::inert;

/// What the form is for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FormFor {
    Spawn,
    /// The daily cap of this creature (its path, its name), or (`None`) the global one.
    Cap(Option<(PathBuf, String)>),
    /// Mail as the creator.
    Mail,
    /// The narrator's settings.
    Narrator,
}

/// What a spawn's genome or model field says when the orchestrator is to choose.
pub const DEFAULT: &str = "(the orchestrator's default)";

/// The longest text a field takes.
const MAX_TEXT: usize = 2000;

#[derive(Debug, Clone, PartialEq, Eq)]
struct Field {
    label: &'static str,
    /// What is typed (a text field).
    text: String,
    /// What may be chosen (a choice field), and which is.
    choices: Vec<String>,
    chosen: usize,
}

impl Field {
    fn text(label: &'static str, text: String) -> Self {
        Self {
            label,
            text,
            choices: Vec::new(),
            chosen: 0,
        }
    }

    fn choice(label: &'static str, choices: Vec<String>, chosen: usize) -> Self {
        Self {
            label,
            text: String::new(),
            choices,
            chosen,
        }
    }

    fn value(&self) -> &str {
        if self.choices.is_empty() {
            &self.text
        } else {
            self.choices.get(self.chosen).map_or("", String::as_str)
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpenSeedForm {
    pub what: FormFor,
    fields: Vec<Field>,
    /// The field the keys go to.
    at: usize,
    /// Why the last Enter did not send it.
    pub problem: Option<String>,
}

impl OpenSeedForm {
    /// A new creature: its name, a genome and a model of those offered, its purpose.
    pub fn spawn(genomes: &[GenomeInfo], models: &[ModelInfo]) -> Self {
        let mut genome_names = vec![DEFAULT.to_owned()];
        genome_names.extend(genomes.iter().map(|g| g.name.clone()));
        let mut model_ids = vec![DEFAULT.to_owned()];
        model_ids.extend(models.iter().map(|m| m.id.clone()));
        let default = models
            .iter()
            .position(|m| m.is_default)
            .map_or(0, |i| i + 1);
        Self {
            what: FormFor::Spawn,
            fields: vec![
                Field::text("name", String::new()),
                Field::choice("genome", genome_names, 0),
                Field::choice("model", model_ids, default),
                Field::text("purpose", String::new()),
            ],
            at: 0,
            problem: None,
        }
    }

    /// A daily cap, as it is now (`cents`, `action`).
    pub fn cap(of: Option<(PathBuf, String)>, cents: u64, action: &str) -> Self {
        let actions: Vec<String> = CAP_ACTIONS.iter().map(|a| (*a).to_owned()).collect();
        let chosen = actions.iter().position(|a| a == action).unwrap_or(0);
        Self {
            what: FormFor::Cap(of),
            fields: vec![
                Field::text(
                    "daily cap (USD)",
                    format!("{}.{:02}", cents / 100, cents % 100),
                ),
                Field::choice("at the cap", actions, chosen),
            ],
            at: 0,
            problem: None,
        }
    }

    /// Mail as the creator: to one of `recipients` (the `to`th chosen), a subject, a text;
    /// a reply's keys start in its text.
    pub fn mail(recipients: Vec<String>, to: usize, subject: String, reply: bool) -> Self {
        Self {
            what: FormFor::Mail,
            fields: vec![
                Field::choice("to", recipients, to),
                Field::text("subject", subject),
                Field::text("text", String::new()),
            ],
            at: if reply { 2 } else { 0 },
            problem: None,
        }
    }

    /// The narrator's settings as they are, its model among `models`.
    pub fn narrator(config: &NarratorConfig, models: &[ModelInfo]) -> Self {
        let mut ids = vec![config.model.clone()];
        ids.extend(
            models
                .iter()
                .map(|m| m.id.clone())
                .filter(|id| *id != config.model),
        );
        let on = ["on", "off"].map(str::to_owned).to_vec();
        Self {
            what: FormFor::Narrator,
            fields: vec![
                Field::choice("narrator", on, usize::from(!config.enabled)),
                Field::choice("model", ids, 0),
                Field::text("every (minutes)", config.interval_minutes.to_string()),
            ],
            at: 0,
            problem: None,
        }
    }

    /// What the field labelled `label` holds (trimmed).
    pub fn value(&self, label: &str) -> &str {
        self.fields
            .iter()
            .find(|f| f.label == label)
            .map_or("", |f| f.value().trim())
    }

    /// A key typed into the form; whether it changed anything.
    pub fn key(&mut self, key: KeyEvent) -> bool {
        let count = self.fields.len();
        let Some(field) = self.fields.get_mut(self.at) else {
            return false;
        };
        match key.code {
            KeyCode::Tab | KeyCode::Down => self.at = (self.at + 1) % count,
            KeyCode::BackTab | KeyCode::Up => self.at = (self.at + count - 1) % count,
            KeyCode::Left if !field.choices.is_empty() => {
                let n = field.choices.len();
                field.chosen = (field.chosen + n - 1) % n;
            }
            KeyCode::Right if !field.choices.is_empty() => {
                field.chosen = (field.chosen + 1) % field.choices.len();
            }
            KeyCode::Backspace if field.choices.is_empty() => {
                field.text.pop();
            }
            KeyCode::Char(c)
                if field.choices.is_empty()
                    && !key.modifiers.contains(KeyModifiers::CONTROL)
                    && field.text.len() < MAX_TEXT =>
            {
                field.text.push(c);
            }
            _ => return false,
        }
        self.problem = None;
        true
    }

    /// Pasted text goes into the text field the keys go to (on one line).
    pub fn paste(&mut self, text: &str) {
        if let Some(field) = self.fields.get_mut(self.at)
            && field.choices.is_empty()
        {
            let text = text.replace(['\n', '\r'], " ");
            let room = MAX_TEXT.saturating_sub(field.text.len());
            field
                .text
                .extend(text.chars().filter(|c| !c.is_control()).take(room));
        }
    }

    fn title(&self) -> String {
        match &self.what {
            FormFor::Spawn => " OpenSeed: spawn a creature ".into(),
            FormFor::Cap(Some((_, name))) => format!(" OpenSeed: {}'s daily cap ", inert(name)),
            FormFor::Cap(None) => " OpenSeed: the global daily cap ".into(),
            FormFor::Mail => " OpenSeed: mail as the creator ".into(),
            FormFor::Narrator => " OpenSeed: the narrator's settings ".into(),
        }
    }

    pub fn draw(&self, frame: &mut Frame, cx: &DrawContext) {
        let theme = cx.theme;
        let mut lines: Vec<Line> = self
            .fields
            .iter()
            .enumerate()
            .map(|(i, f)| {
                let here = i == self.at;
                let label = Span::styled(
                    format!("{} {:>16}: ", if here { "›" } else { " " }, f.label),
                    if here { theme.accent } else { theme.muted },
                );
                let value = if f.choices.is_empty() {
                    format!("{}{}", inert(&f.text), if here { "▏" } else { "" })
                } else {
                    format!("‹ {} ›", inert(f.value()))
                };
                let style = if here { theme.selection } else { theme.base };
                Line::from(vec![label, Span::styled(value, style)])
            })
            .collect();
        lines.push(Line::default());
        lines.push(match &self.problem {
            Some(problem) => Line::styled(format!("  {}", inert(problem)), theme.error),
            None => Line::styled(
                "  Tab/Shift-Tab: field · Left/Right: choice · Enter: send · Esc: cancel",
                theme.muted,
            ),
        });
        let area = layout::small_popup(frame.area(), 90, lines.len() + 1);
        frame.render_widget(Clear, area);
        let block = Block::default()
            .borders(Borders::ALL)
            .border_style(theme.border_focused)
            .style(theme.base)
            .title(Span::styled(self.title(), theme.title));
        frame.render_widget(
            Paragraph::new(lines)
                .block(block)
                .wrap(Wrap { trim: false }),
            area,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(code: KeyCode) -> KeyEvent {
        KeyEvent::new(code, KeyModifiers::NONE)
    }

    #[test]
    fn typing_moving_and_choosing() {
        let genomes = vec![
            GenomeInfo {
                name: "bare".into(),
                description: None,
                source: "bundled".into(),
            },
            GenomeInfo {
                name: "seer".into(),
                description: None,
                source: "bundled".into(),
            },
        ];
        let models = vec![ModelInfo {
            id: "claude-opus-4-6".into(),
            provider: "anthropic".into(),
            is_default: true,
        }];
        let mut form = OpenSeedForm::spawn(&genomes, &models);
        assert_eq!(form.value("genome"), DEFAULT);
        assert_eq!(form.value("model"), "claude-opus-4-6");
        for c in "newt".chars() {
            form.key(key(KeyCode::Char(c)));
        }
        form.key(key(KeyCode::Tab));
        form.key(key(KeyCode::Right));
        form.key(key(KeyCode::Right));
        form.key(key(KeyCode::Char('x')));
        form.key(key(KeyCode::BackTab));
        form.key(key(KeyCode::Backspace));
        assert_eq!(form.value("name"), "new");
        assert_eq!(form.value("genome"), "seer");
        form.key(key(KeyCode::Up));
        form.paste("to\nwatch");
        assert_eq!(form.value("purpose"), "to watch");
    }

    #[test]
    fn a_cap_shows_its_dollars_and_action() {
        let form = OpenSeedForm::cap(None, 550, "warn");
        assert_eq!(form.value("daily cap (USD)"), "5.50");
        assert_eq!(form.value("at the cap"), "warn");
    }
}
