//! A delivery's page on the dashboard shows what the receiver answered to each attempt: the
//! first bytes of its body (at most 1 KiB, never half a character), escaped as text.

use serde_json::{Value, json};

use crate::delivery_support::{Watching, acme_round};
use crate::each_backend;
use crate::support::Backend;
use crate::support::dashboard::{Page, Visitor};
use crate::support::receiver::{Answer, Receiver};

each_backend!(
    each_attempt_on_the_delivery_page_shows_the_start_of_what_the_receiver_answered,
    a_success_at_the_first_attempt_shows_the_start_of_its_answer_as_well,
    an_attempt_that_got_no_answer_shows_no_response,
);

const OWNER: &str = "owner@example.com";

/// The dashboard's page of `delivery`, as the team's owner sees it.
async fn delivery_page(watching: &Watching, delivery: &Value) -> Page {
    let delivery_id = delivery["id"].as_str().expect("delivery id");
    let visitor = Visitor::signed_in(&watching.app, OWNER).await;
    let page = visitor
        .get(&format!(
            "/app/webhooks/{}/deliveries/{delivery_id}",
            watching.webhook_id
        ))
        .await;
    assert_eq!(page.status, 200, "{}", page.body);
    page
}

async fn each_attempt_on_the_delivery_page_shows_the_start_of_what_the_receiver_answered(
    backend: Backend,
) {
    let watching = Watching::start(backend, &[]).await;
    let long_answer = "é".repeat(2000);
    watching.receiver.script([
        Answer::Full(
            500,
            vec![("content-type", "text/html".into())],
            "<b>database unavailable</b>".into(),
        ),
        Answer::Full(503, vec![], long_answer),
        Answer::Full(200, vec![], "thanks, stored".into()),
    ]);
    watching.ingest("funding", json!([acme_round("r1")])).await;
    let delivery = watching.wait_for_delivery("done").await;
    let page = delivery_page(&watching, &delivery).await;
    page.assert_shows("<th scope=\"col\">Response</th>");
    page.assert_shows("<td>500</td>");
    page.assert_shows("<code>&#60;b&#62;database unavailable&#60;/b&#62;</code>");
    assert!(
        !page.body.contains("<b>database unavailable"),
        "the receiver's markup is shown as text, never rendered"
    );
    // 'é' takes two bytes: 1 KiB holds 512 of them.
    page.assert_shows(&format!("<code>{}</code>", "é".repeat(512)));
    assert!(!page.body.contains(&"é".repeat(513)));
    page.assert_shows("<code>thanks, stored</code>");
}

async fn a_success_at_the_first_attempt_shows_the_start_of_its_answer_as_well(backend: Backend) {
    let watching = Watching::start(backend, &[]).await;
    watching
        .receiver
        .script([Answer::Full(200, vec![], "é".repeat(2000))]);
    watching.ingest("funding", json!([acme_round("r1")])).await;
    let delivery = watching.wait_for_delivery("done").await;
    let page = delivery_page(&watching, &delivery).await;
    page.assert_shows("<td>200</td>");
    // The attempt keeps 1 KiB of the answer: 512 two-byte characters.
    page.assert_shows(&format!("<code>{}</code>", "é".repeat(512)));
    assert!(!page.body.contains(&"é".repeat(513)));
}

async fn an_attempt_that_got_no_answer_shows_no_response(backend: Backend) {
    // Nothing listens on port 9: every attempt is refused before any answer.
    let receiver = Receiver::start().await;
    let watching = Watching::posting_to(backend, &[], receiver, "http://127.0.0.1:9/hook").await;
    watching.ingest("funding", json!([acme_round("r1")])).await;
    let delivery = watching.wait_for_delivery("failed").await;
    let page = delivery_page(&watching, &delivery).await;
    page.assert_shows("<td>no answer</td>");
    let attempts = page.body.matches("<td>no answer</td>").count();
    assert!(attempts >= 1);
    assert_eq!(
        page.body
            .matches("<td><span class=\"muted\">—</span></td>")
            .count(),
        attempts,
        "no answer, no excerpt"
    );
}
