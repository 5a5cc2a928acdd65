//! The one question the observatory may have asked: an action that is done only when
//! its key is pressed a second time (quitting while creatures are hosted here, stopping
//! an OpenSeed creature's container or starting one its budget paused, restarting,
//! rebuilding, remounting or archiving one, restoring a pruned
//! line, rejecting a held dream). Any other key takes the question back.

use std::path::{Path, PathBuf};

use crate::ui::input::action::Action;

/// What was asked, and of which creature.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Confirm {
    /// Quit, stopping the runners hosted here.
    Quit,
    /// Stop this OpenSeed creature's container.
    Stop(PathBuf),
    /// Start this OpenSeed creature, which the orchestrator paused at its daily budget,
    /// asked by this action (`w` or `p`: the same key again answers).
    Start(PathBuf, Action),
    /// Do this lifecycle action of the OpenSeed menu (restart, rebuild, remount, archive)
    /// to this creature.
    OpenSeed(PathBuf, Action),
    /// Append this pruned line to this creature's observations.
    Restore(PathBuf, String),
    /// Reject the dream this creature holds for review.
    Reject(PathBuf),
}

impl Confirm {
    /// The action whose second press answers the question.
    pub fn action(&self) -> Action {
        match self {
            Confirm::Quit => Action::Quit,
            Confirm::Stop(_) => Action::PauseResume,
            Confirm::Start(_, action) | Confirm::OpenSeed(_, action) => *action,
            Confirm::Restore(..) => Action::Restore,
            Confirm::Reject(_) => Action::RejectDream,
        }
    }

    /// The creature the question is about, if it is about one.
    pub fn creature(&self) -> Option<&Path> {
        match self {
            Confirm::Quit => None,
            Confirm::Stop(p)
            | Confirm::Start(p, _)
            | Confirm::OpenSeed(p, _)
            | Confirm::Restore(p, _)
            | Confirm::Reject(p) => Some(p),
        }
    }
}

/// Asks `question`, or, when it is the one asked already, answers it: whether to go on.
pub fn ask_or_answer(asked: &mut Option<Confirm>, question: Confirm) -> bool {
    if asked.as_ref() == Some(&question) {
        *asked = None;
        return true;
    }
    *asked = Some(question);
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_question_twice_goes_on_another_asks_again() {
        let mut asked = None;
        let a = Confirm::Stop(PathBuf::from("/g/a"));
        assert!(!ask_or_answer(&mut asked, a.clone()));
        assert!(!ask_or_answer(
            &mut asked,
            Confirm::Stop(PathBuf::from("/g/b"))
        ));
        assert!(!ask_or_answer(&mut asked, a.clone()));
        assert!(ask_or_answer(&mut asked, a));
        assert_eq!(asked, None);
        assert_eq!(Confirm::Quit.action(), Action::Quit);
        assert_eq!(
            Confirm::Reject("/g/a".into()).creature(),
            Some(Path::new("/g/a"))
        );
    }
}
