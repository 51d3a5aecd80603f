//! E-mail alerts: a monitor's digest rendered as text and HTML, addressed to the monitor's creator,
//! and sent through SMTP or written as an `.eml` file into the mail dir.

mod mailer;
mod render;

use lettre::Message;
use lettre::message::{Mailbox, MultiPart};

pub use mailer::{MailError, Mailer};
pub use render::{DigestLine, RenderedDigest, render_digest};

/// Builds the message of one digest: `multipart/alternative` with the text part first, so that
/// clients showing only one part prefer the HTML one.
pub fn compose(from: &Mailbox, to: &str, digest: &RenderedDigest) -> Result<Message, MailError> {
    let to: Mailbox = to.parse().map_err(MailError::Recipient)?;
    // A Message-ID in the sender's own domain, as RFC 5322 recommends; lettre would otherwise
    // use `localhost`.
    let message_id = format!("<{}@{}>", uuid::Uuid::new_v4(), from.email.domain());
    Message::builder()
        .message_id(Some(message_id))
        .from(from.clone())
        .to(to)
        .subject(digest.subject.clone())
        .multipart(MultiPart::alternative_plain_html(
            digest.text.clone(),
            digest.html.clone(),
        ))
        .map_err(MailError::Build)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn digest() -> RenderedDigest {
        RenderedDigest {
            subject: "[signalwatch] Competitors: 1 new signal(s)".into(),
            text: "Funding round: Acme".into(),
            html: "<p>Funding round: Acme</p>".into(),
        }
    }

    fn sender() -> Mailbox {
        "alerts@signalwatch.local".parse().unwrap()
    }

    #[test]
    fn a_composed_digest_is_addressed_from_the_sender_to_the_creator() {
        let message = compose(&sender(), "ceo@acme.com", &digest()).unwrap();
        let raw = String::from_utf8(message.formatted()).unwrap();

        assert!(raw.contains("From: alerts@signalwatch.local\r\n"), "{raw}");
        assert!(raw.contains("To: ceo@acme.com\r\n"), "{raw}");
        assert!(
            raw.contains("Subject: [signalwatch] Competitors: 1 new signal(s)\r\n"),
            "{raw}"
        );
        assert!(raw.contains("@signalwatch.local>\r\n"), "{raw}");
        assert!(raw.contains("Content-Type: multipart/alternative"), "{raw}");
        assert!(
            raw.contains("Content-Type: text/plain; charset=utf-8"),
            "{raw}"
        );
        assert!(
            raw.contains("Content-Type: text/html; charset=utf-8"),
            "{raw}"
        );
    }

    #[test]
    fn an_invalid_recipient_address_is_a_permanent_failure() {
        let refused = compose(&sender(), "not an address", &digest());

        assert!(matches!(&refused, Err(MailError::Recipient(_))));
        assert!(refused.unwrap_err().is_permanent());
    }
}
