//! An evennia creature's pictures for `dreamwatch screenshot`: its journal, entities
//! and memory, on the evennia fixtures.

use crate::ui::screenshot::{Input, Pictures, Shot};

pub(super) const PICTURES: Pictures = Pictures {
    shots: &[
        Shot {
            name: "evennia-journal",
            theme: None,
            input: &[
                Input::Key("1"),
                Input::Key("pagedown"),
                Input::Key("pagedown"),
            ],
            min_width: 0,
        },
        Shot {
            name: "evennia-entities",
            theme: None,
            input: &[Input::Key("2"), Input::Key("j"), Input::Key("j")],
            min_width: 0,
        },
        Shot {
            name: "evennia-memory",
            theme: None,
            input: &[
                Input::Key("3"),
                Input::Key("/"),
                Input::Text("north wing"),
                Input::Key("enter"),
                Input::Key("n"),
            ],
            min_width: 0,
        },
    ],
    staged: &[],
};
