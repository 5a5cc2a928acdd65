//! Total recall, prepared: one conversation entry (a line of conversation.jsonl) becomes
//! a header row and its body, tool calls and results readable (command, exit, output),
//! JSON, shell and markdown highlighted.

use chrono::NaiveDate;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use serde_json::Value;

use crate::memory::conversation::{Block, Content, ConversationEntry, ToolOutput};
use crate::text::highlight::{Lang, guess_lang, highlight};
use crate::text::sanitize::sanitize;
use crate::text::wrap::hard_wrap;
use crate::ui::doc::DocLine;
use crate::ui::prepare::inert;
use crate::ui::theme::Theme;

/// Longest prepared line, in columns: longer ones are split so that scrolling by line
/// never skips more than a few rows.
const MAX_LINE: usize = 512;

/// The lines of entry `line_no` (0-based line of the file).
pub fn entry(line_no: u64, entry: Result<&ConversationEntry, &str>, theme: &Theme) -> Vec<DocLine> {
    let mut out = Out {
        lines: Vec::new(),
        theme,
    };
    match entry {
        Ok(e) => {
            let role_style = match e.role.as_str() {
                "user" => theme.role_user,
                "assistant" => theme.role_assistant,
                _ => theme.role_tool,
            };
            let time = e.t.map_or_else(
                || "--:--:--".to_string(),
                |t| t.format("%H:%M:%S").to_string(),
            );
            out.push_word(
                vec![
                    Span::styled(time, theme.muted),
                    Span::raw(" "),
                    Span::styled(inert(&e.role), role_style),
                    Span::styled(format!("  #{}", line_no + 1), theme.muted),
                ],
                0,
            );
            match &e.content {
                Content::Text(text) => out.text(text),
                Content::Blocks(blocks) => {
                    for block in blocks {
                        out.block(block);
                    }
                }
                Content::Cut(raw) => {
                    out.push_word(
                        vec![Span::styled(
                            "  (cut short by the logger; the text as logged follows)",
                            theme.muted,
                        )],
                        2,
                    );
                    out.code(raw, Lang::Plain, theme.muted, 4);
                }
            }
        }
        Err(reason) => out.push_word(
            vec![
                Span::styled(format!("line {}: unreadable: ", line_no + 1), theme.error),
                Span::styled(inert(reason), theme.muted),
            ],
            2,
        ),
    }
    out.lines
}

/// The row that opens a new day (UTC, as the entries' times are).
pub fn day_separator(day: NaiveDate, theme: &Theme) -> DocLine {
    DocLine::hard(Line::styled(
        format!("── {} ──", day.format("%A %Y-%m-%d")),
        theme.header,
    ))
}

struct Out<'t> {
    lines: Vec<DocLine>,
    theme: &'t Theme,
}

