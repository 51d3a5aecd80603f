//! A Form D filing's structured document (`primary_doc.xml`): the issuer and the offering.

use chrono::NaiveDate;
use serde::Deserialize;

use super::text::decode;

/// What a Form D says that a funding round needs.
#[derive(Debug, Clone, PartialEq)]
pub struct FormD {
    /// `D` or `D/A`.
    pub submission_type: String,
    pub issuer: Issuer,
    /// The industry group, e.g. `Other Technology` or `Pooled Investment Fund`.
    pub industry_group: Option<String>,
    /// The date of the first sale; `None` when it is yet to occur or not given.
    pub first_sale: Option<NaiveDate>,
    pub offering_amount: Amount,
    pub amount_sold: Amount,
    /// On an amendment: the accession number of the filing it amends.
    pub previous_accession: Option<String>,
}

/// The company raising the money.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Issuer {
    pub cik: String,
    pub name: String,
    pub city: Option<String>,
    /// The EDGAR state-or-country code (`TX`, or a foreign code such as `X0`).
    pub state_or_country: Option<String>,
    /// Its description (`TEXAS`, `UNITED KINGDOM`).
    pub state_or_country_description: Option<String>,
    pub year_of_incorporation: Option<i32>,
}

/// An offering amount: a number of dollars, `Indefinite`, or not given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Amount {
    Dollars(i64),
    Indefinite,
    Missing,
}

impl Amount {
    fn parse(raw: Option<&str>) -> Amount {
        let Some(raw) = raw.map(str::trim).filter(|r| !r.is_empty()) else {
            return Amount::Missing;
        };
        if raw.eq_ignore_ascii_case("indefinite") {
            return Amount::Indefinite;
        }
        let digits: String = raw.chars().filter(|c| *c != ',' && *c != '$').collect();
        match digits.parse::<f64>() {
            Ok(value) if value.is_finite() && value >= 0.0 => Amount::Dollars(value.round() as i64),
            _ => Amount::Missing,
        }
    }

    /// The number of dollars, when one is given.
    pub fn dollars(self) -> Option<i64> {
        match self {
            Amount::Dollars(value) => Some(value),
            _ => None,
        }
    }
}

impl FormD {
    /// True when the issuer is a pooled investment fund (skipped: a fund raising money is not a
    /// company's funding round).
    pub fn is_pooled_fund(&self) -> bool {
        self.industry_group
            .as_deref()
            .is_some_and(|g| g.trim().eq_ignore_ascii_case("Pooled Investment Fund"))
    }

    /// True for an amendment (`D/A`).
    pub fn is_amendment(&self) -> bool {
        self.submission_type.trim().eq_ignore_ascii_case("D/A")
    }

    /// The round's amount: the total sold when anything was sold, else the offering amount when
    /// it is a figure; none for an indefinite offering of which nothing is sold yet.
    pub fn round_amount(&self) -> Option<i64> {
        match self.amount_sold.dollars() {
            Some(sold) if sold > 0 => Some(sold),
            _ => self
                .offering_amount
                .dollars()
                .filter(|offered| *offered > 0),
        }
    }
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Submission {
    submission_type: Option<String>,
    primary_issuer: Option<PrimaryIssuer>,
    offering_data: Option<OfferingData>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct PrimaryIssuer {
    cik: Option<String>,
    entity_name: Option<String>,
    issuer_address: Option<Address>,
    year_of_inc: Option<Value>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Address {
    city: Option<String>,
    state_or_country: Option<String>,
    state_or_country_description: Option<String>,
}

#[derive(Deserialize)]
struct Value {
    value: Option<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct OfferingData {
    industry_group: Option<IndustryGroup>,
    type_of_filing: Option<TypeOfFiling>,
    offering_sales_amounts: Option<SalesAmounts>,
    previous_accession_number: Option<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct IndustryGroup {
    industry_group_type: Option<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct TypeOfFiling {
    new_or_amendment: Option<NewOrAmendment>,
    date_of_first_sale: Option<Value>,
    previous_accession_number: Option<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct NewOrAmendment {
    previous_accession_number: Option<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct SalesAmounts {
    total_offering_amount: Option<String>,
    total_amount_sold: Option<String>,
}

/// Parses a `primary_doc.xml`. A document without an issuer name or CIK is refused: nothing can
/// be attributed to it.
pub fn parse_filing(body: &[u8]) -> Result<FormD, String> {
    let text = decode(body)?;
    let doc: Submission = quick_xml::de::from_str(&text)
        .map_err(|e| format!("the filing is not a Form D document: {e}"))?;
    let issuer = doc
        .primary_issuer
        .ok_or("the filing names no primary issuer")?;
    let name = clean(issuer.entity_name).ok_or("the filing's issuer has no name")?;
    let cik = clean(issuer.cik).ok_or("the filing's issuer has no CIK")?;
    let address = issuer.issuer_address;
    let offering = doc.offering_data;
    let filing = offering.as_ref().and_then(|o| o.type_of_filing.as_ref());
    let amounts = offering
        .as_ref()
        .and_then(|o| o.offering_sales_amounts.as_ref());
    let previous = filing
        .and_then(|f| f.new_or_amendment.as_ref())
        .and_then(|n| n.previous_accession_number.clone())
        .or_else(|| filing.and_then(|f| f.previous_accession_number.clone()))
        .or_else(|| {
            offering
                .as_ref()
                .and_then(|o| o.previous_accession_number.clone())
        });
    Ok(FormD {
        submission_type: clean(doc.submission_type).unwrap_or_else(|| "D".to_string()),
        issuer: Issuer {
            cik,
            name,
            city: address.as_ref().and_then(|a| clean(a.city.clone())),
            state_or_country: address
                .as_ref()
                .and_then(|a| clean(a.state_or_country.clone())),
            state_or_country_description: address
                .as_ref()
                .and_then(|a| clean(a.state_or_country_description.clone())),
            year_of_incorporation: issuer
                .year_of_inc
                .and_then(|y| y.value)
                .and_then(|y| y.trim().parse().ok()),
        },
        industry_group: offering
            .as_ref()
            .and_then(|o| o.industry_group.as_ref())
            .and_then(|g| clean(g.industry_group_type.clone())),
        first_sale: filing
            .and_then(|f| f.date_of_first_sale.as_ref())
            .and_then(|d| d.value.as_deref())
            .and_then(|d| NaiveDate::parse_from_str(d.trim(), "%Y-%m-%d").ok()),
        offering_amount: Amount::parse(amounts.and_then(|a| a.total_offering_amount.as_deref())),
        amount_sold: Amount::parse(amounts.and_then(|a| a.total_amount_sold.as_deref())),
        previous_accession: clean(previous),
    })
}

fn clean(text: Option<String>) -> Option<String> {
    text.map(|t| t.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|t| !t.is_empty())
}

#[cfg(test)]
mod tests;
