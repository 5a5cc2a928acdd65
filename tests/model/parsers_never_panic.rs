//! No parser panics on arbitrary bytes.

use dreamwatch::genomes::evennia::memory::EvenniaMemory;
use dreamwatch::genomes::evennia::memory::working::WorkingMemory;
use dreamwatch::memory::conversation::{ConversationEntry, ToolOutput};
use dreamwatch::memory::documents::{Priorities, parse_diary, parse_rules};
use dreamwatch::memory::dreams::Dream;
use dreamwatch::memory::events::Event;
use dreamwatch::memory::identity::{Birth, SleepFile};
use dreamwatch::memory::iterations::{CreatorLogEntry, Iteration};
use dreamwatch::memory::observations::Observations;
use proptest::prelude::*;

fn bytes_or_jsonish() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        proptest::collection::vec(any::<u8>(), 0..400),
        "\\{\"t\":\"[0-9T:.Z-]{0,24}\",\"role\":\"[a-z]{0,9}\",\"content\":\"(\\[\\{\\\\\"type\\\\\":\\\\\"(tool_use|tool-result|text)\\\\\"|[^\"]){0,40}\"?\\}?"
            .prop_map(String::into_bytes),
        "\\{\"t\":\"[0-9T:.Z-]{0,24}\",\"op\":\"(add|score|prune|link|unlink|forget|observe|consolidate|relationship|reflect|transition|phase|wake_deferred|compaction)\",(\"[a-z_]{1,12}\":([0-9.]{1,4}|\"[a-z0-9 ]{0,8}\"|null|\\[\\]|\\{\\}),?){0,6}\\}?"
            .prop_map(String::into_bytes),
    ]
}

proptest! {
    #[test]
    fn line_parsers(line in bytes_or_jsonish()) {
        let _ = ConversationEntry::parse(&line).map(|e| e.tool_calls());
        let _ = Dream::parse(&line);
        let _ = Event::parse(&line);
        let _ = Iteration::parse(&line);
        let _ = CreatorLogEntry::parse(&line);
        let _ = Birth::parse(&line);
        let _ = SleepFile::parse(&line);
        let _ = dreamwatch::memory::fast_json::conversation_fields(&line);
        let _ = WorkingMemory::parse(&line);
        let mut evennia = EvenniaMemory::default();
        for kind in dreamwatch::genomes::evennia::memory::FILES {
            let _ = evennia.fold(kind, 0, &line);
        }
        let _ = (evennia.cumulative_importance(), evennia.mode.label(), evennia.semantic.links());
        let mut emergence = dreamwatch::genomes::emergence::memory::EmergenceMemory::default();
        for kind in dreamwatch::genomes::emergence::memory::FILES {
            let _ = emergence.fold(kind, 0, &line);
        }
        let now = chrono::Utc::now();
        let _ = (emergence.unsummarised_dialogues(), emergence.calendar.next_after(now), emergence.todos.overdue(now));
    }

    #[test]
    fn document_parsers(text in any::<String>()) {
        let _ = Observations::parse(&text).counts();
        let _ = Priorities::parse(&text);
        let _ = parse_rules(&text);
        let _ = parse_diary(&text);
        let _ = ToolOutput::parse(&text);
    }
}
