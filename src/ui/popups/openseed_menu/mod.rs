//! The menu of an OpenSeed orchestrator's actions, the ones its web dashboard offers:
//! each item an action of the keymap (its key in the menu, its help line), done to the
//! creature selected when the menu opened, or to the garden.

use std::path::{Path, PathBuf};

use ratatui::Frame;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

use crate::ui::draw::DrawContext;
use crate::ui::input::action::Action;
use crate::ui::layout;

/// The menu's items, in order.
pub const ITEMS: [Action; 11] = [
    Action::OpenSeedSpawn,
    Action::OpenSeedRestart,
    Action::OpenSeedRebuild,
    Action::OpenSeedRemount,
    Action::OpenSeedArchive,
    Action::OpenSeedBudget,
    Action::OpenSeedGlobalBudget,
    Action::OpenSeedMail,
    Action::OpenSeedNarration,
    Action::OpenSeedFiles,
    Action::OpenSeedRanger,
];

/// The items that need a creature (the others are the garden's).
pub fn for_a_creature(action: Action) -> bool {
    !matches!(
        action,
        Action::OpenSeedSpawn
            | Action::OpenSeedGlobalBudget
            | Action::OpenSeedMail
            | Action::OpenSeedNarration
            | Action::OpenSeedRanger
    )
}

#[derive(Debug, Default)]
pub struct OpenSeedMenu {
    /// The creature it acts on (its path and name), if one of the orchestrator's was
    /// selected when it opened.
    creature: Option<(PathBuf, String)>,
    /// Opened for the files of a creature no orchestrator here runs, whose genome no
    /// plug-in knows (its path and name): files is its item, with the garden's when an
    /// orchestrator is attached.
    local: Option<(PathBuf, String)>,
    /// An orchestrator is attached (its garden items are offered).
    attached: bool,
}

impl OpenSeedMenu {
    pub fn open(&mut self, creature: Option<(PathBuf, String)>) {
        self.creature = creature;
        self.local = None;
        self.attached = true;
    }

    /// Opens it for `creature`'s files (a genome no plug-in knows, no orchestrator here
    /// running it); `attached`: an orchestrator is, its garden items offered too.
    pub fn open_for_files(&mut self, creature: (PathBuf, String), attached: bool) {
        self.creature = None;
        self.local = Some(creature);
        self.attached = attached;
    }

    /// The creature whose files `f` shows.
    pub fn files_of(&self) -> Option<(PathBuf, String)> {
        self.creature.clone().or_else(|| self.local.clone())
    }

    /// The creature it acts on, and its name.
    pub fn creature(&self) -> Option<(&Path, &str)> {
        self.creature
            .as_ref()
            .map(|(p, n)| (p.as_path(), n.as_str()))
    }

    pub fn draw(&self, frame: &mut Frame, cx: &DrawContext) {
        let theme = cx.theme;
        let items: Vec<Action> = ITEMS
            .into_iter()
            .filter(|a| {
                self.creature.is_some()
                    || (self.attached && !for_a_creature(*a))
                    || (self.local.is_some() && *a == Action::OpenSeedFiles)
            })
            .collect();
        let mut lines: Vec<Line> = items
            .iter()
            .map(|a| {
                let key = cx
                    .keymap
                    .first(*a)
                    .map_or_else(String::new, |k| k.to_string());
                Line::from(vec![
                    Span::styled(format!(" {key:>5}  "), theme.key),
                    Span::styled(format!("{:<14}", a.spec().hint), theme.base),
                    Span::styled(a.spec().description, theme.muted),
                ])
            })
            .collect();
        if self.creature.is_none() && self.local.is_none() {
            lines.push(Line::styled(
                "  (select one of its creatures for restart, rebuild, remount, archive, budget)",
                theme.muted,
            ));
        }
        let title = match (&self.creature, &self.local) {
            (Some((_, name)), _) => format!(" OpenSeed: {} ", crate::ui::prepare::inert(name)),
            (None, Some((_, name))) => format!(
                " {}: a genome no plug-in knows ",
                crate::ui::prepare::inert(name)
            ),
            (None, None) => " OpenSeed: the garden ".to_owned(),
        };
        let area = layout::small_popup(frame.area(), 110, lines.len());
        frame.render_widget(Clear, area);
        let block = Block::default()
            .borders(Borders::ALL)
            .border_style(theme.border_focused)
            .style(theme.base)
            .title(Span::styled(title, theme.title));
        frame.render_widget(Paragraph::new(lines).block(block), area);
    }
}
