//! The demo's speed keys (issue 23): slower, faster and pause-all for the creatures
//! hosted here, sent to their runners; refused in words outside a demo.

use std::collections::BTreeMap;

use dreamwatch::control::ControlCommand;
use dreamwatch::memory::cycle::Cycle;
use dreamwatch::ui::headless::Headless;
use dreamwatch::ui::state::Settings;
use dreamwatch::ui::theme::Theme;
use dreamwatch::ui::update::Job;

use crate::common::ui::Garden;

fn screen(garden: &Garden, demo_speed: Option<u32>, hosting: bool) -> Headless {
    let (theme, _) = Theme::load("dark", None, false);
    let settings = Settings {
        demo_speed,
        ..Settings::with_theme(theme)
    };
    let hosted: BTreeMap<_, _> = if hosting {
        ["pip", "ember"]
            .iter()
            .map(|n| (garden.creature(n), Cycle::default()))
            .collect()
    } else {
        BTreeMap::new()
    };
    Headless::open_hosting(
        &[garden.dir.path().to_path_buf()],
        hosted,
        settings,
        crate::common::ui::clock(),
        120,
        36,
    )
    .unwrap()
}

fn commands(jobs: &[Job]) -> Vec<ControlCommand> {
    jobs.iter()
        .filter_map(|j| match j {
            Job::Control { command, .. } => Some(command.clone()),
            _ => None,
        })
        .collect()
}

#[test]
fn faster_slower_and_pause_all_reach_every_hosted_runner() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let mut screen = screen(&garden, Some(60), true);
    let faster = ControlCommand::Speed { times: 120 };
    assert_eq!(
        commands(&screen.press("+").unwrap()),
        [faster.clone(), faster]
    );
    assert_eq!(screen.app.demo_speed, Some(120));
    assert_eq!(commands(&screen.press("=").unwrap()).len(), 2);
    assert_eq!(screen.app.demo_speed, Some(300));
    screen.press("-").unwrap();
    screen.press("-").unwrap();
    assert_eq!(screen.app.demo_speed, Some(60));
    let paused = commands(&screen.press("P").unwrap());
    assert_eq!(paused, [ControlCommand::Pause, ControlCommand::Pause]);
}

#[test]
fn outside_a_demo_the_keys_say_why_they_do_nothing() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let mut screen = screen(&garden, None, false);
    assert!(screen.press("+").unwrap().is_empty());
    let said = screen.app.notice.clone().unwrap().text;
    assert!(said.contains("work in a demo"), "{said}");
    assert!(screen.press("P").unwrap().is_empty());
    let said = screen.app.notice.clone().unwrap().text;
    assert!(said.contains("no creature is hosted here"), "{said}");
}
