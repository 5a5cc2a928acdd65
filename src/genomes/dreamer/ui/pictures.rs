//! The dreamer's pictures for `dreamwatch screenshot`, on the OpenSeed fixtures of its
//! creatures: each of its views, help, the message box, the other themes.

use crate::ui::screenshot::{Input, Pictures, Shot};

pub(super) const PICTURES: Pictures = Pictures {
    shots: &[
        Shot {
            name: "observations",
            theme: None,
            input: &[],
            min_width: 0,
        },
        Shot {
            name: "dreams",
            theme: None,
            input: &[
                Input::Key("2"),
                Input::Key("j"),
                Input::Key("j"),
                Input::Key("j"),
                Input::Key("j"),
                Input::Key("j"),
            ],
            min_width: 0,
        },
        Shot {
            name: "recall",
            theme: None,
            input: &[
                // wren: the garden is sorted by name (finch, moss, wren).
                Input::Key("h"),
                Input::Key("j"),
                Input::Key("j"),
                Input::Key("4"),
                Input::Key("/"),
                Input::Text("weekly_mean"),
                Input::Key("enter"),
                Input::Key("n"),
                Input::Key("n"),
            ],
            min_width: 0,
        },
        Shot {
            name: "events",
            theme: None,
            input: &[Input::Key("6")],
            min_width: 0,
        },
        Shot {
            name: "diary",
            theme: None,
            // moss: the creature whose model wrote its diary itself.
            input: &[Input::Key("h"), Input::Key("j"), Input::Key("3")],
            min_width: 0,
        },
        Shot {
            name: "help",
            theme: None,
            input: &[Input::Key("?")],
            min_width: 0,
        },
        Shot {
            name: "message",
            theme: None,
            input: &[
                Input::Key("m"),
                Input::Text("Please write the weekly summary to workspace/weekly.md first."),
                Input::Key("enter"),
                Input::Text("Then fix weekly_mean."),
            ],
            min_width: 0,
        },
        Shot {
            name: "light",
            theme: Some("light"),
            input: &[],
            min_width: 0,
        },
        Shot {
            name: "high-contrast",
            theme: Some("high-contrast"),
            input: &[Input::Key("2")],
            min_width: 0,
        },
    ],
    staged: &[],
};
