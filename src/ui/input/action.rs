//! `Action`: the only thing keys map to. Each action is declared once, in the table below,
//! with everything the rest of the UI needs to know about it: its default keys, the modes
//! its keys work in, its help group and text, when it does something, and whether it earns
//! a place in the hint bar. The keymap defaults, the help overlay, the hint bar and the
//! config file's names (snake_case) all come from that declaration.

use serde::{Deserialize, Serialize};

use crate::ui::focus::{MainView, Mode};

/// Groups for the help overlay, in display order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Group {
    General,
    Move,
    Garden,
    Views,
    Filter,
    Search,
    Open,
    Creature,
    Review,
    OpenSeed,
    Time,
    Prompt,
    User,
}

impl Group {
    pub fn title(self) -> &'static str {
        match self {
            Group::General => "General",
            Group::Move => "Move and scroll",
            Group::Garden => "Garden (its pane focused)",
            Group::Views => "Views",
            Group::Filter => "Observations and events",
            Group::Search => "Search total recall",
            Group::Open => "Open, view, copy (what the main pane selects)",
            Group::Creature => "Creature control",
            Group::Review => "A dream awaiting review (its popup)",
            Group::OpenSeed => "OpenSeed: its dashboard's actions (their menu)",
            Group::Time => "The time cursor (the creature as it was)",
            Group::Prompt => "Message box and prompts",
            Group::User => "Your commands (config [[commands]])",
        }
    }
}

/// What an action needs to do anything (else it is dimmed in help and left out of the bar).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Needs {
    Nothing,
    /// A creature is selected.
    Creature,
    /// A creature is selected and its observations are shown.
    Observations,
    /// A creature is selected and its observations or events are shown (they have an order).
    Ordered,
    /// A creature is selected and its events are shown.
    Events,
    /// A creature is selected and a runner takes its commands (it acts: refused read-only).
    Control,
    /// A creature is selected and the observatory writes for it (refused read-only).
    Write,
    /// A creature's dreams are shown, and the dream shown pruned observations.
    Pruned,
    /// As `Pruned`, and a dreamwatch runner hosts it (the observatory writes into its
    /// memory files: refused read-only).
    Restore,
    /// A dream of the selected creature is held for review (`--review-dreams`).
    Proposal,
    /// As `Proposal`, and a runner takes its commands (it decides the dream: refused
    /// read-only).
    Review,
    /// A search has hits to move between.
    Hits,
    /// The selected creature offers the view the action shows (its genome has it).
    View,
    /// The garden list is filtered.
    GardenFilter,
    /// An OpenSeed orchestrator runs the selected creature (what is only read).
    OpenSeed,
    /// As `OpenSeed`, and the action changes the garden through the orchestrator
    /// (refused read-only).
    OpenSeedAct,
    /// As `OpenSeed`, or the selected creature's genome is one no plug-in knows (its
    /// `genome.json` may declare the files to show).
    GenomeFiles,
    /// A user command: a creature is selected. The observatory cannot know what the
    /// command does, so `--read-only` refuses it.
    Command,
}

impl Needs {
    /// The action writes or acts on a creature: `--read-only` refuses it.
    pub fn acts(self) -> bool {
        matches!(
            self,
            Needs::Control
                | Needs::Write
                | Needs::Restore
                | Needs::Review
                | Needs::Command
                | Needs::OpenSeedAct
        )
    }
}

/// When an enabled action is offered in the hint bar. The number says which hints stay
/// when the bar is too short for all: lower stays longer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bar {
    /// Only in the help overlay.
    Never,
    /// On the normal screen.
    Normal(u8),
    /// On the normal screen, for a view other than the one shown.
    OtherView(u8),
    /// On the normal screen, the main pane focused.
    MainPane(u8),
    /// On the normal screen, the main pane focused on total recall.
    RecallPane(u8),
    /// In a popup or prompt (help, the message box, the search prompt).
    Overlay(u8),
    /// On the normal screen while the time cursor is on.
    Past(u8),
}

impl Bar {
    /// Which hints stay when the bar is short: lower first.
    pub fn rank(self) -> u8 {
        match self {
            Bar::Never => u8::MAX,
            Bar::Normal(r)
            | Bar::OtherView(r)
            | Bar::MainPane(r)
            | Bar::RecallPane(r)
            | Bar::Overlay(r)
            | Bar::Past(r) => r,
        }
    }
}

/// Everything known about one action, from its declaration.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ActionSpec {
    pub group: Group,
    /// Default keys, as a config file names them.
    pub keys: &'static [&'static str],
    /// The modes in which the action's keys are looked up.
    pub modes: &'static [Mode],
    pub needs: Needs,
    pub bar: Bar,
    /// Short label for the hint bar.
    pub hint: &'static str,
    /// One line for the help overlay.
    pub description: &'static str,
}

