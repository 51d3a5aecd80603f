//! How a person is named outside the service: first name plus last initial (GDPR masking), in
//! the job-change lists and in the events delivered about them alike.

/// First name plus last initial: `Jane Doe` → `Jane D.`; a single name stays as it is.
pub fn mask_person_name(name: &str) -> String {
    let mut parts = name.split_whitespace();
    let first = parts.next().unwrap_or("");
    match parts.last().and_then(|last| last.chars().next()) {
        Some(initial) => format!("{first} {initial}."),
        None => first.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_person_is_shown_by_first_name_and_last_initial() {
        assert_eq!(mask_person_name("Jane Mary Doe"), "Jane D.");
        assert_eq!(mask_person_name("Cher"), "Cher");
    }
}
