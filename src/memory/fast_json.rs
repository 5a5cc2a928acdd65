//! A fast validator for the outer JSON of conversation lines (and of any line whose
//! fields are read without decoding the rest: [`each_field`]).
//!
//! `inspect` must count every line of a 1 GiB conversation, bad lines too, within 3x of
//! `wc -l`. serde_json checks strings a byte at a time and simd-json rejects the lone
//! surrogate escapes OpenSeed writes, so this validator is written by hand: the JSON
//! grammar, strings scanned 64 bytes at a time (quote, backslash and control masks), and only `t` (and that `role`
//! is a string) decoded. Like the tolerant parser it accepts lone surrogate escapes and
//! leaves UTF-8 to the lossy decoder. A line it rejects goes to the full parser, which
//! gives the reason. Blocks written as JSON text in a `content` string (OpenSeed's way)
//! are walked where they are, through the string's escapes ([`Escaped`]).

/// Nesting deeper than this is rejected, as serde_json does.
const MAX_DEPTH: usize = 128;

/// The fields of a conversation line that counting needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LineFields<'a> {
    /// The raw `t` string (without quotes; escapes left as written), when it is a string.
    pub t: Option<&'a [u8]>,
    /// The `content` value, as written, when the walk settles which one counts.
    pub content: Content<'a>,
}

/// A conversation line's `content` as [`conversation_fields`] found it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Content<'a> {
    /// The line has none.
    Absent,
    /// A string, raw (without its quotes; escapes left as written).
    Text(&'a [u8]),
    /// Any other value as written (an array, ...).
    Value(&'a [u8]),
    /// Only a decoder can say which value counts: `content` repeated, or a key with an
    /// escape (which may spell `content`).
    Unsettled,
}

/// Validates `line` as one JSON object holding a string `role`; returns its `t` and
/// `content`. `None` when the line is not such an object (or repeats `t` or `role`).
pub fn conversation_fields(line: &[u8]) -> Option<LineFields<'_>> {
    let mut t = None;
    let mut seen_t = false;
    let mut role = false;
    let mut content = Content::Absent;
    Parser::<Plain>::whole(line, |p| {
        p.object_fields(|p, key| match key {
            b"t" => {
                if std::mem::replace(&mut seen_t, true) {
                    return None;
                }
                if p.peek() == Some(b'"') {
                    t = Some(p.string()?);
                    Some(())
                } else {
                    p.value()
                }
            }
            b"role" => {
                if std::mem::replace(&mut role, true) || p.peek() != Some(b'"') {
                    return None;
                }
                p.string().map(|_| ())
            }
            b"content" => {
                let start = p.i;
                let text = if p.peek() == Some(b'"') {
                    Some(p.string()?)
                } else {
                    p.value()?;
                    None
                };
                content = match (content, text) {
                    (Content::Absent, Some(raw)) => Content::Text(raw),
                    (Content::Absent, None) => Content::Value(&line[start..p.i]),
                    _ => Content::Unsettled,
                };
                Some(())
            }
            _ => {
                if key.contains(&b'\\') {
                    content = Content::Unsettled;
                }
                p.value()
            }
        })
    })?;
    role.then_some(LineFields { t, content })
}

/// A field's value as [`each_field`] hands it over: scanned, not decoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Raw<'a> {
    /// A string, with its quotes (escapes left as written).
    Str(&'a [u8]),
    /// A number as written.
    Number(&'a [u8]),
    True,
    False,
    /// `null`, an object or an array.
    Other,
}

/// Validates `line` as one JSON object, handing each key (raw, without its quotes) and
/// value to `field` in order; `None` when the line is not such an object or `field`
/// returns `None`.
pub fn each_field<'a>(
    line: &'a [u8],
    mut field: impl FnMut(&'a [u8], Raw<'a>) -> Option<()>,
) -> Option<()> {
    Parser::<Plain>::whole(line, |p| {
        p.object_fields(|p, key| {
            let start = p.i;
            let value = match p.peek()? {
                b'"' => {
                    p.string()?;
                    Raw::Str(&line[start..p.i])
                }
                b'-' | b'0'..=b'9' => {
                    p.number()?;
                    Raw::Number(&line[start..p.i])
                }
                b't' => p.literal(b"true").map(|()| Raw::True)?,
                b'f' => p.literal(b"false").map(|()| Raw::False)?,
                _ => p.value().map(|()| Raw::Other)?,
            };
            field(key, value)
        })
    })
}

