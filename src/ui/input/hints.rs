//! The one function that lists actions for a (keymap, focused view, mode): the key-hint
//! bar shows what works now, the help overlay shows everything. No key name is typed
//! anywhere else.

use super::action::{Action, Bar, Group, Needs};
use super::keymap::Keymap;
use crate::ui::focus::{MainView, Mode, Pane};

/// What the hints depend on besides the keymap.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HintContext {
    pub mode: Mode,
    pub pane: Pane,
    pub view: MainView,
    /// The views the selected creature offers (a dreamer's when none is selected).
    pub views: &'static [MainView],
    /// A creature is selected.
    pub creature: bool,
    /// The selected creature can be controlled (hosted, or a live control socket).
    pub control: bool,
    /// A dreamwatch runner hosts the selected creature (in this process or headless).
    pub runner: bool,
    /// The dream shown pruned observations (they can be picked and restored).
    pub pruned: bool,
    /// The selected creature is run by an attached OpenSeed orchestrator: `p` stops and
    /// starts its container, and nothing forces it to sleep.
    pub openseed: bool,
    /// No plug-in knows the selected creature's genome: its `genome.json` may declare
    /// the files to show (OpenSeed's tabs).
    pub own_tabs: bool,
    /// A dream of the selected creature is held for review.
    pub review: bool,
    /// A search has hits to move between.
    pub hits: bool,
    /// The garden list is filtered.
    pub filtered: bool,
    /// Actions that write or act are refused.
    pub read_only: bool,
    /// The selected creature is paused (`p` resumes it).
    pub paused: bool,
    /// The message box is addressed to every creature of the list (Tab: to one again).
    pub to_all: bool,
    /// The search prompt searches the whole garden (Tab: the selected creature again).
    pub garden_search: bool,
    /// The time cursor is over the selected creature's life.
    pub past: bool,
}

/// One action as the hint bar or the help overlay shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ActionInfo {
    pub action: Action,
    /// The bound keys as shown, `k/↑`; empty when unbound.
    pub keys: String,
    /// The first bound key, for the hint bar.
    pub key: String,
    pub group: Group,
    pub hint: String,
    pub description: String,
    /// Works in this context (else shown dimmed in help, left out of the bar).
    pub enabled: bool,
    /// Worth a place in the hint bar in this context.
    pub in_bar: bool,
}

fn enabled(action: Action, ctx: &HintContext) -> bool {
    let garden_layer = ctx.mode == Mode::Normal && ctx.pane == Pane::Garden;
    let modes = action.modes();
    let past_layer = ctx.mode == Mode::Normal && ctx.past;
    let looked_up = modes.contains(&ctx.mode)
        || (garden_layer && modes.contains(&Mode::Garden))
        || (past_layer && modes.contains(&Mode::Past));
    if !looked_up {
        return false;
    }
    let needs = action.spec().needs;
    if needs.acts() && ctx.read_only {
        return false;
    }
    if action == Action::ForceSleep && ctx.openseed {
        return false;
    }
    match needs {
        Needs::Nothing => true,
        Needs::Creature => ctx.creature,
        Needs::Observations => ctx.creature && ctx.view == MainView::Observations,
        Needs::Ordered => {
            ctx.creature && matches!(ctx.view, MainView::Observations | MainView::Events)
        }
        Needs::Events => ctx.creature && ctx.view == MainView::Events,
        Needs::Control => ctx.creature && ctx.control,
        Needs::Write => ctx.creature,
        Needs::Pruned => ctx.creature && ctx.view == MainView::Dreams && ctx.pruned,
        Needs::Restore => ctx.creature && ctx.view == MainView::Dreams && ctx.pruned && ctx.runner,
        Needs::Proposal => ctx.creature && ctx.review,
        Needs::Review => ctx.creature && ctx.review && ctx.control,
        Needs::Hits => ctx.hits,
        Needs::View => action.view_in(ctx.views).is_some(),
        Needs::GardenFilter => ctx.filtered,
        Needs::Command => ctx.creature,
        Needs::OpenSeed | Needs::OpenSeedAct => ctx.openseed,
        Needs::GenomeFiles => ctx.openseed || ctx.own_tabs,
    }
}

/// Why `action` does nothing in `ctx`, where its own handler would stay silent (a view's
/// key elsewhere, a search key with no hits...); `None` when it works, or when its
/// handler says why itself (control, messages).
pub fn why_not(action: Action, ctx: &HintContext) -> Option<&'static str> {
    if enabled(action, ctx) || !ctx.creature {
        return None;
    }
    Some(match action.spec().needs {
        Needs::Observations => "it works in the Observations view",
        Needs::Ordered => "it works in the Observations and Events views",
        Needs::Events => "it works in the Events view",
        Needs::Pruned => "it works on a dream that pruned observations, in the Dreams view",
        Needs::GardenFilter => "the garden is not filtered",
        _ => return None,
    })
}

