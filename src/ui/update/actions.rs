//! What each action does to the state.

use super::scrolling::step_of;
use super::{Job, Outcome, RemoteAsk};
use crate::control::ControlCommand;
use crate::memory::observations::Priority;
use crate::memory::status::Status;
use crate::ui::doc::scroll;
use crate::ui::focus::{MainView, Mode, Pane};
use crate::ui::input::action::Action;
use crate::ui::layout;
use crate::ui::state::App;
use crate::ui::state::creature::RunnerLink;

impl App {
    /// Performs one action. Returns the IO it asks for.
    pub fn apply(&mut self, action: Action) -> Vec<Job> {
        self.dirty = true;
        self.forget_question(action);
        if self.read_only && action.spec().needs.acts() {
            // What is refused first: a narrow status row cuts the end.
            let what = self.keymap.command(action).map_or_else(
                || action.spec().hint.to_string(),
                |c| crate::ui::prepare::inert(&c.description),
            );
            self.set_notice(
                format!(
                    "read-only: {what} refused, this observatory only watches (--read-only or read_only = true)"
                ),
                true,
            );
            return Vec::new();
        }
        if matches!(self.mode, Mode::Mail | Mode::Narration)
            && let Some(step) = step_of(action)
        {
            return self.mail_step(step);
        }
        if let Some(step) = step_of(action) {
            self.scroll_mode(step);
            return Vec::new();
        }
        match action {
            Action::Quit => self.quit_or_ask(),
            Action::CloseHelp => self.mode = Mode::Normal,
            Action::Help => {
                self.mode = if self.mode == Mode::Help {
                    Mode::Normal
                } else {
                    self.popups.help.open();
                    Mode::Help
                };
            }
            Action::Cancel => {
                match self.mode {
                    Mode::Message => self.keep_draft(),
                    Mode::Filter => self.clear_filter(),
                    Mode::Detail => self.popups.detail = None,
                    Mode::Blame => self.popups.blame.close(),
                    Mode::ComparePick | Mode::Compare => self.popups.compare.close(),
                    _ => {}
                }
                self.mode = Mode::Normal;
            }
            Action::EventDetail => self.toggle_event_detail(),
            Action::TimeCursor
            | Action::TimeNow
            | Action::PastDreamBack
            | Action::PastDreamForward
            | Action::PastEventBack
            | Action::PastEventForward
            | Action::PastWakeBack
            | Action::PastWakeForward
            | Action::PastRedBack
            | Action::PastRedForward
            | Action::PastJump
            | Action::PastPlay
            | Action::PastSpeed
            | Action::JumpTo => return self.time_action(action),
            Action::StatusLog => {
                self.mode = if self.mode == Mode::Log {
                    Mode::Normal
                } else {
                    self.popups.log.open();
                    Mode::Log
                };
            }
            Action::DemoSlower => return self.demo_speed(false),
            Action::DemoFaster => return self.demo_speed(true),
            Action::PauseAll => return self.pause_all(),
            Action::Palette => self.open_palette(),
            Action::PaletteRun => return self.run_palette(),
            Action::PaletteClose => self.mode = Mode::Normal,
            Action::Suspend => return vec![Job::Suspend],
            Action::ToggleNotify => self.toggle_notify(),
            Action::FilterGarden => self.start_filter(),
            Action::SortGarden => self.cycle_sort(),
            Action::ClearFilter => self.clear_filter(),
            Action::KeepFilter => self.keep_filter(),
            Action::FocusNext => self.focus(1, true),
            Action::FocusPrev => self.focus(-1, true),
            Action::FocusLeft => self.focus(-1, false),
            Action::FocusRight => self.focus(1, false),
            Action::NextCreature => self.cycle_selection(true),
            Action::PrevCreature => self.cycle_selection(false),
            Action::ViewObservations => self.show(MainView::Observations),
            Action::ViewDreams => self.show(MainView::Dreams),
            Action::ViewDiary => self.show(MainView::Diary),
            Action::ViewRecall => self.show(MainView::Recall),
            Action::ViewLive => self.show(MainView::Live),
            Action::ViewEvents => self.show(MainView::Events),
            Action::ViewTalk => self.show(MainView::Talk),
            // A genome's own views.
            Action::ViewOwnFirst
            | Action::ViewOwnSecond
            | Action::ViewJournal
            | Action::ViewEntities
            | Action::ViewMemory
            | Action::ViewSoul
            | Action::ViewLongTerm
            | Action::ViewDiaryLog
            | Action::ViewPlans
            | Action::ViewRelations => {
                if let Some(view) = action.view_in(self.views()) {
                    self.show(view);
                }
            }
            Action::CycleEventKind => self.cycle_event_kind(),
            Action::ToggleRed => self.toggle_priority(Priority::Red),
            Action::ToggleYlw => self.toggle_priority(Priority::Ylw),
            Action::ToggleGrn => self.toggle_priority(Priority::Grn),
            Action::ToggleOrder if self.shown_view() == MainView::Events => {
                self.toggle_events_order()
            }
            Action::ToggleOrder => self.toggle_observations_order(),
            Action::Search => {
                if self.selected.is_some() {
                    self.search.input.clear();
                    self.mode = Mode::Search;
                }
            }
            Action::PickPruned => self.pick_pruned(),
            Action::ReviewDream => self.toggle_review(),
            Action::OpenSeedMenu
            | Action::OpenSeedSpawn
            | Action::OpenSeedRestart
            | Action::OpenSeedRebuild
            | Action::OpenSeedRemount
            | Action::OpenSeedArchive
            | Action::OpenSeedBudget
            | Action::OpenSeedGlobalBudget
            | Action::OpenSeedSubmit
            | Action::OpenSeedClose
            | Action::OpenSeedCancel
            | Action::OpenSeedMail
            | Action::OpenSeedNarration => return self.openseed_menu_action(action),
            Action::Mail
            | Action::MailLeft
            | Action::MailRight
            | Action::MailFolder
            | Action::MailRead
            | Action::MailWrite
            | Action::MailReply
            | Action::MailArchive
            | Action::MailClose
            | Action::NarratorSettings
            | Action::NarrationClose => return self.mail_action(action),
            Action::OpenSeedFiles
            | Action::OpenSeedRanger
            | Action::FilesNextTab
            | Action::FilesPrevTab
            | Action::FilesReload
            | Action::FilesClose
            | Action::RangerAsk
            | Action::RangerForget
            | Action::RangerOlder
            | Action::RangerNewer
            | Action::RangerClose => return self.files_and_ranger_action(action),
            Action::ApplyDream => return self.apply_dream(),
            Action::RejectDream => return self.reject_dream(),
            Action::EditDream => return self.edit_dream(),
            Action::Restore => return self.restore(),
            Action::SearchScope => self.search.garden = !self.search.garden,
            Action::SearchRegex => self.search.regex = !self.search.regex,
            Action::Submit => return self.submit_search(),
            Action::NextHit => self.goto_hit(true),
            Action::PrevHit => self.goto_hit(false),
            Action::HitList => self.toggle_hit_list(),
            Action::JumpToHit => self.jump_to_listed_hit(),
            // A far creature that the far machine's orchestrator runs goes below.
            Action::ForceSleep | Action::Wake | Action::PauseResume
                if self.selected_remote().is_some() && self.selected_openseed().is_none() =>
            {
                return self.remote_control(action);
            }
            Action::ForceSleep => {
                if let Some((_, name)) = self.selected_openseed() {
                    return self.openseed_force_sleep(&name);
                }
                return self.control(ControlCommand::ForceSleep);
            }
            Action::Wake if self.selected_openseed().is_some() => {
                if let Some((path, name)) = self.selected_openseed() {
                    return self.openseed_wake(path, &name);
                }
            }
            Action::PauseResume if self.selected_openseed().is_some() => {
                if let Some((path, name)) = self.selected_openseed() {
                    return self.openseed_stop_start(path, &name);
                }
            }
            Action::Wake => {
                if let Some(ui) = self.selected_ui()
                    && ui.link != RunnerLink::None
                    && ui.status() == Status::Awake
                {
                    let notice = format!("{} is already awake", ui.name);
                    self.set_notice(notice, false);
                    return Vec::new();
                }
                return self.control(ControlCommand::Wake);
            }
            Action::PauseResume => {
                let paused = self
                    .selected_ui()
                    .is_some_and(|u| u.status() == Status::Paused);
                let command = if paused {
                    ControlCommand::Resume
                } else {
                    ControlCommand::Pause
                };
                return self.control(command);
            }
            Action::OpenEditor => return self.open_selection(true),
            Action::OpenPager => return self.open_selection(false),
            Action::Copy => return self.copy_selection(),
            Action::Blame if self.mode == Mode::Blame => {
                self.popups.blame.close();
                self.mode = Mode::Normal;
            }
            Action::Blame => return self.open_blame(None),
            Action::BlameWhole => self.popups.blame.toggle_whole(&self.theme),
            Action::Compare if self.mode == Mode::Compare => {
                self.popups.compare.close();
                self.mode = Mode::Normal;
            }
            Action::Compare => self.pick_compared(),
            Action::CompareWith => return self.compare_with(),
            Action::User(_) => return self.run_command(action),
            Action::Message => self.open_message(),
            Action::SendMessage => return self.send_message(),
            Action::MessageAll => self.toggle_message_all(),
            Action::Up
            | Action::Down
            | Action::PageUp
            | Action::PageDown
            | Action::Top
            | Action::Bottom => {}
        }
        Vec::new()
    }

