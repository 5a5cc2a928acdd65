//! A decoder for server-sent events (the `text/event-stream` format the model APIs stream
//! in, and OpenSeed's orchestrator its events): bytes in, in pieces of any size, whole
//! events out.
//!
//! Lines end in `\n`, `\r\n` or `\r`; `event:` names the event, `data:` lines are joined
//! with `\n`, lines starting with `:` are comments (Anthropic and OpenRouter send them
//! as keep-alives), and an empty line ends the event. `id:` and `retry:` are skipped:
//! neither the model APIs nor OpenSeed send them.

/// One decoded event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SseEvent {
    /// The `event:` field, when there was one.
    pub event: Option<String>,
    pub data: String,
}

#[derive(Debug, Default)]
pub struct SseDecoder {
    /// Bytes of a line not yet ended.
    line: Vec<u8>,
    /// The last byte seen was `\r`: a `\n` right after it ends no further line.
    after_cr: bool,
    event: Option<String>,
    data: Option<String>,
}

impl SseDecoder {
    /// Feeds the next piece of the stream; returns the events it completed. Fails on
    /// a line that is not UTF-8.
    pub fn push(&mut self, bytes: &[u8]) -> Result<Vec<SseEvent>, String> {
        let mut events = Vec::new();
        for &byte in bytes {
            let after_cr = std::mem::replace(&mut self.after_cr, byte == b'\r');
            match byte {
                b'\n' if after_cr => {}
                b'\n' | b'\r' => {
                    let line = std::mem::take(&mut self.line);
                    let line = String::from_utf8(line)
                        .map_err(|_| "an event-stream line is not UTF-8".to_owned())?;
                    events.extend(self.line_done(&line));
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
            return data.map(|data| SseEvent { event, data });
        }
        let (field, value) = match line.split_once(':') {
            Some((field, value)) => (field, value.strip_prefix(' ').unwrap_or(value)),
            None => (line, ""),
        };
        match field {
            "event" => self.event = Some(value.to_owned()),
            "data" => match &mut self.data {
                Some(data) => {
                    data.push('\n');
                    data.push_str(value);
                }
                None => self.data = Some(value.to_owned()),
            },
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
}