/// The tool calls a conversation line's `content` holds, read without decoding it:
/// blocks whose (last) `type` is `tool_use`, `tool-call` or `tool-result`. `None` when
/// the caller must decode the line: not one JSON object, `content` repeated, a string
/// `content` that may hold blocks as JSON text, an escaped key or type, a `type` that is
/// not a string.
pub fn content_calls(line: &[u8]) -> Option<usize> {
    let mut calls = None;
    Parser::<Plain>::whole(line, |p| {
        p.object_fields(|p, key| {
            if key.contains(&b'\\') {
                None
            } else if key == b"content" {
                // Repeated: only a decoder says which one counts.
                if calls.is_some() {
                    return None;
                }
                calls = Some(p.content_calls()?);
                Some(())
            } else {
                p.value()
            }
        })
    })?;
    Some(calls.unwrap_or(0))
}

/// The tool calls of a `content` string (raw, without its quotes): blocks written in it
/// as JSON text, else none; `None` when only a decoder can say.
pub fn text_calls(raw: &[u8]) -> Option<usize> {
    let body = raw.trim_ascii_start();
    // Blocks written as JSON text, or a start only a decoder can read.
    let undecided =
        body.starts_with(b"[{") || body.first().is_some_and(|b| *b == b'\\' || *b >= 0x80);
    if !undecided {
        return Some(0);
    }
    // Walked where they are; decoded first where the walk gives up (see [`Escaped`]).
    if body.starts_with(b"[{")
        && let Some(calls) = array_calls_in::<Escaped>(raw)
    {
        return Some(calls);
    }
    let text = unescape(raw)?;
    let text = text.trim_ascii_start();
    // What Unicode calls white space beyond ASCII's (a vertical tab, U+00A0...) is for the
    // decoder to trim.
    match text.first() {
        Some(b) if *b >= 0x80 || *b < 0x20 => None,
        _ if !text.starts_with(b"[{") => Some(0),
        _ => array_calls(text),
    }
}

/// The tool calls of blocks written as JSON text (a `content` string holding an array of
/// blocks), as [`content_calls`] counts an array; `None` when it cannot settle them.
pub fn array_calls(text: &[u8]) -> Option<usize> {
    array_calls_in::<Plain>(text)
}

/// [`array_calls`] of JSON text read as `S` reads it.
fn array_calls_in<S: Source>(text: &[u8]) -> Option<usize> {
    let mut calls = 0;
    Parser::<S>::whole(text, |p| {
        if p.peek() != Some(b'[') {
            return None;
        }
        calls = p.content_calls()?;
        Some(())
    })?;
    Some(calls)
}

/// A JSON string's raw bytes (without its quotes) decoded; `None` for a lone surrogate
/// escape (only the tolerant decoder repairs one) or a bad escape. Written by hand: the
/// text of blocks inside a string is escaped every few bytes, where serde decodes an
/// escape at a time.
pub(crate) fn unescape(raw: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(raw.len());
    let mut rest = raw;
    while let Some(at) = memchr::memchr(b'\\', rest) {
        out.extend_from_slice(&rest[..at]);
        let simple = match rest.get(at + 1)? {
            b'u' => {
                let (c, used) = unicode_escape(&rest[at..])?;
                let mut utf8 = [0u8; 4];
                out.extend_from_slice(c.encode_utf8(&mut utf8).as_bytes());
                rest = &rest[at + used..];
                continue;
            }
            c => short_escape(*c)?,
        };
        out.push(simple);
        rest = &rest[at + 2..];
    }
    out.extend_from_slice(rest);
    Some(out)
}

