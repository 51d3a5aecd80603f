//! Signals of the four kinds: stored rows, the companies each concerns, their tags and search
//! documents, written set-wise (multi-row statements) for a whole batch.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use super::bulk::{RowStatement, Val, execute_in, fetch_rows, fetch_rows_planned_once};
use super::bulk_chain::Chain;
use super::bulk_links::{LinkRows, StagedLinks, links_of};
use super::bulk_stage::{StagedDoc, StagedWrites};
use super::search::{SearchDoc, index_signals};
use super::{StoreError, Tx};
use crate::on_tx;

/// A signal row ready to be stored.
#[derive(Debug, Clone, Default)]
pub struct SignalRow {
    pub id: String,
    pub kind: &'static str,
    pub company_id: String,
    pub other_company_id: Option<String>,
    pub occurred_at: i64,
    pub discovered_at: i64,
    pub round_type: Option<String>,
    pub round_flavor: Option<String>,
    pub amount: Option<i64>,
    pub currency: Option<String>,
    pub verification_status: Option<String>,
    pub country: Option<String>,
    pub region: Option<String>,
    pub city: Option<String>,
    pub source: Option<String>,
    pub applicants: Option<i64>,
    pub sort_text: Option<String>,
    pub title: Option<String>,
    pub person_key: Option<String>,
    /// The record's own fields as JSON; shared, so that binding it copies nothing.
    pub payload: Arc<str>,
    pub tags: Vec<String>,
    /// Searchable words of the signal's own text.
    pub search_body: Arc<str>,
    /// Searchable words of a job's description.
    pub search_description: Arc<str>,
    /// The place and role texts of the substring filters, for the kinds they serve (postings and
    /// job changes; see `store::search`).
    pub search_substrings: Option<(String, String)>,
}

impl SignalRow {
    /// The search documents of the row stored as `rowid`.
    fn search_doc(&self, rowid: i64) -> SearchDoc<'_> {
        SearchDoc {
            rowid,
            body: &self.search_body,
            description: &self.search_description,
            substrings: self
                .search_substrings
                .as_ref()
                .map(|(place, role)| (place.as_str(), role.as_str())),
        }
    }
}

const COLUMNS: &str = "id, kind, company_id, other_company_id, occurred_at, discovered_at, \
     round_type, round_flavor, amount, currency, verification_status, country, region, city, \
     source, applicants, sort_text, title, person_key, payload, created_at, company_country";

/// The last value of a row: the company's headquarters country, copied onto the signal for the
/// country filters (a trigger of migration 0011 follows later changes of the company's country).
const COMPANY_COUNTRY: &str = "(SELECT hq.headquarters_country FROM companies hq WHERE hq.id = ?)";

const UPDATE: &str = " ON CONFLICT (id) DO UPDATE SET kind = excluded.kind, \
     company_id = excluded.company_id, other_company_id = excluded.other_company_id, \
     occurred_at = excluded.occurred_at, discovered_at = excluded.discovered_at, \
     round_type = excluded.round_type, round_flavor = excluded.round_flavor, \
     amount = excluded.amount, currency = excluded.currency, \
     verification_status = excluded.verification_status, country = excluded.country, \
     region = excluded.region, city = excluded.city, source = excluded.source, \
     applicants = excluded.applicants, sort_text = excluded.sort_text, title = excluded.title, \
     person_key = excluded.person_key, payload = excluded.payload, \
     company_country = excluded.company_country";

