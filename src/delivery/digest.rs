//! The e-mail digest worker. Every second it looks for monitors whose window
//! (`SIGNALWATCH_EMAIL_DIGEST_SECONDS`) has passed and that have unsent alert items, and sends
//! each one message listing them to the monitor's creator. Items are marked sent only after the
//! SMTP server took the message (or its `.eml` file is complete), so a failure loses nothing.

use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;
use tokio::time::MissedTickBehavior;
use tokio_util::sync::CancellationToken;

use crate::config::Config;
use crate::delivery::email::{DigestLine, MailError, Mailer, compose, render_digest};
use crate::domain::time::now_ms;
use crate::store::alerts::{self, PendingDigest};
use crate::store::{Db, StoreError};

/// How often due digests are looked for. The window is counted in whole seconds, so checking
/// every second keeps each digest within a second of its due time.
const TICK: Duration = Duration::from_secs(1);

/// How long a worker owns a digest it is sending. Longer than any send can take (the SMTP
/// timeout is 30 s); after a crash, or after a permanent refusal, the digest is tried again once
/// it expires.
const CLAIM_MS: i64 = 5 * 60_000;

/// Digests sent per tick at most; the rest wait for the next tick.
const MONITORS_PER_TICK: i64 = 100;

/// Signals listed in one message at most; more wait for the monitor's next digest.
const ITEMS_PER_DIGEST: i64 = 500;

/// Sends due digests until `shutdown` is cancelled. A digest being sent when it is cancelled is
/// finished first.
pub async fn digest_loop(db: Db, config: Arc<Config>, shutdown: CancellationToken) {
    let mailer = match Mailer::from_config(&config) {
        Ok(mailer) => mailer,
        Err(err) => {
            tracing::error!(error = %err, "e-mail alerts are off: invalid mail settings");
            return;
        }
    };
    let window_ms =
        i64::try_from(config.email_digest_seconds.saturating_mul(1000)).unwrap_or(i64::MAX);
    let mut ticks = tokio::time::interval(TICK);
    ticks.set_missed_tick_behavior(MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = shutdown.cancelled() => return,
            _ = ticks.tick() => {}
        }
        match send_due_digests(&db, &mailer, window_ms, now_ms()).await {
            Ok(0) => {}
            Ok(sent) => tracing::info!(sent, "e-mail digests sent"),
            Err(err) => tracing::error!(error = %err, "e-mail digest round failed"),
        }
    }
}

/// Sends every digest due at `now` with a window of `window_ms` and returns how many went out.
/// A digest that fails to send is logged and left for a later round; only database errors end
/// the round early.
pub async fn send_due_digests(
    db: &Db,
    mailer: &Mailer,
    window_ms: i64,
    now: i64,
) -> Result<usize, StoreError> {
    let cutoff = now.saturating_sub(window_ms);
    let mut sent = 0;
    for monitor_id in alerts::due_monitors(db, cutoff, MONITORS_PER_TICK).await? {
        let claim_until = now.saturating_add(CLAIM_MS);
        if !alerts::claim_digest(db, &monitor_id, cutoff, claim_until).await? {
            continue; // another worker is sending it
        }
        let Some(digest) = alerts::pending_digest(db, &monitor_id, ITEMS_PER_DIGEST).await? else {
            alerts::release_digest(db, &monitor_id, claim_until, cutoff).await?;
            continue;
        };
        let lines = match digest_lines(&digest) {
            Ok(lines) => lines,
            Err(err) => {
                // Unreadable stored data would fail every round: keep the claim (retried when it
                // expires) and the items, and say which monitor is stuck.
                tracing::error!(monitor_id, team_id = digest.team_id, error = %err,
                    "e-mail digest not sent: an alert item is corrupt");
                continue;
            }
        };
        match send_digest(mailer, &digest, &lines).await {
            Ok(()) => {
                let ids: Vec<String> = digest.items.into_iter().map(|item| item.id).collect();
                alerts::mark_digest_sent(db, &monitor_id, &ids, now).await?;
                crate::telemetry::email_sent();
                sent += 1;
            }
            Err(err) if err.is_permanent() => {
                // Sending again at once would be refused again: keep the claim, so the digest is
                // retried only when it expires, and keep the items.
                tracing::error!(monitor_id, team_id = digest.team_id, error = %err,
                    retry_in_seconds = CLAIM_MS / 1000, "e-mail digest refused");
            }
            Err(err) => {
                tracing::warn!(monitor_id, team_id = digest.team_id, error = %err,
                    "e-mail digest not sent; retrying on the next tick");
                alerts::release_digest(db, &monitor_id, claim_until, cutoff).await?;
            }
        }
    }
    Ok(sent)
}

/// The digest's lines, one per item; an item whose stored event data is not JSON is
/// [`StoreError::Corrupt`].
fn digest_lines(digest: &PendingDigest) -> Result<Vec<DigestLine>, StoreError> {
    digest
        .items
        .iter()
        .map(|item| {
            let data: Value = serde_json::from_str(&item.data).map_err(|err| {
                StoreError::Corrupt(format!("data of alert item {}: {err}", item.id))
            })?;
            Ok(DigestLine::from_event(
                &item.event_type,
                &data,
                item.created_at,
            ))
        })
        .collect()
}

/// Renders one monitor's digest and hands it to the mailer.
async fn send_digest(
    mailer: &Mailer,
    digest: &PendingDigest,
    lines: &[DigestLine],
) -> Result<(), MailError> {
    let rendered = render_digest(&digest.monitor_name, lines);
    let message = compose(mailer.sender(), &digest.recipient, &rendered)?;
    mailer.send(&message).await
}

#[cfg(test)]
mod tests;
