//! The wire's lines as they are read: [`Lines`] on the far side (its requests, from
//! stdin), [`ReadAhead`] on the near side (the far side's reports, from ssh's stdout).
//!
//! The near side reads ahead on a thread of its own, up to [`AHEAD`] bytes before the
//! connection's task takes them: while that task writes a snapshot's thousands of files
//! into the copy, ssh's pipe is still drained, so neither ssh (whose buffers would grow,
//! each write then moving all they hold) nor the far side (blocked on its writes, its
//! counting held up) waits on this side's disk.

use std::io::{self, BufRead};
use std::sync::{Arc, Condvar, Mutex, PoisonError};

use tokio::io::{AsyncBufRead, AsyncBufReadExt};
use tokio::sync::mpsc;

/// The longest report line read (an 8 MiB window of escaped text fits).
pub const MAX_REPORT: usize = 64 << 20;
/// Bytes read ahead of the connection's task at most (a garden's snapshot of 200
/// creatures is about 6 MiB; one line longer than this still goes, alone).
pub const AHEAD: usize = 32 << 20;

/// Adds to `buf` what `chunk` holds up to and with its first newline: the bytes taken,
/// and whether a line is whole (its newline taken off); an error past [`MAX_REPORT`].
fn cut(buf: &mut Vec<u8>, chunk: &[u8]) -> io::Result<(usize, bool)> {
    let (take, done) = match memchr::memchr(b'\n', chunk) {
        Some(i) => (i + 1, true),
        None => (chunk.len(), false),
    };
    buf.extend_from_slice(&chunk[..take]);
    if buf.len() > MAX_REPORT {
        *buf = Vec::new();
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            "a line longer than 64 MiB",
        ));
    }
    if done {
        buf.pop();
    }
    Ok((take, done))
}

/// The line in `buf`, taken (lossily UTF-8).
fn taken(buf: &mut Vec<u8>) -> String {
    crate::text::lossy_owned(std::mem::take(buf))
}

/// Lines read from a stream one at a time. A read cut short (its future dropped by a
/// `select!` whose other branch won) loses nothing: what it had read waits in the buffer
/// for the next read.
pub struct Lines<R> {
    reader: R,
    buf: Vec<u8>,
}

impl<R: AsyncBufRead + Unpin> Lines<R> {
    pub fn new(reader: R) -> Self {
        Self {
            reader,
            buf: Vec::new(),
        }
    }

    /// The next line, without its newline (`None` at the end of the stream); a line
    /// longer than [`MAX_REPORT`] is an error.
    pub async fn next(&mut self) -> io::Result<Option<String>> {
        loop {
            let chunk = self.reader.fill_buf().await?;
            if chunk.is_empty() {
                return Ok((!self.buf.is_empty()).then(|| taken(&mut self.buf)));
            }
            // Taken and consumed with no await between: never half done.
            let (take, done) = cut(&mut self.buf, chunk)?;
            self.reader.consume(take);
            if done {
                return Ok(Some(taken(&mut self.buf)));
            }
        }
    }
}

/// Bytes read and not taken yet, and whether the taker is gone.
#[derive(Default)]
struct Budget {
    held: Mutex<(usize, bool)>,
    freed: Condvar,
}

impl Budget {
    /// Counts `n` bytes read, first waiting while [`AHEAD`] are held; `false` once the
    /// taker is gone.
    fn hold(&self, n: usize) -> bool {
        let mut held = self.held.lock().unwrap_or_else(PoisonError::into_inner);
        while held.0 > 0 && held.0 + n > AHEAD && !held.1 {
            held = self
                .freed
                .wait(held)
                .unwrap_or_else(PoisonError::into_inner);
        }
        held.0 += n;
        !held.1
    }

    fn release(&self, n: usize) {
        let mut held = self.held.lock().unwrap_or_else(PoisonError::into_inner);
        held.0 = held.0.saturating_sub(n);
        self.freed.notify_one();
    }

    fn close(&self) {
        self.held.lock().unwrap_or_else(PoisonError::into_inner).1 = true;
        self.freed.notify_one();
    }
}

/// A stream's lines read on a thread of their own, ahead of their taker (see the module's
/// doc). The thread ends at the stream's end or error, or once this is dropped and its
/// next line is read.
pub struct ReadAhead {
    lines: mpsc::UnboundedReceiver<io::Result<Option<String>>>,
    budget: Arc<Budget>,
    ended: bool,
}

impl ReadAhead {
    /// Starts reading `stream` (a blocking one: a pipe's read end).
    pub fn start(stream: impl io::Read + Send + 'static) -> io::Result<Self> {
        let (tx, lines) = mpsc::unbounded_channel();
        let budget = Arc::new(Budget::default());
        let held = budget.clone();
        std::thread::Builder::new()
            .name("dreamwatch-lines".into())
            .spawn(move || {
                let mut reader = io::BufReader::with_capacity(256 << 10, stream);
                let mut buf = Vec::new();
                loop {
                    let read = next_line(&mut reader, &mut buf);
                    let size = match &read {
                        Ok(Some(line)) => line.len() + 1,
                        _ => 0,
                    };
                    let last = !matches!(read, Ok(Some(_)));
                    if !held.hold(size) || tx.send(read).is_err() || last {
                        return;
                    }
                }
            })?;
        Ok(Self {
            lines,
            budget,
            ended: false,
        })
    }

