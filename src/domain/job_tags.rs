//! Position, department and seniority tags derived from a job title or a new role.
//!
//! The `positions`, `departments` and `seniorities` filters of the hiring and job-change lists
//! match these tags, which are computed once at ingest. A title is read as whole words: letters
//! and digits, lower-cased, with every other character a separator, so "Co-Founder & CTO" reads
//! `co founder cto` and "VP, Engineering" reads `vp engineering`.
//!
//! Rules, applied left to right with the longest matching phrase first (so "product marketing"
//! is marketing, not product and marketing):
//!
//! - Founders: "founder" → position and seniority `founder`; "co-founder"/"cofounder" →
//!   position `co-founder`, seniority `founder`.
//! - Chiefs: "ceo", "cto", "cfo", "coo", "cmo", "cpo", "cro", "cio", "ciso", "chro" and their
//!   spelled-out forms ("Chief Technology Officer", "Chief People Officer" → `chro`, …) give that
//!   position, seniority `c_level` and the department they lead (CTO, CIO, CISO → engineering;
//!   CPO → product; CRO → sales; the chief executive has none). Any other "chief", "president" or "C-level"
//!   is `c_level` alone; "chief of staff" is operations and not `c_level`.
//! - Seniority words: "VP", "SVP", "EVP", "AVP", "vice president" → `vp`; "director" →
//!   `director`; "head" → `head`; "lead", "leader" → `lead`; "manager" → `manager`. Words like
//!   "senior", "principal", "staff" or "junior" are not tags.
//! - Departments: engineering (engineer, engineering, developer, software, devops, SRE, QA,
//!   programmer, frontend, backend, fullstack), product, design (designer, UX, UI, creative,
//!   "product design"), data (analytics, "machine learning", ML, "business intelligence"),
//!   marketing (marketer, SEO, brand, communications, "product marketing", "lead generation"),
//!   sales ("account executive", "account manager", "business development", BDR, SDR), growth,
//!   customer_success ("customer success", "customer support", "customer service", "customer
//!   experience", support), operations (ops), finance (financial, accounting, accountant,
//!   controller, bookkeeper, treasury, FP&A), people (HR, "human resources", recruiter,
//!   recruiting, recruitment, talent, "people operations"), legal (counsel, lawyer, attorney,
//!   paralegal, compliance).
//! - Named positions: "engineering manager" and "product manager" as adjacent words; and for
//!   every department found, a `vp` seniority adds "vp of <department>", a `head` seniority
//!   adds "head of <department>" and a `manager` seniority adds "<department> manager" for the
//!   other departments (so "Regional Sales Manager" gives `sales manager`) (so "VP Engineering", "Vice President, Engineering" and "VP of
//!   Engineering" all give `vp of engineering`).
//!
//! Each list comes back in the order of its vocabulary in [`crate::domain::vocabulary`].

use std::collections::HashMap;
use std::sync::LazyLock;

use crate::domain::vocabulary::{DEPARTMENTS, POSITIONS, SENIORITIES};

/// All tags of one title.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct JobTags {
    /// Position tags, e.g. `cto`, `vp of engineering`.
    pub positions: Vec<&'static str>,
    /// Department tags, e.g. `engineering`, `customer_success`.
    pub departments: Vec<&'static str>,
    /// Seniority tags, e.g. `c_level`, `manager`.
    pub seniorities: Vec<&'static str>,
}

/// Derives every tag of a job title or new role.
pub fn tags(title: &str) -> JobTags {
    let words = words(title);
    let mut found = JobTags::default();
    let mut i = 0;
    while i < words.len() {
        match longest_rule_at(&words[i..]) {
            Some((rule, length)) => {
                found.positions.extend(rule.positions);
                found.departments.extend(rule.departments);
                found.seniorities.extend(rule.seniorities);
                i += length;
            }
            None => i += 1,
        }
    }
    add_leadership_positions(&mut found);
    JobTags {
        positions: in_vocabulary_order(POSITIONS, &found.positions),
        departments: in_vocabulary_order(DEPARTMENTS, &found.departments),
        seniorities: in_vocabulary_order(SENIORITIES, &found.seniorities),
    }
}

