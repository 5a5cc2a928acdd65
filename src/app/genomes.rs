//! The registry of genomes: the one place that lists them. Each genome's parts plug into
//! the layer they belong to; adding a genome is its folder under `genomes/` and its line
//! here (ARCHITECTURE.md, "Adding a genome").

use std::sync::LazyLock;

use crate::genomes::{Plugin, dreamer, emergence, evennia, minimal, wonders};
use crate::memory::genome::{GenomeSpec, Registry};
use crate::runner::genome_config::ConfigSection;
use crate::runner::hosting::HostedGenome;
use crate::ui::genome::GenomeViews;

/// Every genome, one line each, in the order they are detected by their files; the first
/// (the dreamer) is a creature's genome when nothing says otherwise, and how a genome
/// nothing knows is shown.
static GENOMES: [Plugin; 5] = [
    dreamer::PLUGIN,
    evennia::PLUGIN,
    emergence::PLUGIN,
    minimal::PLUGIN,
    wonders::PLUGIN,
];

/// The genomes as the memory model knows them.
static MEMORY: LazyLock<Vec<&'static GenomeSpec>> =
    LazyLock::new(|| GENOMES.iter().map(|g| g.memory).collect());

/// The genomes as the observatory shows them.
static VIEWS: LazyLock<Vec<&'static GenomeViews>> =
    LazyLock::new(|| GENOMES.iter().map(|g| g.views).collect());

/// The memory model's registry.
pub fn memory() -> Registry {
    Registry::new(&MEMORY)
}

/// How the genome BIRTH.json names `name` (or an older name of it) is hosted: `None`
/// for a genome dreamwatch only watches, or one nothing here knows.
pub fn hosted(name: &str) -> Option<(&'static str, &'static HostedGenome)> {
    GENOMES
        .iter()
        .find(|g| g.memory.answers_to(name))
        .and_then(|g| g.runner.map(|r| (g.memory.name, r)))
}

/// The hosted genomes' own tables under `[runner]` in the config file.
pub fn config_sections() -> impl Iterator<Item = ConfigSection> {
    GENOMES
        .iter()
        .filter_map(|g| g.runner.and_then(|r| r.config))
}

/// The genome a creature is hosted by when nothing says otherwise: the first that
/// dreamwatch hosts (the dreamer).
pub fn default_hosted() -> (&'static str, &'static HostedGenome) {
    GENOMES
        .iter()
        .find_map(|g| g.runner.map(|r| (g.memory.name, r)))
        .unwrap_or(("dreamer", &crate::genomes::dreamer::runner::HOSTED))
}

/// Installs every layer's registry, once per process (later calls change nothing).
pub fn install() {
    crate::memory::genome::install(memory());
    crate::ui::genome::install(&VIEWS);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::focus::MainView;
    use crate::ui::genome;

    #[test]
    fn a_view_not_offered_becomes_the_one_in_its_tab() {
        install();
        let registry = memory();
        assert_eq!(
            genome::within(MainView::Dreams, evennia::ui::VIEWS),
            evennia::ui::VIEWS[1]
        );
        assert_eq!(
            genome::within(evennia::ui::VIEWS[2], dreamer::ui::VIEWS),
            MainView::Diary
        );
        assert_eq!(
            genome::within(MainView::Recall, evennia::ui::VIEWS),
            MainView::Recall
        );
        assert_eq!(
            genome::within(evennia::ui::VIEWS[0], evennia::ui::VIEWS),
            evennia::ui::VIEWS[0]
        );
        assert!(genome::offered_together(
            evennia::ui::VIEWS[0],
            MainView::Recall
        ));
        assert!(!genome::offered_together(
            evennia::ui::VIEWS[0],
            MainView::Observations
        ));
        assert_eq!(
            genome::offered(&registry.named("x"), true),
            dreamer::ui::VIEWS
        );
        assert!(!genome::offered(&registry.named("evennia"), false).contains(&MainView::Events));
        assert_eq!(
            genome::within(MainView::Events, evennia::ui::VIEWS),
            MainView::Events
        );
        let live = genome::with_live(genome::offered(&registry.named("dreamer"), false));
        assert_eq!(live.last(), Some(&MainView::Live));
        let emergence = genome::offered(&registry.named("emergence"), false);
        assert!(!emergence.contains(&MainView::Events));
        assert_eq!(
            genome::offered(&registry.named("emergence"), true),
            emergence::ui::VIEWS
        );
        assert_eq!(genome::with_live(emergence), emergence);
        assert_eq!(
            genome::within(MainView::Diary, emergence::ui::VIEWS),
            emergence::ui::VIEWS[2]
        );
        assert_eq!(
            genome::within(emergence::ui::VIEWS[6], evennia::ui::VIEWS),
            evennia::ui::VIEWS[0]
        );
        assert!(!genome::offered_together(
            emergence::ui::VIEWS[4],
            MainView::Live
        ));
    }

    #[test]
    fn every_set_of_views_can_add_the_garden_conversation() {
        install();
        let registry = memory();
        for genome in ["dreamer", "evennia", "emergence"].map(|n| registry.named(n)) {
            for events in [false, true] {
                let views = genome::offered(&genome, events);
                for views in [views, genome::with_live(views)] {
                    let talk = genome::with_talk(views);
                    assert_eq!(&talk[..views.len()], views, "{genome:?} {events}");
                    assert_eq!(talk.last(), Some(&MainView::Talk));
                    assert_eq!(genome::within(MainView::Talk, talk), MainView::Talk);
                }
            }
        }
        assert_eq!(
            genome::within(MainView::Talk, dreamer::ui::VIEWS),
            MainView::Observations
        );
        assert!(genome::offered_together(
            MainView::Talk,
            emergence::ui::VIEWS[0]
        ));
    }

    #[test]
    fn a_shared_key_is_the_view_the_creature_offers() {
        use crate::ui::focus::Mode;
        use crate::ui::input::action::Action;
        use crate::ui::input::keymap::{KeyNames, Keymap};
        use crate::ui::input::keys::KeyChord;
        install();
        let patch = |pairs: &[(&str, KeyNames)]| -> std::collections::BTreeMap<String, KeyNames> {
            pairs
                .iter()
                .map(|(k, v)| (k.to_string(), v.clone()))
                .collect()
        };
        let mut map = Keymap::default();
        let one = KeyChord::plain('1');
        assert_eq!(
            map.action(Mode::Normal, one, dreamer::ui::VIEWS),
            Some(Action::ViewObservations)
        );
        assert_eq!(
            map.action(Mode::Normal, one, evennia::ui::VIEWS),
            Some(Action::ViewJournal)
        );
        // Rebinding one of them does not take the key from the other.
        map.patch(&patch(&[("view_journal", KeyNames::One("1".into()))]));
        assert_eq!(map.label(Action::ViewObservations), "1");
        map.patch(&patch(&[("view_memory", KeyNames::One("1".into()))]));
        assert_eq!(map.label(Action::ViewJournal), "");
        assert_eq!(
            map.action(Mode::Normal, one, evennia::ui::VIEWS),
            Some(Action::ViewMemory)
        );
    }
}
