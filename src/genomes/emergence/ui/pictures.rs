//! An emergence creature's pictures for `dreamwatch screenshot`: its soul, memory,
//! diary, plans and relations, on the emergence fixtures, and the garden talking.

use super::talk_picture;
use crate::ui::screenshot::{Input, Pictures, Shot, Staged};

pub(super) const PICTURES: Pictures = Pictures {
    shots: &[
        // wren: the garden is sorted by name (ivy, wren); `]` selects the next.
        Shot {
            name: "emergence-soul",
            theme: None,
            input: &[Input::Key("]"), Input::Key("1")],
            min_width: 0,
        },
        Shot {
            name: "emergence-memory",
            theme: None,
            input: &[Input::Key("]"), Input::Key("2"), Input::Key("pagedown")],
            min_width: 0,
        },
        Shot {
            name: "emergence-diary",
            theme: None,
            input: &[Input::Key("]"), Input::Key("3")],
            min_width: 0,
        },
        Shot {
            name: "emergence-plans",
            theme: None,
            input: &[Input::Key("]"), Input::Key("5")],
            min_width: 0,
        },
        Shot {
            name: "emergence-relations",
            theme: None,
            input: &[Input::Key("]"), Input::Key("7")],
            min_width: 160,
        },
    ],
    staged: &[Staged {
        name: "garden-talk",
        stage: talk_picture::screen,
    }],
};