/// The byte a short escape (`\n`, `\"`...) stands for, by the letter after its backslash.
fn short_escape(letter: u8) -> Option<u8> {
    Some(match letter {
        b'"' => b'"',
        b'\\' => b'\\',
        b'/' => b'/',
        b'b' => 0x08,
        b'f' => 0x0c,
        b'n' => b'\n',
        b'r' => b'\r',
        b't' => b'\t',
        _ => return None,
    })
}

/// The character of a `\\uXXXX` escape at the start of `bytes` (a surrogate pair: both
/// escapes) and the bytes it took; `None` for a lone surrogate or bad hex.
fn unicode_escape(bytes: &[u8]) -> Option<(char, usize)> {
    let hex = |at: usize| -> Option<u32> {
        let digits = std::str::from_utf8(bytes.get(at..at + 4)?).ok()?;
        u32::from_str_radix(digits, 16).ok()
    };
    let first = hex(2)?;
    match first {
        0xD800..=0xDBFF => {
            if bytes.get(6..8)? != b"\\u" {
                return None;
            }
            let second = hex(8)?;
            if !(0xDC00..=0xDFFF).contains(&second) {
                return None;
            }
            let c = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00);
            Some((char::from_u32(c)?, 12))
        }
        0xDC00..=0xDFFF => None,
        _ => Some((char::from_u32(first)?, 6)),
    }
}

/// Whether `bytes` is exactly one JSON value (lone surrogate escapes allowed).
pub fn is_valid(bytes: &[u8]) -> bool {
    Parser::<Plain>::whole(bytes, Parser::value).is_some()
}

/// JSON text as a [`Parser`] reads it: as written ([`Plain`]), or written inside a JSON
/// string ([`Escaped`]: each character as that string spells it).
trait Source {
    /// The character at `i` (a byte; one beyond ASCII spelled by an escape reads as
    /// 0x80) and how many bytes spell it; `None` at the end, or where only a decoder can
    /// say.
    fn char_at(b: &[u8], i: usize) -> Option<(u8, usize)>;

    /// Scans a string's contents from `i` (just after its opening quote): where they end
    /// and where the string does; `None` for a string that is not valid or not ended.
    fn string_end(b: &[u8], i: usize) -> Option<(usize, usize)>;
}

/// JSON text as written.
struct Plain;

impl Source for Plain {
    #[inline]
    fn char_at(b: &[u8], i: usize) -> Option<(u8, usize)> {
        b.get(i).map(|c| (*c, 1))
    }

    /// 64 bytes at a time: masks of quotes, backslashes and control bytes; which bytes
    /// are escaped follows from the lengths of backslash runs (a carry links blocks); the
    /// first unescaped quote ends the string.
    fn string_end(b: &[u8], mut i: usize) -> Option<(usize, usize)> {
        let mut carry = 0u64;
        let mut padded = [b'a'; 64];
        loop {
            let (block, real) = match b.get(i..i + 64) {
                Some(block) => (block, 64),
                None => {
                    let rest = b.get(i..)?;
                    padded[..rest.len()].copy_from_slice(rest);
                    padded[rest.len()..].fill(b'a');
                    (&padded[..], rest.len())
                }
            };
            let m = masks(block);
            let (escaped, carry_out) = escaped_positions(m.backslash, carry);
            let closing = m.quote & !escaped;
            let end = if closing == 0 {
                64
            } else {
                closing.trailing_zeros() as usize
            };
            let before_end = if end == 64 { !0 } else { (1u64 << end) - 1 };
            if m.control & before_end != 0 {
                return None;
            }
            let mut to_check = escaped & before_end;
            while to_check != 0 {
                let at = to_check.trailing_zeros() as usize;
                to_check &= to_check - 1;
                match block[at] {
                    b'u' => {
                        let hex = b.get(i + at + 1..i + at + 5)?;
                        hex.iter().all(u8::is_ascii_hexdigit).then_some(())?;
                    }
                    c => {
                        short_escape(c)?;
                    }
                }
            }
            if end < 64 {
                if end >= real {
                    return None;
                }
                return Some((i + end, i + end + 1));
            }
            if real < 64 {
                return None;
            }
            carry = u64::from(carry_out);
            i += 64;
        }
    }
}

