//! Dashboard sign-in: a member asks for a link by e-mail address, the link (valid 15 minutes,
//! usable once) opens a session, and the session ends on sign-out or after 14 days unused.
//! Tokens and session ids leave the service once, in the link or the cookie, and are stored only
//! as SHA-256 hashes.

use lettre::Message;
use lettre::message::Mailbox;
use rand::RngCore;
use sha2::{Digest, Sha256};

use super::{ServiceError, TeamContext, Via};
use crate::config::Config;
use crate::delivery::email::{MailError, Mailer};
use crate::domain::time::{DAY_MS, now_ms};
use crate::store::Db;
use crate::store::sessions as store;

/// How long a sign-in link works.
pub const LINK_TTL_MS: i64 = 15 * 60 * 1000;
/// A session unused for this long is over.
pub const SESSION_IDLE_MS: i64 = 14 * DAY_MS;
/// A session's last use is written at most this often.
const TOUCH_EVERY_MS: i64 = 60 * 1000;
/// The subject of the sign-in e-mail.
pub const LINK_SUBJECT: &str = "[signalwatch] Sign-in link";

/// A sign-in link made for one member of one team.
#[derive(Debug, Clone)]
pub struct SignInLink {
    pub email: String,
    pub team_name: String,
    pub url: String,
}

/// A signed-in member: who they are, their team, and the token their forms must carry.
#[derive(Debug, Clone)]
pub struct Session {
    pub user_id: String,
    pub team_id: String,
    pub email: String,
    pub csrf_token: String,
}

impl Session {
    /// The use cases' view of this member: a change made with it is recorded as made through the
    /// dashboard, by the member's e-mail address.
    pub fn context(&self) -> TeamContext {
        TeamContext {
            team_id: self.team_id.clone(),
            user_id: self.user_id.clone(),
            via: Via::Dashboard,
            actor: self.email.clone(),
        }
    }
}

/// A session just opened: the cookie value (shown once) and the session.
#[derive(Debug, Clone)]
pub struct OpenedSession {
    pub cookie: String,
}

/// Makes a sign-in link for every membership of `email` (none for an unknown address), with
/// links under `public_url`.
pub async fn issue_links(
    db: &Db,
    email: &str,
    public_url: &str,
) -> Result<Vec<SignInLink>, ServiceError> {
    let email = email.trim();
    if email.is_empty() {
        return Ok(Vec::new());
    }
    let members = store::members_by_email(db, email).await?;
    let base = public_url.trim_end_matches('/');
    let mut links = Vec::with_capacity(members.len());
    for member in members {
        let token = random_token();
        let now = now_ms();
        store::insert_token(db, &hash(&token), &member.user_id, now, now + LINK_TTL_MS).await?;
        links.push(SignInLink {
            email: member.email,
            team_name: member.team_name,
            url: format!("{base}/app/login/{token}"),
        });
    }
    Ok(links)
}

/// Sends each link in its own e-mail through the configured mailer (SMTP or the mail dir).
pub async fn send_links(config: &Config, links: &[SignInLink]) -> Result<(), MailError> {
    if links.is_empty() {
        return Ok(());
    }
    let mailer = Mailer::from_config(config)?;
    for link in links {
        mailer.send(&compose(mailer.sender(), link)?).await?;
    }
    Ok(())
}

fn compose(from: &Mailbox, link: &SignInLink) -> Result<Message, MailError> {
    let to: Mailbox = link.email.parse().map_err(MailError::Recipient)?;
    let body = format!(
        "Hello,\n\nopen this link to sign in to the signalwatch dashboard of {team}:\n\n{url}\n\n\
         The link works once, within 15 minutes. If you did not ask for it, ignore this e-mail.\n",
        team = link.team_name,
        url = link.url,
    );
    Message::builder()
        .message_id(Some(format!(
            "<{}@{}>",
            uuid::Uuid::new_v4(),
            from.email.domain()
        )))
        .from(from.clone())
        .to(to)
        .subject(LINK_SUBJECT)
        .body(body)
        .map_err(MailError::Build)
}

/// Spends a sign-in token and opens a session; `NotFound` when the token is unknown, used or
/// older than 15 minutes.
pub async fn sign_in(db: &Db, token: &str) -> Result<OpenedSession, ServiceError> {
    let cookie = random_token();
    let csrf = random_token();
    match store::redeem_token(db, &hash(token), &hash(&cookie), &csrf, now_ms()).await? {
        Some(_) => Ok(OpenedSession { cookie }),
        None => Err(ServiceError::not_found(
            "This sign-in link is invalid, already used or expired",
        )),
    }
}

/// The session a cookie value belongs to, if it is live; its last use is recorded.
pub async fn current(db: &Db, cookie: &str) -> Result<Option<Session>, ServiceError> {
    let now = now_ms();
    let key = hash(cookie);
    let Some(row) = store::find_session(db, &key, now - SESSION_IDLE_MS).await? else {
        return Ok(None);
    };
    if now - row.last_seen_at >= TOUCH_EVERY_MS {
        store::touch_session(db, &key, now).await?;
    }
    Ok(Some(Session {
        user_id: row.user_id,
        team_id: row.team_id,
        email: row.email,
        csrf_token: row.csrf_token,
    }))
}

/// Ends the session of a cookie value (and sweeps sessions idle too long).
pub async fn sign_out(db: &Db, cookie: &str) -> Result<(), ServiceError> {
    store::delete_session(db, &hash(cookie), now_ms() - SESSION_IDLE_MS).await?;
    Ok(())
}

/// 32 random bytes as 64 hex characters.
fn random_token() -> String {
    let mut bytes = [0u8; 32];
    rand::rng().fill_bytes(&mut bytes);
    hex::encode(bytes)
}

fn hash(secret: &str) -> String {
    hex::encode(Sha256::digest(secret.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_long_random_and_distinct() {
        let (a, b) = (random_token(), random_token());
        assert_eq!(a.len(), 64);
        assert_ne!(a, b);
        assert_ne!(hash(&a), a);
    }

    #[test]
    fn the_sign_in_mail_carries_the_link_and_the_subject() {
        let from: Mailbox = "alerts@signalwatch.local".parse().unwrap();
        let link = SignInLink {
            email: "ana@acme.com".into(),
            team_name: "Acme".into(),
            url: "http://127.0.0.1:8080/app/login/abc".into(),
        };
        let raw = String::from_utf8(compose(&from, &link).unwrap().formatted()).unwrap();
        assert!(
            raw.contains("Subject: [signalwatch] Sign-in link\r\n"),
            "{raw}"
        );
        assert!(raw.contains("http://127.0.0.1:8080/app/login/abc"), "{raw}");
    }
}
