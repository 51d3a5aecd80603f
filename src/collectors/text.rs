//! Job descriptions as plain text: boards send them as HTML (Greenhouse even entity-escapes the
//! HTML once more); signals carry the words, one paragraph or list item per line.

use scraper::{Html, Node};

/// Elements that start a new line of text.
const BLOCKS: [&str; 16] = [
    "p",
    "div",
    "br",
    "li",
    "ul",
    "ol",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "tr",
    "section",
    "article",
    "blockquote",
];

/// The text of an HTML fragment: entities decoded, tags dropped, blocks on lines of their own,
/// runs of spaces as one.
pub fn html_to_text(html: &str) -> String {
    let fragment = Html::parse_fragment(html);
    let mut raw = String::new();
    for node in fragment.tree.root().descendants() {
        match node.value() {
            Node::Text(text) => raw.push_str(text),
            Node::Element(element) if BLOCKS.contains(&element.name()) => raw.push('\n'),
            _ => {}
        }
    }
    raw.lines()
        .map(|line| line.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|line| !line.is_empty())
        .collect::<Vec<_>>()
        .join("\n")
}

/// HTML whose markup was itself entity-escaped (`&lt;p&gt;…`), decoded to the text.
pub fn escaped_html_to_text(escaped: &str) -> String {
    let markup: String = Html::parse_fragment(escaped)
        .root_element()
        .text()
        .collect();
    html_to_text(&markup)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paragraphs_and_items_become_lines_and_inline_tags_vanish() {
        assert_eq!(
            html_to_text(
                "<p>We build <strong>robots</strong>.</p><ul><li>Rust</li><li>Go</li></ul>"
            ),
            "We build robots.\nRust\nGo"
        );
        assert_eq!(html_to_text("plain   text &amp; more"), "plain text & more");
    }

    #[test]
    fn entity_escaped_markup_is_decoded_once_then_read() {
        assert_eq!(
            escaped_html_to_text(
                "&lt;p&gt;Own a &lt;em&gt;territory&lt;/em&gt; &amp;amp; grow.&lt;/p&gt;"
            ),
            "Own a territory & grow."
        );
    }
}