/// JSON text written inside a JSON string, read from the string's raw contents as
/// [`Parser::string`] validated them (no control byte, no unescaped quote): the blocks
/// OpenSeed writes as a `content` string are walked where they are, not decoded first.
/// An escape it does not read the way the text's own grammar needs (a surrogate, a quote
/// or a backslash spelled `\u`...) reads as the end, so the walk gives up.
struct Escaped;

impl Escaped {
    /// The code point of the four hex digits at `i`.
    fn hex(b: &[u8], i: usize) -> Option<u32> {
        let digits = b.get(i..i + 4)?;
        digits
            .iter()
            .try_fold(0, |n, d| char::from(*d).to_digit(16).map(|d| n * 16 + d))
    }
}

impl Source for Escaped {
    #[inline]
    fn char_at(b: &[u8], i: usize) -> Option<(u8, usize)> {
        let c = *b.get(i)?;
        if c != b'\\' {
            return Some((c, 1));
        }
        let simple = match *b.get(i + 1)? {
            b'u' => {
                return match Self::hex(b, i + 2)? {
                    0xD800..=0xDFFF => None,
                    c @ 0..0x80 => Some((c as u8, 6)),
                    _ => Some((0x80, 6)),
                };
            }
            c => short_escape(c)?,
        };
        Some((simple, 2))
    }

    fn string_end(b: &[u8], mut i: usize) -> Option<(usize, usize)> {
        loop {
            // What comes before the next backslash is the text's own characters.
            let at = i + memchr::memchr(b'\\', b.get(i..)?)?;
            match *b.get(at + 1)? {
                b'"' => return Some((at, at + 2)),
                // The text's own escape: the character it escapes follows.
                b'\\' => {
                    let (c, width) = Self::char_at(b, at + 2)?;
                    i = at + 2 + width;
                    match c {
                        b'u' => {
                            let hex = b.get(i..i + 4)?;
                            hex.iter().all(u8::is_ascii_hexdigit).then_some(())?;
                            i += 4;
                        }
                        c => {
                            short_escape(c)?;
                        }
                    }
                }
                b'/' => i = at + 2,
                b'u' => match Self::hex(b, at + 2)? {
                    // A control character, the quote, the backslash, a surrogate.
                    0..0x20 | 0x22 | 0x5c | 0xD800..=0xDFFF => return None,
                    _ => i = at + 6,
                },
                // A control character (`\n`...) inside the text's string.
                _ => return None,
            }
        }
    }
}

struct Parser<'a, S = Plain> {
    b: &'a [u8],
    i: usize,
    depth: usize,
    source: std::marker::PhantomData<S>,
}

impl<'a, S: Source> Parser<'a, S> {
    #[inline]
    fn peek(&self) -> Option<u8> {
        S::char_at(self.b, self.i).map(|(c, _)| c)
    }

    /// Moves past the character at hand.
    #[inline]
    fn bump(&mut self) {
        if let Some((_, width)) = S::char_at(self.b, self.i) {
            self.i += width;
        }
    }

    #[inline]
    fn next(&mut self) -> Option<u8> {
        let (c, width) = S::char_at(self.b, self.i)?;
        self.i += width;
        Some(c)
    }

    #[inline]
    fn expect(&mut self, c: u8) -> Option<()> {
        (self.next()? == c).then_some(())
    }

