//! Where digests go: an SMTP server, or, with no SMTP URL configured, one `.eml` file per message
//! in the mail dir.

use std::path::{Path, PathBuf};
use std::time::Duration;

use lettre::address::AddressError;
use lettre::message::Mailbox;
use lettre::transport::smtp;
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};
use tokio::io::AsyncWriteExt;

use crate::config::Config;
use crate::domain::time::now_ms;

/// How long one SMTP exchange may take before the send counts as failed.
const SMTP_TIMEOUT: Duration = Duration::from_secs(30);

/// Sends finished messages from the configured sender address.
pub struct Mailer {
    sender: Mailbox,
    outlet: Outlet,
}

enum Outlet {
    Smtp(Box<AsyncSmtpTransport<Tokio1Executor>>),
    MailDir(PathBuf),
}

/// Why a message was not sent.
#[derive(Debug, thiserror::Error)]
pub enum MailError {
    #[error("invalid sender address: {0}")]
    Sender(AddressError),
    #[error("invalid recipient address: {0}")]
    Recipient(AddressError),
    #[error("the message could not be built: {0}")]
    Build(lettre::error::Error),
    #[error("invalid SMTP URL: {0}")]
    Url(smtp::Error),
    #[error("SMTP delivery failed: {0}")]
    Smtp(smtp::Error),
    #[error("writing to the mail dir failed: {0}")]
    Io(#[from] std::io::Error),
}

impl MailError {
    /// True when sending the same message again cannot succeed (a bad address, a 5xx answer),
    /// so retrying at once would only repeat the failure.
    pub fn is_permanent(&self) -> bool {
        match self {
            MailError::Sender(_) | MailError::Recipient(_) | MailError::Build(_) => true,
            MailError::Smtp(err) => err.is_permanent(),
            MailError::Url(_) | MailError::Io(_) => false,
        }
    }
}

impl Mailer {
    /// The mailer the configuration asks for: SMTP when `SIGNALWATCH_SMTP_URL` is set, else the
    /// mail dir; from `SIGNALWATCH_MAIL_FROM`.
    pub fn from_config(config: &Config) -> Result<Mailer, MailError> {
        match &config.smtp_url {
            Some(url) => Mailer::smtp(&config.mail_from, &url.0),
            None => Mailer::mail_dir(&config.mail_from, config.mail_dir.clone()),
        }
    }

    /// A mailer for the SMTP server at `url`: `smtp://host:port` (plain),
    /// `smtp://host?tls=required` (STARTTLS) or `smtps://user:pass@host` (implicit TLS), with
    /// credentials from the URL's user info. No connection is made until the first send.
    pub fn smtp(sender: &str, url: &str) -> Result<Mailer, MailError> {
        let transport = AsyncSmtpTransport::<Tokio1Executor>::from_url(url)
            .map_err(MailError::Url)?
            .timeout(Some(SMTP_TIMEOUT))
            .build();
        Ok(Mailer {
            sender: sender.parse().map_err(MailError::Sender)?,
            outlet: Outlet::Smtp(Box::new(transport)),
        })
    }

    /// A mailer writing `<epoch_ms>-<uuid>.eml` files into `dir`, created when needed.
    pub fn mail_dir(sender: &str, dir: PathBuf) -> Result<Mailer, MailError> {
        Ok(Mailer {
            sender: sender.parse().map_err(MailError::Sender)?,
            outlet: Outlet::MailDir(dir),
        })
    }

    /// The `From` address of every message.
    pub fn sender(&self) -> &Mailbox {
        &self.sender
    }

    /// Sends one message. `Ok` means the SMTP server accepted it, or its file is complete in
    /// the mail dir.
    pub async fn send(&self, message: &Message) -> Result<(), MailError> {
        match &self.outlet {
            Outlet::Smtp(transport) => transport
                .send(message.clone())
                .await
                .map(|_| ())
                .map_err(MailError::Smtp),
            Outlet::MailDir(dir) => {
                write_eml(dir, &message.formatted()).await?;
                Ok(())
            }
        }
    }
}

/// Writes one `.eml` file. The bytes go to a hidden temporary name first and are renamed into
/// place once complete and synced, so a reader listing `*.eml` never sees half a message.
async fn write_eml(dir: &Path, bytes: &[u8]) -> Result<PathBuf, std::io::Error> {
    tokio::fs::create_dir_all(dir).await?;
    let name = format!("{}-{}.eml", now_ms(), uuid::Uuid::new_v4());
    let partial = dir.join(format!(".{name}.partial"));
    let path = dir.join(name);
    let written = async {
        let mut file = tokio::fs::File::create(&partial).await?;
        file.write_all(bytes).await?;
        file.sync_all().await?;
        tokio::fs::rename(&partial, &path).await
    }
    .await;
    if let Err(err) = written {
        let _ = tokio::fs::remove_file(&partial).await;
        return Err(err);
    }
    Ok(path)
}

#[cfg(test)]
mod tests;
