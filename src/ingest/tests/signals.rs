//! Signal batches: repeated ids, companies created once per batch, files read in batches.

use serde_json::{Value, json};

use super::{companies, count, databases, records, text, texts};
use crate::domain::signal_type::SignalType;
use crate::ingest::files::{FileKind, Loading, import_in_batches};
use crate::ingest::ingest_companies;
use crate::ingest::signals::ingest_signals;
use crate::store::Db;

const ACME: &str = "c0000000-0000-4000-8000-000000000001";

async fn with_acme(db: &Db) {
    let acme = json!({ "id": ACME, "name": "Acme", "website": "https://acme.com" });
    ingest_companies(db, companies(&[acme]))
        .await
        .expect("company");
}

fn round(id: &str, amount: i64, round: &str, investor: &str) -> Value {
    json!({
        "signalId": id, "companyId": ACME, "occurredAt": "2025-05-05T12:00:00Z",
        "roundType": round, "amount": amount, "investors": [{ "name": investor }]
    })
}

/// Ids of the hiring signals whose description has `word`, through the search index.
async fn described_by(db: &Db, word: &str) -> Vec<Option<String>> {
    let sql = match db {
        Db::Sqlite(_) => format!(
            "SELECT id FROM signals WHERE rowid IN (SELECT rowid FROM signal_search \
             WHERE signal_search MATCH 'description : {word}') ORDER BY id"
        ),
        Db::Postgres(_) => format!(
            "SELECT id FROM signals WHERE description_tsv @@ to_tsquery('simple', '{word}') \
             ORDER BY id"
        ),
    };
    texts(db, &sql).await
}

#[tokio::test]
async fn a_repeated_id_in_one_batch_is_inserted_once_then_updated_and_the_last_record_wins() {
    for t in databases().await {
        let db = &t.db;
        with_acme(db).await;
        let (a, b) = (
            "f0000000-0000-4000-8000-00000000000a",
            "f0000000-0000-4000-8000-00000000000b",
        );
        let first = ingest_signals(
            db,
            SignalType::FundingRound,
            records(&[round(b, 1, "seed", "X")]),
        );
        assert_eq!(first.await.expect("stored").inserted, 1);

        let batch = [
            round(a, 1, "seed", "Early"),
            round(b, 2, "seed", "X"),
            round(a, 3, "series a", "Late"),
        ];
        let report = ingest_signals(db, SignalType::FundingRound, records(&batch))
            .await
            .expect("stored");

        assert_eq!((report.inserted, report.updated), (1, 2));
        assert_eq!(report.ids, [a, b, a]);
        assert_eq!(count(db, "SELECT COUNT(*) FROM signals").await, 2);
        let amount = format!("SELECT CAST(amount AS TEXT) FROM signals WHERE id = '{a}'");
        assert_eq!(text(db, &amount).await, "3");
        let tags = format!("SELECT tag FROM signal_tags WHERE signal_id = '{a}'");
        assert_eq!(texts(db, &tags).await, [Some("investor:late".to_string())]);
        assert_eq!(count(db, "SELECT COUNT(*) FROM signal_companies").await, 2);
    }
}

#[tokio::test]
async fn a_posting_repeated_in_one_batch_is_searchable_by_its_last_description_only() {
    for t in databases().await {
        let db = &t.db;
        with_acme(db).await;
        let id = "b0000000-0000-4000-8000-000000000001";
        let posting = |text: &str| {
            json!({ "id": id, "companyId": ACME, "title": "Engineer",
                    "datePosted": "2025-05-05", "descriptionText": text })
        };
        let batch = [posting("Scala and Spark"), posting("Rust and Tokio")];
        let report = ingest_signals(db, SignalType::Hiring, records(&batch))
            .await
            .expect("stored");

        assert_eq!((report.inserted, report.updated), (1, 1));
        assert_eq!(described_by(db, "rust").await, [Some(id.to_string())]);
        assert!(described_by(db, "scala").await.is_empty());
        let again = ingest_signals(db, SignalType::Hiring, records(&[posting("Go only")]));
        assert_eq!(again.await.expect("stored").updated, 1);
        assert!(described_by(db, "rust").await.is_empty());
        assert_eq!(described_by(db, "go").await, [Some(id.to_string())]);
    }
}

