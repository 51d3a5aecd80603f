//! The client against real loopback endpoints (private webhooks allowed, as in local setups).

use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};

use super::test_support::{Trap, answer_once, loopback_listener, read_request};
use super::*;

const GENEROUS: Duration = Duration::from_secs(10);

fn client(allow_private: bool, timeout: Duration) -> WebhookClient {
    WebhookClient::new(allow_private, timeout).expect("client builds")
}

async fn post_to(port: u16, timeout: Duration) -> PostOutcome {
    let url = format!("http://127.0.0.1:{port}/hook");
    client(true, timeout).post(&url, &[], b"{}".to_vec()).await
}

fn error_of(outcome: &PostOutcome) -> &str {
    outcome.error.as_deref().unwrap_or_default()
}

#[tokio::test]
async fn a_2xx_answer_is_a_success_and_the_request_carries_body_and_headers() {
    let (port, request) = answer_once("HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok").await;
    let headers = [
        ("X-Webhook-ID".to_owned(), "evt_1".to_owned()),
        ("Content-Type".to_owned(), "text/plain".to_owned()),
    ];
    let url = format!("http://127.0.0.1:{port}/hook?x=1");
    let body = br#"{"event_id":"evt_1"}"#.to_vec();
    let outcome = client(true, GENEROUS).post(&url, &headers, body).await;

    assert_eq!(outcome.status, Some(200));
    assert!(outcome.is_success());
    assert_eq!(outcome.body, "ok");
    assert_eq!(outcome.error, None);
    assert_eq!(outcome.retry_after, None);
    let request = request.await.expect("endpoint task");
    let lower = request.to_ascii_lowercase();
    assert!(
        request.starts_with("POST /hook?x=1 HTTP/1.1\r\n"),
        "{request}"
    );
    assert!(lower.contains("\r\nx-webhook-id: evt_1\r\n"), "{request}");
    assert!(
        lower.contains("\r\ncontent-type: application/json\r\n"),
        "{request}"
    );
    assert!(!lower.contains("text/plain"), "{request}");
    let agent = format!(
        "\r\nuser-agent: signalwatch-webhooks/{}\r\n",
        env!("CARGO_PKG_VERSION")
    );
    assert!(lower.contains(&agent), "{request}");
    assert!(
        request.ends_with("\r\n\r\n{\"event_id\":\"evt_1\"}"),
        "{request}"
    );
}

#[tokio::test]
async fn a_500_answer_is_an_answered_failure_with_its_body() {
    let (port, _) =
        answer_once("HTTP/1.1 500 Internal Server Error\r\ncontent-length: 5\r\n\r\noops!").await;
    let outcome = post_to(port, GENEROUS).await;
    assert_eq!(outcome.status, Some(500));
    assert!(!outcome.is_success());
    assert_eq!(outcome.body, "oops!");
    assert_eq!(outcome.error, None);
}

#[tokio::test]
async fn a_503_answer_keeps_its_retry_after_value() {
    let reply = "HTTP/1.1 503 Service Unavailable\r\nretry-after: 120\r\ncontent-length: 0\r\n\r\n";
    let (port, _) = answer_once(reply).await;
    let outcome = post_to(port, GENEROUS).await;
    assert_eq!(outcome.status, Some(503));
    assert_eq!(outcome.retry_after.as_deref(), Some("120"));
    assert_eq!(outcome.body, "");
}

#[tokio::test]
async fn a_redirect_is_returned_and_never_followed() {
    let target = Trap::bind().await;
    let reply = format!(
        "HTTP/1.1 302 Found\r\nlocation: http://127.0.0.1:{}/landing\r\ncontent-length: 0\r\n\r\n",
        target.port
    );
    let (port, _) = answer_once(reply).await;
    let outcome = post_to(port, GENEROUS).await;
    assert_eq!(outcome.status, Some(302));
    assert!(!outcome.is_success());
    assert_eq!(outcome.error, None);
    assert_eq!(target.connections_so_far().await, 0);
}

