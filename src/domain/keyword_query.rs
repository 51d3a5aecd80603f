//! The keyword query of the hiring list's `description` filter, and its renderings for SQLite
//! FTS5 and PostgreSQL full-text search.
//!
//! The language, in the style of web search boxes:
//!
//! - Matching is by whole words. A word is a run of letters and digits (any script), compared
//!   in lower case; every other character separates words. So `java` does not match
//!   "JavaScript", and the term `node.js` is the two words `node js`, which must appear next to
//!   each other in that order: it matches "Node.js", "node-js" and "node js", not "nodejs".
//!   Terms made only of symbols lose them: `C++` and `C#` both search for the word `c`.
//! - Space-separated items must all match (AND).
//! - `"quoted phrase"`: its words must appear next to each other, in order. A quote left open
//!   runs to the end of the query, as in web search.
//! - `a OR b`: either item. `OR` is an operator only in upper case and only between two
//!   included items (`a b OR c` is `a AND (b OR c)`); anywhere else it is ignored. A lower-case
//!   `or` is an ordinary word.
//! - `-term` or `-"phrase"`: the posting must not contain it. A `-` followed by a space is
//!   ignored.
//!
//! As in PostgreSQL's web search syntax, every string is a query: one with no word at all
//! (`}]`, `""`) matches no posting, and one made only of exclusions (`-intern`) matches every
//! posting whose description lacks them, postings without a description included. A query is
//! refused only when it is longer than [`MAX_QUERY_CHARS`] characters; such a query has at most
//! [`MAX_QUERY_ITEMS`] terms, phrases and exclusions.
//!
//! [`KeywordQuery::matches`] is the reference meaning. The SQL renderings agree with it when the
//! indexed text is split the same way: for FTS5, a `unicode61` tokenizer with
//! `remove_diacritics 0` and no stemmer; for PostgreSQL, `to_tsvector('simple', …)` over the
//! description's [`words`] joined by spaces, queried with `to_tsquery('simple', …)`.

/// The longest query accepted, in characters (the OpenAPI document declares it as `maxLength`).
pub const MAX_QUERY_CHARS: usize = 1000;

/// The most terms, phrases and exclusions a query of [`MAX_QUERY_CHARS`] can hold: every item
/// takes a character and a separator.
pub const MAX_QUERY_ITEMS: usize = MAX_QUERY_CHARS.div_ceil(2);

/// One or more words that must appear next to each other, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Phrase {
    words: Vec<String>,
}

impl Phrase {
    /// The phrase's lower-case words; never empty.
    pub fn words(&self) -> &[String] {
        &self.words
    }

    fn is_in(&self, text: &[String]) -> bool {
        text.windows(self.words.len())
            .any(|window| window == self.words)
    }
}

/// A parsed keyword query: every group must match (a group matches when any of its phrases
/// does), and no exclusion may match.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeywordQuery {
    groups: Vec<Vec<Phrase>>,
    exclusions: Vec<Phrase>,
}

/// Parses a `description` query; see the module documentation for the language. The only
/// refusal is a query over [`MAX_QUERY_CHARS`] characters; the caller prefixes the parameter
/// name to the message.
pub fn parse_keyword_query(input: &str) -> Result<KeywordQuery, String> {
    if input.chars().count() > MAX_QUERY_CHARS {
        return Err(format!(
            "The keyword query is too long: at most {MAX_QUERY_CHARS} characters"
        ));
    }
    Ok(combine(lex(input)))
}

/// The lower-case words of a text, as the query language sees it: runs of letters and digits.
pub fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

impl KeywordQuery {
    /// The groups that must all match; a group matches when any of its phrases does.
    pub fn groups(&self) -> &[Vec<Phrase>] {
        &self.groups
    }

    /// The phrases that must not match.
    pub fn exclusions(&self) -> &[Phrase] {
        &self.exclusions
    }

    /// Whether the query has no word at all, and so matches nothing.
    pub fn is_empty(&self) -> bool {
        self.groups.is_empty() && self.exclusions.is_empty()
    }

    /// For a query made only of exclusions, the query its exclusions make as alternatives
    /// (`-a -b` → `a OR b`): what a matching text must not match. `None` when the query has an
    /// included term or no word at all.
    pub fn exclusions_as_alternatives(&self) -> Option<KeywordQuery> {
        (self.groups.is_empty() && !self.exclusions.is_empty()).then(|| KeywordQuery {
            groups: vec![self.exclusions.clone()],
            exclusions: Vec::new(),
        })
    }

