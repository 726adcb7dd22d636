//! Server-sent events, parsed from bytes as they arrive. A chunk may end
//! anywhere: inside a line, inside `\r\n`, inside a multi-byte character.
//! Lines are only decoded once complete, so a split character is never
//! turned into a replacement character.

/// One dispatched event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SseEvent {
    /// The `event:` field, if the server sent one.
    pub event: Option<String>,
    /// The `data:` lines, joined with newlines.
    pub data: String,
}

#[derive(Default)]
pub struct SseParser {
    line: Vec<u8>,
    /// The last byte was `\r`: a following `\n` belongs to the same line end.
    after_cr: bool,
    event: Option<String>,
    data: String,
    has_data: bool,
}

impl SseParser {
    pub fn new() -> Self {
        Self::default()
    }

    /// Feeds bytes; returns every event completed by them.
    pub fn push(&mut self, mut bytes: &[u8]) -> Vec<SseEvent> {
        let mut events = Vec::new();
        if self.after_cr {
            match bytes.first() {
                // An empty chunk says nothing about the byte after the `\r`.
                None => return events,
                Some(b'\n') => bytes = &bytes[1..],
                Some(_) => {}
            }
            self.after_cr = false;
        }
        // Whole lines are handled as slices; only a line cut by the chunk's
        // end is kept for the next push.
        while let Some(end) = bytes.iter().position(|&b| b == b'\n' || b == b'\r') {
            let line_end = bytes[end];
            let event = if self.line.is_empty() {
                self.line_done(&bytes[..end])
            } else {
                self.line.extend_from_slice(&bytes[..end]);
                let line = std::mem::take(&mut self.line);
                self.line_done(&line)
            };
            events.extend(event);
            bytes = &bytes[end + 1..];
            if line_end == b'\r' {
                match bytes.first() {
                    Some(b'\n') => bytes = &bytes[1..],
                    None => self.after_cr = true,
                    Some(_) => {}
                }
            }
        }
        self.line.extend_from_slice(bytes);
        events
    }

    /// The stream ended: a last event without its blank line still counts.
    pub fn finish(&mut self) -> Vec<SseEvent> {
        let mut events = Vec::new();
        if !self.line.is_empty() {
            let line = std::mem::take(&mut self.line);
            if let Some(event) = self.line_done(&line) {
                events.push(event);
            }
        }
        if let Some(event) = self.dispatch() {
            events.push(event);
        }
        events
    }

    fn line_done(&mut self, raw: &[u8]) -> Option<SseEvent> {
        if raw.is_empty() {
            return self.dispatch();
        }
        let line = String::from_utf8_lossy(raw);
        if line.starts_with(':') {
            return None; // a comment (keep-alive)
        }
        let (field, value) = match line.split_once(':') {
            Some((field, value)) => (field, value.strip_prefix(' ').unwrap_or(value)),
            None => (line.as_ref(), ""),
        };
        match field {
            "data" => {
                if self.has_data {
                    self.data.push('\n');
                }
                self.data.push_str(value);
                self.has_data = true;
            }
            "event" => self.event = Some(value.to_string()),
            _ => {} // id, retry and unknown fields do not matter here
        }
        None
    }

    fn dispatch(&mut self) -> Option<SseEvent> {
        let event = self.event.take();
        if !self.has_data {
            return None;
        }
        self.has_data = false;
        Some(SseEvent {
            event,
            data: std::mem::take(&mut self.data),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(parser: &mut SseParser, chunks: &[&[u8]]) -> Vec<SseEvent> {
        let mut out = Vec::new();
        for chunk in chunks {
            out.extend(parser.push(chunk));
        }
        out.extend(parser.finish());
        out
    }

    #[test]
    fn events_data_lines_and_comments() {
        let stream =
            b": keep-alive\n\nevent: ping\ndata: {}\n\ndata: a\ndata:b\n\ndata: [DONE]\n\n";
        let events = all(&mut SseParser::new(), &[stream]);
        assert_eq!(
            events,
            vec![
                SseEvent {
                    event: Some("ping".into()),
                    data: "{}".into()
                },
                SseEvent {
                    event: None,
                    data: "a\nb".into()
                },
                SseEvent {
                    event: None,
                    data: "[DONE]".into()
                },
            ]
        );
    }

    #[test]
    fn crlf_split_between_chunks_is_one_line_end() {
        let events = all(
            &mut SseParser::new(),
            &[b"data: x\r", b"\n\r", b"\ndata: y\r\n\r\n"],
        );
        assert_eq!(
            events.iter().map(|e| e.data.as_str()).collect::<Vec<_>>(),
            ["x", "y"]
        );
    }

    /// Found by `tests/fuzz/` (streams): an empty chunk between `\r` and
    /// `\n` used to forget the `\r`, so the `\n` ended an extra, blank line
    /// and dispatched the event early.
    #[test]
    fn an_empty_chunk_inside_crlf_is_still_one_line_end() {
        let events = all(
            &mut SseParser::new(),
            &[b"data: a\r", b"", b"", b"\ndata: b\r\n\r\n"],
        );
        assert_eq!(
            events,
            vec![SseEvent {
                event: None,
                data: "a\nb".into()
            }]
        );
    }

    #[test]
    fn a_character_split_across_chunks_survives() {
        let bytes = "data: café 日本\n\n".as_bytes();
        for cut in 0..bytes.len() {
            let events = all(&mut SseParser::new(), &[&bytes[..cut], &bytes[cut..]]);
            assert_eq!(events.len(), 1, "cut at {cut}");
            assert_eq!(events[0].data, "café 日本", "cut at {cut}");
        }
    }

    #[test]
    fn a_last_event_without_blank_line_is_kept() {
        let events = all(&mut SseParser::new(), &[b"data: tail"]);
        assert_eq!(events[0].data, "tail");
    }
}
