//! Companies written set-wise: the identifiers of the companies a batch names, read with one query
//! per kind of identifier, and multi-row inserts and updates with the upsert's merge rule (fields
//! a record leaves out keep their stored value).

use sqlx::FromRow;

use super::bulk::{RowStatement, Val, execute_rows, fetch_rows, select_in};
use super::companies::normalize_country;
use super::{StoreError, Tx};
use crate::domain::company::CompanyRecord;
use crate::domain::target::{normalize_domain, normalize_linkedin_company, registrable_domain};

/// The lookup keys derived from a company record's website and LinkedIn URL.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DerivedKeys {
    pub domain: Option<String>,
    pub registrable: Option<String>,
    pub linkedin_key: Option<String>,
}

impl DerivedKeys {
    /// The keys of `record`: bare website domain, its registrable domain, normalized LinkedIn page.
    pub fn of(record: &CompanyRecord) -> DerivedKeys {
        let domain = record.website.as_deref().and_then(normalize_domain);
        let registrable = domain.as_deref().and_then(registrable_domain);
        let linkedin_key = record
            .linkedin_url
            .as_deref()
            .and_then(normalize_linkedin_company);
        DerivedKeys {
            domain,
            registrable,
            linkedin_key,
        }
    }
}

/// A company about to be written: its id, the record (several records for one company merged,
/// later values first) and the derived keys (merged the same way).
#[derive(Debug, Clone)]
pub struct CompanyRow {
    pub id: String,
    pub record: CompanyRecord,
    pub keys: DerivedKeys,
}

impl CompanyRow {
    /// Folds a later record for the same company into this one, as two upserts in a row would.
    pub fn merge(&mut self, later: CompanyRecord, keys: DerivedKeys) {
        let r = &mut self.record;
        r.name = later.name;
        macro_rules! newer {
            ($($field:ident),*) => { $( r.$field = later.$field.or(r.$field.take()); )* };
        }
        newer!(
            slug,
            description,
            website,
            linkedin_url,
            twitter_url,
            logo_url,
            industry,
            subcategory,
            founded_year,
            headquarters_country,
            employee_count,
            categories,
            keywords,
            specialties,
            growth_info
        );
        if let Some(boards) = later.job_boards {
            let all = r.job_boards.get_or_insert_with(Vec::new);
            for board in boards {
                if !all.contains(&board) {
                    all.push(board);
                }
            }
        }
        let k = &mut self.keys;
        k.domain = keys.domain.or(k.domain.take());
        k.registrable = keys.registrable.or(k.registrable.take());
        k.linkedin_key = keys.linkedin_key.or(k.linkedin_key.take());
    }
}

/// The identifiers of one stored company, as the batch lookups need them.
#[derive(Debug, Clone, FromRow)]
pub struct CompanyKeyRow {
    pub id: String,
    pub domain: Option<String>,
    pub linkedin_key: Option<String>,
    pub created_at: i64,
}

/// Which identifier a lookup goes by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyColumn {
    Id,
    Domain,
    LinkedinKey,
}

/// The stored companies whose `column` is one of `values`.
pub async fn companies_by(
    tx: &mut Tx,
    column: KeyColumn,
    values: &[&str],
) -> Result<Vec<CompanyKeyRow>, StoreError> {
    let sql = match column {
        KeyColumn::Id => "SELECT id, domain, linkedin_key, created_at FROM companies WHERE id {in}",
        KeyColumn::Domain => {
            "SELECT id, domain, linkedin_key, created_at FROM companies WHERE domain {in}"
        }
        KeyColumn::LinkedinKey => {
            "SELECT id, domain, linkedin_key, created_at FROM companies WHERE linkedin_key {in}"
        }
    };
    select_in(tx, sql, &[], values).await
}

const COLUMNS: &str = "id, name, slug, description, website, domain, registrable_domain, \
     linkedin_url, linkedin_key, twitter_url, logo_url, industry, subcategory, founded_year, \
     headquarters_country, employee_count, categories, keywords, specialties, growth_info, \
     created_at, updated_at";

/// The scalar columns an update merges (`COALESCE(new, stored)`), in value order from `slug`.
const MERGED: [&str; 14] = [
    "slug",
    "description",
    "website",
    "domain",
    "registrable_domain",
    "linkedin_url",
    "linkedin_key",
    "twitter_url",
    "logo_url",
    "industry",
    "subcategory",
    "founded_year",
    "headquarters_country",
    "employee_count",
];

