//! The record schemas of the investor and people lists, as the document shows them: every field
//! always present, `null` exactly where the list can give it.

use serde_json::{Value, json};

/// The record schema (`components/schemas` name and schema) of a page list's rows, for the
/// lists whose rows are described field by field.
pub fn page_record(operation: &str) -> Option<(&'static str, Value)> {
    match operation {
        "getInvestors" => Some(("Investor", investor())),
        "searchPeople" => Some(("Person", person())),
        _ => None,
    }
}

fn text(description: &str) -> Value {
    json!({ "type": "string", "description": description })
}

fn nullable_text(description: &str) -> Value {
    json!({ "type": ["string", "null"], "description": description })
}

fn investor() -> Value {
    json!({
        "type": "object",
        "description": "An investor named on stored funding rounds, aggregated over them.",
        "required": ["id", "name", "type", "linkedinUrl", "website", "logoUrl", "countries",
                     "ticketSizeMin", "ticketSizeMax", "headquarters", "createdAt",
                     "isFreeAccess", "roundCount", "lastRoundAt"],
        "properties": {
            "id": { "type": "string", "format": "uuid",
                    "description": "Stable id derived from the investor's name" },
            "name": text("Name as a funding round gives it"),
            "type": nullable_text("Type as a funding round gives it (free text, e.g. \"Corporate VC\"), not the type group filtered by"),
            "linkedinUrl": nullable_text("LinkedIn page, as a funding round gives it"),
            "website": nullable_text("Website, as a funding round gives it"),
            "logoUrl": nullable_text("Logo URL, as a funding round gives it"),
            "countries": nullable_text("JSON-encoded array of the headquarters countries (ISO codes) of the companies it funded, e.g. [\"DE\",\"US\"]"),
            "ticketSizeMin": { "type": ["integer", "null"], "description": "Its smallest round in US dollars" },
            "ticketSizeMax": { "type": ["integer", "null"], "description": "Its largest round in US dollars" },
            "headquarters": { "type": "null", "description": "Always null: no stored record gives it" },
            "createdAt": { "type": "string", "format": "date-time",
                           "description": "When its first funding round was stored" },
            "isFreeAccess": { "type": "boolean", "enum": [true] },
            "roundCount": { "type": "integer", "minimum": 1,
                            "description": "Stored funding rounds that name it (addition)" },
            "lastRoundAt": { "type": "string", "format": "date-time",
                             "description": "Date of its newest stored round (addition)" }
        }
    })
}

fn person() -> Value {
    json!({
        "type": "object",
        "required": ["name", "linkedin_url", "title", "status", "city", "company",
                     "is_latest_signal", "matched_signal"],
        "properties": {
            "name": nullable_text("First name and last initial, e.g. `Sarah K.`"),
            "linkedin_url": nullable_text("LinkedIn profile URL"),
            "title": nullable_text("Current job title"),
            "status": { "type": "string", "enum": ["active"] },
            "city": nullable_text("The person's city, when known"),
            "company": {
                "type": "object",
                "required": ["name", "domain", "linkedin_url", "country", "city", "size_band",
                             "industry"],
                "properties": {
                    "name": nullable_text("Company name"),
                    "domain": nullable_text("Website domain"),
                    "linkedin_url": nullable_text("LinkedIn company page URL"),
                    "country": nullable_text("Headquarters country (ISO code)"),
                    "city": { "type": "null", "description": "Always null: companies carry no city" },
                    "size_band": {
                        "type": ["string", "null"],
                        "enum": ["1-10", "11-50", "51-100", "101-250", "251-500", "501-1000",
                                 "1000-plus", null]
                    },
                    "industry": nullable_text("Industry")
                }
            },
            "is_latest_signal": { "type": "boolean",
                                  "description": "Whether matched_signal is also the person's newest signal" },
            "matched_signal": {
                "type": "object",
                "required": ["type", "date", "summary", "source_url"],
                "properties": {
                    "type": { "type": "string", "enum": ["funding_round", "acquisition", "job_change"] },
                    "date": { "type": "string", "format": "date" },
                    "summary": text("One line about the signal"),
                    "source_url": nullable_text("The signal's primary source, when known")
                }
            }
        }
    })
}
