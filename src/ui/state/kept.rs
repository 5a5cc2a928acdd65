//! What a frame derives from the whole garden, kept while what it was made from is the
//! same: a garden of 1000 walked several times a frame (its order, its shared names, its
//! day's cost) was most of a far append's frame, and on a machine that lets a still
//! process's memory go cold, most of an idle minute's tick.

use std::cell::RefCell;

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

#[cfg(test)]
mod tests {
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
}
