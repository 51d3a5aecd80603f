//! The local EDGAR of the collectors benchmark: Form D filings in the shapes the SEC serves
//! (the latest-filings Atom feed, one `primary_doc.xml` per filing), published a batch at a
//! time. The issuers are a mix: companies of the imported data set (so the matcher finds
//! them), new companies, every 20th filing a pooled fund and every 20th an amendment of an
//! earlier filing.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, RwLock};

use axum::body::{Body, Bytes};
use axum::extract::{Path, State};
use axum::http::{StatusCode, header};
use axum::response::Response;
use tokio_util::sync::CancellationToken;

/// A company of the data set (in the US, or of no known country) as an issuer.
#[derive(Debug, Clone)]
pub struct KnownIssuer {
    pub name: String,
}

#[derive(Debug, Clone)]
struct Filing {
    accession: String,
    cik: String,
    form: &'static str,
    issuer: String,
}

#[derive(Default)]
struct Shared {
    /// The current feed, rendered.
    feed: RwLock<Bytes>,
    /// `primary_doc.xml` by the accession's folder name (its digits).
    documents: HashMap<String, Bytes>,
    requests: AtomicU64,
}

/// The running EDGAR; stops when dropped.
pub struct LocalEdgar {
    pub base: String,
    filings: Vec<Filing>,
    published: AtomicU64,
    shared: Arc<Shared>,
    stop: CancellationToken,
}

const STATES: &[(&str, &str)] = &[
    ("CA", "CALIFORNIA"),
    ("NY", "NEW YORK"),
    ("TX", "TEXAS"),
    ("MA", "MASSACHUSETTS"),
    ("WA", "WASHINGTON"),
    ("DE", "DELAWARE"),
];

impl LocalEdgar {
    /// Generates `count` filings (issuers taken from `known` in turn for every other filing)
    /// and serves an empty feed until [`LocalEdgar::publish_next`].
    pub async fn start(known: &[KnownIssuer], count: usize) -> anyhow::Result<LocalEdgar> {
        let mut filings = Vec::with_capacity(count);
        let mut documents = HashMap::with_capacity(count);
        for i in 0..count {
            let accession = format!("{:010}-26-{:06}", 9_000_001, i);
            let mut cik = format!("{:010}", 3_000_000 + i);
            let (form, issuer, previous, fund) = match i % 20 {
                0 => ("D", format!("Bench Opportunity Fund {i} LP"), None, true),
                1 if i > 20 => {
                    // An amendment of an offering filed 19 filings earlier, by the same issuer.
                    let earlier: &Filing = &filings[i - 19];
                    cik = earlier.cik.clone();
                    let previous = Some(earlier.accession.clone());
                    ("D/A", earlier.issuer.clone(), previous, false)
                }
                k if k % 2 == 0 && !known.is_empty() => {
                    let issuer = &known[(i / 2) % known.len()];
                    ("D", format!("{}, Inc.", issuer.name), None, false)
                }
                _ => ("D", format!("Benchmark Newco {i} Inc."), None, false),
            };
            let filing = Filing {
                accession,
                cik,
                form,
                issuer,
            };
            let document = primary_doc(&filing, i, previous.as_deref(), fund);
            documents.insert(filing.accession.replace('-', ""), Bytes::from(document));
            filings.push(filing);
        }
        let shared = Arc::new(Shared {
            feed: RwLock::new(Bytes::from(feed(&[]))),
            documents,
            requests: AtomicU64::new(0),
        });
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        let base = format!("http://{}", listener.local_addr()?);
        let router = axum::Router::new()
            .route("/cgi-bin/browse-edgar", axum::routing::get(serve_feed))
            .route(
                "/Archives/edgar/data/{cik}/{folder}/{file}",
                axum::routing::get(serve_document),
            )
            .with_state(shared.clone());
        let stop = CancellationToken::new();
        let cancelled = stop.clone();
        tokio::spawn(async move {
            let _ = axum::serve(listener, router)
                .with_graceful_shutdown(async move { cancelled.cancelled().await })
                .await;
        });
        Ok(LocalEdgar {
            base,
            filings,
            published: AtomicU64::new(0),
            shared,
            stop,
        })
    }

