//! The creatures' mail and the narrator's story from the observatory, against the
//! stand-in as OpenSeed's orchestrator keeps them: mailboxes, an inbox, a message read
//! (and marked read), archived, mail written as the creator; the narration with entries
//! arriving live, and its settings set; what is refused read-only.

use crate::common::http::openseed::Creature;
use crate::common::ui::{Garden, clock, filters};
use crate::openseed_real::Attached;
use dreamwatch::openseed::{CREATOR, Letter};
use dreamwatch::ui::focus::Mode;
use dreamwatch::ui::headless::Headless;
use dreamwatch::ui::state::Settings;
use dreamwatch::ui::theme::Theme;
use dreamwatch::ui::update::{Job, MailAsk};

/// Takes in outcomes until the mail (or narration) has nothing under way.
async fn settle(a: &mut Attached) {
    while a.screen.app.popups.mail.loading || a.screen.app.popups.narration.loading {
        a.outcome().await;
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn mail_read_archived_and_written_as_the_creator() {
    let garden = Garden::new();
    let mut a = Attached::start(&garden, Creature::new("running"), Creature::new("sleeping")).await;
    let first = a.stand_in.mail(
        "ember",
        CREATOR,
        "the cron job",
        "It ran twice.\nI fixed the lock.",
    );
    a.stand_in
        .mail("pip", CREATOR, "", "\x1b[31mgood morning\x1b[0m");
    a.stand_in.mail("pip", "ember", "lunch", "shared notes");

    // From the OpenSeed menu.
    a.press("A");
    let text = a.screen.text().unwrap();
    assert!(
        text.contains("mail") && text.contains("narration"),
        "{text}"
    );
    assert_eq!(
        a.press("e"),
        [Job::Mail(MailAsk::Directory {
            mailbox: CREATOR.into()
        })]
    );
    assert_eq!(a.screen.app.mode, Mode::Mail);
    settle(&mut a).await;
    let text = a.screen.text().unwrap();
    assert!(text.contains("^[[31mgood morning"), "inert: {text}");
    assert!(text.contains("creator (you)"), "{text}");

    // The second message (the older, from ember): read whole, marked read.
    a.press("l");
    a.press("j");
    let jobs = a.press("enter");
    assert_eq!(
        jobs,
        [Job::Mail(MailAsk::Read {
            mailbox: CREATOR.into(),
            id: first.clone(),
            mark: true
        })]
    );
    a.outcome().await;
    assert_eq!(
        a.asked(&format!("/api/creatures/{CREATOR}/mail/{first}/read")),
        1
    );
    assert_eq!(
        a.stand_in.mail_file(CREATOR, "inbox", &first).unwrap()["read"],
        true
    );
    let text = a.screen.text().unwrap();
    assert!(text.contains("I fixed the lock."), "{text}");
    filters(&garden).bind(|| insta::assert_snapshot!("openseed_mail", text));

    // Archived: out of the inbox.
    a.press("h");
    assert_eq!(
        a.press("a"),
        [Job::Mail(MailAsk::Archive {
            mailbox: CREATOR.into(),
            id: first.clone()
        })]
    );
    let said = a.outcome().await;
    assert!(said.text.contains("archived"), "{said:?}");
    assert!(a.stand_in.mail_file(CREATOR, "archived", &first).is_some());

    // Written as the creator to pip (its mailbox selected): pip is woken for it.
    a.press("h");
    for _ in 0..2 {
        assert_eq!(
            a.press("j").len(),
            1,
            "the mailbox under the cursor is read"
        );
        a.outcome().await;
    }
    a.press("c");
    assert_eq!(a.screen.app.mode, Mode::OpenSeedForm);
    let text = a.screen.text().unwrap();
    assert!(text.contains("mail as the creator"), "{text}");
    a.press("tab");
    for c in "plans".chars() {
        a.press(&c.to_string());
    }
    a.press("tab");
    for c in "what next?".chars() {
        a.press(&if c == ' ' {
            "space".into()
        } else {
            c.to_string()
        });
    }
    let jobs = a.press("enter");
    assert_eq!(
        jobs,
        [Job::Mail(MailAsk::Send(Letter {
            from: CREATOR.into(),
            to: "pip".into(),
            subject: "plans".into(),
            body: "what next?".into()
        }))]
    );
    assert_eq!(a.screen.app.mode, Mode::Mail, "back to the mail");
    let said = a.outcome().await;
    assert_eq!(
        said.text,
        "mail sent to pip as the creator (the orchestrator wakes or tells it)"
    );
    assert_eq!(
        a.stand_in.creature("pip").status,
        "running",
        "woken by the mail"
    );
    // In the creator's sent mail.
    a.press("tab");
    let text = a.screen.text().unwrap();
    assert!(text.contains("→ pip") && text.contains("plans"), "{text}");
    a.press("q");
    assert_eq!(a.screen.app.mode, Mode::Normal);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_refused_letter_is_said_in_words_and_kept_out_of_sent() {
    let garden = Garden::new();
    let mut a = Attached::start(&garden, Creature::new("running"), Creature::new("sleeping")).await;
    a.press("M");
    settle(&mut a).await;
    a.press("c");
    a.press("enter");
    assert_eq!(
        a.screen.app.mode,
        Mode::OpenSeedForm,
        "no text: said in the form"
    );
    assert!(
        a.screen
            .text()
            .unwrap()
            .contains("the orchestrator takes no mail without one")
    );
    a.press("esc");
    assert_eq!(a.screen.app.mode, Mode::Mail, "cancelled back to the mail");
    // ember's container is stopped meanwhile: the orchestrator takes no mail for it.
    reqwest::Client::new()
        .post(format!("{}/api/creatures/ember/stop", a.stand_in.base))
        .send()
        .await
        .unwrap();
    a.press("c");
    a.press("tab");
    a.press("tab");
    a.press("x");
    assert_eq!(a.press("enter").len(), 1);
    let said = a.outcome().await;
    assert!(said.error);
    assert_eq!(
        said.text,
        "cannot send the mail to ember: the orchestrator refused (404): unknown recipient \"ember\". known creatures: pip"
    );
    a.press("tab");
    assert!(a.screen.text().unwrap().contains("nothing sent from here"));
}

#[tokio::test(flavor = "multi_thread")]
async fn read_only_reads_without_marking_and_refuses_writing() {
    let garden = Garden::new();
    dreamwatch::app::genomes::install();
    let (theme, _) = Theme::load("dark", None, false);
    let mut settings = Settings::with_theme(theme);
    settings.read_only = true;
    let screen = Headless::open(
        &[garden.dir.path().to_path_buf()],
        settings,
        clock(),
        120,
        36,
    )
    .unwrap();
    let mut a =
        Attached::start_on(Creature::new("running"), Creature::new("sleeping"), screen).await;
    let id = a.stand_in.mail("ember", CREATOR, "s", "read me");
    a.press("M");
    settle(&mut a).await;
    a.press("l");
    assert_eq!(
        a.press("enter"),
        [Job::Mail(MailAsk::Read {
            mailbox: CREATOR.into(),
            id: id.clone(),
            mark: false
        })]
    );
    a.outcome().await;
    assert!(a.screen.text().unwrap().contains("read me"));
    assert_eq!(
        a.stand_in.mail_file(CREATOR, "inbox", &id).unwrap()["read"],
        false
    );
    for key in ["c", "r", "a"] {
        assert!(a.press(key).is_empty(), "{key}");
        assert!(a.notice().starts_with("read-only:"), "{}", a.notice());
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn the_narration_arrives_live_and_its_settings_are_set() {
    let garden = Garden::new();
    let mut a = Attached::start(&garden, Creature::new("running"), Creature::new("sleeping")).await;
    a.stand_in
        .narrate("**ember** fixed the cron job's double run.", &["ember"]);
    a.press("A");
    assert_eq!(a.press("o"), [Job::Mail(MailAsk::Narration)]);
    assert_eq!(a.screen.app.mode, Mode::Narration);
    settle(&mut a).await;
    let text = a.screen.text().unwrap();
    assert!(text.contains("claude-sonnet-4-6 · every 5 min"), "{text}");
    assert!(text.contains("fixed the cron job"), "{text}");
    // A new entry arrives on the stream: on top.
    a.stand_in.narrate("**pip** woke to\nnew mail.", &["pip"]);
    a.until(|s| {
        s.app
            .openseed
            .as_ref()
            .unwrap()
            .events
            .get(dreamwatch::openseed::NARRATOR)
            .is_some_and(|e| e.len() == 2)
    })
    .await;
    let text = a.screen.text().unwrap();
    let new = text.find("new mail.").expect(&text);
    let old = text.find("fixed the cron job").unwrap();
    assert!(new < old, "newest first: {text}");
    filters(&garden).bind(|| insta::assert_snapshot!("openseed_narration", text));

    // Its settings: every 15 minutes.
    assert_eq!(a.press("c"), [Job::Mail(MailAsk::NarratorChoices)]);
    a.outcome().await;
    assert_eq!(a.screen.app.mode, Mode::OpenSeedForm);
    a.press("tab");
    a.press("tab");
    a.press("backspace");
    a.press("1");
    a.press("5");
    let jobs = a.press("enter");
    assert_eq!(jobs.len(), 1);
    assert_eq!(a.screen.app.mode, Mode::Narration);
    let said = a.outcome().await;
    assert_eq!(
        said.text,
        "the narrator is on (claude-sonnet-4-6, every 15 min)"
    );
    assert_eq!(a.stand_in.narrator_config()["interval_minutes"], 15);
}
