//! Background reading held back while the observatory draws its first frame: the head
//! count of a large log opened for the observatory, and the opening of a large garden's
//! creatures past those of the first frame, wait here before they start. The
//! first frame needs none of it, and on a machine of two cores the count's threads would
//! take the UI thread's core. Nothing is held unless [`hold`] is called: counts that
//! someone waits for (`inspect`, `Creature::open`) never wait here.

use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};

static HELD: Mutex<bool> = Mutex::new(false);
static FREED: Condvar = Condvar::new();

fn held() -> MutexGuard<'static, bool> {
    HELD.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Background reading waits until this guard goes or [`release`] is called.
#[must_use = "background reading is held back only while the guard lives"]
pub struct Hold(());

/// Holds background reading back (until the first frame: the guard makes sure it is let
/// go however the observatory ends).
pub fn hold() -> Hold {
    *held() = true;
    Hold(())
}

impl Drop for Hold {
    fn drop(&mut self) {
        release();
    }
}

/// Lets background reading go (the first frame is out).
pub fn release() {
    let mut held = held();
    if *held {
        *held = false;
        FREED.notify_all();
    }
}

/// Waits while background reading is held back.
pub fn wait() {
    let mut held = held();
    while *held {
        held = FREED.wait(held).unwrap_or_else(PoisonError::into_inner);
    }
}
