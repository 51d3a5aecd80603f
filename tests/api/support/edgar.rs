//! A local EDGAR: the latest-filings feed of form type D and each filing's `primary_doc.xml`,
//! in the shapes the SEC serves, on loopback. Like the SEC it answers 403 to a request whose
//! `User-Agent` names no contact address. It records every request.

use std::sync::{Arc, Mutex};
use std::time::Instant;

use axum::Router;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

/// One filing as the local EDGAR publishes it.
#[derive(Debug, Clone)]
pub struct Filing {
    pub accession: String,
    pub cik: String,
    /// `D` or `D/A`.
    pub form: String,
    pub issuer: String,
    /// The body of its `primary_doc.xml` (any text: tests serve malformed ones too).
    pub document: String,
    /// The feed's link to the filing's index page, when not EDGAR's own.
    pub index_link: Option<String>,
    /// Where a request for its `primary_doc.xml` is redirected, instead of answered.
    pub redirect_to: Option<String>,
}

impl Filing {
    /// A Form D of `issuer` (CIK `cik`) in `state` with these amounts and first sale.
    pub fn form_d(accession: &str, cik: &str, issuer: &str) -> FormDBuilder {
        FormDBuilder {
            accession: accession.into(),
            cik: cik.into(),
            issuer: issuer.into(),
            form: "D".into(),
            state: ("CA".into(), "CALIFORNIA".into()),
            industry: "Other Technology".into(),
            offering: "5000000".into(),
            sold: "5000000".into(),
            first_sale: Some("2026-11-02".into()),
            previous: None,
            year: "2021".into(),
        }
    }
}

/// The parts of a generated Form D.
#[derive(Debug, Clone)]
pub struct FormDBuilder {
    accession: String,
    cik: String,
    issuer: String,
    form: String,
    state: (String, String),
    industry: String,
    offering: String,
    sold: String,
    first_sale: Option<String>,
    previous: Option<String>,
    year: String,
}

impl FormDBuilder {
    pub fn state(mut self, code: &str, description: &str) -> Self {
        self.state = (code.into(), description.into());
        self
    }
    pub fn industry(mut self, group: &str) -> Self {
        self.industry = group.into();
        self
    }
    pub fn amounts(mut self, offering: &str, sold: &str) -> Self {
        self.offering = offering.into();
        self.sold = sold.into();
        self
    }
    pub fn first_sale(mut self, date: Option<&str>) -> Self {
        self.first_sale = date.map(str::to_string);
        self
    }
    /// Makes it a D/A amending `previous`.
    pub fn amends(mut self, previous: &str) -> Self {
        self.form = "D/A".into();
        self.previous = Some(previous.into());
        self
    }

    pub fn build(self) -> Filing {
        let first_sale = match &self.first_sale {
            Some(date) => format!("<dateOfFirstSale><value>{date}</value></dateOfFirstSale>"),
            None => "<dateOfFirstSale><yetToOccur>true</yetToOccur></dateOfFirstSale>".into(),
        };
        let amendment = match &self.previous {
            Some(previous) => format!(
                "<isAmendment>true</isAmendment><previousAccessionNumber>{previous}</previousAccessionNumber>"
            ),
            None => "<isAmendment>false</isAmendment>".into(),
        };
        let document = format!(
            r#"<?xml version="1.0"?>
<edgarSubmission>
  <schemaVersion>X0708</schemaVersion>
  <submissionType>{form}</submissionType>
  <testOrLive>LIVE</testOrLive>
  <primaryIssuer>
    <cik>{cik}</cik>
    <entityName>{issuer}</entityName>
    <issuerAddress><street1>1 Main Street</street1><city>Springfield</city>
      <stateOrCountry>{code}</stateOrCountry><stateOrCountryDescription>{description}</stateOrCountryDescription>
      <zipCode>00000</zipCode></issuerAddress>
    <jurisdictionOfInc>DELAWARE</jurisdictionOfInc>
    <entityType>Corporation</entityType>
    <yearOfInc><withinFiveYears>true</withinFiveYears><value>{year}</value></yearOfInc>
  </primaryIssuer>
  <offeringData>
    <industryGroup><industryGroupType>{industry}</industryGroupType></industryGroup>
    <typeOfFiling><newOrAmendment>{amendment}</newOrAmendment>{first_sale}</typeOfFiling>
    <typesOfSecuritiesOffered><isEquityType>true</isEquityType></typesOfSecuritiesOffered>
    <offeringSalesAmounts>
      <totalOfferingAmount>{offering}</totalOfferingAmount>
      <totalAmountSold>{sold}</totalAmountSold>
    </offeringSalesAmounts>
  </offeringData>
</edgarSubmission>
"#,
            form = self.form,
            cik = self.cik,
            issuer = xml_escape(&self.issuer),
            code = self.state.0,
            description = self.state.1,
            year = self.year,
            industry = self.industry,
            offering = self.offering,
            sold = self.sold,
        );
        Filing {
            accession: self.accession,
            cik: self.cik,
            form: self.form,
            issuer: self.issuer,
            document,
            index_link: None,
            redirect_to: None,
        }
    }
}

