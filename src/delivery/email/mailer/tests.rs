use std::time::Duration;

use super::*;
use crate::delivery::email::{RenderedDigest, compose};

mod smtp;

const FROM: &str = "alerts@signalwatch.local";

fn message(subject: &str) -> Message {
    let digest = RenderedDigest {
        subject: subject.into(),
        text: "Funding round: Acme (2026-11-20)\n.a line starting with a dot\n".into(),
        html: "<p>Funding round: Acme</p>".into(),
    };
    let sender = FROM.parse().expect("valid sender");
    compose(&sender, "ceo@acme.com", &digest).expect("valid message")
}

#[tokio::test]
async fn the_smtp_mailer_hands_the_message_to_the_server() {
    let (url, mut inbox) = smtp::listen(0).await;
    let mailer = Mailer::smtp(FROM, &url).expect("valid URL");

    mailer
        .send(&message("[signalwatch] Competitors: 1 new signal(s)"))
        .await
        .expect("sent");

    let received = next(&mut inbox).await;
    assert_eq!(received.from, "alerts@signalwatch.local");
    assert_eq!(received.to, ["ceo@acme.com"]);
    assert!(
        received
            .data
            .contains("Subject: [signalwatch] Competitors: 1 new signal(s)\r\n"),
        "{}",
        received.data
    );
    assert!(
        received.data.contains("\r\n.a line starting with a dot"),
        "dot-stuffing is undone: {}",
        received.data
    );
}

#[tokio::test]
async fn a_refused_message_is_reported_as_a_temporary_failure() {
    let (url, mut inbox) = smtp::listen(1).await;
    let mailer = Mailer::smtp(FROM, &url).expect("valid URL");

    let refused = mailer.send(&message("first")).await;
    let retried = mailer.send(&message("second")).await;

    let err = refused.expect_err("451 is a failure");
    assert!(!err.is_permanent(), "{err}");
    retried.expect("the next attempt goes through");
    assert!(next(&mut inbox).await.data.contains("Subject: second"));
}

/// The next message the listener accepts; panics after a deadline.
async fn next(inbox: &mut tokio::sync::mpsc::UnboundedReceiver<smtp::Received>) -> smtp::Received {
    tokio::time::timeout(Duration::from_secs(10), inbox.recv())
        .await
        .expect("a message within 10 s")
        .expect("the listener runs")
}

#[tokio::test]
async fn an_unreachable_smtp_server_is_a_temporary_failure() {
    // Bind and drop a listener to find a port nothing listens on.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("free port")
        .port();
    let mailer = Mailer::smtp(FROM, &format!("smtp://127.0.0.1:{port}")).expect("valid URL");

    let err = mailer
        .send(&message("x"))
        .await
        .expect_err("nobody listens");

    assert!(!err.is_permanent(), "{err}");
}

#[test]
fn an_smtp_url_with_an_unknown_scheme_is_refused() {
    assert!(matches!(
        Mailer::smtp(FROM, "http://127.0.0.1:25"),
        Err(MailError::Url(_))
    ));
}

#[test]
fn an_invalid_sender_address_is_refused_when_the_mailer_is_made() {
    assert!(matches!(
        Mailer::mail_dir("not an address", PathBuf::from("mail")),
        Err(MailError::Sender(_))
    ));
}

#[tokio::test]
async fn the_mail_dir_mailer_writes_one_complete_eml_file_per_message() {
    let root = tempfile::tempdir().expect("temp dir");
    let dir = root.path().join("not").join("yet").join("there");
    let mailer = Mailer::mail_dir(FROM, dir.clone()).expect("valid sender");

    mailer.send(&message("first")).await.expect("written");
    mailer.send(&message("second")).await.expect("written");

    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("the dir was created")
        .map(|entry| {
            entry
                .expect("entry")
                .file_name()
                .into_string()
                .expect("utf-8")
        })
        .collect();
    names.sort();
    assert_eq!(names.len(), 2, "no temporary files are left: {names:?}");
    assert!(names.iter().all(|n| n.ends_with(".eml")), "{names:?}");
    let first = std::fs::read_to_string(dir.join(&names[0])).expect("readable");
    assert!(first.contains("Subject: "), "{first}");
    assert!(first.contains("To: ceo@acme.com\r\n"), "{first}");
    assert!(first.contains("multipart/alternative"), "{first}");
}

#[tokio::test]
async fn a_mail_dir_that_cannot_be_created_is_a_temporary_failure() {
    let root = tempfile::tempdir().expect("temp dir");
    let file = root.path().join("a-file");
    std::fs::write(&file, "not a directory").expect("written");
    let mailer = Mailer::mail_dir(FROM, file.join("mail")).expect("valid sender");

    let err = mailer.send(&message("x")).await.expect_err("no dir");

    assert!(matches!(err, MailError::Io(_)), "{err}");
    assert!(!err.is_permanent());
}
