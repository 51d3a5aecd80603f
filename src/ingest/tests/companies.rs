//! Company and person batches: merging, moved domains, pending targets taken in record order.

use serde_json::json;

use super::{companies, count, databases, text, texts};
use crate::domain::company::PersonRecord;
use crate::ingest::{RecordError, ingest_companies, ingest_people};
use crate::service::teams::{TeamRequest, create_team};
use crate::store::Db;

/// A monitor with pending targets `(kind, value, registrable domain)`; returns the monitor id.
async fn monitor_with_targets(db: &Db, targets: &[(&str, &str, Option<&str>)]) -> String {
    let request = TeamRequest {
        name: "Team".into(),
        owner_email: "owner@example.com".into(),
        ..TeamRequest::default()
    };
    let team = create_team(db, request).await.expect("team");
    let monitor = crate::store::new_id();
    crate::on_db!(db, |pool| {
        sqlx::query(
            "INSERT INTO monitors (id, team_id, created_by, name, signal_types, active, \
             created_at, updated_at) VALUES ($1, $2, $3, 'm', '[]', TRUE, 1, 1)",
        )
        .bind(&monitor)
        .bind(&team.team_id)
        .bind(&team.user_id)
        .execute(pool)
        .await
        .expect("monitor");
        for (kind, value, registrable) in targets {
            sqlx::query(
                "INSERT INTO targets (id, monitor_id, team_id, kind, value, registrable_domain, \
                 created_at) VALUES ($1, $2, $3, $4, $5, $6, 1)",
            )
            .bind(crate::store::new_id())
            .bind(&monitor)
            .bind(&team.team_id)
            .bind(kind)
            .bind(value)
            .bind(registrable)
            .execute(pool)
            .await
            .expect("target");
        }
    });
    monitor
}

async fn target_company(db: &Db, value: &str) -> Option<String> {
    let sql = format!("SELECT company_id FROM targets WHERE value = '{value}'");
    texts(db, &sql).await.into_iter().next().flatten()
}

#[tokio::test]
async fn records_for_one_company_in_a_batch_merge_like_consecutive_upserts() {
    for t in databases().await {
        let db = &t.db;
        let batch = [
            json!({ "name": "First", "website": "https://a.com", "industry": "Robots" }),
            json!({ "name": "Second", "website": "www.a.com/", "description": "Builds robots" }),
        ];
        let report = ingest_companies(db, companies(&batch))
            .await
            .expect("stored");

        assert_eq!(report.upserted, 2);
        assert_eq!(report.ids[0], report.ids[1]);
        assert_eq!(count(db, "SELECT COUNT(*) FROM companies").await, 1);
        let row = "SELECT name || '/' || industry || '/' || description FROM companies";
        assert_eq!(text(db, row).await, "Second/Robots/Builds robots");
    }
}

#[tokio::test]
async fn a_company_moved_to_another_domain_is_not_found_by_the_old_one_later_in_the_batch() {
    for t in databases().await {
        let db = &t.db;
        let moving = json!({ "id": "c1", "name": "Mover", "website": "old.com" });
        ingest_companies(db, companies(&[moving]))
            .await
            .expect("stored");
        let batch = [
            json!({ "id": "c1", "name": "Mover", "website": "new.com" }),
            json!({ "name": "Newcomer", "website": "https://old.com" }),
            json!({ "name": "Mover again", "website": "new.com" }),
        ];
        let report = ingest_companies(db, companies(&batch))
            .await
            .expect("stored");

        assert_eq!(report.ids[0], "c1");
        assert_ne!(report.ids[1], "c1", "old.com names a new company now");
        assert_eq!(report.ids[2], "c1");
        assert_eq!(
            text(db, "SELECT name FROM companies WHERE id = 'c1'").await,
            "Mover again"
        );
        assert_eq!(count(db, "SELECT COUNT(*) FROM companies").await, 2);
    }
}

#[tokio::test]
async fn the_first_company_of_a_batch_that_matches_a_pending_target_takes_it() {
    for t in databases().await {
        let db = &t.db;
        let targets = [
            ("domain", "x.com", Some("x.com")),
            ("domain", "shop.z.co.uk", Some("z.co.uk")),
            ("linkedin_company", "linkedin.com/company/yonder", None),
            ("domain", "nobody.org", Some("nobody.org")),
        ];
        monitor_with_targets(db, &targets).await;
        let batch = [
            json!({ "id": "p", "name": "P", "website": "https://eu.z.co.uk" }),
            json!({ "id": "q", "name": "Q", "linkedinUrl": "https://www.linkedin.com/company/yonder/" }),
            json!({ "id": "r", "name": "R", "website": "x.com" }),
            json!({ "id": "s", "name": "S", "website": "www.x.com" }),
        ];
        ingest_companies(db, companies(&batch))
            .await
            .expect("stored");

        assert_eq!(
            target_company(db, "shop.z.co.uk").await.as_deref(),
            Some("p")
        );
        assert_eq!(
            target_company(db, "linkedin.com/company/yonder")
                .await
                .as_deref(),
            Some("q")
        );
        assert_eq!(target_company(db, "x.com").await.as_deref(), Some("r"));
        assert_eq!(target_company(db, "nobody.org").await, None);
        let resolved = "SELECT COUNT(*) FROM targets WHERE resolved_at IS NOT NULL";
        assert_eq!(count(db, resolved).await, 3);
    }
}

#[tokio::test]
async fn a_person_repeated_in_a_batch_ends_at_the_last_company_and_the_target_follows() {
    for t in databases().await {
        let db = &t.db;
        let batch = [
            json!({ "id": "c1", "name": "One", "website": "one.com" }),
            json!({ "id": "c2", "name": "Two", "website": "two.com" }),
        ];
        ingest_companies(db, companies(&batch))
            .await
            .expect("companies");
        monitor_with_targets(db, &[("linkedin_profile", "linkedin.com/in/jo", None)]).await;
        let person = |value: serde_json::Value| -> Result<PersonRecord, RecordError> {
            Ok(serde_json::from_value(value).expect("a person record"))
        };
        let people = vec![
            person(
                json!({ "linkedinUrl": "https://www.linkedin.com/in/jo", "name": "Jo",
                           "companyId": "c1" }),
            ),
            person(json!({ "linkedinUrl": "https://example.com/jo", "companyId": "c1" })),
            person(
                json!({ "linkedinUrl": "linkedin.com/in/jo/", "title": "CTO",
                           "companyWebsite": "https://two.com" }),
            ),
            person(json!({ "linkedinUrl": "linkedin.com/in/al", "companyId": "nowhere" })),
        ];
        let report = ingest_people(db, people).await.expect("people");

        assert_eq!(report.upserted, 2);
        assert_eq!(report.ids[0], report.ids[1]);
        let invalid: Vec<usize> = report.invalid.iter().map(|e| e.index).collect();
        assert_eq!(invalid, [1, 3]);
        let row = "SELECT name || '/' || title || '/' || company_id FROM people";
        assert_eq!(text(db, row).await, "Jo/CTO/c2");
        assert_eq!(
            target_company(db, "linkedin.com/in/jo").await.as_deref(),
            Some("c2")
        );
    }
}