/// Position tags of a job title, e.g. "Co-Founder & Chief Executive Officer" →
/// `["co-founder", "ceo"]`.
pub fn positions(title: &str) -> Vec<&'static str> {
    tags(title).positions
}

/// Department tags of a job title, e.g. "Growth Marketing Manager" → `["marketing", "growth"]`.
pub fn departments(title: &str) -> Vec<&'static str> {
    tags(title).departments
}

/// Seniority tags of a job title, e.g. "Co-Founder & CTO" → `["founder", "c_level"]`.
pub fn seniorities(title: &str) -> Vec<&'static str> {
    tags(title).seniorities
}

/// The lower-cased words of a title: runs of letters and digits.
fn words(title: &str) -> Vec<String> {
    title
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// The rule with the longest phrase that `words` starts with, and that phrase's length. Only
/// the rules whose phrase starts with the first word are tried, in the order of [`RULES`].
fn longest_rule_at(words: &[String]) -> Option<(&'static Rule, usize)> {
    RULES_BY_FIRST_WORD
        .get(words.first()?.as_str())?
        .iter()
        .filter_map(|rule| phrase_length_at(rule.phrase, words).map(|length| (*rule, length)))
        .max_by_key(|(_, length)| *length)
}

/// The rules by the first word of their phrase, each list in the order of [`RULES`]: an import
/// tags a million titles, and most of their words start no phrase.
static RULES_BY_FIRST_WORD: LazyLock<HashMap<&'static str, Vec<&'static Rule>>> =
    LazyLock::new(|| {
        let mut by_word: HashMap<&'static str, Vec<&'static Rule>> = HashMap::new();
        for rule in RULES {
            let first = rule.phrase.split(' ').next().unwrap_or(rule.phrase);
            by_word.entry(first).or_default().push(rule);
        }
        by_word
    });

/// The number of words of `phrase` when `words` starts with it.
fn phrase_length_at(phrase: &str, words: &[String]) -> Option<usize> {
    let mut length = 0;
    for part in phrase.split(' ') {
        if words.get(length)?.as_str() != part {
            return None;
        }
        length += 1;
    }
    Some(length)
}

/// Adds "vp of <department>" and "head of <department>" for the departments found.
fn add_leadership_positions(found: &mut JobTags) {
    let vp = found.seniorities.contains(&"vp");
    let head = found.seniorities.contains(&"head");
    if found.seniorities.contains(&"manager") {
        for (department, position) in &MANAGERS {
            if found.departments.contains(department) {
                found.positions.push(position);
            }
        }
    }
    for (department, vp_position, head_position) in &LEADERSHIP {
        if found.departments.contains(department) {
            if vp {
                found.positions.push(vp_position);
            }
            if head {
                found.positions.push(head_position);
            }
        }
    }
}

fn in_vocabulary_order(vocabulary: &[&'static str], found: &[&str]) -> Vec<&'static str> {
    vocabulary
        .iter()
        .filter(|tag| found.contains(tag))
        .copied()
        .collect()
}

/// A phrase (lower-case words separated by single spaces) and the tags it gives.
struct Rule {
    phrase: &'static str,
    positions: &'static [&'static str],
    departments: &'static [&'static str],
    seniorities: &'static [&'static str],
}

const fn rule(
    phrase: &'static str,
    positions: &'static [&'static str],
    departments: &'static [&'static str],
    seniorities: &'static [&'static str],
) -> Rule {
    Rule {
        phrase,
        positions,
        departments,
        seniorities,
    }
}

const fn department(phrase: &'static str, department: &'static [&'static str]) -> Rule {
    rule(phrase, &[], department, &[])
}

const fn seniority(phrase: &'static str, seniority: &'static [&'static str]) -> Rule {
    rule(phrase, &[], &[], seniority)
}

const fn chief(
    phrase: &'static str,
    position: &'static [&'static str],
    led: &'static [&'static str],
) -> Rule {
    rule(phrase, position, led, &["c_level"])
}

