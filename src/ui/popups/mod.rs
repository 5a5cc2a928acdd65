//! The popups over the screen, one component each (the mode says which is open,
//! [`crate::ui::focus::Mode`]): its state, its preparation, how the keys move it and
//! its drawing. The app holds them together ([`Popups`]); a search's hit list is the
//! search's ([`crate::ui::state::search::SearchState::list`]).

pub mod detail;
mod frame;
pub mod help;
pub mod hits;
pub mod message;
pub mod openseed_form;
pub mod openseed_menu;
pub mod review;
pub mod status_log;

use detail::Detail;
use help::HelpPopup;
use message::MessageBox;
use openseed_form::OpenSeedForm;
use openseed_menu::OpenSeedMenu;
use review::ReviewPopup;
use status_log::StatusLog;

/// Every popup's state.
#[derive(Debug, Default)]
pub struct Popups {
    pub help: HelpPopup,
    /// Everything the status line said.
    pub log: StatusLog,
    /// The entry shown whole, while [`crate::ui::focus::Mode::Detail`].
    pub detail: Option<Detail>,
    pub review: ReviewPopup,
    pub message: MessageBox,
    pub openseed_menu: OpenSeedMenu,
    /// The form open while [`crate::ui::focus::Mode::OpenSeedForm`].
    pub openseed_form: Option<OpenSeedForm>,
}