/// Inserts or replaces signals (each id at most once) with the companies they concern, their
/// tags and search documents; the company and tag rows of those already stored are replaced.
/// `links` says where those rows go: a bulk load on SQLite stages them (see `bulk_links`),
/// collected in `search` when the load has a stage, else in the loaded database; otherwise they
/// are added to `chain`, for the caller to run before the commit. `search` says where their
/// search documents go: written in the transaction, or collected for a bulk load's stage (see
/// `bulk_stage`). Returns the ids this transaction inserted (the upsert tells them from the rows
/// it updated; on PostgreSQL one a concurrent ingest inserted first was updated here, and must
/// not be announced again).
pub async fn write_signals<'a>(
    tx: &mut Tx,
    rows: &[&'a SignalRow],
    links: LinkRows,
    search: &mut StagedWrites,
    now: i64,
    chain: &mut Chain<'a>,
) -> Result<HashSet<String>, StoreError> {
    let staged = match links {
        LinkRows::Staged(batch) => Some(batch),
        LinkRows::Direct => None,
    };
    // In id order: two ingests writing the same signals lock them in the same order.
    let mut rows = rows.to_vec();
    rows.sort_unstable_by(|a, b| a.id.cmp(&b.id));
    let Upserted { inserted, rowids } = upsert_rows(tx, &rows, staged.is_some(), now).await?;
    // The signals the upsert replaced (it updated their rows).
    let replaced: Vec<&str> = rows
        .iter()
        .map(|row| row.id.as_str())
        .filter(|id| !inserted.contains(*id))
        .collect();
    if staged.is_none() {
        // Their company and tag rows go: the new ones are written after.
        for sql in [
            "DELETE FROM signal_companies WHERE signal_id {in}",
            "DELETE FROM signal_tags WHERE signal_id {in}",
        ] {
            execute_in(tx, sql, &[], &replaced).await?;
        }
    }
    match staged {
        // A load with a stage hands the batch's company and tag rows to it; one without
        // stages them in the loaded database at once.
        Some(batch) => {
            let mut links = StagedLinks::new(batch, &replaced);
            rows.iter().for_each(|row| links.add(row));
            match search {
                StagedWrites::Staged(work) => work.links = Some(links),
                StagedWrites::Direct => links.write(tx).await?,
            }
        }
        None => insert_companies_and_tags(&rows, chain),
    }
    let mut added: Vec<SearchDoc<'_>> = Vec::with_capacity(rows.len());
    let mut replaced_docs: Vec<SearchDoc<'_>> = Vec::new();
    // SQLite's documents are keyed by the rows' rowids (PostgreSQL's vectors went with the rows).
    if let Tx::Sqlite(_) = tx {
        for row in &rows {
            let rowid = *rowids.get(row.id.as_str()).ok_or_else(|| {
                StoreError::Corrupt(format!("the upsert of signal {} returned no rowid", row.id))
            })?;
            match inserted.contains(row.id.as_str()) {
                true => added.push(row.search_doc(rowid)),
                false => replaced_docs.push(row.search_doc(rowid)),
            }
        }
    }
    match search {
        StagedWrites::Direct => {
            index_signals(tx, &added, false).await?;
            index_signals(tx, &replaced_docs, true).await?;
        }
        StagedWrites::Staged(work) => {
            work.docs
                .extend(added.iter().map(|d| StagedDoc::of(d, false)));
            work.docs
                .extend(replaced_docs.iter().map(|d| StagedDoc::of(d, true)));
        }
    }
    Ok(inserted)
}

/// What [`upsert_rows`] wrote.
struct Upserted {
    /// The ids inserted (see [`write_signals`]).
    inserted: HashSet<String>,
    /// The rowid of each row written (SQLite, whose search documents are keyed by it; empty on
    /// PostgreSQL, whose search vectors are columns of the row).
    rowids: HashMap<String, i64>,
}

/// Upserts the rows; in a bulk load (SQLite), the company's country read off the load's
/// covering index of companies (`bulk_load::COUNTRY_INDEX`).
async fn upsert_rows(
    tx: &mut Tx,
    rows: &[&SignalRow],
    bulk: bool,
    now: i64,
) -> Result<Upserted, StoreError> {
    let postgres = matches!(tx, Tx::Postgres(_));
    let mut values = Vec::with_capacity(rows.len() * 25);
    for s in rows {
        push_row(&mut values, s, now, postgres);
    }
    let plain = format!(
        "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, {COMPANY_COUNTRY}"
    );
    let (head, template, tail) = if postgres {
        (
            format!("INSERT INTO signals ({COLUMNS}, search_tsv, description_tsv) VALUES "),
            format!("{plain}, to_tsvector('simple', ?), to_tsvector('simple', ?))"),
            // `xmax` is 0 on a row version this statement inserted, not on one it updated.
            format!(
                "{UPDATE}, search_tsv = excluded.search_tsv, \
                 description_tsv = excluded.description_tsv \
                 RETURNING id, (xmax = 0) AS inserted"
            ),
        )
    } else {
        // One join for the company's country, not one scalar subquery a row: SQLite keeps each
        // subquery's cursor open until the statement ends, and opening a cursor walks every
        // cursor open on the same table, so a statement of n rows cost n² (a quarter of the
        // import's CPU, perf). `WHERE true` keeps the upsert clause from reading as a join's.
        // A row's values: every column but the last, then the company id to join on.
        let sent = COLUMNS.split(',').count() - 1;
        let companies = if bulk {
            format!(
                "companies hq INDEXED BY {}",
                super::bulk_load::COUNTRY_INDEX
            )
        } else {
            "companies hq".to_string()
        };
        let values: Vec<String> = (1..=sent).map(|n| format!("v.column{n}")).collect();
        (
            format!(
                "INSERT INTO signals ({COLUMNS}) SELECT {}, hq.headquarters_country FROM (VALUES ",
                values.join(", ")
            ),
            format!("({}?)", "?, ".repeat(sent)),
            format!(
                ") AS v LEFT JOIN {companies} ON hq.id = v.column{} WHERE true{UPDATE} \
                 RETURNING id, rowid",
                sent + 1
            ),
        )
    };
    let stmt = RowStatement {
        head: &head,
        template: &template,
        tail: &tail,
    };
    if rows.is_empty() {
        return Ok(Upserted {
            inserted: HashSet::new(),
            rowids: HashMap::new(),
        });
    }
    if postgres {
        // An insert of one row each from arrays, one index look-up of its company each: the
        // same plan for every batch, so planned once.
        let written: Vec<(String, bool)> = fetch_rows_planned_once(tx, &stmt, &values).await?;
        return Ok(Upserted {
            inserted: written
                .into_iter()
                .filter(|(_, inserted)| *inserted)
                .map(|(id, _)| id)
                .collect(),
            rowids: HashMap::new(),
        });
    }
    // A row the upsert inserts takes a rowid above every stored one (SQLite gives a new row the
    // largest rowid plus one); one it updates keeps its own. Writers hold the database's write
    // lock, so the largest rowid read first is the one the inserts count from.
    let largest: i64 = on_tx!(tx, |conn| sqlx::query_scalar(
        "SELECT COALESCE(MAX(rowid), 0) FROM signals"
    )
    .fetch_one(conn)
    .await)?;
    let rowids: Vec<(String, i64)> = fetch_rows(tx, &stmt, &values).await?;
    Ok(Upserted {
        inserted: rowids
            .iter()
            .filter(|(_, rowid)| *rowid > largest)
            .map(|(id, _)| id.clone())
            .collect(),
        rowids: rowids.into_iter().collect(),
    })
}

