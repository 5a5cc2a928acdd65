//! A decoder for server-sent events (the `text/event-stream` format the model APIs stream
//! in, and OpenSeed's orchestrator its events): bytes in, in pieces of any size, whole
//! events out.
//!
//! Lines end in `\n`, `\r\n` or `\r`; `event:` names the event, `data:` lines are joined
//! with `\n`, lines starting with `:` are comments (Anthropic and OpenRouter send them
//! as keep-alives), and an empty line ends the event. `id:` and `retry:` are skipped:
//! neither the model APIs nor OpenSeed send them.
//!
//! Nothing grows with the stream: a line longer than [`MAX_LINE`] is not kept (its bytes
//! are dropped until it ends), and an event whose data passes [`MAX_EVENT`] is dropped
//! whole; each such cut is counted ([`SseDecoder::take_cut`]) so the caller can say so.

/// The longest line kept.
pub const MAX_LINE: usize = 4 << 20;
/// The most data one event may carry.
pub const MAX_EVENT: usize = 8 << 20;

/// One decoded event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SseEvent {
    /// The `event:` field, when there was one.
    pub event: Option<String>,
    pub data: String,
}

#[derive(Debug)]
pub struct SseDecoder {
    /// Bytes of a line not yet ended.
    line: Vec<u8>,
    /// The last byte seen was `\r`: a `\n` right after it ends no further line.
    after_cr: bool,
    event: Option<String>,
    data: Option<String>,
    max_line: usize,
    max_event: usize,
    /// The line under way passed `max_line`: its bytes are dropped until it ends.
    skipping_line: bool,
    /// The event under way was cut: it is dropped when it ends.
    event_cut: bool,
    /// Events cut since [`SseDecoder::take_cut`] was last called.
    cut: usize,
}

impl Default for SseDecoder {
    fn default() -> Self {
        Self::bounded(MAX_LINE, MAX_EVENT)
    }
}

impl SseDecoder {
    /// A decoder that keeps lines up to `max_line` bytes and events up to `max_event`
    /// bytes of data.
    pub fn bounded(max_line: usize, max_event: usize) -> Self {
        Self {
            line: Vec::new(),
            after_cr: false,
            event: None,
            data: None,
            max_line,
            max_event,
            skipping_line: false,
            event_cut: false,
            cut: 0,
        }
    }

    /// How many events were cut (dropped for a line or data too long) since the last
    /// call.
    pub fn take_cut(&mut self) -> usize {
        std::mem::take(&mut self.cut)
    }

    /// The event under way is dropped; counted once.
    fn cut_event(&mut self) {
        if !self.event_cut {
            self.event_cut = true;
            self.cut += 1;
        }
        self.data = None;
        self.event = None;
    }

    /// Feeds the next piece of the stream; returns the events it completed. Fails on
    /// a line that is not UTF-8.
    pub fn push(&mut self, bytes: &[u8]) -> Result<Vec<SseEvent>, String> {
        let mut events = Vec::new();
        for &byte in bytes {
            let after_cr = std::mem::replace(&mut self.after_cr, byte == b'\r');
            match byte {
                b'\n' if after_cr => {}
                b'\n' | b'\r' => {
                    if std::mem::take(&mut self.skipping_line) {
                        continue;
                    }
                    let line = std::mem::take(&mut self.line);
                    let line = String::from_utf8(line)
                        .map_err(|_| "an event-stream line is not UTF-8".to_owned())?;
                    events.extend(self.line_done(&line));
                }
                _ if self.skipping_line => {}
                _ if self.line.len() >= self.max_line => {
                    // Not kept: its memory goes now, its bytes until it ends.
                    self.line = Vec::new();
                    self.skipping_line = true;
                    self.cut_event();
                }
                _ => self.line.push(byte),
            }
        }
        Ok(events)
    }

    /// The event left when the stream ends without its closing empty line.
    pub fn finish(&mut self) -> Result<Option<SseEvent>, String> {
        let mut last = self.push(b"\n\n")?;
        Ok(last.pop())
    }