/// Declares `Action` (in help order) and its [`ActionSpec`]s from one table.
macro_rules! actions {
    ($(
        $name:ident {
            group: $group:ident,
            keys: [$($key:literal),*],
            modes: [$($mode:ident),+],
            needs: $needs:ident,
            bar: $bar:ident $(($rank:literal))?,
            hint: $hint:literal,
            description: $description:literal $(,)?
        }
    )*) => {
        /// Everything the operator can ask the observatory to do: the built-in actions,
        /// and the config's `[[commands]]` (by their place in the keymap's list).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        #[serde(rename_all = "snake_case")]
        pub enum Action {
            $($name,)*
            User(u8),
        }

        impl Action {
            /// Every built-in action, in help order.
            pub const ALL: [Action; [$(stringify!($name)),*].len()] = [$(Action::$name),*];

            /// The action's declaration (a user command's text is the keymap's).
            pub fn spec(self) -> &'static ActionSpec {
                match self {
                    Action::User(_) => &USER_SPEC,
                    $(Action::$name => &ActionSpec {
                        group: Group::$group,
                        keys: &[$($key),*],
                        modes: &[$(Mode::$mode),+],
                        needs: Needs::$needs,
                        bar: Bar::$bar $(($rank))?,
                        hint: $hint,
                        description: $description,
                    },)*
                }
            }
        }
    };
}

/// What every user command is: a key of the normal screen acting on the selected
/// creature (its keys, hint and description are in the keymap).
const USER_SPEC: ActionSpec = ActionSpec {
    group: Group::User,
    keys: &[],
    modes: &[Mode::Normal],
    needs: Needs::Command,
    // Asked for by the operator: kept before views and toggles when the bar is short.
    bar: Bar::Normal(3),
    hint: "command",
    description: "a command of the config file",
};