/// The values of one row in [`COLUMNS`] order (the company id again for `company_country`); on
/// PostgreSQL then the four search texts.
fn push_row<'a>(values: &mut Vec<Val<'a>>, s: &'a SignalRow, now: i64, postgres: bool) {
    let ids = [&s.id, &s.company_id].map(|v| Val::text(v));
    values.extend([
        ids[0],
        Val::text(s.kind),
        ids[1],
        Val::opt(&s.other_company_id),
    ]);
    values.extend([
        Val::Int(Some(s.occurred_at)),
        Val::Int(Some(s.discovered_at)),
    ]);
    values.extend([&s.round_type, &s.round_flavor].map(Val::opt));
    values.push(Val::Int(s.amount));
    values.extend([&s.currency, &s.verification_status].map(Val::opt));
    values.extend([&s.country, &s.region, &s.city, &s.source].map(Val::opt));
    values.push(Val::Int(s.applicants));
    values.extend([&s.sort_text, &s.title, &s.person_key].map(Val::opt));
    values.extend([Val::shared(&s.payload), Val::Int(Some(now)), ids[1]]);
    if postgres {
        values.extend([
            Val::shared(&s.search_body),
            Val::shared(&s.search_description),
        ]);
    }
}

const COMPANY_LINKS: RowStatement<'static> = RowStatement {
    head: "INSERT INTO signal_companies (signal_id, kind, company_id, occurred_at) VALUES ",
    template: "(?, ?, ?, ?)",
    tail: " ON CONFLICT DO NOTHING",
};

const TAG_LINKS: RowStatement<'static> = RowStatement {
    head: "INSERT INTO signal_tags (signal_id, kind, tag) VALUES ",
    template: "(?, ?, ?)",
    tail: " ON CONFLICT DO NOTHING",
};

/// One row per company a signal concerns (its own, and the other side when distinct), and one
/// per distinct tag, added to `chain`, which writes them into their tables at the end of the
/// transaction (nothing in it reads them before).
fn insert_companies_and_tags<'a>(rows: &[&'a SignalRow], chain: &mut Chain<'a>) {
    let mut companies = Vec::with_capacity(rows.len() * 5);
    let mut tags = Vec::new();
    for s in rows {
        let (linked, tagged) = links_of(s);
        for company_id in linked {
            companies.extend([Val::Text(Some(&s.id)), Val::Text(Some(s.kind))]);
            companies.extend([Val::Text(Some(company_id)), Val::Int(Some(s.occurred_at))]);
        }
        for tag in tagged {
            tags.extend([Val::Text(Some(&s.id)), Val::Text(Some(s.kind))]);
            tags.push(Val::Text(Some(tag)));
        }
    }
    chain.insert(COMPANY_LINKS, companies);
    chain.insert(TAG_LINKS, tags);
}
