//! The demo's keys: its creatures live slower or faster (the runners' speed, sent as a
//! control command to each creature hosted here), or are all paused and resumed. Outside
//! a demo, or with no creature hosted here, they say why they do nothing.

use super::Job;
use crate::control::ControlCommand;
use crate::memory::status::Status;
use crate::ui::state::App;

/// The speeds the keys step through (creature seconds per wall-clock second).
const SPEEDS: [u32; 13] = [1, 2, 5, 10, 20, 30, 60, 120, 300, 600, 1200, 3000, 6000];

/// The next speed of [`SPEEDS`] after `now` (or before it), where there is one.
fn step(now: u32, faster: bool) -> Option<u32> {
    if faster {
        SPEEDS.iter().copied().find(|&s| s > now)
    } else {
        SPEEDS.iter().rev().copied().find(|&s| s < now)
    }
}

impl App {
    /// Sends each hosted creature `command`.
    fn to_every_hosted(&self, command: &ControlCommand) -> Vec<Job> {
        self.hosted_paths()
            .map(|p| Job::Control {
                creature: p.clone(),
                command: command.clone(),
            })
            .collect()
    }

    /// The demo's creatures live faster or slower.
    pub(super) fn demo_speed(&mut self, faster: bool) -> Vec<Job> {
        let Some(now) = self.demo_speed else {
            self.set_notice(
                "the speed keys work in a demo (dreamwatch demo): these creatures keep their runners' speed",
                false,
            );
            return Vec::new();
        };
        let Some(speed) = step(now, faster) else {
            let end = if faster { "fastest" } else { "slowest" };
            self.set_notice(format!("the demo already runs at its {end}: {now}x"), false);
            return Vec::new();
        };
        self.demo_speed = Some(speed);
        self.set_notice(
            format!(
                "demo at {speed}x: a creature's minute passes in {:.1} s",
                60.0 / f64::from(speed)
            ),
            false,
        );
        self.to_every_hosted(&ControlCommand::Speed { times: speed })
    }

    /// Pauses every creature hosted here, or resumes them all when all are paused.
    pub(super) fn pause_all(&mut self) -> Vec<Job> {
        let hosted: Vec<_> = self.hosted_paths().cloned().collect();
        if hosted.is_empty() {
            self.set_notice(
                "no creature is hosted here: P pauses the creatures this process runs (a demo, dreamwatch run)",
                false,
            );
            return Vec::new();
        }
        let all_paused = hosted.iter().all(|p| {
            self.creatures
                .get(p)
                .is_some_and(|ui| ui.status() == Status::Paused)
        });
        let (command, said) = if all_paused {
            (ControlCommand::Resume, "resumed")
        } else {
            (ControlCommand::Pause, "paused")
        };
        self.set_notice(
            format!("{} creatures hosted here {said}", hosted.len()),
            false,
        );
        self.to_every_hosted(&command)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn speeds_step_and_stop_at_the_ends() {
        assert_eq!(step(60, true), Some(120));
        assert_eq!(step(60, false), Some(30));
        assert_eq!(step(45, false), Some(30), "a speed off the ladder");
        assert_eq!(step(6000, true), None);
        assert_eq!(step(1, false), None);
    }
}