actions! {
    Help {
        group: General, keys: ["?"], modes: [Normal, Help],
        needs: Nothing, bar: Normal(0),
        hint: "help", description: "show or hide this help",
    }
    Quit {
        group: General, keys: ["q", "ctrl-c"], modes: [Normal],
        needs: Nothing, bar: Normal(0),
        hint: "quit", description: "quit (in this help, q closes it as Esc does)",
    }
    StatusLog {
        group: General, keys: ["L"], modes: [Normal, Log],
        needs: Nothing, bar: Never,
        hint: "log", description: "the status line's log: all it said, whole, newest first",
    }
    CloseHelp {
        group: General, keys: ["q"], modes: [Help],
        needs: Nothing, bar: Overlay(4),
        hint: "close", description: "close this help (as Esc does)",
    }
    Palette {
        group: General, keys: [":"], modes: [Normal],
        needs: Nothing, bar: Never,
        hint: "palette",
        description: "command palette: an action, a view or a creature by name (fuzzy)",
    }
    Suspend {
        group: General, keys: ["ctrl-z"], modes: [Normal],
        needs: Nothing, bar: Never,
        hint: "suspend", description: "suspend the observatory to the shell (fg brings it back)",
    }
    ToggleNotify {
        group: General, keys: ["ctrl-n"], modes: [Normal],
        needs: Nothing, bar: Never,
        hint: "notifications",
        description: "notifications off or on (when a creature needs you)",
    }
    FocusNext {
        group: Move, keys: ["tab"], modes: [Normal],
        needs: Nothing, bar: Normal(3),
        hint: "focus", description: "focus the next pane",
    }
    FocusPrev {
        group: Move, keys: ["backtab"], modes: [Normal],
        needs: Nothing, bar: Never,
        hint: "focus back", description: "focus the previous pane",
    }
    FocusLeft {
        group: Move, keys: ["h", "left"], modes: [Normal],
        needs: Nothing, bar: Never,
        hint: "left", description: "focus the pane to the left",
    }
    FocusRight {
        group: Move, keys: ["l", "right"], modes: [Normal],
        needs: Nothing, bar: Never,
        hint: "right", description: "focus the pane to the right",
    }
    NextCreature {
        group: Move, keys: ["]"], modes: [Normal],
        needs: Nothing, bar: Never,
        hint: "next creature", description: "select the next creature (after the last: the first)",
    }
    PrevCreature {
        group: Move, keys: ["["], modes: [Normal],
        needs: Nothing, bar: Never,
        hint: "prev creature", description: "select the previous creature (before the first: the last)",
    }
    Up {
        group: Move, keys: ["k", "up"], modes: [Normal, Help, Review, Hits, Log, Detail, Blame, ComparePick, Compare, Mail, Narration, GenomeFiles],
        needs: Nothing, bar: Overlay(5),
        hint: "up", description: "up one line or creature",
    }
    Down {
        group: Move, keys: ["j", "down"], modes: [Normal, Help, Review, Hits, Log, Detail, Blame, ComparePick, Compare, Mail, Narration, GenomeFiles],
        needs: Nothing, bar: Overlay(5),
        hint: "down", description: "down one line or creature",
    }
    PageUp {
        group: Move, keys: ["pageup", "ctrl-u"], modes: [Normal, Help, Review, Hits, Log, Detail, Blame, ComparePick, Compare, Mail, Narration, GenomeFiles],
        needs: Nothing, bar: Never,
        hint: "page up", description: "up one page (dreams: the selected dream)",
    }
    PageDown {
        group: Move, keys: ["pagedown", "ctrl-d"], modes: [Normal, Help, Review, Hits, Log, Detail, Blame, ComparePick, Compare, Mail, Narration, GenomeFiles],
        needs: Nothing, bar: Never,
        hint: "page down", description: "down one page (dreams: the selected dream)",
    }
    Top {
        group: Move, keys: ["g", "home"], modes: [Normal, Help, Review, Hits, Log, Detail, Blame, ComparePick, Compare, Mail, Narration, GenomeFiles],
        needs: Nothing, bar: Never,
        hint: "top", description: "go to the top",
    }
    Bottom {
        group: Move, keys: ["G", "end"], modes: [Normal, Help, Review, Hits, Log, Detail, Blame, ComparePick, Compare, Mail, Narration, GenomeFiles],
        needs: Nothing, bar: RecallPane(2),
        hint: "end+follow", description: "go to the end and follow new lines",
    }
    FilterGarden {
        group: Garden, keys: ["/"], modes: [Garden],
        needs: Nothing, bar: Normal(2),
        hint: "filter", description: "filter the garden by name or status (a number jumps to that row)",
    }
    SortGarden {
        group: Garden, keys: ["o"], modes: [Garden],
        needs: Nothing, bar: Normal(3),
        hint: "sort", description: "sort by name, status, last activity, fatigue, cost today (cycles)",
    }
    ClearFilter {
        group: Garden, keys: ["esc"], modes: [Garden],
        needs: GardenFilter, bar: Normal(2),
        hint: "clear filter", description: "show the whole garden again",
    }
    ViewObservations {
        group: Views, keys: ["1"], modes: [Normal],
        needs: View, bar: OtherView(4),
        hint: "observations", description: "observations",
    }
    ViewDreams {
        group: Views, keys: ["2"], modes: [Normal],
        needs: View, bar: OtherView(4),
        hint: "dreams", description: "dreams timeline",
    }
    ViewDiary {
        group: Views, keys: ["3"], modes: [Normal],
        needs: View, bar: OtherView(4),
        hint: "diary", description: "diary",
    }
    ViewJournal {
        group: Views, keys: ["1"], modes: [Normal],
        needs: View, bar: OtherView(4),
        hint: "journal", description: "journal: importance, reflections (evennia)",
    }
    ViewEntities {
        group: Views, keys: ["2"], modes: [Normal],
        needs: View, bar: OtherView(4),
        hint: "entities", description: "entities: profiles, relationships (evennia)",
    }
    ViewMemory {
        group: Views, keys: ["3"], modes: [Normal],
        needs: View, bar: OtherView(4),
        hint: "memory", description: "semantic memory and its links (evennia)",
    }
    ViewSoul {
        group: Views, keys: ["1"], modes: [Normal],
        needs: View, bar: OtherView(4),
        hint: "soul", description: "soul entries (emergence)",
    }
    ViewLongTerm {
        group: Views, keys: ["2"], modes: [Normal],
        needs: View, bar: OtherView(4),
        hint: "memory", description: "long-term memories, summaries, archive (emergence)",
    }
    ViewDiaryLog {
        group: Views, keys: ["3"], modes: [Normal],
        needs: View, bar: OtherView(4),
        hint: "diary", description: "diary by date, mood, location (emergence)",
    }
    ViewPlans {
        group: Views, keys: ["5"], modes: [Normal],
        needs: View, bar: OtherView(4),
        hint: "plans", description: "to-dos and the calendar's agenda (emergence)",
    }
    ViewRelations {
        group: Views, keys: ["7"], modes: [Normal],
        needs: View, bar: OtherView(4),
        hint: "relations", description: "relationships, their history, the garden's graph (emergence)",
    }
    ViewRecall {
        group: Views, keys: ["4"], modes: [Normal],
        needs: View, bar: OtherView(4),
        hint: "recall", description: "total recall (conversation log)",
    }
    ViewLive {
        group: Views, keys: ["5"], modes: [Normal],
        needs: View, bar: OtherView(4),
        hint: "live", description: "live events from the OpenSeed orchestrator (OpenSeed creatures)",
    }
    ViewEvents {
        group: Views, keys: ["6"], modes: [Normal],
        needs: View, bar: OtherView(4),
        hint: "events", description: "events: errors, retries, wakes, sleeps, messages, tools, dreams",
    }
    ViewOwnFirst {
        group: Views, keys: ["1"], modes: [Normal],
        needs: View, bar: OtherView(4),
        hint: "view 1", description: "the genome's first view of its own (genomes with views of their own)",
    }
    ViewOwnSecond {
        group: Views, keys: ["2"], modes: [Normal],
        needs: View, bar: OtherView(4),
        hint: "view 2", description: "the genome's second view of its own",
    }
    ViewTalk {
        group: Views, keys: ["8"], modes: [Normal],
        needs: View, bar: OtherView(4),
        hint: "talk", description: "the garden's conversation: who wrote to whom, newest first (a garden where creatures talk)",
    }
    ToggleRed {
        group: Filter, keys: ["r"], modes: [Normal],
        needs: Observations, bar: MainPane(5),
        hint: "RED", description: "show or hide RED observations",
    }
    ToggleYlw {
        group: Filter, keys: ["y"], modes: [Normal],
        needs: Observations, bar: MainPane(5),
        hint: "YLW", description: "show or hide YLW observations",
    }
    ToggleGrn {
        group: Filter, keys: ["e"], modes: [Normal],
        needs: Observations, bar: MainPane(5),
        hint: "GRN", description: "show or hide GRN observations",
    }
    CycleEventKind {
        group: Filter, keys: ["f"], modes: [Normal],
        needs: Events, bar: MainPane(5),
        hint: "kind", description: "events: all, errors, wakes/sleeps, messages, tools, dreams (cycles)",
    }
    EventDetail {
        group: Filter, keys: ["enter"], modes: [Normal, Detail],
        needs: Events, bar: MainPane(5),
        hint: "whole", description: "events: the top event whole (every field, long texts wrapped), or close it",
    }
    ToggleOrder {
        group: Filter, keys: ["o"], modes: [Normal],
        needs: Ordered, bar: MainPane(5),
        hint: "order", description: "newest first, or oldest first following new lines",
    }
    PickPruned {
        group: Filter, keys: ["x"], modes: [Normal],
        needs: Pruned, bar: MainPane(5),
        hint: "pick pruned", description: "dreams: pick the next line the dream pruned (to restore it)",
    }
    Search {
        group: Search, keys: ["/"], modes: [Normal],
        needs: Creature, bar: Normal(2),
        hint: "search",
        description: "search total recall (smart case: a query in lowercase ignores case, one with a capital matches it exactly)",
    }
    NextHit {
        group: Search, keys: ["n"], modes: [Normal],
        needs: Hits, bar: Normal(2),
        hint: "next hit", description: "next search hit",
    }
    PrevHit {
        group: Search, keys: ["N"], modes: [Normal],
        needs: Hits, bar: Never,
        hint: "prev hit", description: "previous search hit",
    }
    HitList {
        group: Search, keys: ["H"], modes: [Normal, Hits],
        needs: Hits, bar: Normal(3),
        hint: "all hits",
        description: "list every hit (creature, where, the line), or close the list: j/k, PgUp/PgDn, g/G move, Enter shows one",
    }
    JumpToHit {
        group: Search, keys: ["enter"], modes: [Hits],
        needs: Hits, bar: Overlay(1),
        hint: "show", description: "hits list: show the selected hit in its creature's view",
    }
    OpenEditor {
        group: Open, keys: ["O"], modes: [Normal],
        needs: Write, bar: MainPane(6),
        hint: "edit",
        description: "open the selected entry's file in $EDITOR (else vi), at its line where known",
    }
    OpenPager {
        group: Open, keys: ["v"], modes: [Normal],
        needs: Creature, bar: MainPane(6),
        hint: "pager",
        description: "view the selected entry's file in $PAGER (else less), at its line where known",
    }
    Copy {
        group: Open, keys: ["c"], modes: [Normal],
        needs: Creature, bar: MainPane(6),
        hint: "copy",
        description: "copy the selected entry's text to the clipboard with OSC 52 (the terminal must allow it)",
    }
    Blame {
        group: Open, keys: ["b"], modes: [Normal, Blame],
        needs: Creature, bar: Never,
        hint: "blame",
        description: "blame the selected line of a memory file (the side panel's top line when it is focused): who wrote it and when, what it replaced, what became of it; or close it",
    }
    BlameWhole {
        group: Open, keys: ["enter"], modes: [Blame],
        needs: Nothing, bar: Overlay(1),
        hint: "whole file", description: "blame popup: the whole file's blame, or back to the line",
    }
    Compare {
        group: Open, keys: ["C"], modes: [Normal, Compare],
        needs: Creature, bar: Never,
        hint: "compare",
        description: "compare the creature's memory with another's (picked from the garden): side by side, and how far apart after each dream; or close it",
    }
    CompareWith {
        group: Open, keys: ["enter"], modes: [ComparePick],
        needs: Nothing, bar: Overlay(1),
        hint: "compare", description: "compare list: compare with the selected creature",
    }
    ForceSleep {
        group: Creature, keys: ["s"], modes: [Normal],
        needs: Control, bar: Normal(1),
        hint: "sleep", description: "force the creature to sleep now",
    }
    PauseResume {
        group: Creature, keys: ["p"], modes: [Normal],
        needs: Control, bar: Normal(1),
        hint: "pause", description: "pause or resume the creature",
    }
    Wake {
        group: Creature, keys: ["w"], modes: [Normal],
        needs: Control, bar: Normal(1),
        hint: "wake", description: "wake the creature early",
    }
    Restore {
        group: Creature, keys: ["R"], modes: [Normal],
        needs: Restore, bar: MainPane(4),
        hint: "restore",
        description: "put the picked pruned line back into the observations, under today's date (asks first; creatures a dreamwatch runner hosts)",
    }
    ReviewDream {
        group: Creature, keys: ["D"], modes: [Normal, Review],
        needs: Proposal, bar: Normal(1),
        hint: "review dream",
        description: "show the dream awaiting review and what it would change, or close it (--review-dreams)",
    }
    Message {
        group: Creature, keys: ["m"], modes: [Normal],
        needs: Write, bar: Normal(1),
        hint: "message", description: "write to the creature's MESSAGES.md",
    }
    DemoSlower {
        group: Creature, keys: ["-"], modes: [Normal],
        needs: Nothing, bar: Never,
        hint: "slower", description: "demo: its creatures live slower (the header says how fast)",
    }
    DemoFaster {
        group: Creature, keys: ["+", "="], modes: [Normal],
        needs: Nothing, bar: Never,
        hint: "faster", description: "demo: its creatures live faster",
    }
    PauseAll {
        group: Creature, keys: ["P"], modes: [Normal],
        needs: Nothing, bar: Never,
        hint: "pause all", description: "pause every creature hosted here, or resume them all",
    }
    OpenSeedMenu {
        group: OpenSeed, keys: ["A"], modes: [Normal, OpenSeedMenu],
        needs: GenomeFiles, bar: Normal(2),
        hint: "openseed",
        description: "the OpenSeed orchestrator's actions (spawn, restart, rebuild, remount, archive, budgets, mail, narration, files, the Ranger): a menu, or close it",
    }
    OpenSeedSpawn {
        group: OpenSeed, keys: ["n"], modes: [OpenSeedMenu],
        needs: OpenSeedAct, bar: Overlay(1),
        hint: "spawn", description: "spawn a new creature: its name, genome, model and purpose (a form)",
    }
    OpenSeedRestart {
        group: OpenSeed, keys: ["r"], modes: [OpenSeedMenu],
        needs: OpenSeedAct, bar: Overlay(1),
        hint: "restart", description: "restart the creature's container, its environment kept (asks first)",
    }
    OpenSeedRebuild {
        group: OpenSeed, keys: ["b"], modes: [OpenSeedMenu],
        needs: OpenSeedAct, bar: Overlay(1),
        hint: "rebuild", description: "rebuild its image and make a fresh container: what it installed is lost (asks first)",
    }
    OpenSeedRemount {
        group: OpenSeed, keys: ["m"], modes: [OpenSeedMenu],
        needs: OpenSeedAct, bar: Overlay(1),
        hint: "remount", description: "keep its container's state in its image and make it again with new mounts (asks first)",
    }
    OpenSeedArchive {
        group: OpenSeed, keys: ["a"], modes: [OpenSeedMenu],
        needs: OpenSeedAct, bar: Overlay(1),
        hint: "archive", description: "stop it, remove its container and image, move its files to OpenSeed's archive (asks first)",
    }
    OpenSeedBudget {
        group: OpenSeed, keys: ["c"], modes: [OpenSeedMenu],
        needs: OpenSeedAct, bar: Overlay(1),
        hint: "budget", description: "set the creature's daily cap and what happens at it (sleep, warn, off)",
    }
    OpenSeedGlobalBudget {
        group: OpenSeed, keys: ["g"], modes: [OpenSeedMenu],
        needs: OpenSeedAct, bar: Overlay(1),
        hint: "global budget", description: "set the daily cap of every creature without one of its own",
    }
    OpenSeedSubmit {
        group: OpenSeed, keys: ["enter"], modes: [OpenSeedForm],
        needs: Nothing, bar: Overlay(1),
        hint: "send", description: "the form: send it to the orchestrator (Tab, Shift-Tab: next, previous field; Left, Right: another choice)",
    }
    OpenSeedClose {
        group: OpenSeed, keys: ["esc", "q"], modes: [OpenSeedMenu],
        needs: Nothing, bar: Overlay(5),
        hint: "close", description: "close the OpenSeed menu",
    }
    OpenSeedCancel {
        group: OpenSeed, keys: ["esc"], modes: [OpenSeedForm],
        needs: Nothing, bar: Overlay(5),
        hint: "cancel", description: "close the form: nothing is sent",
    }
    OpenSeedMail {
        group: OpenSeed, keys: ["e"], modes: [OpenSeedMenu],
        needs: OpenSeed, bar: Overlay(1),
        hint: "mail", description: "the creatures' mail: mailboxes, inbox and sent, read, archive, write as the creator",
    }
    OpenSeedNarration {
        group: OpenSeed, keys: ["o"], modes: [OpenSeedMenu],
        needs: OpenSeed, bar: Overlay(1),
        hint: "narration", description: "the narrator's story of the garden, newest first, arriving live; its settings",
    }
    Mail {
        group: OpenSeed, keys: ["M"], modes: [Normal, Mail],
        needs: OpenSeed, bar: Never,
        hint: "mail", description: "the OpenSeed creatures' mail (the menu's mail), or close it",
    }
    MailLeft {
        group: OpenSeed, keys: ["h", "left"], modes: [Mail],
        needs: Nothing, bar: Overlay(4),
        hint: "left", description: "mail: the column to the left (mailboxes, messages, the message)",
    }
    MailRight {
        group: OpenSeed, keys: ["l", "right"], modes: [Mail],
        needs: Nothing, bar: Overlay(4),
        hint: "right", description: "mail: the column to the right",
    }
    MailFolder {
        group: OpenSeed, keys: ["tab"], modes: [Mail],
        needs: Nothing, bar: Overlay(2),
        hint: "inbox/sent", description: "mail: the mailbox's inbox or its sent mail (toggles)",
    }
    MailRead {
        group: OpenSeed, keys: ["enter"], modes: [Mail],
        needs: Nothing, bar: Overlay(1),
        hint: "read", description: "mail: the mailbox's mail, or the message whole (marked read as OpenSeed does, not in --read-only)",
    }
    MailWrite {
        group: OpenSeed, keys: ["c"], modes: [Mail],
        needs: OpenSeedAct, bar: Overlay(1),
        hint: "write", description: "mail: write to a creature as the creator (a form: to, subject, text)",
    }
    MailReply {
        group: OpenSeed, keys: ["r"], modes: [Mail],
        needs: OpenSeedAct, bar: Overlay(2),
        hint: "reply", description: "mail: answer the message as the creator",
    }
    MailArchive {
        group: OpenSeed, keys: ["a"], modes: [Mail],
        needs: OpenSeedAct, bar: Overlay(3),
        hint: "archive", description: "mail: move the message out of the inbox into the mailbox's archive",
    }
    MailClose {
        group: OpenSeed, keys: ["esc", "q"], modes: [Mail],
        needs: Nothing, bar: Overlay(5),
        hint: "close", description: "close the mail",
    }
    NarratorSettings {
        group: OpenSeed, keys: ["c"], modes: [Narration],
        needs: OpenSeedAct, bar: Overlay(1),
        hint: "settings", description: "narration: the narrator on or off, its model, how often it tells (a form)",
    }
    NarrationClose {
        group: OpenSeed, keys: ["esc", "q"], modes: [Narration],
        needs: Nothing, bar: Overlay(5),
        hint: "close", description: "close the narration",
    }
    OpenSeedFiles {
        group: OpenSeed, keys: ["f"], modes: [OpenSeedMenu],
        needs: GenomeFiles, bar: Overlay(1),
        hint: "files", description: "its files as its genome.json's tabs declare them (from the orchestrator, else its directory)",
    }
    OpenSeedRanger {
        group: OpenSeed, keys: ["R"], modes: [OpenSeedMenu],
        needs: OpenSeedAct, bar: Overlay(1),
        hint: "ranger", description: "ask OpenSeed's Ranger (its agent) about it: it may change files; costs model calls",
    }
    FilesNextTab {
        group: OpenSeed, keys: ["right", "l", "tab"], modes: [GenomeFiles],
        needs: Nothing, bar: Overlay(1),
        hint: "next tab", description: "genome files: the next tab",
    }
    FilesPrevTab {
        group: OpenSeed, keys: ["left", "h", "backtab"], modes: [GenomeFiles],
        needs: Nothing, bar: Overlay(2),
        hint: "tab back", description: "genome files: the tab before",
    }
    FilesReload {
        group: OpenSeed, keys: ["r"], modes: [GenomeFiles],
        needs: Nothing, bar: Overlay(3),
        hint: "read again", description: "genome files: read them again",
    }
    FilesClose {
        group: OpenSeed, keys: ["esc", "q"], modes: [GenomeFiles],
        needs: Nothing, bar: Overlay(5),
        hint: "close", description: "genome files: close them",
    }
    RangerAsk {
        group: OpenSeed, keys: ["enter"], modes: [Ranger],
        needs: Nothing, bar: Overlay(1),
        hint: "ask", description: "Ranger: send what is typed (Alt-Enter: a new line)",
    }
    RangerForget {
        group: OpenSeed, keys: ["ctrl-l"], modes: [Ranger],
        needs: Nothing, bar: Overlay(3),
        hint: "forget", description: "Ranger: make it forget the conversation (its one conversation, everyone's)",
    }
    RangerOlder {
        group: OpenSeed, keys: ["pageup"], modes: [Ranger],
        needs: Nothing, bar: Never,
        hint: "older", description: "Ranger: scroll the conversation back",
    }
    RangerNewer {
        group: OpenSeed, keys: ["pagedown"], modes: [Ranger],
        needs: Nothing, bar: Never,
        hint: "newer", description: "Ranger: scroll the conversation on",
    }
    RangerClose {
        group: OpenSeed, keys: ["esc"], modes: [Ranger],
        needs: Nothing, bar: Overlay(5),
        hint: "close", description: "Ranger: close it (the conversation and what is typed are kept)",
    }
    ApplyDream {
        group: Review, keys: ["a"], modes: [Review],
        needs: Review, bar: Overlay(1),
        hint: "apply", description: "apply the dream: its files are written and the creature wakes with it",
    }
    RejectDream {
        group: Review, keys: ["x"], modes: [Review],
        needs: Review, bar: Overlay(1),
        hint: "reject", description: "reject the dream: nothing of it is written (asks first)",
    }
    EditDream {
        group: Review, keys: ["e"], modes: [Review],
        needs: Review, bar: Overlay(1),
        hint: "edit",
        description: "edit the dream in $EDITOR (else vi); it is held as edited until applied",
    }
    TimeCursor {
        group: Time, keys: ["t"], modes: [Normal],
        needs: Creature, bar: Never,
        hint: "past",
        description: "the time cursor: every view shows the selected creature as it was (the last dream first), or back to now",
    }
    TimeNow {
        group: Time, keys: ["esc"], modes: [Past],
        needs: Creature, bar: Past(0),
        hint: "now", description: "leave the time cursor: back to now (what changed meanwhile is shown)",
    }
    PastDreamBack {
        group: Time, keys: ["{"], modes: [Past],
        needs: Creature, bar: Past(1),
        hint: "dream back", description: "back to the dream before",
    }
    PastDreamForward {
        group: Time, keys: ["}"], modes: [Past],
        needs: Creature, bar: Past(1),
        hint: "dream on", description: "on to the next dream",
    }
    PastEventBack {
        group: Time, keys: [","], modes: [Past],
        needs: Creature, bar: Past(3),
        hint: "event back", description: "back one event",
    }
    PastEventForward {
        group: Time, keys: ["."], modes: [Past],
        needs: Creature, bar: Past(3),
        hint: "event on", description: "on one event",
    }
    PastWakeBack {
        group: Time, keys: ["<"], modes: [Past],
        needs: Creature, bar: Past(4),
        hint: "wake back", description: "back to the wake before",
    }
    PastWakeForward {
        group: Time, keys: [">"], modes: [Past],
        needs: Creature, bar: Past(4),
        hint: "wake on", description: "on to the next wake",
    }
    PastRedBack {
        group: Time, keys: ["("], modes: [Past],
        needs: Creature, bar: Past(5),
        hint: "RED back", description: "back to the dream before that added a RED observation",
    }
    PastRedForward {
        group: Time, keys: [")"], modes: [Past],
        needs: Creature, bar: Past(5),
        hint: "RED on", description: "on to the next dream that added a RED observation",
    }
    PastJump {
        group: Time, keys: [";"], modes: [Past],
        needs: Creature, bar: Past(2),
        hint: "jump", description: "jump to a dream (its number), dream:N, wake:N or a time (RFC 3339)",
    }
    PastPlay {
        group: Time, keys: ["space"], modes: [Past],
        needs: Creature, bar: Past(2),
        hint: "play", description: "play the life from the cursor, or pause (its real time, scaled)",
    }
    PastSpeed {
        group: Time, keys: ["'"], modes: [Past],
        needs: Creature, bar: Past(6),
        hint: "speed", description: "play faster: 1x, 2x, 4x ... 64x, then 1x again",
    }
    JumpTo {
        group: Time, keys: ["enter"], modes: [Jump],
        needs: Nothing, bar: Overlay(5),
        hint: "jump", description: "jump prompt: go to the moment typed",
    }
    SendMessage {
        group: Prompt, keys: ["ctrl-s"], modes: [Message],
        needs: Write, bar: Overlay(5),
        hint: "send", description: "send the message",
    }
    MessageAll {
        group: Prompt, keys: ["tab"], modes: [Message],
        needs: Write, bar: Overlay(5),
        hint: "to all", description: "send the message to every creature in the garden list, or only to the one it was opened for (toggles)",
    }
    SearchScope {
        group: Prompt, keys: ["tab"], modes: [Search],
        needs: Nothing, bar: Overlay(5),
        hint: "whole garden", description: "search the whole garden or only the selected creature (toggles)",
    }
    SearchRegex {
        group: Prompt, keys: ["ctrl-r"], modes: [Search],
        needs: Nothing, bar: Overlay(5),
        hint: "regex", description: "search for a regular expression or literal text (toggles; smart case either way)",
    }
    Submit {
        group: Prompt, keys: ["enter"], modes: [Search],
        needs: Nothing, bar: Overlay(5),
        hint: "search", description: "run the search",
    }
    KeepFilter {
        group: Prompt, keys: ["enter"], modes: [Filter],
        needs: Nothing, bar: Overlay(5),
        hint: "keep", description: "keep the garden's filter and go back to the list",
    }
    Cancel {
        group: Prompt, keys: ["esc"], modes: [Help, Message, Search, Filter, Review, Hits, Log, Detail, Blame, ComparePick, Compare, Jump],
        needs: Nothing, bar: Overlay(5),
        hint: "cancel", description: "close, cancel (a filter being typed is cleared)",
    }
    PaletteRun {
        group: Prompt, keys: ["enter"], modes: [Palette],
        needs: Nothing, bar: Overlay(1),
        hint: "run", description: "palette: run the entry chosen with ↑/↓ (an action, a view, a creature)",
    }
    PaletteClose {
        group: Prompt, keys: ["esc"], modes: [Palette],
        needs: Nothing, bar: Overlay(2),
        hint: "close", description: "palette: close it, nothing run",
    }
}