fn in_bar(keymap: &Keymap, action: Action, ctx: &HintContext) -> bool {
    let normal = ctx.mode == Mode::Normal;
    if normal && ctx.pane == Pane::Garden && keymap.shadowed_in_garden(action, ctx.views) {
        return false;
    }
    match action.spec().bar {
        Bar::Never => false,
        Bar::Normal(_) => normal,
        Bar::OtherView(_) => normal && action != Action::show(ctx.view),
        Bar::MainPane(_) => normal && ctx.pane == Pane::Main,
        Bar::RecallPane(_) => normal && ctx.pane == Pane::Main && ctx.view == MainView::Recall,
        Bar::Overlay(_) => !normal,
        Bar::Past(_) => normal && ctx.past,
    }
}

/// Every bindable action with its keys and state in `ctx`, in help order: the built-in
/// ones, then the config's commands.
pub fn actions(keymap: &Keymap, ctx: &HintContext) -> Vec<ActionInfo> {
    Action::ALL
        .iter()
        .copied()
        .chain(keymap.user_actions())
        .map(|action| {
            let spec = action.spec();
            let enabled = enabled(action, ctx);
            let keys = keymap.label(action);
            let key = keymap
                .first(action)
                .map(|k| k.to_string())
                .unwrap_or_default();
            ActionInfo {
                action,
                in_bar: enabled && !keys.is_empty() && in_bar(keymap, action, ctx),
                keys,
                key,
                group: spec.group,
                hint: match (action, keymap.command(action), action.view_in(ctx.views)) {
                    (_, Some(command), _) => command.description.clone(),
                    (Action::PauseResume, _, _) if ctx.openseed => "stop/start".into(),
                    // A toggle's hint says what the key does now.
                    (Action::PauseResume, _, _) if ctx.paused => "resume".into(),
                    (Action::MessageAll, _, _) if ctx.to_all => "to one".into(),
                    (Action::SearchScope, _, _) if ctx.garden_search => "this creature".into(),
                    (Action::TimeCursor, _, _) if ctx.past => "now".into(),
                    // A genome's own view on a key of no view in particular goes by its title.
                    (
                        Action::ViewOwnFirst | Action::ViewOwnSecond,
                        _,
                        Some(MainView::Own(view)),
                    ) => view.title.to_lowercase(),
                    _ => spec.hint.into(),
                },
                description: match (action, keymap.command(action)) {
                    (_, Some(command)) => {
                        let how = if command.foreground {
                            "with the terminal"
                        } else {
                            "in the background"
                        };
                        format!("{} ({how})", command.description)
                    }
                    (action, _) => match action.view_in(ctx.views) {
                        Some(MainView::Own(view))
                            if matches!(action, Action::ViewOwnFirst | Action::ViewOwnSecond) =>
                        {
                            view.title.to_lowercase()
                        }
                        _ => builtin_description(action, ctx).into(),
                    },
                },
                enabled,
            }
        })
        .collect()
}

