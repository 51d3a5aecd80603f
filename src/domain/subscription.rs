//! A team's subscription state, which decides whether its keys may use the API.

/// Subscription states a team can be in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SubscriptionStatus {
    Active,
    Trialing,
    PastDue,
    Canceled,
}

impl SubscriptionStatus {
    /// Every accepted wire value.
    pub const NAMES: &'static str = "active, trialing, past_due, canceled";

    /// Parses a wire value such as `past_due`.
    pub fn parse(input: &str) -> Option<SubscriptionStatus> {
        match input {
            "active" => Some(SubscriptionStatus::Active),
            "trialing" => Some(SubscriptionStatus::Trialing),
            "past_due" => Some(SubscriptionStatus::PastDue),
            "canceled" => Some(SubscriptionStatus::Canceled),
            _ => None,
        }
    }

    /// The wire value.
    pub fn as_str(self) -> &'static str {
        match self {
            SubscriptionStatus::Active => "active",
            SubscriptionStatus::Trialing => "trialing",
            SubscriptionStatus::PastDue => "past_due",
            SubscriptionStatus::Canceled => "canceled",
        }
    }

    /// Only active and trialing teams may call the API.
    pub fn allows_access(self) -> bool {
        matches!(
            self,
            SubscriptionStatus::Active | SubscriptionStatus::Trialing
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_active_and_trialing_subscriptions_allow_access() {
        let allowed: Vec<_> = ["active", "trialing", "past_due", "canceled"]
            .iter()
            .filter_map(|s| SubscriptionStatus::parse(s))
            .filter(|s| s.allows_access())
            .map(|s| s.as_str())
            .collect();
        assert_eq!(allowed, ["active", "trialing"]);
    }

    #[test]
    fn an_unknown_status_is_refused() {
        assert_eq!(SubscriptionStatus::parse("paused"), None);
    }
}