#[tokio::test]
async fn records_naming_the_same_new_company_in_one_batch_create_it_once() {
    for t in databases().await {
        let db = &t.db;
        let batch = [
            json!({ "signalId": "f1", "companyName": "Nova", "companyWebsite": "https://nova.io",
                    "occurredAt": "2025-05-05" }),
            json!({ "signalId": "f2", "companyName": "Nova Labs", "companyWebsite": "www.nova.io",
                    "occurredAt": "2025-05-06" }),
            json!({ "signalId": "f3", "companyName": "Nameless", "occurredAt": "2025-05-07" }),
            json!({ "signalId": "f4", "companyName": "Nameless", "occurredAt": "2025-05-08" }),
        ];
        let report = ingest_signals(db, SignalType::FundingRound, records(&batch))
            .await
            .expect("stored");

        assert_eq!(report.inserted, 4, "{report:?}");
        let names = texts(db, "SELECT name FROM companies ORDER BY name").await;
        let names: Vec<String> = names.into_iter().flatten().collect();
        assert_eq!(
            names,
            ["Nameless", "Nameless", "Nova"],
            "one company per identity"
        );
        let company_of = |id: &str| format!("SELECT company_id FROM signals WHERE id = '{id}'");
        assert_eq!(
            text(db, &company_of("f1")).await,
            text(db, &company_of("f2")).await
        );
        assert_ne!(
            text(db, &company_of("f3")).await,
            text(db, &company_of("f4")).await
        );
    }
}

#[tokio::test]
async fn an_acquirer_created_by_one_record_is_the_company_of_the_next() {
    for t in databases().await {
        let db = &t.db;
        with_acme(db).await;
        let batch = [
            json!({ "signalId": "a1", "companyId": ACME, "occurredAt": "2025-05-05",
                    "acquiringCompany": { "name": "Buyer", "website": "https://buyer.com" } }),
            json!({ "signalId": "a2", "companyWebsite": "buyer.com", "companyName": "Buyer Inc",
                    "acquiringCompanyId": ACME, "occurredAt": "2025-05-06" }),
        ];
        let report = ingest_signals(db, SignalType::Acquisition, records(&batch))
            .await
            .expect("stored");

        assert_eq!(report.inserted, 2, "{report:?}");
        let acquirer = text(db, "SELECT other_company_id FROM signals WHERE id = 'a1'").await;
        let acquired = text(db, "SELECT company_id FROM signals WHERE id = 'a2'").await;
        assert_eq!(acquirer, acquired);
        assert_eq!(count(db, "SELECT COUNT(*) FROM companies").await, 2);
        let sides = "SELECT COUNT(*) FROM signal_companies WHERE signal_id = 'a1'";
        assert_eq!(
            count(db, sides).await,
            2,
            "an acquisition concerns both companies"
        );
    }
}

#[tokio::test]
async fn a_file_read_in_batches_finds_companies_created_by_earlier_batches() {
    for t in databases().await {
        let db = &t.db;
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("funding.ndjson");
        let line = |id: &str, extra: Value| {
            let mut record = json!({ "signalId": id, "occurredAt": "2025-05-05" });
            record
                .as_object_mut()
                .expect("object")
                .extend(extra.as_object().cloned().unwrap_or_default());
            record.to_string()
        };
        let lines = [
            line(
                "s1",
                json!({ "companyName": "Orbit", "companyWebsite": "orbit.dev" }),
            ),
            line(
                "s2",
                json!({ "companyName": "Other", "companyWebsite": "other.dev" }),
            ),
            String::new(),
            line("s3", json!({ "companyWebsite": "https://orbit.dev/about" })),
            line("s4", json!({})),
            line("s1", json!({ "companyWebsite": "orbit.dev", "amount": 7 })),
        ];
        std::fs::write(&path, lines.join("\n")).expect("write");
        let kind = FileKind::Signals(SignalType::FundingRound);

        let report = import_in_batches(db, &path, kind, Loading::with_batch(2), |_| {})
            .await
            .expect("imported");

        assert_eq!((report.records, report.stored, report.invalid), (5, 4, 1));
        assert_eq!(
            report.errors[0].index, 5,
            "numbered by line in the file, from 1, blank lines counted"
        );
        let orbit = "SELECT COUNT(DISTINCT company_id) FROM signals WHERE id IN ('s1', 's3')";
        assert_eq!(count(db, orbit).await, 1);
        assert_eq!(count(db, "SELECT COUNT(*) FROM companies").await, 2);
        assert_eq!(
            text(
                db,
                "SELECT CAST(amount AS TEXT) FROM signals WHERE id = 's1'"
            )
            .await,
            "7"
        );
    }
}