    /// A scrolling key moves the open popup, else the focused pane.
    fn scroll_mode(&mut self, step: scroll::Step) {
        let help = layout::help_viewport(self.area);
        match self.mode {
            Mode::Help => {
                let lines = self.help_document();
                self.popups.help.scroll(&lines, help, step);
            }
            Mode::Detail => {
                if let Some(d) = self.popups.detail.as_mut() {
                    d.scroll(help, step);
                }
            }
            Mode::Log => self.popups.log.scroll(&self.theme, help, step),
            Mode::Blame => self.popups.blame.scroll(help, step),
            Mode::ComparePick => self.popups.compare.move_pick(step),
            Mode::Compare => {
                let vp = layout::compare_viewport(self.area);
                self.popups.compare.scroll(vp, step);
            }
            Mode::Hits => self.move_in_hit_list(step),
            Mode::Review => {
                let lines = self.review_document();
                let vp = layout::review_viewport(self.area, lines.len());
                self.popups.review.scroll(&lines, vp, step);
            }
            Mode::Normal
            | Mode::Garden
            | Mode::Message
            | Mode::Search
            | Mode::Filter
            | Mode::Palette
            | Mode::Past
            | Mode::Jump => self.scroll(self.pane, step),
            Mode::GenomeFiles => self.popups.genome_files.scroll(self.area, step),
            Mode::OpenSeedMenu
            | Mode::OpenSeedForm
            | Mode::Mail
            | Mode::Narration
            | Mode::Ranger => {}
        }
    }

