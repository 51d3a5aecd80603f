//! The text of an EDGAR document: its bytes decoded by the encoding its XML declaration names.

/// EDGAR serves its feeds as ISO-8859-1 and its filings as UTF-8; each says so in its XML
/// declaration. Latin-1 maps every byte to the code point of the same number.
pub fn decode(body: &[u8]) -> Result<String, String> {
    let head = &body[..body.len().min(100)];
    let head = String::from_utf8_lossy(head).to_ascii_lowercase();
    if head.contains("iso-8859-1") || head.contains("latin1") {
        return Ok(body.iter().map(|&b| char::from(b)).collect());
    }
    String::from_utf8(body.to_vec()).map_err(|_| "the document is not valid UTF-8".to_string())
}
