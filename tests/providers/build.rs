//! `build_provider`: flags, environment and defaults, with a fake environment.

use dreamwatch::llm::{ProviderKind, ProviderOptions, build_provider_with};

const KEY: &str = "sk-build-test-SECRET";

/// The label of the provider built from these flags and environment, or the error.
fn build(
    kind: ProviderKind,
    model: Option<&str>,
    base_url: Option<&str>,
    env: &[(&str, &str)],
) -> Result<String, String> {
    let lookup = |name: &str| {
        env.iter()
            .find(|(key, _)| *key == name)
            .map(|(_, value)| (*value).to_owned())
    };
    let provider = build_provider_with(
        kind,
        model.map(str::to_owned),
        base_url.map(str::to_owned),
        &lookup,
        ProviderOptions::default(),
    );
    match provider {
        Ok(provider) => Ok(provider.label()),
        Err(error) => {
            let error = error.to_string();
            assert!(!error.contains(KEY));
            Err(error)
        }
    }
}

#[test]
fn anthropic_defaults_and_overrides() {
    let key = [("ANTHROPIC_API_KEY", KEY)];
    assert_eq!(
        build(ProviderKind::Anthropic, None, None, &key).unwrap(),
        "anthropic/claude-sonnet-4-5"
    );
    let error = build(
        ProviderKind::Anthropic,
        None,
        None,
        &[("ANTHROPIC_API_KEY", " ")],
    );
    assert!(error.unwrap_err().contains("ANTHROPIC_API_KEY"));

    let env = [
        ("ANTHROPIC_API_KEY", KEY),
        ("ANTHROPIC_BASE_URL", "http://127.0.0.1:4000/"),
    ];
    assert_eq!(
        build(
            ProviderKind::Anthropic,
            Some("claude-haiku-4-5"),
            None,
            &env
        )
        .unwrap(),
        "anthropic/claude-haiku-4-5 @ http://127.0.0.1:4000"
    );
    let flag = Some("https://proxy.example/anthropic/v1");
    assert_eq!(
        build(ProviderKind::Anthropic, None, flag, &env).unwrap(),
        "anthropic/claude-sonnet-4-5 @ https://proxy.example/anthropic"
    );
    // A proxy of one's own may need no key.
    assert!(
        build(
            ProviderKind::Anthropic,
            None,
            Some("http://127.0.0.1:4000"),
            &[]
        )
        .is_ok()
    );
}

#[test]
fn openai_defaults_and_local_servers() {
    assert_eq!(
        build(ProviderKind::Openai, None, None, &[("OPENAI_API_KEY", KEY)]).unwrap(),
        "openai/gpt-4o-mini"
    );
    assert!(
        build(ProviderKind::Openai, None, None, &[])
            .unwrap_err()
            .contains("OPENAI_API_KEY")
    );

    let ollama = Some("http://127.0.0.1:11434/v1");
    assert_eq!(
        build(ProviderKind::Openai, Some("gpt-4o-mini"), ollama, &[]).unwrap(),
        "openai/gpt-4o-mini @ http://127.0.0.1:11434/v1"
    );
    assert!(
        build(ProviderKind::Openai, None, ollama, &[])
            .unwrap_err()
            .contains("--model")
    );
    let env = [
        ("OPENAI_BASE_URL", "https://openrouter.ai/api/v1"),
        ("OPENAI_API_KEY", KEY),
    ];
    assert_eq!(
        build(ProviderKind::Openai, Some("openai/gpt-4o"), None, &env).unwrap(),
        "openai/openai/gpt-4o @ https://openrouter.ai/api/v1"
    );
    assert!(build(ProviderKind::Openai, Some("m"), Some("localhost:8080"), &[]).is_err());
}

#[test]
fn rehearsal_is_the_runners_to_build() {
    let error = build(ProviderKind::Rehearsal, None, None, &[]).unwrap_err();
    assert!(error.contains("runner"));
}