    /// Makes the next `count` filings the feed (newest first); false when none are left.
    pub fn publish_next(&self, count: usize) -> bool {
        let from = self.published.load(Ordering::SeqCst) as usize;
        if from >= self.filings.len() {
            return false;
        }
        let to = (from + count).min(self.filings.len());
        let batch: Vec<&Filing> = self.filings[from..to].iter().rev().collect();
        *self.shared.feed.write().unwrap_or_else(|e| e.into_inner()) = Bytes::from(feed(&batch));
        self.published.store(to as u64, Ordering::SeqCst);
        true
    }

    /// Requests since the last reset.
    pub fn requests(&self) -> u64 {
        self.shared.requests.load(Ordering::Relaxed)
    }

    pub fn reset_requests(&self) {
        self.shared.requests.store(0, Ordering::Relaxed);
    }
}

impl Drop for LocalEdgar {
    fn drop(&mut self) {
        self.stop.cancel();
    }
}

fn primary_doc(filing: &Filing, i: usize, previous: Option<&str>, fund: bool) -> String {
    let (code, description) = STATES[i % STATES.len()];
    let industry = if fund {
        "Pooled Investment Fund"
    } else {
        "Other Technology"
    };
    let amendment = match previous {
        Some(previous) => format!(
            "<isAmendment>true</isAmendment><previousAccessionNumber>{previous}</previousAccessionNumber>"
        ),
        None => "<isAmendment>false</isAmendment>".to_string(),
    };
    let offering = 1_000_000 + (i % 97) * 250_000;
    let (offering, sold) = match i % 7 {
        0 => ("Indefinite".to_string(), (offering / 2).to_string()),
        _ => (offering.to_string(), (offering * 3 / 4).to_string()),
    };
    let first_sale = match i % 11 {
        0 => "<dateOfFirstSale><yetToOccur>true</yetToOccur></dateOfFirstSale>".to_string(),
        _ => format!(
            "<dateOfFirstSale><value>2026-{:02}-{:02}</value></dateOfFirstSale>",
            1 + i % 11,
            1 + i % 28
        ),
    };
    format!(
        r#"<?xml version="1.0"?>
<edgarSubmission>
  <schemaVersion>X0708</schemaVersion>
  <submissionType>{form}</submissionType>
  <testOrLive>LIVE</testOrLive>
  <primaryIssuer>
    <cik>{cik}</cik>
    <entityName>{issuer}</entityName>
    <issuerAddress>
      <street1>{number} Market Street</street1>
      <city>Springfield</city>
      <stateOrCountry>{code}</stateOrCountry>
      <stateOrCountryDescription>{description}</stateOrCountryDescription>
      <zipCode>{zip:05}</zipCode>
    </issuerAddress>
    <issuerPhoneNumber>555-555-0142</issuerPhoneNumber>
    <jurisdictionOfInc>DELAWARE</jurisdictionOfInc>
    <entityType>Corporation</entityType>
    <yearOfInc><withinFiveYears>true</withinFiveYears><value>{year}</value></yearOfInc>
  </primaryIssuer>
  <relatedPersonsList>
    <relatedPersonInfo>
      <relatedPersonName><firstName>Dana</firstName><lastName>Reyes</lastName></relatedPersonName>
      <relatedPersonRelationshipList><relationship>Executive Officer</relationship></relatedPersonRelationshipList>
    </relatedPersonInfo>
  </relatedPersonsList>
  <offeringData>
    <industryGroup><industryGroupType>{industry}</industryGroupType></industryGroup>
    <issuerSize><revenueRange>Decline to Disclose</revenueRange></issuerSize>
    <federalExemptionsExclusions><item>06b</item></federalExemptionsExclusions>
    <typeOfFiling><newOrAmendment>{amendment}</newOrAmendment>
      {first_sale}</typeOfFiling>
    <typesOfSecuritiesOffered><isEquityType>true</isEquityType></typesOfSecuritiesOffered>
    <minimumInvestmentAccepted>0</minimumInvestmentAccepted>
    <offeringSalesAmounts>
      <totalOfferingAmount>{offering}</totalOfferingAmount>
      <totalAmountSold>{sold}</totalAmountSold>
    </offeringSalesAmounts>
    <investors><hasNonAccreditedInvestors>false</hasNonAccreditedInvestors>
      <totalNumberAlreadyInvested>{investors}</totalNumberAlreadyInvested></investors>
  </offeringData>
</edgarSubmission>
"#,
        form = filing.form,
        cik = filing.cik,
        issuer = xml_escape(&filing.issuer),
        number = 1 + i % 900,
        zip = 10_000 + i % 89_999,
        year = 2015 + i % 11,
        investors = 1 + i % 40,
    )
}