impl Action {
    /// The action that shows `view` in the main pane.
    pub fn show(view: MainView) -> Action {
        match view {
            MainView::Observations => Action::ViewObservations,
            MainView::Dreams => Action::ViewDreams,
            MainView::Diary => Action::ViewDiary,
            MainView::Recall => Action::ViewRecall,
            MainView::Live => Action::ViewLive,
            MainView::Events => Action::ViewEvents,
            MainView::Talk => Action::ViewTalk,
            MainView::Own(view) => view.show,
        }
    }

    /// The view this action shows among `views` (a creature's): one of the shared views,
    /// or the genome's own view it is the key of.
    pub fn view_in(self, views: &[MainView]) -> Option<MainView> {
        match self.view() {
            Some(view) => views.contains(&view).then_some(view),
            None => views
                .iter()
                .copied()
                .find(|v| matches!(v, MainView::Own(o) if o.show == self)),
        }
    }

    /// Whether the action shows a view (of some creature).
    pub fn shows_a_view(self) -> bool {
        self.spec().needs == Needs::View
    }

    /// The shared view this action shows, if it shows one (a genome's own views are
    /// found by [`Action::view_in`]).
    pub fn view(self) -> Option<MainView> {
        Some(match self {
            Action::ViewObservations => MainView::Observations,
            Action::ViewDreams => MainView::Dreams,
            Action::ViewDiary => MainView::Diary,
            Action::ViewRecall => MainView::Recall,
            Action::ViewLive => MainView::Live,
            Action::ViewEvents => MainView::Events,
            Action::ViewTalk => MainView::Talk,
            _ => return None,
        })
    }