impl Out<'_> {
    fn push_word(&mut self, spans: Vec<Span<'static>>, indent: u16) {
        self.lines.push(DocLine::word(Line::from(spans), indent));
    }

    /// Lines that keep their spacing, indented, split when very long.
    fn push_hard(&mut self, line: Line<'static>, indent: usize) {
        let pad = " ".repeat(indent);
        let pieces = if line.width() > MAX_LINE {
            hard_wrap(&line, MAX_LINE)
        } else {
            vec![line]
        };
        for mut piece in pieces {
            piece.spans.insert(0, Span::raw(pad.clone()));
            self.lines.push(DocLine::hard(piece));
        }
    }

    /// Free text: highlighted as markdown, JSON or shell when it looks like one.
    fn text(&mut self, text: &str) {
        let lang = guess_lang(text);
        for line in highlight(text.trim_end(), lang, self.theme.syntax()) {
            let mut spans = vec![Span::raw("  ")];
            spans.extend(line.spans);
            self.push_word(spans, 2);
        }
    }

    /// Text shown as code: highlighted as `lang`, every line kept whole.
    fn code(&mut self, text: &str, lang: Lang, style: Style, indent: usize) {
        for line in highlight(text.trim_end_matches('\n'), lang, self.theme.syntax()) {
            let spans: Vec<Span<'static>> = line
                .spans
                .into_iter()
                .map(|s| s.patch_style(style))
                .collect();
            self.push_hard(Line::from(spans), indent);
        }
    }

    fn block(&mut self, block: &Block) {
        let theme = self.theme;
        match block {
            Block::Text(text) => self.text(text),
            Block::ToolUse { name, input, .. } => self.call(name, input),
            Block::ToolResult {
                content, is_error, ..
            } => {
                self.push_word(vec![Span::styled("  ◂ result", theme.tool_name)], 4);
                let mut output = ToolOutput::parse(content);
                if *is_error && output.error.is_none() {
                    output.error = Some(std::mem::take(&mut output.stdout));
                }
                self.output(&output);
            }
            Block::AiToolResult {
                tool_name,
                input,
                output,
                ..
            } => {
                self.call(tool_name, input);
                self.output(&ToolOutput::parse(output));
            }
            Block::Other(v) => {
                let kind = v.get("type").and_then(Value::as_str).unwrap_or("block");
                let mut text = inert(&v.to_string());
                if text.len() > 200 {
                    let cut = (0..=200)
                        .rev()
                        .find(|&i| text.is_char_boundary(i))
                        .unwrap_or(0);
                    text.truncate(cut);
                    text.push('…');
                }
                self.push_word(
                    vec![
                        Span::styled(format!("  · {} ", inert(kind)), theme.muted),
                        Span::styled(text, theme.muted),
                    ],
                    4,
                );
            }
        }
    }

    /// `▸ bash $ ls -la`, or the tool's input as JSON.
    fn call(&mut self, name: &str, input: &Value) {
        let theme = self.theme;
        let head = vec![Span::styled(
            format!("  ▸ {}", inert(name)),
            theme.tool_name,
        )];
        match input.get("command").and_then(Value::as_str) {
            Some(command) => {
                let mut lines = highlight(command, Lang::Shell, theme.syntax()).into_iter();
                let mut first = head;
                first.push(Span::styled(" $ ", theme.muted));
                if let Some(l) = lines.next() {
                    first.extend(l.spans);
                }
                self.push_hard(Line::from(first), 0);
                for l in lines {
                    self.push_hard(l, 6);
                }
            }
            None => {
                self.push_word(head, 4);
                if !input.is_null() {
                    let json = serde_json::to_string_pretty(input).unwrap_or_default();
                    self.code(&json, Lang::Json, Style::new(), 4);
                }
            }
        }
    }

    /// Exit status, stdout (highlighted), stderr, and the truncation note.
    fn output(&mut self, o: &ToolOutput) {
        let theme = self.theme;
        if let Some(code) = o.exit_code {
            let style = if code == 0 {
                theme.exit_ok
            } else {
                theme.exit_err
            };
            self.push_word(vec![Span::styled(format!("    exit {code}"), style)], 4);
        }
        if let Some(error) = &o.error {
            let text = sanitize(error);
            let mut lines = text.lines();
            let first = lines.next().unwrap_or_default().to_string();
            self.push_word(
                vec![Span::styled(format!("    error: {first}"), theme.exit_err)],
                4,
            );
            for l in lines {
                self.push_hard(Line::styled(l.to_string(), theme.exit_err), 4);
            }
        }
        if !o.stdout.trim().is_empty() {
            self.code(&o.stdout, guess_lang(&o.stdout), Style::new(), 4);
        }
        if !o.stderr.trim().is_empty() {
            self.code(&o.stderr, Lang::Plain, theme.exit_err, 4);
        }
        if o.stdout.trim().is_empty() && o.stderr.trim().is_empty() && o.error.is_none() {
            self.push_word(vec![Span::styled("    (no output)", theme.muted)], 4);
        }
        if let Some(note) = &o.truncated_note {
            self.push_word(
                vec![Span::styled(format!("    {}", inert(note)), theme.muted)],
                4,
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(lines: &[DocLine]) -> Vec<String> {
        lines.iter().map(|l| l.line.to_string()).collect()
    }

    fn parse(line: &str) -> Result<ConversationEntry, String> {
        ConversationEntry::parse(line.as_bytes()).map_err(|e| e.to_string())
    }

    #[test]
    fn ai_sdk_tool_result_shows_command_exit_and_output() {
        let line = r#"{"t":"2026-03-09T10:00:00Z","role":"tool","content":"[{\"type\":\"tool-result\",\"toolCallId\":\"c1\",\"toolName\":\"bash\",\"input\":{\"command\":\"ls\"},\"output\":{\"type\":\"text\",\"value\":\"{\\\"stdout\\\":\\\"a\\\\nb\\\",\\\"stderr\\\":\\\"oops\\\",\\\"exitCode\\\":2}\"}}]"}"#;
        let lines = entry(
            4,
            parse(line).as_ref().map_err(String::as_str),
            &Theme::default(),
        );
        assert_eq!(
            texts(&lines),
            [
                "10:00:00 tool  #5",
                "  ▸ bash $ ls",
                "    exit 2",
                "    a",
                "    b",
                "    oops"
            ]
        );
    }

    #[test]
    fn anthropic_turns_and_errors() {
        let line = r#"{"t":"2026-02-12T17:32:32Z","role":"assistant","content":"[{\"type\":\"text\",\"text\":\"hi\"},{\"type\":\"tool_use\",\"id\":\"a\",\"name\":\"read\",\"input\":{\"path\":\"x\"}}]"}"#;
        let lines = entry(
            0,
            parse(line).as_ref().map_err(String::as_str),
            &Theme::default(),
        );
        let t = texts(&lines);
        assert_eq!(t[1], "  hi");
        assert_eq!(t[2], "  ▸ read");
        assert!(t[3..].join("\n").contains("\"path\": \"x\""));
        let result = r#"{"role":"user","content":"[{\"type\":\"tool_result\",\"tool_use_id\":\"a\",\"content\":\"Error: no such file\"}]"}"#;
        let t = texts(&entry(
            1,
            parse(result).as_ref().map_err(String::as_str),
            &Theme::default(),
        ));
        assert_eq!(
            t,
            ["--:--:-- user  #2", "  ◂ result", "    error: no such file"]
        );
        let bad = texts(&entry(9, Err("not a JSON object"), &Theme::default()));
        assert_eq!(bad, ["line 10: unreadable: not a JSON object"]);
    }

    #[test]
    fn escapes_are_inert() {
        let line = format!(
            r#"{{"role":"user","content":"\u001b]52;c;aGk=\u0007 {}"}}"#,
            "x".repeat(1200)
        );
        let lines = entry(
            0,
            parse(&line).as_ref().map_err(String::as_str),
            &Theme::default(),
        );
        let all = texts(&lines).join("\n");
        assert!(all.contains("^[]52;c;aGk=^G"), "{all}");
        assert!(!all.contains('\u{1b}'));
    }
}
