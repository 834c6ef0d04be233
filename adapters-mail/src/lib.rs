//! Outgoing mail over SMTP with lettre: the local mail catcher in development,
//! a real relay (STARTTLS or implicit TLS, with credentials) in production.

use async_trait::async_trait;
use lettre::message::{header::ContentType, Mailbox};
use lettre::transport::smtp::authentication::Credentials;
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};
use ports::mailer::{MailError, Mailer, OutgoingMail};

/// How the connection to the relay is secured.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SmtpSecurity {
    /// Plain SMTP: only for a catcher on loopback.
    None,
    StartTls,
    Tls,
}

#[derive(Debug, Clone)]
pub struct SmtpSettings {
    pub host: String,
    pub port: u16,
    pub security: SmtpSecurity,
    pub credentials: Option<(String, String)>,
    /// The From header, e.g. `ぐんまクラウドファンディング <no-reply@example.jp>`.
    pub from: String,
}

#[derive(Debug, thiserror::Error)]
pub enum SmtpSetupError {
    #[error("invalid sender address {0:?}")]
    Sender(String),
    #[error("invalid SMTP relay settings: {0}")]
    Relay(#[from] lettre::transport::smtp::Error),
}

#[derive(Clone)]
pub struct SmtpMailer {
    transport: AsyncSmtpTransport<Tokio1Executor>,
    from: Mailbox,
}

impl SmtpMailer {
    pub fn new(settings: &SmtpSettings) -> Result<Self, SmtpSetupError> {
        let from = settings.from.parse().map_err(|_| SmtpSetupError::Sender(settings.from.clone()))?;
        let mut builder = match settings.security {
            SmtpSecurity::None => AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(&settings.host),
            SmtpSecurity::StartTls => AsyncSmtpTransport::<Tokio1Executor>::starttls_relay(&settings.host)?,
            SmtpSecurity::Tls => AsyncSmtpTransport::<Tokio1Executor>::relay(&settings.host)?,
        }
        .port(settings.port);
        if let Some((user, password)) = &settings.credentials {
            builder = builder.credentials(Credentials::new(user.clone(), password.clone()));
        }
        Ok(Self { transport: builder.build(), from })
    }
}

#[async_trait]
impl Mailer for SmtpMailer {
    async fn send(&self, mail: OutgoingMail) -> Result<(), MailError> {
        let to: Mailbox = mail.to.as_str().parse().map_err(|e| MailError::Delivery(format!("recipient: {e}")))?;
        let message = Message::builder()
            .from(self.from.clone())
            .to(to)
            .subject(mail.subject)
            .header(ContentType::TEXT_PLAIN)
            .body(mail.text_body)
            .map_err(|e| MailError::Delivery(e.to_string()))?;
        self.transport.send(message).await.map_err(|e| {
            tracing::warn!(error = %e, "SMTP delivery failed");
            MailError::Delivery(e.to_string())
        })?;
        Ok(())
    }
}