    /// Whether a text satisfies the query: the reference meaning of the language.
    pub fn matches(&self, text: &str) -> bool {
        if self.is_empty() {
            return false;
        }
        let text = words(text);
        self.groups
            .iter()
            .all(|group| group.iter().any(|phrase| phrase.is_in(&text)))
            && !self.exclusions.iter().any(|phrase| phrase.is_in(&text))
    }

    /// The query as an SQLite FTS5 `MATCH` expression, every phrase a quoted FTS5 string (for a
    /// query with an included term; see [`Self::exclusions_as_alternatives`] for the others):
    /// `kubernetes OR terraform -intern` → `("kubernetes" OR "terraform") NOT "intern"`.
    /// FTS5's `NOT` is binary and binds tighter than `AND` and `OR`, so the included part is
    /// parenthesized and the exclusions hang off it as one `NOT`.
    pub fn to_fts5(&self) -> String {
        let included = render_all(&self.groups, " AND ", |group| {
            render_any(group, " OR ", fts5_phrase)
        });
        if self.exclusions.is_empty() {
            return included;
        }
        let excluded = render_any(&self.exclusions, " OR ", fts5_phrase);
        if self.groups.len() > 1 {
            format!("({included}) NOT {excluded}")
        } else {
            format!("{included} NOT {excluded}")
        }
    }

    /// The query in PostgreSQL `to_tsquery` syntax (for a query with an included term, as
    /// [`Self::to_fts5`]): `&` for AND, `|` for OR, `!` for
    /// exclusion and `<->` between the words of a phrase, every word a quoted lexeme:
    /// `kubernetes OR terraform -intern` → `('kubernetes' | 'terraform') & !'intern'`.
    /// Words hold only letters and digits, so user input cannot break the syntax.
    pub fn to_tsquery(&self) -> String {
        let included = render_all(&self.groups, " & ", |group| {
            render_any(group, " | ", tsquery_phrase)
        });
        self.exclusions.iter().fold(included, |query, phrase| {
            format!("{query} & !{}", tsquery_phrase(phrase))
        })
    }
}

/// One lexical item of a query.
enum Item {
    /// A bare term or a quoted phrase, possibly excluded; `words` may be empty (`!!!`).
    Term { excluded: bool, words: Vec<String> },
    /// The upper-case `OR` operator.
    Or,
}

/// Splits a query into terms, phrases and `OR`s.
fn lex(input: &str) -> Vec<Item> {
    let chars: Vec<char> = input.chars().collect();
    let mut items = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if chars[i].is_whitespace() {
            i += 1;
            continue;
        }
        let excluded = chars[i] == '-' && chars.get(i + 1).is_some_and(|c| !c.is_whitespace());
        if excluded {
            i += 1;
        }
        let quoted = chars[i] == '"';
        let (text, next) = if quoted {
            read_quoted(&chars, i + 1)
        } else {
            read_bare(&chars, i)
        };
        i = next;
        if !quoted && !excluded && text == "OR" {
            items.push(Item::Or);
        } else {
            let words = words(&text);
            items.push(Item::Term { excluded, words });
        }
    }
    items
}

/// The text of a quoted phrase starting at `start` (after the opening quote), and where
/// reading goes on; an unclosed quote runs to the end.
fn read_quoted(chars: &[char], start: usize) -> (String, usize) {
    let end = (start..chars.len())
        .find(|&j| chars[j] == '"')
        .unwrap_or(chars.len());
    (chars[start..end].iter().collect(), end + 1)
}

/// The text of a bare term starting at `start`, which ends at a space or a quote.
fn read_bare(chars: &[char], start: usize) -> (String, usize) {
    let end = (start..chars.len())
        .find(|&j| chars[j].is_whitespace() || chars[j] == '"')
        .unwrap_or(chars.len());
    (chars[start..end].iter().collect(), end)
}

/// Groups lexical items: `OR` joins an included item to the one before it.
fn combine(items: Vec<Item>) -> KeywordQuery {
    let mut query = KeywordQuery {
        groups: Vec::new(),
        exclusions: Vec::new(),
    };
    let mut after_included = false;
    let mut joining = false;
    for item in items {
        match item {
            Item::Or => joining = after_included,
            Item::Term { words, .. } if words.is_empty() => {}
            Item::Term {
                excluded: true,
                words,
            } => {
                query.exclusions.push(Phrase { words });
                after_included = false;
                joining = false;
            }
            Item::Term { words, .. } => {
                match query.groups.last_mut() {
                    Some(group) if joining => group.push(Phrase { words }),
                    _ => query.groups.push(vec![Phrase { words }]),
                }
                after_included = true;
                joining = false;
            }
        }
    }
    query
}