/// The departments whose manager is a position of its own ("engineering manager" and "product
/// manager" are phrases of their own).
const MANAGERS: [(&str, &str); 10] = [
    ("design", "design manager"),
    ("data", "data manager"),
    ("marketing", "marketing manager"),
    ("sales", "sales manager"),
    ("growth", "growth manager"),
    ("customer_success", "customer success manager"),
    ("operations", "operations manager"),
    ("finance", "finance manager"),
    ("people", "people manager"),
    ("legal", "legal manager"),
];

/// Each department with the positions of its vice president and its head.
const LEADERSHIP: [(&str, &str, &str); 12] = [
    ("engineering", "vp of engineering", "head of engineering"),
    ("product", "vp of product", "head of product"),
    ("design", "vp of design", "head of design"),
    ("data", "vp of data", "head of data"),
    ("marketing", "vp of marketing", "head of marketing"),
    ("sales", "vp of sales", "head of sales"),
    ("growth", "vp of growth", "head of growth"),
    (
        "customer_success",
        "vp of customer success",
        "head of customer success",
    ),
    ("operations", "vp of operations", "head of operations"),
    ("finance", "vp of finance", "head of finance"),
    ("people", "vp of people", "head of people"),
    ("legal", "vp of legal", "head of legal"),
];

const ENGINEERING: &[&str] = &["engineering"];
const PRODUCT: &[&str] = &["product"];
const DESIGN: &[&str] = &["design"];
const DATA: &[&str] = &["data"];
const MARKETING: &[&str] = &["marketing"];
const SALES: &[&str] = &["sales"];
const CUSTOMER_SUCCESS: &[&str] = &["customer_success"];
const OPERATIONS: &[&str] = &["operations"];
const FINANCE: &[&str] = &["finance"];
const PEOPLE: &[&str] = &["people"];
const LEGAL: &[&str] = &["legal"];

