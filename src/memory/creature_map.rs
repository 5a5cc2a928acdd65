//! Creatures by path, in natural order: `c2` before `c10`, as a person counts.

use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet, btree_map};
use std::iter::Map;
use std::path::{Path, PathBuf};

/// A path ordered naturally (runs of digits compare as numbers).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct NaturalPath(pub PathBuf);

impl Ord for NaturalPath {
    fn cmp(&self, other: &Self) -> Ordering {
        natural_cmp(&self.0, &other.0)
    }
}

impl PartialOrd for NaturalPath {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// Natural order; paths equal as numbers (`c2`, `c02`) fall back to byte order. What the
/// two share up to their last common `/` is skipped first: a garden's paths share a long
/// prefix that the natural comparison reads a character at a time (a far garden of a
/// thousand creatures spent ten milliseconds a change looking its creatures up). After a
/// shared `/` the comparison is where it starts, so the order is the same.
fn natural_cmp(a: &Path, b: &Path) -> Ordering {
    use std::os::unix::ffi::OsStrExt;
    let (x, y) = (a.as_os_str().as_bytes(), b.as_os_str().as_bytes());
    if x == y {
        return Ordering::Equal;
    }
    let same = x.iter().zip(y).take_while(|(p, q)| p == q).count();
    let cut = x[..same]
        .iter()
        .rposition(|c| *c == b'/')
        .map_or(0, |i| i + 1);
    // A prefix that is not UTF-8 makes the whole path compare by bytes: not skipped.
    let natural = if cut > 0 && std::str::from_utf8(&x[..cut]).is_ok() {
        let (x, y) = (
            std::ffi::OsStr::from_bytes(&x[cut..]),
            std::ffi::OsStr::from_bytes(&y[cut..]),
        );
        alphanumeric_sort::compare_os_str(x, y)
    } else {
        alphanumeric_sort::compare_path(a, b)
    };
    natural.then_with(|| a.cmp(b))
}

/// Sorts paths in natural order.
pub fn sort_naturally(paths: &mut [PathBuf]) {
    paths.sort_by(|a, b| natural_cmp(a, b));
}

/// A map from creature paths to `V`, iterated in natural order. Each value is boxed: a
/// creature's model is a few kilobytes, and B-tree nodes of them inline, half full after
/// ordered inserts, cost about twice that per creature (a garden of 20,000).
///
/// The map counts its changes: every mutable reach of a value counts as one (what was
/// lent mutably may have changed), so what is derived from the whole map can be kept
/// while [`CreatureMap::version`] stays; and it remembers which paths were reached since
/// [`CreatureMap::take_reached`], so that an owner can revisit those alone.
#[derive(Debug, Clone)]
pub struct CreatureMap<V> {
    map: BTreeMap<NaturalPath, Box<V>>,
    version: u64,
    /// Changes when a path comes or goes.
    members: u64,
    reached: Reached,
}

/// The paths of a [`CreatureMap`] reached mutably, or all of them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reached {
    Paths(BTreeSet<PathBuf>),
    All,
}

impl<V> Default for CreatureMap<V> {
    fn default() -> Self {
        Self {
            map: BTreeMap::new(),
            version: 0,
            members: 0,
            reached: Reached::All,
        }
    }
}

impl<V> CreatureMap<V> {
    pub fn new() -> Self {
        Self::default()
    }

    fn key(path: &Path) -> NaturalPath {
        NaturalPath(path.to_path_buf())
    }

    /// Counts a mutable reach of `path` (`None`: of every entry).
    fn reach(&mut self, path: Option<&Path>) {
        count_reach(&mut self.version, &mut self.reached, path);
    }

    /// Changes with every change and every mutable reach of a value.
    pub fn version(&self) -> u64 {
        self.version
    }

    /// Changes when a path comes or goes (not when a value changes).
    pub fn members(&self) -> u64 {
        self.members
    }

    /// The paths reached mutably since [`CreatureMap::take_reached`].
    pub fn reached(&self) -> &Reached {
        &self.reached
    }

    /// The paths reached mutably since the last call (all of them at first).
    pub fn take_reached(&mut self) -> Reached {
        std::mem::replace(&mut self.reached, Reached::Paths(BTreeSet::new()))
    }

    pub fn insert(&mut self, path: PathBuf, value: V) -> Option<V> {
        self.reach(Some(&path));
        let old = self.map.insert(NaturalPath(path), Box::new(value));
        if old.is_none() {
            self.members += 1;
        }
        old.map(|old| *old)
    }

    pub fn remove(&mut self, path: &Path) -> Option<V> {
        self.version += 1;
        let old = self.map.remove(&Self::key(path));
        if old.is_some() {
            self.members += 1;
        }
        old.map(|old| *old)
    }

    pub fn get(&self, path: &Path) -> Option<&V> {
        self.map.get(&Self::key(path)).map(|v| &**v)
    }

    /// A mutable reach that is not counted (neither in the version nor as reached): for
    /// state that nothing derived from the whole map reads, such as a view's scrolling
    /// and what it prepared to draw.
    pub fn get_mut_uncounted(&mut self, path: &Path) -> Option<&mut V> {
        self.map.get_mut(&Self::key(path)).map(|v| &mut **v)
    }

    pub fn get_mut(&mut self, path: &Path) -> Option<&mut V> {
        let value = self.map.get_mut(&Self::key(path))?;
        count_reach(&mut self.version, &mut self.reached, Some(path));
        Some(&mut **value)
    }

    pub fn contains_key(&self, path: &Path) -> bool {
        self.map.contains_key(&Self::key(path))
    }

