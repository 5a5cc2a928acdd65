//! What every rehearsal script says to the other creatures of its garden: an answer to a
//! message it got (never to an answer, so two rehearsals do not talk forever), and every
//! other session a greeting to one of them in turn.

use serde_json::{Value, json};

use super::task::Turn;
use crate::runner::activity::clip;
use crate::runner::mail::{CREATOR, SEND_MESSAGE};

const ANSWER: &str = "Thank you, ";

/// The `send_message` call (name, input) for this turn of `session`, at its `step`, if any.
pub fn message(turn: &Turn, session: u64, step: u64) -> Option<(String, Value)> {
    if turn.asleep || !turn.tools.iter().any(|t| t == SEND_MESSAGE) {
        return None;
    }
    let heard = turn
        .messages
        .iter()
        .find(|(from, text)| from != CREATOR && !text.starts_with(ANSWER));
    let (to, text) = match heard {
        Some((from, text)) => (
            from.clone(),
            format!(
                "{ANSWER}{from}. I heard you: \"{}\". Session {session} here goes on.",
                clip(text.lines().next().unwrap_or_default(), 60)
            ),
        ),
        None if step == 2 && session % 2 == 1 && !turn.garden.is_empty() => {
            let to = &turn.garden[(session as usize / 2) % turn.garden.len()];
            (
                to.clone(),
                format!("Hello {to}, session {session} here: how is your side of the garden?"),
            )
        }
        None => return None,
    };
    Some((SEND_MESSAGE.into(), json!({"to": to, "text": text})))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn turn(messages: &[(&str, &str)]) -> Turn {
        Turn {
            tools: vec!["bash".into(), SEND_MESSAGE.into()],
            garden: vec!["fern".into(), "moss".into()],
            messages: messages
                .iter()
                .map(|(f, t)| (f.to_string(), t.to_string()))
                .collect(),
            ..Turn::default()
        }
    }

    #[test]
    fn greets_every_other_session_and_answers_once() {
        let (_, hello) = message(&turn(&[]), 1, 2).unwrap();
        assert_eq!(hello["to"], "fern");
        let (_, hello) = message(&turn(&[]), 3, 2).unwrap();
        assert_eq!(hello["to"], "moss");
        assert!(message(&turn(&[]), 2, 2).is_none());
        assert!(message(&turn(&[]), 1, 3).is_none());
        let (_, answer) = message(&turn(&[("moss", "Hello sprout")]), 2, 4).unwrap();
        assert_eq!(answer["to"], "moss");
        let answered = answer["text"].as_str().unwrap().to_string();
        assert!(
            message(&turn(&[("moss", &answered)]), 2, 4).is_none(),
            "no answer to an answer"
        );
        assert!(message(&turn(&[("creator", "hi")]), 2, 4).is_none());
        let mut alone = turn(&[]);
        alone.tools = vec!["bash".into()];
        assert!(message(&alone, 1, 2).is_none());
    }
}
