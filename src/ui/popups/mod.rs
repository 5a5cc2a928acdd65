//! The popups over the screen, one component each (the mode says which is open,
//! [`crate::ui::focus::Mode`]): its state, its preparation, how the keys move it and
//! its drawing. The app holds them together ([`Popups`]); a search's hit list is the
//! search's ([`crate::ui::state::search::SearchState::list`]).

pub mod blame;
pub mod compare;
pub mod detail;
mod frame;
pub mod genome_files;
pub mod help;
pub mod hits;
pub mod mail;
pub mod message;
pub mod narration;
pub mod openseed_form;
pub mod openseed_menu;
pub mod palette;
pub mod ranger;
pub mod review;
pub mod status_log;

use blame::BlamePopup;
use compare::ComparePopup;
use detail::Detail;
use genome_files::GenomeFilesPopup;
use help::HelpPopup;
use mail::MailPopup;
use message::MessageBox;
use narration::NarrationPopup;
use openseed_form::OpenSeedForm;
use openseed_menu::OpenSeedMenu;
use palette::Palette;
use ranger::RangerPopup;
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
    pub blame: BlamePopup,
    pub compare: ComparePopup,
    /// The `:` palette, while [`crate::ui::focus::Mode::Palette`].
    pub palette: Palette,
    pub openseed_menu: OpenSeedMenu,
    /// The form open while [`crate::ui::focus::Mode::OpenSeedForm`].
    pub openseed_form: Option<OpenSeedForm>,
    /// The creatures' mail, while [`crate::ui::focus::Mode::Mail`] (kept between openings).
    pub mail: MailPopup,
    /// The narrator's story, while [`crate::ui::focus::Mode::Narration`].
    pub narration: NarrationPopup,
    /// A creature's genome files, while [`crate::ui::focus::Mode::GenomeFiles`].
    pub genome_files: GenomeFilesPopup,
    /// The conversation with the Ranger (kept while closed).
    pub ranger: RangerPopup,
}
