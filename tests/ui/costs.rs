//! Tokens and cost per creature (issue 13): what `.sys/usage.jsonl` says, priced with the
//! built-in table, in the header, the garden rows, the garden's title and its cost sort.

use crate::common::ui::{Garden, filters};
use dreamwatch::ui::headless::Headless;

/// pip on Claude Sonnet 4.5 (priced: 1.2M input, 40k output, 3M from the cache today and
/// more before), ember on the rehearsal brain (estimated tokens, no cost).
fn garden_with_usage(pip_model: &str) -> Garden {
    let garden = Garden::new();
    let sums = |calls: u64, input: u64, output: u64, cache: u64| {
        format!(r#"{{"calls":{calls},"input":{input},"output":{output},"cache_read":{cache}}}"#)
    };
    let pip = format!(
        r#"{{"t":"2026-11-22T17:40:00.000Z","call":"chat","model":"{pip_model}","input":1200,"output":80,"cache_read":9000,"day":"2026-11-22","totals":{{"{pip_model}":{}}},"today":{{"{pip_model}":{}}}}}"#,
        sums(420, 2_400_000, 90_000, 6_000_000),
        sums(160, 1_200_000, 40_000, 3_000_000),
    );
    let ember = r#"{"t":"2026-11-22T17:30:00.000Z","call":"chat","model":"rehearsal","input":900,"output":40,"estimated":true,"day":"2026-11-22","totals":{"rehearsal":{"calls":88,"input":81000,"output":3500,"estimated":true}},"today":{"rehearsal":{"calls":12,"input":11000,"output":480,"estimated":true}}}"#;
    for (name, line) in [("pip", pip.as_str()), ("ember", ember)] {
        let sys = garden.creature(name).join(".sys");
        std::fs::create_dir_all(&sys).unwrap();
        std::fs::write(sys.join("usage.jsonl"), format!("{line}\n")).unwrap();
    }
    garden
}

fn press(screen: &mut Headless, keys: &[&str]) {
    for k in keys {
        screen.press(k).expect("key");
    }
}

fn order(screen: &Headless) -> Vec<String> {
    screen
        .app
        .garden_order()
        .iter()
        .filter_map(|p| screen.app.creatures.get(p).map(|u| u.name.clone()))
        .collect()
}

#[test]
fn cost_in_the_header_the_rows_and_the_title() {
    dreamwatch::app::genomes::install();
    let garden = garden_with_usage("anthropic/claude-sonnet-4-5");
    let mut screen = garden.screen("dark", 140, 30);
    // ember first by name: the rehearsal brain, no cost.
    let ember = screen.text().unwrap();
    assert!(
        ember.contains("tokens ~84.5k (estimated) · rehearsal, no cost"),
        "{ember}"
    );
    // pip: today 1.2M x $3 + 40k x $15 + 3M x $0.30 = $5.10; in all $10.35.
    press(&mut screen, &["h", "j"]);
    let pip = screen.text().unwrap();
    assert!(
        pip.contains("tokens 8.5M · $10.35 (today 4.2M · $5.10)"),
        "{pip}"
    );
    assert!(pip.contains("$5.10 today"), "the garden's total: {pip}");
    filters(&garden).bind(|| {
        insta::assert_snapshot!("cost_header_and_garden", pip);
    });
    // A call recorded while watched: the garden's total follows (1M more input today:
    // $3 more).
    let usage = garden.creature("pip").join(".sys/usage.jsonl");
    let line = std::fs::read_to_string(&usage).unwrap();
    let more = line.replace(
        r#""today":{"anthropic/claude-sonnet-4-5":{"calls":160,"input":1200000"#,
        r#""today":{"anthropic/claude-sonnet-4-5":{"calls":161,"input":2200000"#,
    );
    assert_ne!(more, line);
    std::fs::write(&usage, format!("{line}{more}")).unwrap();
    screen.changed(vec![usage]);
    let text = screen.text().unwrap();
    assert!(text.contains("$8.10 today"), "the garden's total: {text}");
    // The cost sort: the dearest first.
    assert_eq!(order(&screen), ["ember", "pip"]);
    press(&mut screen, &["o", "o", "o", "o"]);
    assert!(screen.text().unwrap().contains("by cost"));
    assert_eq!(order(&screen), ["pip", "ember"]);
}

#[test]
fn a_model_without_a_price_shows_its_tokens_and_a_question_mark() {
    dreamwatch::app::genomes::install();
    let garden = garden_with_usage("ollama/qwen3");
    let mut screen = garden.screen("dark", 160, 30);
    press(&mut screen, &["h", "j"]);
    let text = screen.text().unwrap();
    assert!(
        text.contains("tokens 8.5M · ? (today 4.2M · ?) · no price for ollama/qwen3"),
        "{text}"
    );
    // The garden's total adds what is known and says that more is not.
    assert!(
        text.contains("$0.00+? today") || text.contains("? today"),
        "{text}"
    );
}

#[test]
fn a_narrow_screen_keeps_the_cost_and_drops_the_details() {
    dreamwatch::app::genomes::install();
    let garden = garden_with_usage("anthropic/claude-sonnet-4-5");
    let mut screen = garden.screen("dark", 80, 24);
    press(&mut screen, &["h", "j"]);
    let text = screen.text().unwrap();
    assert!(!text.contains("(today"), "{text}");
    filters(&garden).bind(|| {
        insta::assert_snapshot!("cost_narrow", text);
    });
}
