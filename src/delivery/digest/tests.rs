//! The digest round against a real SQLite database, with alert items queued the way fan-out
//! queues them.

use std::path::Path;

use serde_json::json;
use tempfile::TempDir;

use super::*;
use crate::store::monitors::{self, MonitorRow};
use crate::store::outbox::{self, NewAlert, NewEvent};
use crate::store::teams::{self, NewTeam};
use crate::store::{Tx, new_id};

const WINDOW_MS: i64 = 60_000;
/// 2026-11-21T00:00:00.000Z
const NOW: i64 = 1_795_219_200_000;

struct Setup {
    db: Db,
    team_id: String,
    monitor: MonitorRow,
    mail: TempDir,
    _db_dir: TempDir,
}

impl Setup {
    /// A migrated database with one active monitor, created by owner@acme.test.
    async fn new() -> Setup {
        let db_dir = tempfile::tempdir().expect("temp dir");
        let url = format!("sqlite://{}", db_dir.path().join("test.db").display());
        let db = Db::connect(&url).await.expect("connect");
        db.migrate().await.expect("migrate");
        let team = NewTeam {
            name: "Acme".into(),
            owner_email: "owner@acme.test".into(),
            credits: 0,
            subscription_status: "active".into(),
            rate_limit_per_minute: None,
        };
        let (team_id, owner) = teams::create_team(&db, &team).await.expect("team");
        let monitor = MonitorRow {
            id: new_id(),
            team_id: team_id.clone(),
            created_by: owner.user_id,
            name: "Competitors".into(),
            signal_types: r#"["funding_round"]"#.into(),
            active: true,
            webhook_id: None,
            webhook_url: None,
            last_delivery_at: None,
            created_at: NOW,
            updated_at: NOW,
        };
        let mut tx = db.begin_write().await.expect("begin");
        monitors::insert_monitor(&mut tx, &monitor)
            .await
            .expect("monitor");
        tx.commit().await.expect("commit");
        Setup {
            db,
            team_id,
            monitor,
            mail: tempfile::tempdir().expect("temp dir"),
            _db_dir: db_dir,
        }
    }

    fn mailer(&self) -> Mailer {
        Mailer::mail_dir("alerts@signalwatch.local", self.mail.path().to_path_buf())
            .expect("mailer")
    }

    /// Queues one funding round for the monitor, as fan-out does.
    async fn queue(&self, company: &str) {
        let event = NewEvent {
            id: new_id(),
            event_type: "funding.created".into(),
            signal_id: Some(new_id()),
            data: json!({ "signal": { "type": "funding_round" }, "company": { "name": company } })
                .to_string(),
            created_at: NOW,
        };
        let alert = NewAlert {
            id: new_id(),
            monitor_id: self.monitor.id.clone(),
            team_id: self.team_id.clone(),
            event_id: event.id.clone(),
            created_at: NOW,
        };
        let mut tx: Tx = self.db.begin_write().await.expect("begin");
        outbox::insert_events(&mut tx, &[event])
            .await
            .expect("event");
        outbox::insert_alerts(&mut tx, &[alert])
            .await
            .expect("alert");
        tx.commit().await.expect("commit");
    }

    async fn set_active(&self, active: bool) {
        let mut tx = self.db.begin_write().await.expect("begin");
        let row = MonitorRow {
            active,
            ..self.monitor.clone()
        };
        monitors::update_monitor(&mut tx, &row)
            .await
            .expect("update");
        tx.commit().await.expect("commit");
    }

    async fn round(&self, mailer: &Mailer, now: i64) -> usize {
        send_due_digests(&self.db, mailer, WINDOW_MS, now)
            .await
            .expect("round")
    }

    fn mails(&self) -> Vec<String> {
        eml_files(self.mail.path())
    }
}

/// The `.eml` files of `dir`, oldest first.
fn eml_files(dir: &Path) -> Vec<String> {
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .map(|entry| entry.path())
                .filter(|path| path.extension().is_some_and(|ext| ext == "eml"))
                .collect()
        })
        .unwrap_or_default();
    paths.sort();
    paths
        .iter()
        .map(|path| std::fs::read_to_string(path).expect("readable"))
        .collect()
}

#[tokio::test]
async fn a_due_digest_lists_every_pending_signal_once() {
    let s = Setup::new().await;
    s.queue("Acme").await;
    s.queue("Globex").await;
    let mailer = s.mailer();

    assert_eq!(s.round(&mailer, NOW).await, 1);
    assert_eq!(
        s.round(&mailer, NOW + WINDOW_MS).await,
        0,
        "nothing is left"
    );

    let mails = s.mails();
    assert_eq!(mails.len(), 1);
    assert!(mails[0].contains("Subject: [signalwatch] Competitors: 2 new signal(s)\r\n"));
    assert!(mails[0].contains("To: owner@acme.test\r\n"));
    assert!(mails[0].contains("Acme") && mails[0].contains("Globex"));
}

#[tokio::test]
async fn a_sent_digest_sets_the_monitors_last_delivery() {
    let s = Setup::new().await;
    s.queue("Acme").await;

    s.round(&s.mailer(), NOW).await;

    let monitor = monitors::find_monitor(&s.db, &s.team_id, &s.monitor.id)
        .await
        .expect("read")
        .expect("found");
    assert_eq!(monitor.last_delivery_at, Some(NOW));
}

#[tokio::test]
async fn signals_after_a_digest_wait_for_the_window_to_pass() {
    let s = Setup::new().await;
    let mailer = s.mailer();
    s.queue("Acme").await;
    s.round(&mailer, NOW).await;

    s.queue("Globex").await;
    s.queue("Initech").await;

    assert_eq!(s.round(&mailer, NOW + WINDOW_MS - 1).await, 0);
    assert_eq!(s.round(&mailer, NOW + WINDOW_MS).await, 1);
    let mails = s.mails();
    assert_eq!(mails.len(), 2);
    assert!(mails[1].contains("Competitors: 2 new signal(s)"));
}

#[tokio::test]
async fn a_failed_send_keeps_the_items_for_the_next_round() {
    let s = Setup::new().await;
    s.queue("Acme").await;
    let file = s.mail.path().join("in-the-way");
    std::fs::write(&file, "not a directory").expect("written");
    let broken = Mailer::mail_dir("alerts@signalwatch.local", file.join("mail")).expect("mailer");

    assert_eq!(s.round(&broken, NOW).await, 0);
    assert_eq!(
        s.round(&s.mailer(), NOW + 1_000).await,
        1,
        "retried at once"
    );

    assert!(s.mails()[0].contains("Competitors: 1 new signal(s)"));
}

#[tokio::test]
async fn a_paused_monitor_keeps_its_items_until_it_resumes() {
    let s = Setup::new().await;
    let mailer = s.mailer();
    s.queue("Acme").await;
    s.set_active(false).await;

    assert_eq!(s.round(&mailer, NOW).await, 0);
    s.set_active(true).await;
    assert_eq!(s.round(&mailer, NOW + 1_000).await, 1);
}

#[tokio::test]
async fn two_workers_in_the_same_round_send_a_digest_once() {
    let s = Setup::new().await;
    s.queue("Acme").await;
    let (a, b) = (s.mailer(), s.mailer());

    let (sent_a, sent_b) = tokio::join!(s.round(&a, NOW), s.round(&b, NOW));

    assert_eq!(sent_a + sent_b, 1);
    assert_eq!(s.mails().len(), 1);
}