    #[inline]
    fn ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.bump();
        }
    }

    fn value(&mut self) -> Option<()> {
        match self.peek()? {
            b'"' => self.string().map(|_| ()),
            b'{' => self.object(),
            b'[' => self.array(),
            b't' => self.literal(b"true"),
            b'f' => self.literal(b"false"),
            b'n' => self.literal(b"null"),
            b'-' | b'0'..=b'9' => self.number(),
            _ => None,
        }
    }

    fn literal(&mut self, word: &[u8]) -> Option<()> {
        word.iter().try_for_each(|c| self.expect(*c))
    }

    fn enter(&mut self) -> Option<()> {
        self.depth += 1;
        (self.depth <= MAX_DEPTH).then_some(())
    }

    /// Runs `inner` on `bytes` (leading white space skipped); `None` unless it reads all
    /// of them but trailing white space.
    fn whole(bytes: &'a [u8], inner: impl FnOnce(&mut Self) -> Option<()>) -> Option<()> {
        let mut p = Parser {
            b: bytes,
            i: 0,
            depth: 0,
            source: std::marker::PhantomData,
        };
        p.ws();
        inner(&mut p)?;
        p.ws();
        (p.i == bytes.len()).then_some(())
    }

    fn object(&mut self) -> Option<()> {
        self.object_fields(|p, _| p.value())
    }

    /// Walks an object (at its `{`), handing each key (raw, without its quotes) to
    /// `field` with the parser at the value, which `field` reads.
    fn object_fields(
        &mut self,
        mut field: impl FnMut(&mut Self, &'a [u8]) -> Option<()>,
    ) -> Option<()> {
        if self.peek() != Some(b'{') {
            return None;
        }
        self.enter()?;
        self.bump();
        self.ws();
        if self.peek() == Some(b'}') {
            self.bump();
        } else {
            loop {
                self.ws();
                let key = self.string()?;
                self.ws();
                self.expect(b':')?;
                self.ws();
                field(self, key)?;
                self.ws();
                match self.next()? {
                    b',' => continue,
                    b'}' => break,
                    _ => return None,
                }
            }
        }
        self.depth -= 1;
        Some(())
    }

    fn array(&mut self) -> Option<()> {
        self.array_items(|p| p.value())
    }

    /// Walks an array (at its `[`), `item` reading each value.
    fn array_items(&mut self, mut item: impl FnMut(&mut Self) -> Option<()>) -> Option<()> {
        self.enter()?;
        self.bump();
        self.ws();
        if self.peek() == Some(b']') {
            self.bump();
        } else {
            loop {
                self.ws();
                item(self)?;
                self.ws();
                match self.next()? {
                    b',' => continue,
                    b']' => break,
                    _ => return None,
                }
            }
        }
        self.depth -= 1;
        Some(())
    }

    /// The tool calls of a `content` value (see [`content_calls`]).
    fn content_calls(&mut self) -> Option<usize> {
        match self.peek()? {
            b'"' => text_calls(self.string()?),
            b'[' => {
                let mut calls = 0;
                self.array_items(|p| {
                    if p.peek() == Some(b'{') {
                        calls += usize::from(p.is_call_block()?);
                        Some(())
                    } else {
                        p.value()
                    }
                })?;
                Some(calls)
            }
            _ => self.value().map(|()| 0),
        }
    }

    /// Whether a content block (an object) is a tool call, by its last `type`.
    fn is_call_block(&mut self) -> Option<bool> {
        let mut kind: Option<&[u8]> = None;
        self.object_fields(|p, key| {
            if key.contains(&b'\\') {
                return None;
            }
            if key != b"type" {
                return p.value();
            }
            if p.peek() != Some(b'"') {
                return None;
            }
            let text = p.string()?;
            if text.contains(&b'\\') {
                return None;
            }
            kind = Some(text);
            Some(())
        })?;
        Some(matches!(
            kind,
            Some(b"tool_use" | b"tool-call" | b"tool-result")
        ))
    }

    fn digits(&mut self) -> usize {
        let start = self.i;
        while let Some(b'0'..=b'9') = self.peek() {
            self.bump();
        }
        self.i - start
    }

    fn number(&mut self) -> Option<()> {
        if self.peek() == Some(b'-') {
            self.bump();
        }
        match self.peek()? {
            b'0' => self.bump(),
            b'1'..=b'9' => {
                self.digits();
            }
            _ => return None,
        }
        if self.peek() == Some(b'.') {
            self.bump();
            (self.digits() > 0).then_some(())?;
        }
        if let Some(b'e' | b'E') = self.peek() {
            self.bump();
            if let Some(b'+' | b'-') = self.peek() {
                self.bump();
            }
            (self.digits() > 0).then_some(())?;
        }
        Some(())
    }

    /// Scans a string starting at its opening quote; returns its raw contents.
    fn string(&mut self) -> Option<&'a [u8]> {
        self.expect(b'"')?;
        let start = self.i;
        let (end, after) = S::string_end(self.b, start)?;
        self.i = after;
        Some(&self.b[start..end])
    }
}

