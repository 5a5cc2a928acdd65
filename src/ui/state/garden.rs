//! The garden list as the operator asked to see it: filtered by what they typed (a
//! creature's name or status), sorted by name, status, last activity or fatigue, and
//! numbered in that order (a number typed as the filter jumps to that row).

use std::cmp::Ordering;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::memory::creature_map::CreatureMap;
use crate::memory::status::Status;

use super::creature::CreatureUi;
use super::health::Health;
use super::kept::KeptByReads;

/// What the garden is sorted by; a key cycles through them in this order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum GardenSort {
    /// Natural order of names (`c2` before `c10`), then of directories.
    #[default]
    Name,
    /// The ones that need a look first: failing or stalled, awake, dreaming, asleep ...
    Status,
    /// The most recently active first.
    Activity,
    /// The most tired first.
    Fatigue,
    /// What it cost today, the most first (unknown last).
    Cost,
}

impl GardenSort {
    /// The next sort in the cycle.
    pub fn next(self) -> Self {
        match self {
            GardenSort::Name => GardenSort::Status,
            GardenSort::Status => GardenSort::Activity,
            GardenSort::Activity => GardenSort::Fatigue,
            GardenSort::Fatigue => GardenSort::Cost,
            GardenSort::Cost => GardenSort::Name,
        }
    }

    /// The sort a [`GardenSort::label`] names.
    pub fn from_label(label: &str) -> Option<Self> {
        [
            GardenSort::Name,
            GardenSort::Status,
            GardenSort::Activity,
            GardenSort::Fatigue,
            GardenSort::Cost,
        ]
        .into_iter()
        .find(|s| s.label() == label)
    }

    /// How the title and the column headers name it.
    pub fn label(self) -> &'static str {
        match self {
            GardenSort::Name => "name",
            GardenSort::Status => "status",
            GardenSort::Activity => "last",
            GardenSort::Fatigue => "fatigue",
            GardenSort::Cost => "cost",
        }
    }
}

/// The last garden order made, and what it was made from (see
/// [`GardenView::kept_order`]).
pub type KeptOrder = KeptByReads<GardenView, Arc<[PathBuf]>>;

/// The garden's filter and sort.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GardenView {
    /// What the operator typed (kept while the prompt is closed): every word must be in
    /// the creature's name or status, case-insensitively. Digits alone jump to that row.
    pub filter: String,
    pub sort: GardenSort,
}

impl GardenView {
    /// The row number the filter names, when it is one (`3` selects the third row).
    pub fn jump(&self) -> Option<usize> {
        let text = self.filter.trim();
        if text.is_empty() || !text.chars().all(|c| c.is_ascii_digit()) {
            return None;
        }
        text.parse().ok()
    }

    /// The words to match, lowercase; none when the filter is a row number.
    fn words(&self) -> Vec<String> {
        if self.jump().is_some() {
            return Vec::new();
        }
        self.filter
            .split_whitespace()
            .map(str::to_lowercase)
            .collect()
    }

    /// Whether a filter hides creatures.
    pub fn filters(&self) -> bool {
        !self.words().is_empty()
    }

    /// The creatures shown, in display order; `cost` is what one cost today, when known.
    pub fn order(
        &self,
        creatures: &CreatureMap<CreatureUi>,
        cost: impl Fn(&Path, &CreatureUi) -> Option<f64>,
    ) -> Vec<PathBuf> {
        let words = self.words();
        let mut shown: Vec<(&PathBuf, &CreatureUi)> = creatures
            .iter()
            .filter(|(_, ui)| matches(ui, &words))
            .collect();
        // The map iterates in natural path order: a stable sort keeps it for ties.
        let cost = |(p, ui): &(&PathBuf, &CreatureUi)| cost(p, ui);
        shown.sort_by(|a, b| self.compare(a, b, &cost));
        shown.into_iter().map(|(p, _)| p.clone()).collect()
    }

    /// [`GardenView::order`], kept in `kept` while nothing it reads changed: the filter,
    /// the sort, the creatures there, and what it reads of each (looked at again only for
    /// the creatures the garden reached since: an append to one creature of a thousand
    /// sorted them all again, then walked them all). By cost it is made each time (what a
    /// creature cost today changes with the orchestrator's word and at midnight, not with
    /// the garden).
    pub fn kept_order(
        &self,
        creatures: &CreatureMap<CreatureUi>,
        cost: impl Fn(&Path, &CreatureUi) -> Option<f64>,
        kept: &KeptOrder,
    ) -> Arc<[PathBuf]> {
        if self.sort == GardenSort::Cost {
            return self.order(creatures, cost).into();
        }
        let filters = self.filters();
        kept.get_or(
            self.clone(),
            creatures,
            |ui| self.read_of(ui, filters),
            || self.order(creatures, cost).into(),
        )
    }