/// Renders every element and joins them with `operator`.
fn render_all<T>(elements: &[T], operator: &str, render: impl Fn(&T) -> String) -> String {
    elements
        .iter()
        .map(render)
        .collect::<Vec<_>>()
        .join(operator)
}

/// Renders alternatives joined by `operator`, parenthesized when there are several.
fn render_any(phrases: &[Phrase], operator: &str, render: fn(&Phrase) -> String) -> String {
    match phrases {
        [single] => render(single),
        _ => format!("({})", render_all(phrases, operator, render)),
    }
}

/// An FTS5 string; its words are letters and digits, so it needs no escaping.
fn fts5_phrase(phrase: &Phrase) -> String {
    format!("\"{}\"", phrase.words.join(" "))
}

/// A tsquery lexeme, or a parenthesized `<->` chain for several words.
fn tsquery_phrase(phrase: &Phrase) -> String {
    let lexemes = render_all(&phrase.words, " <-> ", |word| format!("'{word}'"));
    if phrase.words.len() > 1 {
        format!("({lexemes})")
    } else {
        lexemes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn query(input: &str) -> KeywordQuery {
        parse_keyword_query(input).expect("a valid keyword query")
    }

    /// A query, a text, and whether the query matches the text.
    const MATCH_CASES: &[(&str, &str, bool)] = &[
        // AND
        ("rust postgres", "We use Rust and Postgres.", true),
        ("rust postgres", "We use Rust and MySQL.", false),
        // OR
        ("kubernetes OR terraform", "Terraform experience", true),
        ("kubernetes OR terraform", "Ansible experience", false),
        ("aws kubernetes OR terraform", "AWS and Terraform", true),
        ("aws kubernetes OR terraform", "GCP and Terraform", false),
        ("go OR rust OR zig", "we write zig", true),
        // phrases
        ("\"machine learning\"", "Machine-learning platform", true),
        ("\"machine learning\"", "learning machine", false),
        (
            "\"machine learning\"",
            "machine vision and deep learning",
            false,
        ),
        // exclusion
        ("python -django", "Python and Flask", true),
        ("python -django", "Python and Django", false),
        (
            "python -\"data science\"",
            "Python for data engineering",
            true,
        ),
        ("python -\"data science\"", "Python for data science", false),
        // mixed
        (
            "kubernetes OR terraform -intern",
            "Kubernetes, full time",
            true,
        ),
        (
            "kubernetes OR terraform -intern",
            "Terraform intern wanted",
            false,
        ),
        (
            "kubernetes OR terraform -intern",
            "Internship with Terraform",
            true,
        ),
        // case-insensitivity
        ("KUBERNETES", "kubernetes", true),
        ("Über", "über uns", true),
        // punctuation and substrings
        ("node.js", "Node.js developer", true),
        ("node.js", "node js developer", true),
        ("node.js", "NodeJS developer", false),
        ("java", "JavaScript developer", false),
        ("java", "Java/Kotlin developer", true),
        ("c++", "C developer", true),
        // OR only as an upper-case operator between included items
        ("cats or dogs", "cats and dogs", false),
        ("cats or dogs", "cats or dogs", true),
        ("OR rust", "rust", true),
        ("rust OR", "rust", true),
        ("-go OR rust", "rust", true),
        ("-go OR rust", "go and rust", false),
        // an unclosed quote runs to the end
        ("\"remote first", "a remote first team", true),
        ("\"remote first", "first remote", false),
    ];

    #[test]
    fn queries_match_texts_as_documented() {
        for (input, text, expected) in MATCH_CASES {
            assert_eq!(
                query(input).matches(text),
                *expected,
                "{input:?} on {text:?}"
            );
        }
    }

    #[test]
    fn fts5_expressions_quote_every_phrase_and_attach_exclusions_with_one_not() {
        let cases = [
            ("kubernetes", "\"kubernetes\""),
            ("rust postgres", "\"rust\" AND \"postgres\""),
            (
                "kubernetes OR terraform",
                "(\"kubernetes\" OR \"terraform\")",
            ),
            (
                "kubernetes OR terraform -intern",
                "(\"kubernetes\" OR \"terraform\") NOT \"intern\"",
            ),
            (
                "aws \"machine learning\" -intern -\"part time\"",
                "(\"aws\" AND \"machine learning\") NOT (\"intern\" OR \"part time\")",
            ),
            ("node.js", "\"node js\""),
            (
                "NEAR AND NOT \"x*\"",
                "\"near\" AND \"and\" AND \"not\" AND \"x\"",
            ),
        ];
        for (input, expected) in cases {
            assert_eq!(query(input).to_fts5(), expected, "{input:?}");
        }
    }

    #[test]
    fn tsqueries_use_postgres_operators_with_quoted_lexemes() {
        let cases = [
            ("kubernetes", "'kubernetes'"),
            ("rust postgres", "'rust' & 'postgres'"),
            (
                "kubernetes OR terraform -intern",
                "('kubernetes' | 'terraform') & !'intern'",
            ),
            (
                "\"machine learning\" OR ai -\"part time\"",
                "(('machine' <-> 'learning') | 'ai') & !('part' <-> 'time')",
            ),
            ("it's & (x) | !y:*", "('it' <-> 's') & 'x' & 'y'"),
        ];
        for (input, expected) in cases {
            assert_eq!(query(input).to_tsquery(), expected, "{input:?}");
        }
    }

    #[test]
    fn renderings_never_carry_tsquery_or_fts5_syntax_from_the_input() {
        let rendered = query("a'b \\c \"d:* e\" f&g|h").to_tsquery();
        let lexemes: String = rendered
            .split('\'')
            .skip(1)
            .step_by(2)
            .collect::<Vec<_>>()
            .concat();
        assert!(lexemes.chars().all(char::is_alphanumeric), "{rendered}");
        let fts5 = query("\"a\"\"b\" c*").to_fts5();
        assert_eq!(fts5, "\"a\" AND \"b\" AND \"c\"");
    }

    #[test]
    fn empty_and_symbol_only_queries_match_nothing() {
        for input in ["", "   ", "!!! ...", "\"\"", "- -", "OR", "}]"] {
            let parsed = query(input);
            assert!(parsed.is_empty(), "{input:?}");
            assert!(parsed.exclusions_as_alternatives().is_none(), "{input:?}");
            assert!(!parsed.matches("any text at all"), "{input:?}");
            assert!(!parsed.matches(""), "{input:?}");
        }
    }

    #[test]
    fn queries_made_only_of_exclusions_match_what_lacks_them() {
        let parsed = query("-intern -\"part time\"");
        assert!(parsed.matches("Senior engineer, full time"));
        assert!(parsed.matches(""));
        assert!(!parsed.matches("Paid intern"));
        assert!(!parsed.matches("Part-time role"));
        let alternatives = parsed
            .exclusions_as_alternatives()
            .expect("only exclusions");
        assert_eq!(alternatives.to_fts5(), "(\"intern\" OR \"part time\")");
        assert_eq!(
            alternatives.to_tsquery(),
            "('intern' | ('part' <-> 'time'))"
        );
        assert!(query("rust -intern").exclusions_as_alternatives().is_none());
    }

    #[test]
    fn only_a_query_over_the_length_limit_is_refused() {
        let longest = vec!["w"; MAX_QUERY_ITEMS].join(" ");
        assert!(longest.chars().count() <= MAX_QUERY_CHARS);
        assert_eq!(query(&longest).groups().len(), MAX_QUERY_ITEMS);
        let over = "w".repeat(MAX_QUERY_CHARS + 1);
        let error = parse_keyword_query(&over).expect_err("too long");
        assert!(error.contains("too long"), "{error}");
    }

    #[test]
    fn parsing_groups_or_alternatives_and_collects_exclusions() {
        let parsed = query("a b OR \"c d\" -e");
        let groups: Vec<Vec<&[String]>> = parsed
            .groups()
            .iter()
            .map(|group| group.iter().map(Phrase::words).collect())
            .collect();
        assert_eq!(
            groups,
            [
                vec![&["a".to_string()][..]],
                vec![
                    &["b".to_string()][..],
                    &["c".to_string(), "d".to_string()][..]
                ]
            ]
        );
        assert_eq!(parsed.exclusions()[0].words(), ["e"]);
    }

    #[test]
    fn words_split_on_anything_but_letters_and_digits() {
        assert_eq!(
            words("Node.js, C++ & Größe-42_x"),
            ["node", "js", "c", "größe", "42", "x"]
        );
    }
}