const EVEN_BITS: u64 = 0x5555_5555_5555_5555;
const ODD_BITS: u64 = !EVEN_BITS;

/// The bytes a backslash escapes (the byte after each run of backslashes of odd length;
/// backslashes escaped inside a run need no check), from the backslash mask of a block and
/// whether its first byte is escaped by the block before (`carry_in` 0 or 1). Adding a
/// run's start bit to the mask carries through the run and lands on the byte after it;
/// that byte is escaped when its parity differs from the start's.
#[inline]
fn escaped_positions(backslash: u64, carry_in: u64) -> (u64, bool) {
    let bs = backslash & !carry_in;
    let starts = bs & !(bs << 1);
    let even_ends = (starts & EVEN_BITS).wrapping_add(bs) & !bs & ODD_BITS;
    let (odd_sum, carry_out) = (starts & ODD_BITS).overflowing_add(bs);
    let odd_ends = odd_sum & !bs & EVEN_BITS;
    (even_ends | odd_ends | carry_in, carry_out)
}

struct Masks {
    quote: u64,
    backslash: u64,
    control: u64,
}

/// The special bytes of a 64-byte block.
#[inline]
fn masks(block: &[u8]) -> Masks {
    #[cfg(target_arch = "x86_64")]
    {
        sse2::masks(block)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let mut m = Masks {
            quote: 0,
            backslash: 0,
            control: 0,
        };
        for (i, &c) in block.iter().enumerate().take(64) {
            m.quote |= u64::from(c == b'"') << i;
            m.backslash |= u64::from(c == b'\\') << i;
            m.control |= u64::from(c < 0x20) << i;
        }
        m
    }
}

