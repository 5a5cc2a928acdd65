//! Items of a genome's module file by id, in the order they were added, the last `cap`
//! kept: evennia's journal entries and semantic memories, emergence's long-term memories,
//! dialogue lines, to-dos. Removing one from the middle is cheap.

use std::collections::{BTreeMap, HashMap};

#[derive(Debug, Clone)]
pub struct Keyed<T> {
    cap: usize,
    /// By sequence number: the id and the item.
    items: BTreeMap<u64, (String, T)>,
    by_id: HashMap<String, u64>,
    next: u64,
    /// Items let go to stay within `cap` (their later lines are ignored).
    dropped: u64,
}

impl<T> Keyed<T> {
    pub fn new(cap: usize) -> Self {
        Self {
            cap: cap.max(1),
            items: BTreeMap::new(),
            by_id: HashMap::new(),
            next: 0,
            dropped: 0,
        }
    }

    /// Adds `item` as the newest; an item of the same id is replaced (and moves to the end).
    pub fn insert(&mut self, id: String, item: T) {
        if let Some(old) = self.by_id.remove(&id) {
            self.items.remove(&old);
        }
        if self.items.len() >= self.cap
            && let Some((_, (oldest, _))) = self.items.pop_first()
        {
            self.dropped += 1;
            self.by_id.remove(&oldest);
        }
        self.by_id.insert(id.clone(), self.next);
        self.items.insert(self.next, (id, item));
        self.next += 1;
    }

    pub fn get(&self, id: &str) -> Option<&T> {
        let seq = self.by_id.get(id)?;
        self.items.get(seq).map(|(_, item)| item)
    }

    pub fn get_mut(&mut self, id: &str) -> Option<&mut T> {
        let seq = self.by_id.get(id)?;
        self.items.get_mut(seq).map(|(_, item)| item)
    }

    pub fn contains(&self, id: &str) -> bool {
        self.by_id.contains_key(id)
    }

    pub fn remove(&mut self, id: &str) -> Option<T> {
        let seq = self.by_id.remove(id)?;
        self.items.remove(&seq).map(|(_, item)| item)
    }

    /// Oldest first.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = &T> + ExactSizeIterator {
        self.items.values().map(|(_, item)| item)
    }

    pub fn len(&self) -> usize {
        self.items.len()
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    pub fn dropped(&self) -> u64 {
        self.dropped
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_order_replaces_by_id_and_lets_the_oldest_go() {
        let mut k = Keyed::new(3);
        for (id, v) in [("a", 1), ("b", 2), ("c", 3)] {
            k.insert(id.into(), v);
        }
        k.insert("a".into(), 10);
        assert_eq!(k.iter().copied().collect::<Vec<_>>(), [2, 3, 10]);
        k.insert("d".into(), 4);
        assert_eq!(k.iter().copied().collect::<Vec<_>>(), [3, 10, 4]);
        assert_eq!(k.dropped(), 1);
        assert!(!k.contains("b"));
        assert_eq!(k.remove("c"), Some(3));
        *k.get_mut("d").unwrap() += 1;
        assert_eq!(k.iter().copied().collect::<Vec<_>>(), [10, 5]);
        assert_eq!(k.len(), 2);
    }
}
