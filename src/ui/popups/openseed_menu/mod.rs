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
pub const ITEMS: [Action; 9] = [
    Action::OpenSeedSpawn,
    Action::OpenSeedRestart,
    Action::OpenSeedRebuild,
    Action::OpenSeedRemount,
    Action::OpenSeedArchive,
    Action::OpenSeedBudget,
    Action::OpenSeedGlobalBudget,
    Action::OpenSeedMail,
    Action::OpenSeedNarration,
];

/// The items that need a creature (the others are the garden's).
pub fn for_a_creature(action: Action) -> bool {
    !matches!(
        action,
        Action::OpenSeedSpawn
            | Action::OpenSeedGlobalBudget
            | Action::OpenSeedMail
            | Action::OpenSeedNarration
    )
}

#[derive(Debug, Default)]
pub struct OpenSeedMenu {
    /// The creature it acts on (its path and name), if one of the orchestrator's was
    /// selected when it opened.
    creature: Option<(PathBuf, String)>,
}

impl OpenSeedMenu {
    pub fn open(&mut self, creature: Option<(PathBuf, String)>) {
        self.creature = creature;
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
            .filter(|a| self.creature.is_some() || !for_a_creature(*a))
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
        if self.creature.is_none() {
            lines.push(Line::styled(
                "  (select one of its creatures for restart, rebuild, remount, archive, budget)",
                theme.muted,
            ));
        }
        let title = match &self.creature {
            Some((_, name)) => format!(" OpenSeed: {} ", crate::ui::prepare::inert(name)),
            None => " OpenSeed: the garden ".to_owned(),
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