/// SSE2 is part of x86_64 itself, so no runtime detection is needed.
#[cfg(target_arch = "x86_64")]
mod sse2 {
    use std::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_max_epu8, _mm_movemask_epi8, _mm_set1_epi8,
    };

    use super::Masks;

    #[inline]
    pub(super) fn masks(block: &[u8]) -> Masks {
        assert!(block.len() >= 64);
        let mut m = Masks {
            quote: 0,
            backslash: 0,
            control: 0,
        };
        for lane in 0..4 {
            // SAFETY: SSE2 is always available on x86_64; the assert above keeps the
            // unaligned 16-byte load at `lane * 16` inside `block`.
            let (q, b, c) = unsafe {
                let v = _mm_loadu_si128(block.as_ptr().add(lane * 16).cast::<__m128i>());
                let limit = _mm_set1_epi8(0x1f);
                (
                    _mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(b'"' as i8))),
                    _mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(b'\\' as i8))),
                    _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_max_epu8(v, limit), limit)),
                )
            };
            let shift = lane * 16;
            m.quote |= u64::from(q as u16) << shift;
            m.backslash |= u64::from(b as u16) << shift;
            m.control |= u64::from(c as u16) << shift;
        }
        m
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn conversation_lines() {
        let f = conversation_fields(
            br#"{"t":"2026-03-01T10:00:00Z","role":"user","content":"a\"b\\n\u001b"}"#,
        )
        .unwrap();
        assert_eq!(f.t, Some(&b"2026-03-01T10:00:00Z"[..]));
        assert!(conversation_fields(br#"{"t":"x","content":"no role"}"#).is_none());
        assert!(conversation_fields(br#"{"t":"x","role":1}"#).is_none());
        assert!(conversation_fields(br#"{"role":"a","role":"b"}"#).is_none());
        assert!(conversation_fields(br#"{"t":"x","role":"user","content":"cut"#).is_none());
        assert!(conversation_fields(br#"{"t":"x","role":"user"} trailing"#).is_none());
        assert_eq!(
            conversation_fields(br#"{"t":5,"role":"u"}"#).unwrap().t,
            None
        );
        // Lone surrogates are accepted, as the tolerant parser does.
        assert!(conversation_fields(br#"{"role":"u","content":"\ud83d"}"#).is_some());
    }

    #[test]
    fn strings_decode_as_serde_decodes_them() {
        for text in [
            "plain",
            "a\"b\\c/d\n\r\t\u{8}\u{c}",
            "[{\"type\":\"tool_use\"}]",
            "é\\\"",
        ] {
            let json = serde_json::to_string(text).unwrap();
            let raw = &json.as_bytes()[1..json.len() - 1];
            assert_eq!(unescape(raw).as_deref(), Some(text.as_bytes()), "{json}");
        }
        assert_eq!(
            unescape(br"caf\u00e9 \ud83d\ude00").as_deref(),
            Some("café 😀".as_bytes())
        );
        assert_eq!(unescape(br"\ud83d"), None, "a lone surrogate");
        assert_eq!(unescape(br"\ude00x"), None);
        assert_eq!(unescape(br"\u12"), None);
        assert_eq!(unescape(br"\x"), None);
        assert_eq!(unescape(b"cut\\"), None);
    }

    #[test]
    fn grammar_edges() {
        for ok in [
            &b"0"[..],
            b"-0.5e+3",
            b"[]",
            b"{}",
            b" [1, {\"a\": [null, true, false]}] ",
            b"\"\\u00e9\"",
        ] {
            assert!(is_valid(ok), "{}", String::from_utf8_lossy(ok));
        }
        for bad in [
            &b"01"[..],
            b"1.",
            b"-",
            b"[1,]",
            b"{\"a\"}",
            b"\"\x01\"",
            b"\"\\x\"",
            b"tru",
            b"[1] 2",
            b"",
        ] {
            assert!(!is_valid(bad), "{}", String::from_utf8_lossy(bad));
        }
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        assert!(!is_valid(deep.as_bytes()));
    }

    fn jsonish() -> impl Strategy<Value = String> {
        proptest::collection::vec(
            prop_oneof![
                Just("{".to_string()),
                Just("}".to_string()),
                Just("[".to_string()),
                Just("]".to_string()),
                Just(",".to_string()),
                Just(":".to_string()),
                Just("\"".to_string()),
                Just("\\".to_string()),
                Just("\\n".to_string()),
                Just("\\u00e9".to_string()),
                Just("\\u12".to_string()),
                Just(" ".to_string()),
                Just("true".to_string()),
                Just("nul".to_string()),
                Just("-".to_string()),
                Just("0".to_string()),
                Just("12".to_string()),
                Just(".5".to_string()),
                Just("e".to_string()),
                Just("x".to_string()),
                Just("é".to_string()),
                Just("\u{1}".to_string()),
                Just("\"a\"".to_string()),
                Just("\"role\"".to_string()),
                "[a-z]{0,10}".prop_map(|s| s),
            ],
            0..24,
        )
        .prop_map(|parts| parts.concat())
    }

    /// `text` as a JSON string: as serde spells it (0), every character but letters and
    /// digits as `\u` escapes, astral ones as surrogate pairs (1), or with `\/` and the
    /// short escapes (2).
    fn spell(text: &str, how: usize) -> String {
        if how == 0 {
            return serde_json::to_string(text).unwrap_or_default();
        }
        let mut out = String::from("\"");
        for c in text.chars() {
            match (how, c) {
                (_, 'a'..='z' | 'A'..='Z' | '0'..='9') => out.push(c),
                (1, c) => {
                    let mut units = [0u16; 2];
                    for u in c.encode_utf16(&mut units) {
                        out.push_str(&format!("\\u{u:04x}"));
                    }
                }
                (_, '/') => out.push_str("\\/"),
                (_, '"') => out.push_str("\\\""),
                (_, '\\') => out.push_str("\\\\"),
                (_, '\n') => out.push_str("\\n"),
                (_, '\t') => out.push_str("\\t"),
                (_, c) if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
                (_, c) => out.push(c),
            }
        }
        out.push('"');
        out
    }

    #[test]
    fn backslash_runs_across_blocks() {
        for pad in 0..70 {
            for run in 0..6 {
                let body = format!("{}{}\"", "x".repeat(pad), "\\".repeat(run));
                let text = format!("\"{body} tail\"");
                assert_eq!(
                    is_valid(text.as_bytes()),
                    serde_json::from_str::<serde::de::IgnoredAny>(&text).is_ok(),
                    "{text}"
                );
            }
        }
    }

    proptest! {
        #[test]
        fn long_strings_agree_with_serde_json(parts in proptest::collection::vec(prop_oneof![
            Just("\\".to_string()), Just("\"".to_string()), Just("\\\"".to_string()), Just("\\u00e9".to_string()),
            Just("\\u12".to_string()), Just("\\x".to_string()), Just("\u{1}".to_string()), Just("é".to_string()),
            "[a-z ]{0,70}".prop_map(|s| s),
        ], 0..40)) {
            let text = format!("\"{}\"", parts.concat());
            let serde_ok = serde_json::from_str::<serde::de::IgnoredAny>(&text).is_ok();
            prop_assert_eq!(is_valid(text.as_bytes()), serde_ok, "input {:?}", text);
        }

        #[test]
        fn agrees_with_serde_json(s in jsonish()) {
            let serde_ok = serde_json::from_str::<serde::de::IgnoredAny>(&s).is_ok();
            prop_assert_eq!(is_valid(s.as_bytes()), serde_ok, "input {:?}", s);
        }

        /// Blocks written as JSON text inside a string, however the string spells them,
        /// count the same walked where they are as decoded first.
        #[test]
        fn blocks_in_a_string_count_as_decoded(
            text in prop_oneof![
                proptest::collection::vec(prop_oneof![
                    Just(r#"{"type":"tool_use","input":{"cmd":"a \"q\" \\ \u00e9 \ud83d"}}"#.to_string()),
                    Just(r#"{"type":"text","text":"[{\"type\":\"tool_use\"}]"}"#.to_string()),
                    Just(r#"{"type":"tool-result","output":{"type":"text","value":"x\ny"}}"#.to_string()),
                    Just(r#"{"type":"text","type":"tool-call"}"#.to_string()),
                    Just(r#"{"ty\u0070e":"tool_use"}"#.to_string()),
                    Just(r#"{"type":7, "n":[1.5e3,-0,true,null]}"#.to_string()),
                    Just(r#"{"type":"tool_use","k":"\\\"\/\b\f\r\t\u0041\\"}"#.to_string()),
                    Just("{\"type\":\"text\",\"text\":\"a\nb\tc\u{7f}\"}".to_string()),
                    Just("{\"type\":\"text\",\"text\":\"a\u{1}b\"}".to_string()),
                    Just(r#"{"type":"tool_use","bad":"\x"}"#.to_string()),
                    Just(r#"{"type":"tool_use","bad":"\u12"}"#.to_string()),
                    jsonish(),
                ], 0..5).prop_map(|b| format!("[{}]", b.join(","))),
                jsonish().prop_map(|s| format!("[{{{s}")),
            ],
            spelling in 0..3usize,
            pad in 0..2usize,
        ) {
            let text = format!("{}{text}{}", " ".repeat(pad), "\n".repeat(pad));
            let quoted = spell(&text, spelling);
            let raw = &quoted.as_bytes()[1..quoted.len() - 1];
            let decoded = unescape(raw).and_then(|t| {
                let t = t.trim_ascii_start();
                if t.starts_with(b"[{") { array_calls(t) } else { Some(0) }
            });
            if let Some(walked) = array_calls_in::<Escaped>(raw) {
                prop_assert_eq!(Some(walked), decoded, "{}", quoted);
            }
            prop_assert_eq!(text_calls(raw), decoded, "{}", quoted);
        }

        #[test]
        fn agrees_with_serde_on_objects(s in jsonish()) {
            let line = format!("{{\"role\":\"u\",{s}");
            let serde_ok = serde_json::from_str::<serde::de::IgnoredAny>(&line).is_ok();
            // Duplicate keys are the one place the two may differ (serde accepts them
            // into a map; the counter sends them to the full parser).
            if line.matches("\"role\"").nth(1).is_none() {
                prop_assert_eq!(conversation_fields(line.as_bytes()).is_some(), serde_ok, "input {:?}", line);
            }
        }
    }
}