    fn show(&mut self, view: MainView) {
        self.view = view;
        self.pane = Pane::Main;
    }

    pub(crate) fn selected_ui_mut(
        &mut self,
    ) -> Option<&mut crate::ui::state::creature::CreatureUi> {
        let path = self.selected.as_ref()?;
        if let Some(past) = self.time.past_of_mut(Some(path)) {
            return Some(&mut past.ui);
        }
        self.creatures.get_mut(path)
    }

    /// A command for the runner of the selected far creature, through its connection.
    fn remote_control(&mut self, action: Action) -> Vec<Job> {
        let Some(path) = self.selected_remote() else {
            return Vec::new();
        };
        let paused = self
            .selected_ui()
            .is_some_and(|u| u.status() == Status::Paused);
        let command = match action {
            Action::ForceSleep => ControlCommand::ForceSleep,
            Action::Wake => ControlCommand::Wake,
            _ if paused => ControlCommand::Resume,
            _ => ControlCommand::Pause,
        };
        self.remote_job(path, RemoteAsk::Control(command))
    }

    /// A command for the selected creature's runner, or a plain reason why not.
    fn control(&mut self, command: ControlCommand) -> Vec<Job> {
        let (Some(path), Some(ui)) = (self.selected.clone(), self.selected_ui()) else {
            return Vec::new();
        };
        if ui.link == RunnerLink::None {
            let name = &ui.name;
            let what = match command {
                ControlCommand::ForceSleep => format!("make {name} sleep"),
                ControlCommand::Wake => format!("wake {name}"),
                ControlCommand::Pause => format!("pause {name}"),
                ControlCommand::Resume => format!("resume {name}"),
                ControlCommand::Message { .. } => format!("message {name}"),
                ControlCommand::Speed { .. } => format!("change {name}'s speed"),
                ControlCommand::Proposal
                | ControlCommand::ApplyProposal
                | ControlCommand::RejectProposal
                | ControlCommand::ReplaceProposal { .. } => format!("review {name}'s dream"),
            };
            // What cannot be done comes first: a narrow status row cuts the end.
            let why = format!(
                "cannot {what}: it is only watched, no dreamwatch runner hosts it (an OpenSeed creature, or its runner is gone)"
            );
            self.set_notice(why, true);
            return Vec::new();
        }
        vec![Job::Control {
            creature: path,
            command,
        }]
    }