/// Inserts companies not stored yet, in id order (two ingests inserting the same ids lock them
/// in the same order); returns the ids this statement inserted. Should one appear meanwhile (a
/// concurrent ingest of the same id), it is updated by the merge rule instead, and is not among
/// the ids returned; a list left out (stored as `[]`) then keeps its value.
pub async fn insert_companies(
    tx: &mut Tx,
    rows: &[CompanyRow],
    now: i64,
) -> Result<Vec<String>, StoreError> {
    if rows.is_empty() {
        return Ok(Vec::new());
    }
    let mut set: Vec<String> = vec!["name = excluded.name".into()];
    set.extend(
        MERGED
            .iter()
            .map(|c| format!("{c} = COALESCE(excluded.{c}, companies.{c})")),
    );
    set.extend(["categories", "keywords", "specialties"].iter().map(|c| {
        format!("{c} = CASE WHEN excluded.{c} = '[]' THEN companies.{c} ELSE excluded.{c} END")
    }));
    set.push("growth_info = COALESCE(excluded.growth_info, companies.growth_info)".into());
    set.push("updated_at = excluded.updated_at".into());
    let head = format!("INSERT INTO companies ({COLUMNS}) VALUES ");
    let postgres = matches!(tx, Tx::Postgres(_));
    // `xmax` is 0 on a row version this statement inserted, not on one it updated.
    let returning = if postgres {
        " RETURNING id, (xmax = 0) AS inserted"
    } else {
        ""
    };
    let tail = format!(
        " ON CONFLICT (id) DO UPDATE SET {}{returning}",
        set.join(", ")
    );
    let stmt = RowStatement {
        head: &head,
        template: "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, COALESCE(?, '[]'), \
                   COALESCE(?, '[]'), COALESCE(?, '[]'), ?, ?, ?)",
        tail: &tail,
    };
    let mut sorted: Vec<&CompanyRow> = rows.iter().collect();
    sorted.sort_unstable_by(|a, b| a.id.cmp(&b.id));
    let encoded: Vec<Encoded> = sorted.iter().map(|row| Encoded::of(&row.record)).collect();
    let mut values = Vec::with_capacity(rows.len() * 22);
    for (row, enc) in sorted.iter().zip(&encoded) {
        push_row(&mut values, row, enc, now);
    }
    if !postgres {
        // SQLite writers hold the database's write lock: nothing was inserted meanwhile.
        execute_rows(tx, &stmt, &values).await?;
        return Ok(rows.iter().map(|row| row.id.clone()).collect());
    }
    let written: Vec<(String, bool)> = fetch_rows(tx, &stmt, &values).await?;
    Ok(written
        .into_iter()
        .filter(|(_, inserted)| *inserted)
        .map(|(id, _)| id)
        .collect())
}

/// Updates stored companies by the merge rule: fields a record leaves out keep their value.
pub async fn update_companies(
    tx: &mut Tx,
    rows: &[CompanyRow],
    now: i64,
) -> Result<u64, StoreError> {
    let mut set: Vec<String> = vec!["name = v.column2".into()];
    let merged = MERGED
        .iter()
        .chain(&["categories", "keywords", "specialties"]);
    set.extend(
        merged
            .chain(&["growth_info"])
            .enumerate()
            .map(|(i, c)| format!("{c} = COALESCE(v.column{}, companies.{c})", i + 3)),
    );
    set.push("updated_at = v.column22".into());
    let head = format!("UPDATE companies SET {} FROM (VALUES ", set.join(", "));
    let stmt = RowStatement {
        head: &head,
        template: "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        tail: ") AS v WHERE companies.id = v.column1",
    };
    write(tx, &stmt, rows, now).await
}

/// Text forms of a row's non-text fields, kept alive while the statement binds them.
struct Encoded {
    country: Option<String>,
    lists: [Option<String>; 3],
    growth: Option<String>,
}

fn json_list(list: &Option<Vec<String>>) -> Option<String> {
    list.as_ref()
        .map(|items| serde_json::to_string(items).unwrap_or_else(|_| "[]".into()))
}

async fn write(
    tx: &mut Tx,
    stmt: &RowStatement<'_>,
    rows: &[CompanyRow],
    now: i64,
) -> Result<u64, StoreError> {
    let encoded: Vec<Encoded> = rows.iter().map(|row| Encoded::of(&row.record)).collect();
    let mut values = Vec::with_capacity(rows.len() * 22);
    for (row, enc) in rows.iter().zip(&encoded) {
        push_row(&mut values, row, enc, now);
    }
    execute_rows(tx, stmt, &values).await
}

impl Encoded {
    fn of(r: &CompanyRecord) -> Encoded {
        Encoded {
            country: r.headquarters_country.as_deref().map(normalize_country),
            lists: [&r.categories, &r.keywords, &r.specialties].map(json_list),
            growth: r.growth_info.as_ref().map(|g| g.to_string()),
        }
    }
}

/// The values of one row in [`COLUMNS`] order.
fn push_row<'a>(values: &mut Vec<Val<'a>>, row: &'a CompanyRow, enc: &'a Encoded, now: i64) {
    let (r, k) = (&row.record, &row.keys);
    values.extend([Val::text(&row.id), Val::text(&r.name)]);
    values.extend([&r.slug, &r.description, &r.website, &k.domain].map(Val::opt));
    values.extend([&k.registrable, &r.linkedin_url, &k.linkedin_key].map(Val::opt));
    values.extend([&r.twitter_url, &r.logo_url, &r.industry, &r.subcategory].map(Val::opt));
    values.extend([Val::Int(r.founded_year), Val::opt(&enc.country)]);
    values.push(Val::Int(r.employee_count));
    values.extend(enc.lists.iter().map(Val::opt));
    values.extend([
        Val::opt(&enc.growth),
        Val::Int(Some(now)),
        Val::Int(Some(now)),
    ]);
}