    fn line_done(&mut self, line: &str) -> Option<SseEvent> {
        if line.is_empty() {
            let data = self.data.take();
            let event = self.event.take();
            if std::mem::take(&mut self.event_cut) {
                return None;
            }
            return data.map(|data| SseEvent { event, data });
        }
        if self.event_cut {
            return None;
        }
        let (field, value) = match line.split_once(':') {
            Some((field, value)) => (field, value.strip_prefix(' ').unwrap_or(value)),
            None => (line, ""),
        };
        match field {
            "event" => self.event = Some(value.to_owned()),
            "data" => {
                let held = self.data.as_ref().map_or(0, |d| d.len() + 1);
                if held + value.len() > self.max_event {
                    self.cut_event();
                    return None;
                }
                match &mut self.data {
                    Some(data) => {
                        data.push('\n');
                        data.push_str(value);
                    }
                    None => self.data = Some(value.to_owned()),
                }
            }
            _ => {}
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(name: Option<&str>, data: &str) -> SseEvent {
        SseEvent {
            event: name.map(str::to_owned),
            data: data.to_owned(),
        }
    }

    #[test]
    fn events_split_anywhere_come_out_whole() {
        let stream = "event: ping\r\ndata: {}\r\n\r\n: keep-alive\n\ndata: a\ndata:b\n\nevent: x\rdata: é\r\r";
        let expected = vec![
            event(Some("ping"), "{}"),
            event(None, "a\nb"),
            event(Some("x"), "é"),
        ];
        for cut in 0..stream.len() {
            let mut decoder = SseDecoder::default();
            let (head, tail) = stream.as_bytes().split_at(cut);
            let mut got = decoder.push(head).unwrap();
            got.extend(decoder.push(tail).unwrap());
            assert_eq!(got, expected, "cut at {cut}");
        }
    }

    #[test]
    fn an_unfinished_last_event_is_kept() {
        let mut decoder = SseDecoder::default();
        assert_eq!(decoder.push(b"data: [DONE]").unwrap(), vec![]);
        assert_eq!(decoder.finish().unwrap(), Some(event(None, "[DONE]")));
        assert_eq!(decoder.finish().unwrap(), None);
    }

    #[test]
    fn events_without_data_are_dropped_and_bad_bytes_refused() {
        let mut decoder = SseDecoder::default();
        assert_eq!(
            decoder
                .push(b"event: lonely\n\nid: 3\nretry: 10\n\n")
                .unwrap(),
            vec![]
        );
        assert!(decoder.push(b"data: \xff\n").is_err());
    }

    #[test]
    fn a_line_or_event_past_the_bounds_is_dropped_counted_and_the_stream_goes_on() {
        let mut decoder = SseDecoder::bounded(16, 24);
        // A line that never ends holds no more than the bound, however long it gets.
        for _ in 0..1000 {
            assert_eq!(
                decoder.push(b"data: xxxxxxxxxxxxxxxxxxxxxxxx").unwrap(),
                vec![]
            );
            assert!(decoder.line.capacity() <= 16);
        }
        assert_eq!(decoder.take_cut(), 1);
        assert_eq!(decoder.push(b"\ndata: ok\n\n").unwrap(), vec![]);
        assert_eq!(
            decoder.push(b"data: fine\n\n").unwrap(),
            vec![event(None, "fine")]
        );
        // Data lines that never end the event: cut once past the bound, held no more.
        for _ in 0..1000 {
            assert_eq!(decoder.push(b"data: 12345678\n").unwrap(), vec![]);
            assert!(decoder.data.as_ref().is_none_or(|d| d.len() <= 24));
        }
        assert_eq!(decoder.take_cut(), 1);
        assert_eq!(
            decoder.push(b"\ndata: next\n\n").unwrap(),
            vec![event(None, "next")]
        );
        assert_eq!(decoder.take_cut(), 0);
    }
}
