//! What a frame derives from the whole garden, kept while what it was made from is the
//! same: a garden of 1000 walked several times a frame (its order, its shared names, its
//! day's cost) was most of a far append's frame, and on a machine that lets a still
//! process's memory go cold, most of an idle minute's tick.

use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::path::PathBuf;

use crate::memory::creature_map::{CreatureMap, Reached};

/// A fingerprint of `value`: what a [`KeptByReads`] keeps of what it read of a creature.
pub fn fingerprint(value: impl Hash) -> u64 {
    let mut hasher = std::hash::DefaultHasher::new();
    value.hash(&mut hasher);
    hasher.finish()
}

/// A value kept with the key it was made from.
#[derive(Debug)]
pub struct Kept<K, T>(RefCell<Option<(K, T)>>);

impl<K, T> Default for Kept<K, T> {
    fn default() -> Self {
        Self(RefCell::new(None))
    }
}

impl<K: PartialEq, T: Clone> Kept<K, T> {
    /// The value kept for `key`, else `make`'s, kept from now on.
    pub fn get_or(&self, key: K, make: impl FnOnce() -> T) -> T {
        if let Some((made_of, value)) = self.0.borrow().as_ref()
            && *made_of == key
        {
            return value.clone();
        }
        let value = make();
        *self.0.borrow_mut() = Some((key, value.clone()));
        value
    }
}

/// A value made from the whole garden and a key (a view, say), kept while the key is the
/// same and so is what `read` gives of each creature: looked at again only for the
/// creatures the garden reached since (a change to one creature of a thousand reads one,
/// not the thousand). The owner tells it of the reached creatures before it lets them
/// go ([`KeptByReads::note_reached`]).
#[derive(Debug)]
pub struct KeptByReads<K, T>(RefCell<Option<Made<K, T>>>);

#[derive(Debug)]
struct Made<K, T> {
    key: K,
    value: T,
    /// The garden's version and members when it was last looked at.
    version: u64,
    members: u64,
    /// What `read` gave of each creature, by path.
    reads: HashMap<PathBuf, u64>,
}

impl<K, T> Made<K, T> {
    /// Whether creatures came or went, or what is read of one reached since changed.
    fn moved<V>(&mut self, creatures: &CreatureMap<V>, read: &impl Fn(&V) -> u64) -> bool {
        if self.members != creatures.members() {
            return true;
        }
        if self.version == creatures.version() {
            return false;
        }
        self.version = creatures.version();
        let reached: Vec<(&PathBuf, &V)> = match creatures.reached() {
            Reached::Paths(paths) => paths
                .iter()
                .filter_map(|p| creatures.get(p).map(|v| (p, v)))
                .collect(),
            Reached::All => creatures.iter().collect(),
        };
        let mut moved = false;
        for (path, v) in reached {
            let now = read(v);
            if self.reads.get(path) != Some(&now) {
                self.reads.insert(path.clone(), now);
                moved = true;
            }
        }
        moved
    }
}

impl<K, T> Default for KeptByReads<K, T> {
    fn default() -> Self {
        Self(RefCell::new(None))
    }
}

impl<K: PartialEq, T: Clone> KeptByReads<K, T> {
    /// The value kept for `key` while nothing `read` gives moved, else `make`'s, kept
    /// from now on.
    pub fn get_or<V>(
        &self,
        key: K,
        creatures: &CreatureMap<V>,
        read: impl Fn(&V) -> u64,
        make: impl FnOnce() -> T,
    ) -> T {
        let mut kept = self.0.borrow_mut();
        if let Some(made) = kept.as_mut()
            && made.key == key
            && !made.moved(creatures, &read)
        {
            return made.value.clone();
        }
        let value = make();
        *kept = Some(Made {
            key,
            value: value.clone(),
            version: creatures.version(),
            members: creatures.members(),
            reads: creatures
                .iter()
                .map(|(p, v)| (p.clone(), read(v)))
                .collect(),
        });
        value
    }

    /// Takes in the creatures the garden reached, before they are let go
    /// ([`CreatureMap::take_reached`]): a value kept for another key, or one of them
    /// moved, is let go (made again when next asked for).
    pub fn note_reached<V>(&self, key: &K, creatures: &CreatureMap<V>, read: impl Fn(&V) -> u64) {
        let mut kept = self.0.borrow_mut();
        if kept
            .as_mut()
            .is_some_and(|made| made.key != *key || made.moved(creatures, &read))
        {
            *kept = None;
        }
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    #[test]
    fn a_value_is_made_again_only_for_another_key() {
        let kept = Kept::default();
        let mut made = 0;
        let mut get = |key: u32| {
            kept.get_or(key, || {
                made += 1;
                key * 10
            })
        };
        assert_eq!(
            (get(1), get(1), get(2), get(2), get(1)),
            (10, 10, 20, 20, 10)
        );
        assert_eq!(made, 3);
    }

    #[test]
    fn a_value_by_reads_is_made_again_when_a_creature_it_reads_moved() {
        let kept = KeptByReads::default();
        let mut map = CreatureMap::new();
        for name in ["a", "b", "c"] {
            map.insert(PathBuf::from(name), name.to_string());
        }
        let made = std::cell::Cell::new(0);
        // What is read of a value: its first letter.
        let read = |v: &String| u64::from(v.as_bytes()[0]);
        let get = |key: u8, map: &CreatureMap<String>| {
            kept.get_or(key, map, read, || made.set(made.get() + 1))
        };
        get(1, &map);
        get(1, &map);
        assert_eq!(made.get(), 1);
        // A change it does not read, and one it reads.
        map.get_mut(Path::new("b")).unwrap().push('x');
        get(1, &map);
        assert_eq!(made.get(), 1);
        *map.get_mut(Path::new("b")).unwrap() = "z".into();
        get(1, &map);
        assert_eq!(made.get(), 2);
        // Another key; a creature gone.
        get(2, &map);
        assert_eq!(made.get(), 3);
        map.remove(Path::new("c"));
        get(2, &map);
        assert_eq!(made.get(), 4);
        // A creature reached and let go before it is asked again, told before.
        map.take_reached();
        *map.get_mut(Path::new("a")).unwrap() = "q".into();
        kept.note_reached(&2, &map, read);
        map.take_reached();
        get(2, &map);
        assert_eq!(made.get(), 5);
    }
}