/// The phrase rules of the module documentation.
static RULES: &[Rule] = &[
    rule("founder", &["founder"], &[], &["founder"]),
    rule("co founder", &["co-founder"], &[], &["founder"]),
    rule("cofounder", &["co-founder"], &[], &["founder"]),
    chief("ceo", &["ceo"], &[]),
    chief("chief executive", &["ceo"], &[]),
    chief("chief executive officer", &["ceo"], &[]),
    chief("cto", &["cto"], ENGINEERING),
    chief("chief technology officer", &["cto"], ENGINEERING),
    chief("chief technical officer", &["cto"], ENGINEERING),
    chief("cfo", &["cfo"], FINANCE),
    chief("chief financial officer", &["cfo"], FINANCE),
    chief("chief finance officer", &["cfo"], FINANCE),
    chief("coo", &["coo"], OPERATIONS),
    chief("chief operating officer", &["coo"], OPERATIONS),
    chief("chief operations officer", &["coo"], OPERATIONS),
    chief("cmo", &["cmo"], MARKETING),
    chief("chief marketing officer", &["cmo"], MARKETING),
    chief("cpo", &["cpo"], PRODUCT),
    chief("chief product officer", &["cpo"], PRODUCT),
    chief("cro", &["cro"], SALES),
    chief("chief revenue officer", &["cro"], SALES),
    chief("cio", &["cio"], ENGINEERING),
    chief("chief information officer", &["cio"], ENGINEERING),
    chief("ciso", &["ciso"], ENGINEERING),
    chief("chief information security officer", &["ciso"], ENGINEERING),
    chief("chro", &["chro"], PEOPLE),
    chief("chief people officer", &["chro"], PEOPLE),
    chief("chief human resources officer", &["chro"], PEOPLE),
    chief("chief hr officer", &["chro"], PEOPLE),
    chief("chief", &[], &[]),
    chief("president", &[], &[]),
    chief("c level", &[], &[]),
    department("chief of staff", OPERATIONS),
    seniority("vp", &["vp"]),
    seniority("svp", &["vp"]),
    seniority("evp", &["vp"]),
    seniority("avp", &["vp"]),
    seniority("vice president", &["vp"]),
    seniority("director", &["director"]),
    seniority("head", &["head"]),
    seniority("lead", &["lead"]),
    seniority("leader", &["lead"]),
    seniority("manager", &["manager"]),
    rule(
        "engineering manager",
        &["engineering manager"],
        ENGINEERING,
        &["manager"],
    ),
    rule(
        "product manager",
        &["product manager"],
        PRODUCT,
        &["manager"],
    ),
    rule("account manager", &[], SALES, &["manager"]),
    department("engineer", ENGINEERING),
    department("engineers", ENGINEERING),
    department("engineering", ENGINEERING),
    department("developer", ENGINEERING),
    department("developers", ENGINEERING),
    department("software", ENGINEERING),
    department("devops", ENGINEERING),
    department("sre", ENGINEERING),
    department("site reliability", ENGINEERING),
    department("qa", ENGINEERING),
    department("programmer", ENGINEERING),
    department("frontend", ENGINEERING),
    department("backend", ENGINEERING),
    department("fullstack", ENGINEERING),
    department("full stack", ENGINEERING),
    department("product", PRODUCT),
    department("design", DESIGN),
    department("designer", DESIGN),
    department("product design", DESIGN),
    department("product designer", DESIGN),
    department("ux", DESIGN),
    department("ui", DESIGN),
    department("creative", DESIGN),
    department("data", DATA),
    department("analytics", DATA),
    department("machine learning", DATA),
    department("ml", DATA),
    department("business intelligence", DATA),
    department("marketing", MARKETING),
    department("marketer", MARKETING),
    department("product marketing", MARKETING),
    department("lead generation", MARKETING),
    department("demand generation", MARKETING),
    department("seo", MARKETING),
    department("brand", MARKETING),
    department("communications", MARKETING),
    department("sales", SALES),
    department("account executive", SALES),
    department("business development", SALES),
    department("bdr", SALES),
    department("sdr", SALES),
    department("growth", &["growth"]),
    department("customer success", CUSTOMER_SUCCESS),
    department("client success", CUSTOMER_SUCCESS),
    department("customer support", CUSTOMER_SUCCESS),
    department("customer service", CUSTOMER_SUCCESS),
    department("customer experience", CUSTOMER_SUCCESS),
    department("support", CUSTOMER_SUCCESS),
    department("operations", OPERATIONS),
    department("ops", OPERATIONS),
    department("finance", FINANCE),
    department("financial", FINANCE),
    department("accounting", FINANCE),
    department("accountant", FINANCE),
    department("controller", FINANCE),
    department("bookkeeper", FINANCE),
    department("treasury", FINANCE),
    department("fp a", FINANCE),
    department("people", PEOPLE),
    department("people operations", PEOPLE),
    department("hr", PEOPLE),
    department("human resources", PEOPLE),
    department("recruiter", PEOPLE),
    department("recruiting", PEOPLE),
    department("recruitment", PEOPLE),
    department("talent", PEOPLE),
    department("legal", LEGAL),
    department("counsel", LEGAL),
    department("lawyer", LEGAL),
    department("attorney", LEGAL),
    department("paralegal", LEGAL),
    department("compliance", LEGAL),
];

#[cfg(test)]
mod tests {
    use super::*;

    /// `title | positions | departments | seniorities`, each list comma-separated, `-` for none.
    const CASES: &[&str] = &[
        "CTO | cto | engineering | c_level",
        "Chief Technology Officer | cto | engineering | c_level",
        "VP of Engineering | vp of engineering | engineering | vp",
        "VP Engineering | vp of engineering | engineering | vp",
        "Vice President, Engineering | vp of engineering | engineering | vp",
        "SVP Sales & Marketing | vp of marketing, vp of sales | marketing, sales | vp",
        "Head of Product | head of product | product | head",
        "Head of People & Talent | head of people | people | head",
        "Senior Software Engineer | - | engineering | -",
        "Engineering Manager | engineering manager | engineering | manager",
        "Software Engineering Manager | engineering manager | engineering | manager",
        "Senior Product Manager | product manager | product | manager",
        "Product Marketing Manager | marketing manager | marketing | manager",
        "Co-Founder & CEO | co-founder, ceo | - | founder, c_level",
        "Cofounder and CTO | co-founder, cto | engineering | founder, c_level",
        "Founder | founder | - | founder",
        "Founding Engineer | - | engineering | -",
        "Account Executive | - | sales | -",
        "Enterprise Account Manager | sales manager | sales | manager",
        "Business Development Representative | - | sales | -",
        "Data Scientist | - | data | -",
        "Machine Learning Engineer | - | engineering, data | -",
        "Customer Success Manager | customer success manager | customer_success | manager",
        "Recruiter | - | people | -",
        "Talent Acquisition Partner | - | people | -",
        "HR Business Partner | - | people | -",
        "People Operations Lead | - | people | lead",
        "General Counsel | - | legal | -",
        "Corporate Lawyer | - | legal | -",
        "Growth Marketing Manager | marketing manager, growth manager | marketing, growth | manager",
        "Lead Generation Specialist | - | marketing | -",
        "Tech Lead, Backend | - | engineering | lead",
        "Director of Design | - | design | director",
        "Senior Product Designer | - | design | -",
        "Chief of Staff | - | operations | -",
        "Chief People Officer | chro | people | c_level",
        "President & COO | coo | operations | c_level",
        "CFO | cfo | finance | c_level",
        "FP&A Analyst | - | finance | -",
        "Chief Data Officer | - | data | c_level",
        "Head of Customer Success | head of customer success | customer_success | head",
        "Technical Support Engineer | - | engineering, customer_success | -",
        "Production Planner | - | - | -",
        " | - | - | -",
    ];

