//! Where the operator's attention is: the focused pane, the view shown in the main pane,
//! and the mode (the normal screen, or a popup or prompt over it). State, layout, hints
//! and drawing all speak in these.

/// The pane that has the keyboard focus.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Pane {
    Garden,
    Main,
    Side,
}

/// The view of the selected creature shown in the main pane (one tab each).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MainView {
    Observations,
    Dreams,
    Diary,
    Recall,
}

impl MainView {
    pub const ALL: [MainView; 4] = [
        MainView::Observations,
        MainView::Dreams,
        MainView::Diary,
        MainView::Recall,
    ];

    pub fn title(self) -> &'static str {
        match self {
            MainView::Observations => "Observations",
            MainView::Dreams => "Dreams",
            MainView::Diary => "Diary",
            MainView::Recall => "Recall",
        }
    }
}

/// What takes the keys: the normal screen, or a popup or prompt over it. An action's key
/// is looked up in the modes the action lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Mode {
    Normal,
    Help,
    Message,
    Search,
}