    /// The next line, as [`Lines::next`] gives it; losing a `select!` loses nothing.
    pub async fn next(&mut self) -> io::Result<Option<String>> {
        if self.ended {
            return Ok(None);
        }
        match self.lines.recv().await {
            Some(Ok(Some(line))) => {
                self.budget.release(line.len() + 1);
                Ok(Some(line))
            }
            Some(other) => {
                self.ended = true;
                other
            }
            None => {
                self.ended = true;
                Ok(None)
            }
        }
    }
}

impl Drop for ReadAhead {
    fn drop(&mut self) {
        self.budget.close();
    }
}

/// The next line of a blocking stream, as [`Lines::next`] reads one.
fn next_line(reader: &mut impl BufRead, buf: &mut Vec<u8>) -> io::Result<Option<String>> {
    loop {
        let chunk = match reader.fill_buf() {
            Ok(chunk) => chunk,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            return Ok((!buf.is_empty()).then(|| taken(buf)));
        }
        let (take, done) = cut(buf, chunk)?;
        reader.consume(take);
        if done {
            return Ok(Some(taken(buf)));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;
    use std::time::Duration;
    use tokio::io::AsyncWriteExt;

    #[tokio::test]
    async fn a_line_read_cut_short_loses_nothing() {
        let (mut far, near) = tokio::io::duplex(64);
        let mut lines = Lines::new(tokio::io::BufReader::new(near));
        far.write_all(b"{\"t\":\"rea").await.unwrap();
        // The read loses the race (as to another branch of a select!): dropped mid-line.
        let cut = tokio::time::timeout(Duration::from_millis(20), lines.next()).await;
        assert!(cut.is_err());
        far.write_all(b"dy\"}\n{\"t\":\"gone\",\"id\":\"a\"}\n")
            .await
            .unwrap();
        drop(far);
        assert_eq!(
            lines.next().await.unwrap().as_deref(),
            Some("{\"t\":\"ready\"}")
        );
        assert_eq!(
            lines.next().await.unwrap().as_deref(),
            Some("{\"t\":\"gone\",\"id\":\"a\"}")
        );
        assert_eq!(lines.next().await.unwrap(), None);
    }

    #[tokio::test]
    async fn lines_read_ahead_come_whole_in_order_and_the_stream_is_drained_meanwhile() {
        let (read, mut write) = std::io::pipe().unwrap();
        let mut ahead = ReadAhead::start(read).unwrap();
        // Far more than a pipe holds (64 KiB), written while nothing is taken: the
        // writer is not held up by the taker.
        let line = "x".repeat(999);
        let writer = std::thread::spawn(move || {
            for i in 0..2000 {
                writeln!(write, "{i} {line}").unwrap();
            }
            write.write_all(b"cut \xff short").unwrap();
        });
        writer.join().unwrap();
        for i in 0..2000 {
            let got = ahead.next().await.unwrap().unwrap();
            assert!(got.starts_with(&format!("{i} x")), "{i}: {}", &got[..10]);
            assert_eq!(got.len(), format!("{i} ").len() + 999);
        }
        // The last line without its newline; bytes that are not UTF-8 shown replaced.
        assert_eq!(
            ahead.next().await.unwrap().as_deref(),
            Some("cut \u{fffd} short")
        );
        assert_eq!(ahead.next().await.unwrap(), None);
        assert_eq!(ahead.next().await.unwrap(), None);
    }

    #[test]
    fn reading_ahead_waits_once_its_budget_is_held_and_goes_on_as_lines_are_taken() {
        let budget = Arc::new(Budget::default());
        assert!(budget.hold(AHEAD - 10));
        // One line past the budget waits until bytes are taken.
        let waiting = budget.clone();
        let (tx, rx) = std::sync::mpsc::channel();
        let held = std::thread::spawn(move || {
            let ok = waiting.hold(20);
            tx.send(()).unwrap();
            ok
        });
        assert!(rx.recv_timeout(Duration::from_millis(100)).is_err());
        budget.release(AHEAD - 10);
        rx.recv_timeout(Duration::from_secs(10)).unwrap();
        assert!(held.join().unwrap());
        // A line longer than the budget still goes when nothing else is held.
        budget.release(20);
        assert!(budget.hold(2 * AHEAD));
        // Its taker gone: a waiting reader is let go, told to stop.
        let waiting = budget.clone();
        let stopped = std::thread::spawn(move || waiting.hold(1));
        std::thread::sleep(Duration::from_millis(20));
        budget.close();
        assert!(!stopped.join().unwrap());
    }

    #[test]
    fn a_line_longer_than_a_report_is_an_error() {
        let mut long = vec![b'a'; MAX_REPORT + 10];
        long.push(b'\n');
        long.extend_from_slice(b"next\n");
        let mut reader = io::BufReader::new(&long[..]);
        let mut buf = Vec::new();
        let err = next_line(&mut reader, &mut buf).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::InvalidData);
    }
}