    pub fn len(&self) -> usize {
        self.map.len()
    }

    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    pub fn keys(&self) -> Keys<'_, V> {
        self.map.keys().map(|k| &k.0)
    }

    pub fn values(&self) -> Values<'_, V> {
        self.map.values().map(|v| &**v)
    }

    pub fn iter(&self) -> Iter<'_, V> {
        self.map.iter().map(|(k, v)| (&k.0, &**v))
    }

    pub fn iter_mut(&mut self) -> IterMut<'_, V> {
        self.reach(None);
        self.map.iter_mut().map(|(k, v)| (&k.0, &mut **v))
    }
}

/// Counts a mutable reach of `path` (`None`: of every entry) in a map's count and
/// reached paths (apart from the map itself, so that a value may stay lent).
fn count_reach(version: &mut u64, reached: &mut Reached, path: Option<&Path>) {
    *version += 1;
    match (reached, path) {
        (Reached::Paths(paths), Some(path)) => {
            if !paths.contains(path) {
                paths.insert(path.to_path_buf());
            }
        }
        (reached, None) => *reached = Reached::All,
        (Reached::All, Some(_)) => {}
    }
}

/// The paths of a [`CreatureMap`], in natural order.
pub type Keys<'a, V> =
    Map<btree_map::Keys<'a, NaturalPath, Box<V>>, fn(&'a NaturalPath) -> &'a PathBuf>;
/// The values of a [`CreatureMap`], in natural order.
#[allow(clippy::borrowed_box)] // what the map's own iterator yields
pub type Values<'a, V> = Map<btree_map::Values<'a, NaturalPath, Box<V>>, fn(&'a Box<V>) -> &'a V>;
/// The entries of a [`CreatureMap`], in natural order.
#[allow(clippy::borrowed_box)]
pub type Iter<'a, V> = Map<
    btree_map::Iter<'a, NaturalPath, Box<V>>,
    fn((&'a NaturalPath, &'a Box<V>)) -> (&'a PathBuf, &'a V),
>;
/// The entries of a [`CreatureMap`], values mutable, in natural order.
pub type IterMut<'a, V> = Map<
    btree_map::IterMut<'a, NaturalPath, Box<V>>,
    fn((&'a NaturalPath, &'a mut Box<V>)) -> (&'a PathBuf, &'a mut V),
>;

impl<'a, V> IntoIterator for &'a CreatureMap<V> {
    type Item = (&'a PathBuf, &'a V);
    type IntoIter = Iter<'a, V>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<'a, V> IntoIterator for &'a mut CreatureMap<V> {
    type Item = (&'a PathBuf, &'a mut V);
    type IntoIter = IterMut<'a, V>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter_mut()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_sort_as_numbers() {
        let mut map = CreatureMap::new();
        for name in ["c10", "c2", "c1", "b", "c20", "c03"] {
            map.insert(PathBuf::from("/g").join(name), ());
        }
        let names: Vec<String> = map
            .keys()
            .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, ["b", "c1", "c2", "c03", "c10", "c20"]);
        assert!(map.contains_key(Path::new("/g/c2")));
        assert!(map.remove(Path::new("/g/c10")).is_some());
        assert_eq!(map.len(), 5);
    }

    proptest::proptest! {
        /// Skipping what two paths share up to a `/` orders them as the whole natural
        /// comparison does (digits, leading zeros, non-ASCII, doubled slashes).
        #[test]
        fn a_shared_prefix_skipped_orders_as_the_whole(
            prefix in "(/[a-c0-9]{0,3}){0,3}/?",
            a in "[a-c0-9/é點-]{0,8}",
            b in "[a-c0-9/é點-]{0,8}",
        ) {
            let (a, b) = (PathBuf::from(format!("{prefix}{a}")), PathBuf::from(format!("{prefix}{b}")));
            let whole = alphanumeric_sort::compare_path(&a, &b).then_with(|| a.cmp(&b));
            proptest::prop_assert_eq!(natural_cmp(&a, &b), whole);
            proptest::prop_assert_eq!(natural_cmp(&b, &a), whole.reverse());
        }
    }

    #[test]
    fn every_mutable_reach_is_counted_and_remembered_but_a_views() {
        let mut map = CreatureMap::new();
        let (a, b) = (PathBuf::from("/g/a"), PathBuf::from("/g/b"));
        map.insert(a.clone(), 1);
        map.insert(b.clone(), 2);
        assert_eq!(map.take_reached(), Reached::All, "everything at first");
        let v = map.version();
        assert_eq!(map.get(&a), Some(&1));
        let _ = map.get_mut_uncounted(&a);
        assert_eq!(map.version(), v, "a read or a view's reach is no change");
        assert_eq!(map.take_reached(), Reached::Paths(BTreeSet::new()));
        let _ = map.get_mut(&b);
        let _ = map.get_mut(Path::new("/g/none"));
        assert_eq!(map.version(), v + 1);
        assert_eq!(
            map.take_reached(),
            Reached::Paths(BTreeSet::from([b.clone()]))
        );
        map.remove(&b);
        assert_eq!(map.version(), v + 2);
        for _ in map.iter_mut() {}
        assert_eq!(map.take_reached(), Reached::All);
    }

    #[test]
    fn equal_numbers_written_differently_stay_distinct() {
        let mut map = CreatureMap::new();
        map.insert(PathBuf::from("c2"), 1);
        map.insert(PathBuf::from("c02"), 2);
        assert_eq!(map.len(), 2);
        assert_eq!(map.get(Path::new("c02")), Some(&2));
    }
}