fn feed(filings: &[&Filing]) -> String {
    let mut body = String::from(
        "<?xml version=\"1.0\" encoding=\"ISO-8859-1\" ?>\n\
         <feed xmlns=\"http://www.w3.org/2005/Atom\">\n\
         <title>Latest Filings</title>\n\
         <link rel=\"alternate\" href=\"/cgi-bin/browse-edgar?action=getcurrent\"/>\n\
         <id>https://www.sec.gov/cgi-bin/browse-edgar?action=getcurrent</id>\n\
         <author><name>Webmaster</name><email>webmaster@sec.gov</email></author>\n\
         <updated>2026-11-25T09:30:00-05:00</updated>\n",
    );
    for filing in filings {
        let cik = filing.cik.trim_start_matches('0');
        let folder = filing.accession.replace('-', "");
        body.push_str(&format!(
            "<entry>\n<title>{form} - {issuer} ({cik_padded}) (Filer)</title>\n\
             <link rel=\"alternate\" type=\"text/html\" href=\"https://www.sec.gov/Archives/edgar/data/{cik}/{folder}/{acc}-index.htm\"/>\n\
             <summary type=\"html\"> &lt;b&gt;Filed:&lt;/b&gt; 2026-11-24 &lt;b&gt;AccNo:&lt;/b&gt; {acc} &lt;b&gt;Size:&lt;/b&gt; 5 KB</summary>\n\
             <updated>2026-11-24T16:01:09-05:00</updated>\n\
             <category scheme=\"https://www.sec.gov/\" label=\"form type\" term=\"{form}\"/>\n\
             <id>urn:tag:sec.gov,2008:accession-number={acc}</id>\n</entry>\n",
            form = filing.form,
            issuer = xml_escape(&filing.issuer),
            cik_padded = filing.cik,
            acc = filing.accession,
        ));
    }
    body.push_str("</feed>\n");
    body
}

async fn serve_feed(State(shared): State<Arc<Shared>>) -> Response {
    shared.requests.fetch_add(1, Ordering::Relaxed);
    let feed = shared
        .feed
        .read()
        .unwrap_or_else(|e| e.into_inner())
        .clone();
    Response::builder()
        .header(
            header::CONTENT_TYPE,
            "application/atom+xml; charset=ISO-8859-1",
        )
        .body(Body::from(feed))
        .unwrap_or_default()
}

async fn serve_document(
    State(shared): State<Arc<Shared>>,
    Path((_cik, folder, file)): Path<(String, String, String)>,
) -> Response {
    shared.requests.fetch_add(1, Ordering::Relaxed);
    match shared
        .documents
        .get(&folder)
        .filter(|_| file == "primary_doc.xml")
    {
        Some(document) => Response::builder()
            .header(header::CONTENT_TYPE, "application/xml")
            .body(Body::from(document.clone()))
            .unwrap_or_default(),
        None => Response::builder()
            .status(StatusCode::NOT_FOUND)
            .body(Body::empty())
            .unwrap_or_default(),
    }
}

fn xml_escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}
