//! A delivery attempt that outlasts its worker's lease keeps its delivery: the worker renews
//! the leases of the attempts it has under way, so no other claim (its own or another
//! worker's) sends the same delivery again while the first attempt waits for its answer.

use std::time::Duration;

use crate::delivery_support::{FAST, Watching, acme_round, attempt_statuses};
use crate::each_backend;
use crate::support::Backend;
use crate::support::receiver::Answer;

each_backend!(an_attempt_longer_than_its_lease_is_sent_once_and_recorded_once);

/// A webhook timeout well past the longest lease (25 s), so an attempt may outlast its lease.
const TIMEOUT: [&str; 2] = ["--webhook-timeout-seconds", "60"];

/// How long the receiver takes to answer: past the lease's end (25 s).
const ANSWER_AFTER: Duration = Duration::from_secs(29);

async fn an_attempt_longer_than_its_lease_is_sent_once_and_recorded_once(backend: Backend) {
    // The quick settings of every delivery test, but this timeout.
    let settings = [&FAST[..FAST.len() - 2], &TIMEOUT[..]].concat();
    let watching = Watching::with_settings(backend, &settings).await;
    watching.receiver.always(Answer::Slow(ANSWER_AFTER, 200));
    let credits = watching.credits().await;

    watching
        .ingest(
            "funding",
            serde_json::json!([acme_round("f5d00000-0000-4000-8000-0000000000a1")]),
        )
        .await;
    watching.receiver.wait_for(1, Duration::from_secs(15)).await;
    // The answer comes after the lease would have run out; a second attempt would arrive then.
    tokio::time::sleep(ANSWER_AFTER + Duration::from_secs(2)).await;

    let delivery = watching.wait_for_delivery("done").await;
    assert_eq!(watching.receiver.received().len(), 1, "{delivery}");
    assert_eq!(attempt_statuses(&delivery), [Some(200)], "{delivery}");
    watching.wait_for_credits(credits - 1).await;
}