/// One request the local EDGAR got.
#[derive(Debug, Clone)]
pub struct EdgarRequest {
    pub path: String,
    pub user_agent: Option<String>,
    /// When it arrived.
    pub at: Instant,
}

#[derive(Default)]
struct Shared {
    /// Newest first, as the feed lists them.
    filings: Vec<Filing>,
    requests: Vec<EdgarRequest>,
}

/// A running local EDGAR. Stops when dropped.
pub struct LocalEdgar {
    pub url: String,
    shared: Arc<Mutex<Shared>>,
    stop: CancellationToken,
}

impl Drop for LocalEdgar {
    fn drop(&mut self) {
        self.stop.cancel();
    }
}

impl LocalEdgar {
    pub async fn start() -> LocalEdgar {
        let shared = Arc::new(Mutex::new(Shared::default()));
        let app = Router::new()
            .route("/cgi-bin/browse-edgar", get(feed))
            .route("/Archives/edgar/data/{cik}/{folder}/{file}", get(document))
            .with_state(shared.clone());
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let url = format!("http://{}", listener.local_addr().expect("address"));
        let stop = CancellationToken::new();
        let stopped = stop.clone();
        tokio::spawn(async move {
            axum::serve(listener, app)
                .with_graceful_shutdown(async move { stopped.cancelled().await })
                .await
                .ok();
        });
        LocalEdgar { url, shared, stop }
    }

    /// Publishes a filing: it heads the feed from now on.
    pub fn publish(&self, filing: Filing) {
        self.shared.lock().unwrap().filings.insert(0, filing);
    }

    /// Every request so far.
    pub fn requests(&self) -> Vec<EdgarRequest> {
        self.shared.lock().unwrap().requests.clone()
    }

    /// How many times a filing's document was asked for.
    pub fn document_reads(&self, accession: &str) -> usize {
        let folder = accession.replace('-', "");
        self.requests()
            .iter()
            .filter(|r| r.path.contains(&folder) && r.path.ends_with("primary_doc.xml"))
            .count()
    }
}

fn record(shared: &Mutex<Shared>, path: String, headers: &HeaderMap) -> bool {
    let user_agent = headers
        .get(header::USER_AGENT)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    let named = user_agent.as_deref().is_some_and(|ua| ua.contains('@'));
    shared.lock().unwrap().requests.push(EdgarRequest {
        path,
        user_agent,
        at: Instant::now(),
    });
    named
}

fn forbidden() -> Response {
    (
        StatusCode::FORBIDDEN,
        "Your request has been identified as part of a network of automated tools",
    )
        .into_response()
}

async fn feed(State(shared): State<Arc<Mutex<Shared>>>, headers: HeaderMap) -> Response {
    if !record(&shared, "/cgi-bin/browse-edgar".into(), &headers) {
        return forbidden();
    }
    let filings = shared.lock().unwrap().filings.clone();
    let mut body = String::from(
        "<?xml version=\"1.0\" encoding=\"ISO-8859-1\" ?>\n\
         <feed xmlns=\"http://www.w3.org/2005/Atom\">\n\
         <title>Latest Filings</title>\n\
         <link rel=\"alternate\" href=\"/cgi-bin/browse-edgar?action=getcurrent\"/>\n\
         <id>https://www.sec.gov/cgi-bin/browse-edgar?action=getcurrent</id>\n\
         <updated>2026-11-25T09:30:00-05:00</updated>\n",
    );
    for filing in &filings {
        let cik = filing.cik.trim_start_matches('0');
        let folder = filing.accession.replace('-', "");
        let link = filing.index_link.clone().unwrap_or_else(|| {
            format!(
                "https://www.sec.gov/Archives/edgar/data/{cik}/{folder}/{}-index.htm",
                filing.accession
            )
        });
        body.push_str(&format!(
            "<entry>\n<title>{form} - {issuer} ({cik_padded}) (Filer)</title>\n\
             <link rel=\"alternate\" type=\"text/html\" href=\"{link}\"/>\n\
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
    (
        [(
            header::CONTENT_TYPE,
            "application/atom+xml; charset=ISO-8859-1",
        )],
        body,
    )
        .into_response()
}

async fn document(
    State(shared): State<Arc<Mutex<Shared>>>,
    Path((cik, folder, file)): Path<(String, String, String)>,
    headers: HeaderMap,
) -> Response {
    let path = format!("/Archives/edgar/data/{cik}/{folder}/{file}");
    if !record(&shared, path, &headers) {
        return forbidden();
    }
    let filings = shared.lock().unwrap().filings.clone();
    match filings
        .iter()
        .find(|f| f.accession.replace('-', "") == folder && file == "primary_doc.xml")
    {
        Some(Filing {
            redirect_to: Some(location),
            ..
        }) => (StatusCode::FOUND, [(header::LOCATION, location.clone())]).into_response(),
        Some(filing) => (
            [(header::CONTENT_TYPE, "application/xml")],
            filing.document.clone(),
        )
            .into_response(),
        None => StatusCode::NOT_FOUND.into_response(),
    }
}

fn xml_escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}