    /// Takes in the creatures the garden reached before they are let go
    /// ([`CreatureMap::take_reached`]): what the order reads of them is looked at now,
    /// and an order one of them moved is let go (made again when next asked for).
    pub fn note_reached(&self, creatures: &CreatureMap<CreatureUi>, kept: &KeptOrder) {
        let filters = self.filters();
        kept.note_reached(self, creatures, |ui| self.read_of(ui, filters));
    }

    /// A fingerprint of what [`GardenView::order`] reads of one creature, but its cost:
    /// its name, and what the sort compares and the filter (when `filters`) matches.
    fn read_of(&self, ui: &CreatureUi, filters: bool) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut hasher = std::hash::DefaultHasher::new();
        ui.name.hash(&mut hasher);
        if filters {
            ui.summary.status.label().hash(&mut hasher);
            ui.health.label().hash(&mut hasher);
        }
        match self.sort {
            GardenSort::Name | GardenSort::Cost => {}
            GardenSort::Status => status_rank(ui).hash(&mut hasher),
            GardenSort::Activity => ui.summary.last_activity.hash(&mut hasher),
            GardenSort::Fatigue => ui.summary.fatigue.hash(&mut hasher),
        }
        hasher.finish()
    }

    fn compare(
        &self,
        left: &(&PathBuf, &CreatureUi),
        right: &(&PathBuf, &CreatureUi),
        cost: &dyn Fn(&(&PathBuf, &CreatureUi)) -> Option<f64>,
    ) -> Ordering {
        let ((pa, a), (pb, b)) = (left, right);
        let by_name = || by_name(&a.name, pa, &b.name, pb);
        match self.sort {
            GardenSort::Name => by_name(),
            GardenSort::Status => status_rank(a).cmp(&status_rank(b)).then_with(by_name),
            GardenSort::Activity => b
                .summary
                .last_activity
                .cmp(&a.summary.last_activity)
                .then_with(by_name),
            GardenSort::Fatigue => b.summary.fatigue.cmp(&a.summary.fatigue).then_with(by_name),
            // `None` is less than any cost: the unknown go last.
            GardenSort::Cost => cost(right)
                .partial_cmp(&cost(left))
                .unwrap_or(Ordering::Equal)
                .then_with(by_name),
        }
    }
}

fn by_name(a: &str, pa: &Path, b: &str, pb: &Path) -> Ordering {
    alphanumeric_sort::compare_str(a, b).then_with(|| alphanumeric_sort::compare_path(pa, pb))
}

/// Whether every word is in the creature's name or its status.
fn matches(ui: &CreatureUi, words: &[String]) -> bool {
    if words.is_empty() {
        return true;
    }
    // Lowered only when it has a capital or more than ASCII: a garden of a thousand is
    // filtered again at every change.
    let lowered;
    let name = if ui
        .name
        .bytes()
        .any(|b| b.is_ascii_uppercase() || !b.is_ascii())
    {
        lowered = ui.name.to_lowercase();
        lowered.as_str()
    } else {
        ui.name.as_str()
    };
    let status = ui.summary.status.label();
    let health = ui.health.label().unwrap_or_default();
    words.iter().all(|w| {
        let w = w.as_str();
        name.contains(w) || status.contains(w) || health.contains(w)
    })
}

/// Sort rank of a status: what may need the operator first (failing, stalled, runner gone).
fn status_rank(ui: &CreatureUi) -> u8 {
    if ui.health != Health::Ok {
        return 0;
    }
    match ui.summary.status {
        Status::Awake => 1,
        Status::Dreaming => 2,
        Status::Napping { .. } => 3,
        Status::Asleep { .. } => 4,
        Status::DeepSleep { .. } => 5,
        Status::Paused => 6,
        Status::Stopped => 7,
        Status::Unknown => 8,
    }
}

#[cfg(test)]
mod tests {
    use chrono::{TimeZone, Utc};

    use super::*;
    use crate::memory::creature::Creature;
    use crate::memory::cycle::Cycle;
    use crate::ui::state::creature::RunnerLink;
    use crate::ui::theme::Theme;