#[tokio::test]
async fn a_long_body_is_cut_to_1000_characters_not_bytes() {
    let body = "é".repeat(5_000);
    let reply = format!(
        "HTTP/1.1 400 Bad Request\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    );
    let (port, _) = answer_once(reply).await;
    let outcome = post_to(port, GENEROUS).await;
    assert_eq!(outcome.status, Some(400));
    assert_eq!(outcome.body, "é".repeat(MAX_RESPONSE_CHARS));
}

#[tokio::test]
async fn an_endless_body_is_cut_at_64_kib_without_waiting_for_its_end() {
    let (listener, port) = loopback_listener().await;
    tokio::spawn(async move {
        let (mut socket, _) = listener.accept().await.expect("accept");
        read_request(&mut socket).await;
        // No content-length: the body lasts until the connection closes, which it never does.
        let head = b"HTTP/1.1 200 OK\r\nconnection: close\r\n\r\n";
        socket.write_all(head).await.expect("write head");
        let chunk = [b'a'; 8 * 1024];
        while socket.write_all(&chunk).await.is_ok() {}
    });
    let outcome = post_to(port, GENEROUS).await;
    assert_eq!(outcome.status, Some(200));
    assert_eq!(outcome.body, "a".repeat(MAX_RESPONSE_CHARS));
    assert!(outcome.duration < GENEROUS / 2, "{:?}", outcome.duration);
}

#[tokio::test]
async fn a_huge_body_trickling_in_is_cut_off_at_the_timeout() {
    let (listener, port) = loopback_listener().await;
    tokio::spawn(async move {
        let (mut socket, _) = listener.accept().await.expect("accept");
        read_request(&mut socket).await;
        let head = b"HTTP/1.1 200 OK\r\ncontent-length: 52428800\r\n\r\n";
        socket.write_all(head).await.expect("write head");
        while socket.write_all(&[b'b'; 100]).await.is_ok() {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    });
    let timeout = Duration::from_millis(600);
    let outcome = post_to(port, timeout).await;
    // The status line arrived in time, so the endpoint answered; the body is what came in.
    assert_eq!(outcome.status, Some(200));
    assert_eq!(outcome.error, None);
    assert!(!outcome.body.is_empty());
    assert!(outcome.body.chars().all(|c| c == 'b'));
    assert!(outcome.body.chars().count() <= MAX_RESPONSE_CHARS);
    assert!(outcome.duration >= timeout, "{:?}", outcome.duration);
    assert!(outcome.duration < timeout * 3, "{:?}", outcome.duration);
}

#[tokio::test]
async fn an_endpoint_that_never_answers_times_out() {
    let (listener, port) = loopback_listener().await;
    tokio::spawn(async move {
        let (mut socket, _) = listener.accept().await.expect("accept");
        read_request(&mut socket).await;
        // Hold the connection open, silent, until the client gives up and closes it.
        let mut rest = [0_u8; 64];
        while matches!(socket.read(&mut rest).await, Ok(read) if read > 0) {}
    });
    let timeout = Duration::from_millis(300);
    let outcome = post_to(port, timeout).await;
    assert_eq!(outcome.status, None);
    assert_eq!(error_of(&outcome), "timed out after 300ms");
    assert!(outcome.duration >= timeout, "{:?}", outcome.duration);
    assert!(outcome.duration < timeout * 5, "{:?}", outcome.duration);
}

#[tokio::test]
async fn a_closed_port_is_reported_as_connection_refused() {
    let (listener, port) = loopback_listener().await;
    drop(listener);
    let outcome = post_to(port, GENEROUS).await;
    assert_eq!(outcome.status, None);
    assert_eq!(error_of(&outcome), "connection refused");
}

#[tokio::test]
async fn loopback_is_refused_without_a_connection_when_private_webhooks_are_not_allowed() {
    let trap = Trap::bind().await;
    let client = client(false, GENEROUS);
    for host in ["127.0.0.1", "localhost", "[::1]"] {
        let url = format!("http://{host}:{}/hook", trap.port);
        let outcome = client.post(&url, &[], b"{}".to_vec()).await;
        assert_eq!(outcome.status, None, "{url}");
        assert!(
            error_of(&outcome).starts_with("destination refused: "),
            "{url}: {outcome:?}"
        );
    }
    assert_eq!(trap.connections_so_far().await, 0);
}

#[tokio::test]
async fn a_name_that_does_not_resolve_is_reported_as_a_dns_failure() {
    let url = "http://nowhere.signalwatch-test.invalid/hook";
    let outcome = client(false, GENEROUS).post(url, &[], Vec::new()).await;
    assert_eq!(outcome.status, None);
    let error = error_of(&outcome);
    assert!(
        error.starts_with("DNS lookup of nowhere.signalwatch-test.invalid"),
        "{error}"
    );
}

#[tokio::test]
async fn an_unusable_header_is_an_error_outcome_not_a_panic() {
    let headers = [("bad header".to_owned(), "x".to_owned())];
    let outcome = client(true, GENEROUS)
        .post("http://127.0.0.1:9/", &headers, Vec::new())
        .await;
    assert_eq!(outcome.status, None);
    assert!(
        error_of(&outcome).starts_with("invalid request header name"),
        "{outcome:?}"
    );
}

#[test]
fn only_2xx_statuses_are_successes() {
    let outcome = |status| PostOutcome {
        status,
        body: String::new(),
        retry_after: None,
        error: None,
        duration: Duration::ZERO,
    };
    for (status, success) in [(Some(200), true), (Some(299), true), (Some(204), true)] {
        assert_eq!(outcome(status).is_success(), success, "{status:?}");
    }
    for status in [None, Some(199), Some(300), Some(302), Some(410), Some(500)] {
        assert!(!outcome(status).is_success(), "{status:?}");
    }
}

#[test]
fn timeouts_are_named_in_seconds_or_milliseconds() {
    assert_eq!(timed_out(Duration::from_secs(15)), "timed out after 15s");
    assert_eq!(
        timed_out(Duration::from_millis(1_500)),
        "timed out after 1500ms"
    );
}