    /// What became of work done in the background: said in the status line; a message
    /// that did not go becomes its creature's draft again (unless a newer one is there),
    /// and so does an edited dream its runner did not hold.
    pub fn on_outcome(&mut self, outcome: Outcome) {
        if let Some(recorded) = outcome.recorded {
            self.on_recorded(*recorded);
            return;
        }
        if let Some(done) = outcome.time_index {
            return self.on_time_index(done);
        }
        if let Some(done) = outcome.mail {
            self.on_mail_done(*done);
            if outcome.text.is_empty() {
                return;
            }
        }
        let mut text = outcome.text;
        if let Some(edit) = outcome.dream_edit {
            text.push_str(&self.on_edit_answered(edit));
        }
        if let Some(done) = outcome.openseed {
            text.push_str(&self.on_openseed_done(done));
        }
        if let Some((path, message)) = outcome.undelivered
            && let Some(ui) = self.creatures.get_mut(&path)
            && ui.draft.is_empty()
            && self.popups.message.to() != Some(path.as_path())
        {
            ui.draft = message.lines().map(str::to_owned).collect();
            text.push_str(
                &self
                    .keymap
                    .mention(Action::Message, " (kept as a draft: {} opens it)"),
            );
        }
        self.set_notice(text, outcome.error);
    }

    fn submit_search(&mut self) -> Vec<Job> {
        self.mode = Mode::Normal;
        let query = self.search.input.trim().to_string();
        let Some(path) = self.selected.clone() else {
            return Vec::new();
        };
        if query.is_empty() {
            return Vec::new();
        }
        if !self.search.garden && self.without_files(&path) {
            let all = self.keymap.mention(
                Action::SearchScope,
                " ({} in the prompt searches the whole garden)",
            );
            self.set_notice(
                format!(
                    "this creature's files are not on this machine: nothing of it to search{all}"
                ),
                true,
            );
            return Vec::new();
        }
        let (garden, regex) = (self.search.garden, self.search.regex);
        self.search = Default::default();
        self.search.garden = garden;
        self.search.regex = regex;
        self.search.query = Some(query.clone());
        self.search.creature = Some(path.clone());
        self.search.running = true;
        vec![Job::Search {
            creature: path,
            query,
            garden,
            regex,
        }]
    }
}
