//! The last `N` records of a log, kept in a `Vec` trimmed in blocks: pushing stays cheap,
//! the records read as one slice, and a log of millions of lines costs memory for `2 N`.

/// The last `cap` records pushed, oldest first.
#[derive(Debug, Clone)]
pub struct Recent<T> {
    cap: usize,
    /// At most `2 * cap`: trimmed by `cap` at a time.
    items: Vec<T>,
}

impl<T> Recent<T> {
    pub fn new(cap: usize) -> Self {
        Self {
            cap: cap.max(1),
            items: Vec::new(),
        }
    }

    pub fn push(&mut self, item: T) {
        if self.items.len() >= 2 * self.cap {
            self.items.drain(..self.cap);
        }
        self.items.push(item);
    }

    /// The last records, at most `cap`, oldest first.
    pub fn as_slice(&self) -> &[T] {
        &self.items[self.items.len().saturating_sub(self.cap)..]
    }

    pub fn last(&self) -> Option<&T> {
        self.items.last()
    }

    pub fn clear(&mut self) {
        self.items = Vec::new();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_last_records_only() {
        let mut recent = Recent::new(3);
        for i in 0..10 {
            recent.push(i);
        }
        assert_eq!(recent.as_slice(), [7, 8, 9]);
        assert_eq!(recent.last(), Some(&9));
        assert!(recent.items.len() <= 6);
        recent.clear();
        assert!(recent.as_slice().is_empty());
    }
}