    fn list(tags: &str) -> Vec<&str> {
        tags.split(',')
            .map(str::trim)
            .filter(|t| !t.is_empty() && *t != "-")
            .collect()
    }

    #[test]
    fn titles_give_their_documented_tags() {
        for case in CASES {
            let columns: Vec<&str> = case.split('|').map(str::trim).collect();
            let [title, positions, departments, seniorities] = columns[..] else {
                panic!("a case needs four columns: {case}");
            };
            let found = tags(title);
            assert_eq!(found.positions, list(positions), "positions of {title:?}");
            assert_eq!(
                found.departments,
                list(departments),
                "departments of {title:?}"
            );
            assert_eq!(
                found.seniorities,
                list(seniorities),
                "seniorities of {title:?}"
            );
        }
    }

    #[test]
    fn the_single_list_functions_agree_with_tags() {
        let title = "Co-Founder & CEO";
        assert_eq!(positions(title), tags(title).positions);
        assert_eq!(departments(title), tags(title).departments);
        assert_eq!(seniorities(title), tags(title).seniorities);
    }

    #[test]
    fn letter_case_and_punctuation_do_not_change_the_tags() {
        assert_eq!(tags("vp, ENGINEERING"), tags("VP Engineering"));
        assert_eq!(tags("co‑founder/ceo"), tags("Co-Founder & CEO"));
    }

    #[test]
    fn words_match_whole_never_as_substrings() {
        assert_eq!(tags("Headhunter"), JobTags::default());
        assert_eq!(tags("Productivity Coach"), JobTags::default());
        assert_eq!(tags("Leadership Coach"), JobTags::default());
    }

    #[test]
    fn every_rule_and_leadership_tag_is_in_its_vocabulary() {
        for rule in RULES {
            assert!(
                rule.positions.iter().all(|p| POSITIONS.contains(p)),
                "{}",
                rule.phrase
            );
            assert!(
                rule.departments.iter().all(|d| DEPARTMENTS.contains(d)),
                "{}",
                rule.phrase
            );
            assert!(
                rule.seniorities.iter().all(|s| SENIORITIES.contains(s)),
                "{}",
                rule.phrase
            );
            assert_eq!(rule.phrase, rule.phrase.to_lowercase(), "{}", rule.phrase);
        }
        for (department, vp, head) in LEADERSHIP {
            assert!(DEPARTMENTS.contains(&department));
            assert!(
                POSITIONS.contains(&vp) && POSITIONS.contains(&head),
                "{department}"
            );
        }
    }

    #[test]
    fn every_position_in_the_vocabulary_can_be_derived() {
        let derivable: Vec<&str> = RULES
            .iter()
            .flat_map(|rule| rule.positions.iter().copied())
            .chain(LEADERSHIP.iter().flat_map(|(_, vp, head)| [*vp, *head]))
            .chain(MANAGERS.iter().map(|(_, manager)| *manager))
            .collect();
        for position in POSITIONS {
            assert!(derivable.contains(position), "{position}");
        }
    }
}