    /// Creatures named `names` (each in a directory of its name) in a temp garden.
    fn garden(names: &[&str]) -> (tempfile::TempDir, CreatureMap<CreatureUi>) {
        let dir = tempfile::tempdir().unwrap();
        let now = Utc.with_ymd_and_hms(2026, 11, 22, 12, 0, 0).unwrap();
        let mut map = CreatureMap::new();
        for name in names {
            let root = dir.path().join(name);
            std::fs::create_dir_all(root.join(".self")).unwrap();
            std::fs::write(root.join("BIRTH.json"), format!(r#"{{"name":"{name}"}}"#)).unwrap();
            let c = Creature::open(&root);
            let ui = CreatureUi::new(
                &c,
                &Theme::default(),
                now,
                Cycle::default(),
                RunnerLink::None,
            );
            map.insert(root, ui);
        }
        (dir, map)
    }

    fn names(view: &GardenView, map: &CreatureMap<CreatureUi>) -> Vec<String> {
        view.order(map, |_, _| None)
            .iter()
            .filter_map(|p| map.get(p).map(|u| u.name.clone()))
            .collect()
    }

    /// Found by name: two gardens' temporary folders sort either way.
    fn path_of(map: &CreatureMap<CreatureUi>, name: &str) -> PathBuf {
        map.iter()
            .find(|(_, u)| u.name == name)
            .map(|(p, _)| p.clone())
            .unwrap()
    }

    fn set(map: &mut CreatureMap<CreatureUi>, name: &str, f: impl FnOnce(&mut CreatureUi)) {
        let (_, ui) = map.iter_mut().find(|(_, u)| u.name == name).unwrap();
        f(ui);
    }

    #[test]
    fn names_sort_naturally_and_the_sort_cycles() {
        let (_dir, map) = garden(&["c10", "c2", "b", "c1"]);
        let view = GardenView::default();
        assert_eq!(names(&view, &map), ["b", "c1", "c2", "c10"]);
        let mut sort = GardenSort::Name;
        for _ in 0..5 {
            sort = sort.next();
        }
        assert_eq!(sort, GardenSort::Name);
    }

    #[test]
    fn status_activity_and_fatigue_sorts() {
        let (_dir, mut map) = garden(&["a", "b", "c"]);
        let t = |m| Some(Utc.with_ymd_and_hms(2026, 11, 22, 11, m, 0).unwrap());
        set(&mut map, "a", |u| {
            u.summary.status = Status::Asleep { until: None };
            u.summary.last_activity = t(5);
            u.summary.fatigue = 10;
        });
        set(&mut map, "b", |u| {
            u.summary.status = Status::Stopped;
            u.summary.last_activity = None;
            u.summary.fatigue = 70;
        });
        set(&mut map, "c", |u| {
            u.summary.status = Status::Awake;
            u.summary.last_activity = t(30);
            u.summary.fatigue = 10;
        });
        let by = |sort| {
            names(
                &GardenView {
                    filter: String::new(),
                    sort,
                },
                &map,
            )
        };
        assert_eq!(by(GardenSort::Status), ["c", "a", "b"]);
        assert_eq!(by(GardenSort::Activity), ["c", "a", "b"], "unknown last");
        assert_eq!(by(GardenSort::Fatigue), ["b", "a", "c"], "ties by name");
    }

    #[test]
    fn the_cost_sort_puts_the_dearest_first_and_the_unknown_last() {
        let (_dir, map) = garden(&["a", "b", "c", "d"]);
        let view = GardenView {
            filter: String::new(),
            sort: GardenSort::Cost,
        };
        let cost = |_: &Path, ui: &CreatureUi| match ui.name.as_str() {
            "a" | "d" => Some(0.5),
            "c" => Some(2.0),
            _ => None,
        };
        let order: Vec<String> = view
            .order(&map, cost)
            .iter()
            .filter_map(|p| map.get(p).map(|u| u.name.clone()))
            .collect();
        assert_eq!(order, ["c", "a", "d", "b"]);
    }

    #[test]
    fn the_filter_matches_every_word_in_name_or_status() {
        let (_dir, mut map) = garden(&["pip", "ember", "pippa"]);
        set(&mut map, "pip", |u| u.summary.status = Status::Awake);
        set(&mut map, "pippa", |u| u.summary.status = Status::Stopped);
        set(&mut map, "ember", |u| u.summary.status = Status::Awake);
        let filtered = |f: &str| {
            let view = GardenView {
                filter: f.into(),
                sort: GardenSort::Name,
            };
            (names(&view, &map), view.filters())
        };
        assert_eq!(filtered("PIP"), (vec!["pip".into(), "pippa".into()], true));
        assert_eq!(
            filtered("awake"),
            (vec!["ember".into(), "pip".into()], true)
        );
        assert_eq!(filtered("pip awake"), (vec!["pip".into()], true));
        assert_eq!(filtered("nobody").0, Vec::<String>::new());
        // A number is a row to jump to, not a filter.
        let (all, filters) = filtered(" 2 ");
        assert_eq!((all.len(), filters), (3, false));
        let jump = GardenView {
            filter: "2".into(),
            sort: GardenSort::Name,
        };
        assert_eq!(jump.jump(), Some(2));
        assert_eq!(GardenView::default().jump(), None);
    }

    #[test]
    fn the_kept_order_follows_every_change_the_order_reads() {
        let (_dir, mut map) = garden(&["a", "b", "c"]);
        let kept = KeptOrder::default();
        let mut view = GardenView::default();
        let mut cost_of_b = None;
        let check = |view: &GardenView, map: &CreatureMap<CreatureUi>, cost_of_b| {
            let cost = |_: &Path, ui: &CreatureUi| (ui.name == "b").then_some(cost_of_b).flatten();
            let fresh: Vec<PathBuf> = view.order(map, cost);
            assert_eq!(*view.kept_order(map, cost, &kept), *fresh);
            // Asked again with nothing changed: the very same list, not made again (but
            // by cost).
            let again = view.kept_order(map, cost, &kept);
            let kept_again = Arc::ptr_eq(&again, &view.kept_order(map, cost, &kept));
            assert_eq!(kept_again, view.sort != GardenSort::Cost);
            fresh
                .iter()
                .filter_map(|p| map.get(p).map(|u| u.name.clone()))
                .collect::<Vec<_>>()
        };
        assert_eq!(check(&view, &map, cost_of_b), ["a", "b", "c"]);
        // A change the order does not read (the garden's version moved): the same list.
        let by_name = view.kept_order(&map, |_, _| None, &kept);
        let mut fatigue = 50;
        for _ in 0..2 {
            set(&mut map, "a", |u| {
                std::mem::swap(&mut u.summary.fatigue, &mut fatigue)
            });
            let after = view.kept_order(&map, |_, _| None, &kept);
            assert!(
                Arc::ptr_eq(&by_name, &after),
                "made again for a change it does not read"
            );
        }
        set(&mut map, "a", |u| u.name = "z".into());
        assert_eq!(check(&view, &map, cost_of_b), ["b", "c", "z"]);
        view.sort = GardenSort::Fatigue;
        set(&mut map, "c", |u| u.summary.fatigue = 9);
        assert_eq!(check(&view, &map, cost_of_b), ["c", "b", "z"]);
        view.sort = GardenSort::Activity;
        let t = Utc.with_ymd_and_hms(2026, 11, 22, 11, 0, 0).unwrap();
        set(&mut map, "z", |u| u.summary.last_activity = Some(t));
        assert_eq!(check(&view, &map, cost_of_b), ["z", "b", "c"]);
        view.sort = GardenSort::Status;
        set(&mut map, "b", |u| u.summary.status = Status::Awake);
        set(&mut map, "c", |u| u.summary.status = Status::Stopped);
        assert_eq!(check(&view, &map, cost_of_b)[0], "b");
        set(&mut map, "c", |u| u.health = Health::Stalled);
        assert_eq!(check(&view, &map, cost_of_b)[0], "c");
        view.sort = GardenSort::Cost;
        cost_of_b = Some(1.0);
        assert_eq!(check(&view, &map, cost_of_b)[0], "b");
        view.filter = "awake".into();
        assert_eq!(check(&view, &map, cost_of_b), ["b"]);
        set(&mut map, "z", |u| u.summary.status = Status::Awake);
        assert_eq!(check(&view, &map, cost_of_b), ["b", "z"]);
        map.remove(&path_of(&map, "z"));
        assert_eq!(check(&view, &map, cost_of_b), ["b"]);
        // By name, a creature gone and another come in its place: a new list.
        view.sort = GardenSort::Name;
        view.filter.clear();
        let (_other, mut more) = garden(&["y"]);
        let path = more.keys().next().cloned().unwrap();
        let ui = more.remove(&path).unwrap();
        assert_eq!(check(&view, &map, cost_of_b), ["b", "c"]);
        map.remove(&path_of(&map, "b"));
        map.insert(path, ui);
        assert_eq!(check(&view, &map, cost_of_b), ["c", "y"]);
        // A creature reached, its reach let go before the order is asked again (the
        // frame's settling does so): what it reads of it was looked at before.
        map.take_reached();
        let c = path_of(&map, "c");
        map.get_mut(&c).unwrap().name = "zz".into();
        view.note_reached(&map, &kept);
        map.take_reached();
        assert_eq!(check(&view, &map, cost_of_b), ["y", "zz"]);
        // One the order does not read, looked at alone: the very list.
        let kept_list = view.kept_order(&map, |_, _| None, &kept);
        map.get_mut(&c).unwrap().summary.fatigue = 77;
        view.note_reached(&map, &kept);
        map.take_reached();
        let after = view.kept_order(&map, |_, _| None, &kept);
        assert!(Arc::ptr_eq(&kept_list, &after));
    }
}
