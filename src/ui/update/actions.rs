//! What each action does to the state.

use std::path::PathBuf;

use ratatui::widgets::{Block, Borders};
use ratatui_textarea::{CursorMove, TextArea};

use super::scrolling::step_of;
use super::{Job, Outcome, RemoteAsk};
use crate::control::ControlCommand;
use crate::memory::observations::Priority;
use crate::memory::status::Status;
use crate::ui::doc::scroll::{self, Anchor};
use crate::ui::focus::{MainView, Mode, Pane};
use crate::ui::input::action::Action;
use crate::ui::layout;
use crate::ui::state::App;
use crate::ui::state::creature::{RunnerLink, ignores_messages_file};

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
        if let Some(step) = step_of(action) {
            if self.mode == Mode::Help {
                let vp = layout::help_viewport(self.area);
                let lines = self.help_document();
                self.help_anchor = scroll::scroll(&lines, self.help_anchor, vp, step);
            } else if self.mode == Mode::Detail {
                let vp = layout::help_viewport(self.area);
                if let Some(d) = self.detail.as_mut() {
                    d.anchor = scroll::scroll(&d.lines, d.anchor, vp, step);
                }
            } else if self.mode == Mode::Log {
                let vp = layout::help_viewport(self.area);
                let lines = self.status_log.document(&self.theme);
                self.status_log.anchor = scroll::scroll(&lines, self.status_log.anchor, vp, step);
            } else if self.mode == Mode::Hits {
                self.move_in_hit_list(step);
            } else if self.mode == Mode::Review {
                let lines = self.review_document();
                let vp = layout::review_viewport(self.area, lines.len());
                self.review.anchor = scroll::scroll(&lines, self.review.anchor, vp, step);
            } else {
                self.scroll(self.pane, step);
            }
            return Vec::new();
        }
        match action {
            Action::Quit => self.quit_or_ask(),
            Action::CloseHelp => self.mode = Mode::Normal,
            Action::Help => {
                self.mode = if self.mode == Mode::Help {
                    Mode::Normal
                } else {
                    self.help_anchor = Anchor::Line(0);
                    Mode::Help
                };
            }
            Action::Cancel => {
                match self.mode {
                    Mode::Message => self.keep_draft(),
                    Mode::Filter => self.clear_filter(),
                    Mode::Detail => self.detail = None,
                    _ => {}
                }
                self.mode = Mode::Normal;
            }
            Action::EventDetail => self.toggle_event_detail(),
            Action::StatusLog => {
                self.mode = if self.mode == Mode::Log {
                    Mode::Normal
                } else {
                    self.status_log.anchor = Anchor::Line(0);
                    Mode::Log
                };
            }
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
            Action::ToggleRed => self.toggle(Priority::Red),
            Action::ToggleYlw => self.toggle(Priority::Ylw),
            Action::ToggleGrn => self.toggle(Priority::Grn),
            Action::ToggleOrder => self.toggle_order(),
            Action::Search => {
                if self.selected.is_some() {
                    self.search.input.clear();
                    self.mode = Mode::Search;
                }
            }
            Action::PickPruned => self.pick_pruned(),
            Action::ReviewDream => self.toggle_review(),
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

    fn show(&mut self, view: MainView) {
        self.view = view;
        self.pane = Pane::Main;
    }

    fn selected_ui_mut(&mut self) -> Option<&mut crate::ui::state::creature::CreatureUi> {
        let path = self.selected.as_ref()?;
        self.creatures.get_mut(path)
    }

    fn toggle(&mut self, p: Priority) {
        if !self.views().contains(&MainView::Observations) {
            return;
        }
        let Some(ui) = self.selected_ui_mut() else {
            return;
        };
        let shown = ui.obs.toggle(p);
        self.view = MainView::Observations;
        let verb = if shown { "shown" } else { "hidden" };
        self.set_notice(format!("{} observations {verb}", p.tag()), false);
    }

    fn cycle_event_kind(&mut self) {
        if self.shown_view() != MainView::Events {
            return;
        }
        let Some(ui) = self.selected_ui_mut() else {
            return;
        };
        ui.events.cycle_filter();
        let notice = format!("events: {}", ui.events.filter.label());
        self.set_notice(notice, false);
    }

    fn toggle_order(&mut self) {
        if self.shown_view() == MainView::Events {
            if let Some(ui) = self.selected_ui_mut() {
                ui.events.toggle_order();
            }
            return;
        }
        if !self.views().contains(&MainView::Observations) {
            return;
        }
        let Some(ui) = self.selected_ui_mut() else {
            return;
        };
        ui.obs.toggle_order();
        self.view = MainView::Observations;
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
            && self.message_to.as_ref() != Some(&path)
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

    /// Closes the message box; what it holds stays with its creature as a draft.
    fn keep_draft(&mut self) {
        let area = self.message.take();
        let to = self.message_to.take();
        self.message_all = None;
        let lines = area.map(TextArea::into_lines).unwrap_or_default();
        let written = lines.iter().any(|l| !l.trim().is_empty());
        if let Some(ui) = to.and_then(|p| self.creatures.get_mut(&p))
            && written
        {
            ui.draft = lines;
            let reopen = self.keymap.mention(Action::Message, ": {} opens it again");
            self.set_notice(format!("message kept as a draft{reopen}"), false);
        } else {
            self.set_notice("message discarded", false);
        }
    }

    fn open_message(&mut self) {
        let Some(ui) = self.selected_ui_mut() else {
            return;
        };
        let draft = std::mem::take(&mut ui.draft);
        let mut area = if draft.is_empty() {
            TextArea::default()
        } else {
            TextArea::new(draft)
        };
        area.move_cursor(CursorMove::Bottom);
        area.move_cursor(CursorMove::End);
        area.set_style(self.theme.base);
        area.set_cursor_line_style(ratatui::style::Style::default());
        area.set_placeholder_text("Write to the creature. Several lines are fine.");
        area.set_placeholder_style(self.theme.muted);
        self.message = Some(area);
        self.message_to = self.selected.clone();
        self.message_all = None;
        self.title_message_box();
        self.mode = Mode::Message;
    }

    /// The message box goes to every creature in the garden list (as it is shown now),
    /// or back to the one it was opened for.
    fn toggle_message_all(&mut self) {
        self.message_all = match self.message_all {
            Some(_) => None,
            None => Some(self.garden_order()),
        };
        self.title_message_box();
    }

    /// The message box's title: where what is written goes.
    fn title_message_box(&mut self) {
        let title = match &self.message_all {
            Some(all) => {
                let n = all.len();
                let shown = if self.garden_view.filters() {
                    format!("the {n} creatures the filtered list shows")
                } else {
                    format!("all creatures ({n})")
                };
                format!(" Message to {shown}: each gets it as it takes messages ")
            }
            None => self.message_title(),
        };
        let border = self.theme.border_focused;
        if let Some(area) = self.message.as_mut() {
            area.set_block(
                Block::default()
                    .borders(Borders::ALL)
                    .border_style(border)
                    .title(title),
            );
        }
        self.dirty = true;
    }

    /// Where a message to the creature the box was opened for goes.
    fn message_title(&self) -> String {
        let Some(path) = self.message_to.as_deref() else {
            return String::new();
        };
        let name = self
            .creatures
            .get(path)
            .map(|ui| ui.name.clone())
            .unwrap_or_default();
        let ignored = ignores_messages_file(path);
        let through = self.message_through_openseed(path);
        // Said before anything is typed: the words would reach no one.
        let far = self.remote_of(path).map(|r| r.host.clone());
        if let (true, Some(host)) = (through, &far) {
            format!(
                " Message to {name}: through the OpenSeed orchestrator on {host}, which wakes it "
            )
        } else if let Some(host) = far {
            format!(
                " Message to {name}: to its runner on {host}, else appended to MESSAGES.md there "
            )
        } else if through {
            format!(" Message to {name}: through the OpenSeed orchestrator, which wakes {name} ")
        } else if self
            .creatures
            .get(path)
            .is_some_and(|ui| ui.link != RunnerLink::None)
        {
            format!(" Message to {name}: to its runner, which wakes {name} ")
        } else if ignored {
            format!(
                " {name} will not read MESSAGES.md: its OpenSeed orchestrator delivers messages "
            )
        } else {
            format!(" Message to {name}: appended to MESSAGES.md ")
        }
    }

    fn send_message(&mut self) -> Vec<Job> {
        let (Some(path), Some(area)) = (self.message_to.clone(), self.message.as_ref()) else {
            return Vec::new();
        };
        let text = area.lines().join("\n");
        if text.trim().is_empty() {
            let cancel = self.keymap.mention(Action::Cancel, ", or {} to cancel");
            self.set_notice(
                format!("the message is empty: write something{cancel}"),
                true,
            );
            return Vec::new();
        }
        if let Some(all) = self.message_all.clone() {
            return self.send_to_all(all, text);
        }
        if !self.creatures.contains_key(&path) {
            // Never to whichever creature is selected now: the text stays for copying.
            let close = self.keymap.mention(Action::Cancel, ", {} closes the box");
            self.set_notice(
                format!(
                    "the creature is gone (its directory was removed): the message was not sent{close}"
                ),
                true,
            );
            return Vec::new();
        }
        let jobs = self.route_message(path, text);
        // Else the box stays open with its text, and the status line says why.
        if !jobs.is_empty() {
            self.close_message_box();
        }
        jobs
    }

    /// The message to each creature of `all` still here, the way each takes messages;
    /// the box closes when it went to at least one, and the status line names those it
    /// could not go to.
    fn send_to_all(&mut self, all: Vec<PathBuf>, text: String) -> Vec<Job> {
        let mut jobs = Vec::new();
        let mut refused = Vec::new();
        let mut sent = 0;
        for path in all {
            let Some(name) = self.creatures.get(&path).map(|ui| ui.name.clone()) else {
                continue;
            };
            let routed = self.route_message(path, text.clone());
            if routed.is_empty() {
                refused.push(name);
            } else {
                sent += 1;
                jobs.extend(routed);
            }
        }
        if sent > 0 {
            self.close_message_box();
        }
        let plural = if sent == 1 { "" } else { "s" };
        let mut said = format!("message sent to {sent} creature{plural}");
        if !refused.is_empty() {
            said.push_str(&format!("; not to {}", refused.join(", ")));
        }
        self.set_notice(said, !refused.is_empty());
        jobs
    }

    /// The jobs that give `text` to the creature at `path` the way it takes messages
    /// (none when it cannot now: the status line says why).
    fn route_message(&mut self, path: PathBuf, text: String) -> Vec<Job> {
        if self.message_through_openseed(&path) {
            return self.openseed_message(path, text);
        }
        if self.remote_of(&path).is_some() {
            return self.remote_job(path, RemoteAsk::Message(text));
        }
        vec![Job::AppendMessage {
            creature: path,
            text,
        }]
    }

    fn close_message_box(&mut self) {
        self.message = None;
        self.message_to = None;
        self.message_all = None;
        self.mode = Mode::Normal;
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

impl App {
    /// Shows the Events view's top event whole, or closes it.
    fn toggle_event_detail(&mut self) {
        if self.mode == Mode::Detail {
            self.mode = Mode::Normal;
            self.detail = None;
            return;
        }
        let Some(path) = self.selected.clone() else {
            return;
        };
        let vp = self.areas().main_viewport();
        let (Some(ui), Some(model)) = (self.creatures.get_mut(&path), self.garden.creature(&path))
        else {
            return;
        };
        // The page the view shows (read when drawn; a key may come first).
        ui.events.prepare(model.events(), &self.theme, vp);
        let Some(&(line, _)) = ui.events.rows().first() else {
            self.set_notice("no event to show: the Events view is empty", false);
            return;
        };
        match model.events().read_lines(line..line + 1).into_iter().next() {
            Some((_, Ok(event))) => {
                let (title, lines) =
                    crate::ui::views::events::detail::document(line, &event, &self.theme);
                self.detail = Some(crate::ui::state::detail::Detail {
                    title,
                    lines,
                    anchor: Anchor::Line(0),
                });
                self.mode = Mode::Detail;
            }
            Some((_, Err(e))) => self.set_notice(format!("line {}: {e}", line + 1), true),
            None => self.set_notice("the event is no longer in the file", true),
        }
    }
}