    /// Whether the two actions can never both work for one creature (they show views of
    /// different genomes): then they may share a key.
    pub fn exclusive(a: Action, b: Action) -> bool {
        if !a.shows_a_view() || !b.shows_a_view() {
            return false;
        }
        // Some creature offers the views of both: the views of one set.
        !crate::ui::genome::view_sets()
            .any(|set| a.view_in(set).is_some() && b.view_in(set).is_some())
            && !matches!((a, b), (Action::ViewTalk, _) | (_, Action::ViewTalk))
    }

    /// The modes in which the action's key is looked up.
    pub fn modes(self) -> &'static [Mode] {
        self.spec().modes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_lists_every_action_once() {
        let mut seen = std::collections::HashSet::new();
        for a in Action::ALL {
            assert!(seen.insert(a), "{a:?} twice");
            assert!(!a.modes().is_empty());
        }
        for a in Action::ALL {
            if let Some(view) = a.view() {
                assert_eq!(Action::show(view), a);
            }
        }
        // The OpenSeed menu opens read-only; what its items do is refused there, but
        // reading a genome's files.
        assert!(!Action::OpenSeedMenu.spec().needs.acts());
        for a in crate::ui::popups::openseed_menu::ITEMS {
            let reads = matches!(
                a,
                Action::OpenSeedMail | Action::OpenSeedNarration | Action::OpenSeedFiles
            );
            assert_eq!(a.spec().needs.acts(), !reads, "{a:?}");
        }
        // The serde name round-trips, so config files can name every action.
        for a in Action::ALL {
            let name = toml::Value::try_from(a).unwrap();
            let back: Action = name.clone().try_into().unwrap();
            assert_eq!(back, a, "{name}");
        }
    }
}
