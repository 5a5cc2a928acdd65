//! The attribute and metric names of the OpenTelemetry GenAI semantic conventions
//! (gen-ai-spans.md, gen-ai-agent-spans.md, gen-ai-metrics.md; status Development), and
//! dreamwatch's own beside them.

pub const OPERATION: &str = "gen_ai.operation.name";
pub const PROVIDER: &str = "gen_ai.provider.name";
pub const REQUEST_MODEL: &str = "gen_ai.request.model";
pub const INPUT_TOKENS: &str = "gen_ai.usage.input_tokens";
pub const OUTPUT_TOKENS: &str = "gen_ai.usage.output_tokens";
pub const AGENT_NAME: &str = "gen_ai.agent.name";
pub const AGENT_ID: &str = "gen_ai.agent.id";
pub const CONVERSATION_ID: &str = "gen_ai.conversation.id";
pub const TOOL_NAME: &str = "gen_ai.tool.name";
pub const TOOL_TYPE: &str = "gen_ai.tool.type";
pub const TOOL_ARGUMENTS: &str = "gen_ai.tool.call.arguments";
pub const TOOL_RESULT: &str = "gen_ai.tool.call.result";
pub const ERROR_TYPE: &str = "error.type";
pub const MEMORY_STORE: &str = "gen_ai.memory.store.name";
pub const MEMORY_ID: &str = "gen_ai.memory.id";
pub const MEMORY_TYPE: &str = "gen_ai.memory.type";
pub const MEMORY_SCOPE: &str = "gen_ai.memory.scope";
pub const MEMORY_CONTENT: &str = "gen_ai.memory.content";
pub const TOKEN_TYPE: &str = "gen_ai.token.type";
pub const EMBEDDING_DIMS: &str = "gen_ai.embeddings.dimension.count";
pub const SYSTEM_INSTRUCTIONS: &str = "gen_ai.system_instructions";
pub const INPUT_MESSAGES: &str = "gen_ai.input.messages";
pub const OUTPUT_MESSAGES: &str = "gen_ai.output.messages";

/// dreamwatch's own: what a model call cost in dollars (priced by the built-in table).
pub const COST: &str = "dreamwatch.cost.usd";
/// The tries a model call took beyond the first.
pub const RETRIES: &str = "dreamwatch.retries";
/// How many texts an embeddings call embedded.
pub const EMBEDDING_TEXTS: &str = "dreamwatch.embeddings.texts";
pub const TOOL_OK: &str = "dreamwatch.tool.ok";
pub const TOOL_MS: &str = "dreamwatch.tool.duration_ms";
/// Why the creature woke (`timer`, `operator`, a message).
pub const WAKE_REASON: &str = "dreamwatch.wake.reason";
/// Whether a sleep's consolidation was deep.
pub const DEEP: &str = "dreamwatch.dream.deep";
pub const OBSERVATIONS: &str = "dreamwatch.dream.observations";
/// How many dreams the sleep had.
pub const DREAMS_IN_SLEEP: &str = "dreamwatch.sleep.dreams";

/// Operation names.
pub const INVOKE_AGENT: &str = "invoke_agent";
pub const CHAT: &str = "chat";
pub const EMBEDDINGS: &str = "embeddings";
pub const EXECUTE_TOOL: &str = "execute_tool";
pub const CREATE_MEMORY: &str = "create_memory";
pub const UPDATE_MEMORY: &str = "update_memory";
pub const DELETE_MEMORY: &str = "delete_memory";
/// A sleep's consolidation (no operation of the conventions names it).
pub const CONSOLIDATE: &str = "consolidate_memory";

/// Metric names.
pub const TOKEN_USAGE: &str = "gen_ai.client.token.usage";
pub const OPERATION_DURATION: &str = "gen_ai.client.operation.duration";
pub const FATIGUE: &str = "dreamwatch.creature.fatigue";
pub const DREAMS: &str = "dreamwatch.creature.dreams";
pub const COST_METRIC: &str = "dreamwatch.creature.cost";