/// A built-in action's line in help, as it reads in `ctx`.
fn builtin_description(action: Action, ctx: &HintContext) -> &'static str {
    match action {
        Action::PauseResume if ctx.openseed => {
            "stop the creature's container (asked first), or start it (OpenSeed)"
        }
        Action::ForceSleep if ctx.openseed => {
            "force the creature to sleep now (OpenSeed has no way to)"
        }
        _ => action.spec().description,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::input::keys::KeyChord;
    use std::collections::BTreeMap;

    fn ctx(mode: Mode, control: bool) -> HintContext {
        HintContext {
            mode,
            pane: Pane::Main,
            view: MainView::Observations,
            views: crate::ui::focus::test_views::OBSERVATIONS_FIRST,
            creature: true,
            control,
            runner: control,
            pruned: false,
            openseed: false,
            own_tabs: false,
            review: false,
            hits: false,
            filtered: false,
            read_only: false,
            paused: false,
            to_all: false,
            garden_search: false,
            past: false,
        }
    }

    fn bar(keymap: &Keymap, ctx: &HintContext) -> Vec<(String, String)> {
        actions(keymap, ctx)
            .into_iter()
            .filter(|c| c.in_bar)
            .map(|c| (c.key, c.hint))
            .collect()
    }

    fn pair(key: &str, hint: &str) -> (String, String) {
        (key.to_string(), hint.to_string())
    }

    #[test]
    fn bar_follows_mode_and_control() {
        let keymap = Keymap::default();
        let normal = bar(&keymap, &ctx(Mode::Normal, true));
        assert!(normal.contains(&pair("s", "sleep")));
        assert!(!normal.iter().any(|(_, h)| *h == "observations"));
        let watched = bar(&keymap, &ctx(Mode::Normal, false));
        assert!(!watched.iter().any(|(_, h)| *h == "sleep"));
        let message = bar(&keymap, &ctx(Mode::Message, true));
        assert_eq!(
            message,
            vec![
                pair("Ctrl-S", "send"),
                pair("Tab", "to all"),
                pair("Esc", "cancel")
            ]
        );
    }

    #[test]
    fn a_toggle_is_hinted_as_what_it_does_now() {
        let keymap = Keymap::default();
        let paused = HintContext {
            paused: true,
            ..ctx(Mode::Normal, true)
        };
        assert!(bar(&keymap, &ctx(Mode::Normal, true)).contains(&pair("p", "pause")));
        assert!(bar(&keymap, &paused).contains(&pair("p", "resume")));
        let to_all = HintContext {
            to_all: true,
            ..ctx(Mode::Message, true)
        };
        assert!(bar(&keymap, &to_all).contains(&pair("Tab", "to one")));
        let garden = HintContext {
            garden_search: true,
            ..ctx(Mode::Search, true)
        };
        assert!(bar(&keymap, &garden).contains(&pair("Tab", "this creature")));
        assert!(bar(&keymap, &ctx(Mode::Search, true)).contains(&pair("Tab", "whole garden")));
    }

    #[test]
    fn a_key_that_does_nothing_here_says_where_it_works() {
        let in_dreams = HintContext {
            view: MainView::Dreams,
            ..ctx(Mode::Normal, true)
        };
        assert_eq!(
            why_not(Action::ToggleRed, &in_dreams),
            Some("it works in the Observations view")
        );
        assert_eq!(why_not(Action::ToggleRed, &ctx(Mode::Normal, true)), None);
        assert_eq!(
            why_not(Action::CycleEventKind, &in_dreams),
            Some("it works in the Events view")
        );
        // Control keys say why themselves.
        assert_eq!(why_not(Action::ForceSleep, &ctx(Mode::Normal, false)), None);
    }

    #[test]
    fn rebinding_changes_hints_and_help_alike() {
        let mut keymap = Keymap::default();
        let patch: BTreeMap<String, _> = [(
            "force_sleep".to_string(),
            crate::ui::input::keymap::KeyNames::One("z".into()),
        )]
        .into();
        keymap.patch(&patch);
        let all = actions(&keymap, &ctx(Mode::Normal, true));
        let sleep = all.iter().find(|c| c.action == Action::ForceSleep).unwrap();
        assert_eq!(sleep.keys, KeyChord::plain('z').to_string());
        assert!(sleep.in_bar);
    }

    #[test]
    fn an_openseed_creature_stops_and_starts_and_is_not_put_to_sleep() {
        let keymap = Keymap::default();
        let ctx = HintContext {
            openseed: true,
            ..ctx(Mode::Normal, true)
        };
        let shown = bar(&keymap, &ctx);
        assert!(shown.contains(&pair("p", "stop/start")), "{shown:?}");
        assert!(!shown.iter().any(|(k, _)| k == "s"), "{shown:?}");
        assert!(shown.contains(&pair("w", "wake")), "{shown:?}");
    }

    #[test]
    fn user_commands_are_hinted_and_listed_last_and_refused_read_only() {
        let mut keymap = Keymap::default();
        let warnings = keymap.add_commands(&[crate::ui::input::commands::UserCommand {
            key: "u".into(),
            description: "disk use".into(),
            command: "du -sh {dir}".into(),
            foreground: false,
        }]);
        assert!(warnings.is_empty(), "{warnings:?}");
        let normal = ctx(Mode::Normal, false);
        assert!(bar(&keymap, &normal).contains(&pair("u", "disk use")));
        let all = actions(&keymap, &normal);
        let last = all.last().unwrap();
        assert_eq!(last.group, Group::User);
        assert_eq!(last.description, "disk use (in the background)");
        assert!(last.enabled);
        let read_only = HintContext {
            read_only: true,
            ..normal
        };
        assert!(!bar(&keymap, &read_only).iter().any(|(k, _)| k == "u"));
    }
}
