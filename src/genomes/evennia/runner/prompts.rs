//! What the evennia genome asks its brain, and the parts of the system prompt.

use super::config;
use crate::llm::{Message, Request};
use crate::runner::config::RunnerConfig;
use crate::runner::genome::GenomePrompt;

/// Seed 002's persona-protection prompt (MIRIX-inspired), kept as the seed gives it.
pub const ASSISTANT_FACT_EXTRACTION_PROMPT: &str = "Extract only objective facts about the world, \
users, and events.
Use third-person, factual language focused on WORLD STATE, not assistant behavior.
NEVER extract:
- Assistant actions (\"The assistant helped\", \"I did X\")
- Assistant personality or identity information
ALWAYS extract:
- World state facts (\"The tavern is in the north wing\")
- User/player information (\"Player Alice prefers formal address\")
Answer with one fact per line, at most three, or NONE.";

pub const SCORING_PROMPT: &str = "Rate the importance of each journal entry on a scale of 1 to 10, \
where 1 is purely mundane (brushing teeth, making bed) and 10 is extremely poignant (a break up, \
a college acceptance). Answer one line per entry: `ID: SCORE`.";

pub const ENTITY_PROMPT: &str = "Consolidate what is known about this entity. From the stable \
attributes known so far and the recent raw observations, answer the updated stable attributes \
as one JSON object of short string values (for example {\"role\": \"keeper of the garden\", \
\"prefers\": \"short answers\"}). Only facts about the entity, nothing about the assistant.";

pub const REFLECTION_PROMPT: &str = "Given the agent's most important recent journal entries, \
first write the three most salient high-level questions they raise, then answer them with up to \
three insights. Answer in two sections:\nQUESTIONS:\n- ...\nINSIGHTS:\n- insight (because of j1, j5)";

pub const EXTRACTION_TURN: &str = "[You are asleep; your context is about to be compacted. This is \
your last chance to journal anything from it worth keeping: use add_journal_entry (or \
store_memory), then noop when you are done.]";

/// A request with one user message and no tools.
pub fn request(system: &str, user: String, cfg: &RunnerConfig) -> Request {
    Request {
        system: system.to_string(),
        messages: vec![Message::user_text(user)],
        tools: Vec::new(),
        max_tokens: cfg.max_tokens.min(1_024),
    }
}

pub fn genome_prompt(cfg: &RunnerConfig) -> GenomePrompt {
    let e = &config::of(cfg);
    GenomePrompt {
        sleep: format!(
            "Sleeps of {nap}s or more are sleep mode: your journal is scored and moved into \
             semantic memory, memories are linked, what you know of others is consolidated, and \
             you reflect once your entries reach an importance of {threshold}. While asleep you \
             only have noop, add_journal_entry, review_journal, recall_memories and store_memory.",
            nap = cfg.cycle.quick_nap_threshold_s,
            threshold = e.reflection_threshold,
        ),
        memory: format!(
            "You act once every {awake}s. Keep a journal with add_journal_entry (what happened, what \
             you learned, who told you and how much you trust it); it becomes semantic memory, \
             which recall_memories searches. Note what you learn about others with observe_entity \
             (your regard for them is a favorability from 0 to 1: stranger, acquaintance, friend, \
             ally), and keep track of conversations with update_conversation. When your context \
             grows long it is summarised into a journal entry.",
            awake = e.tick_awake_s,
        ),
    }
}
