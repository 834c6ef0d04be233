use domain::account::Email;

/// One message to one recipient. Bodies are already rendered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutgoingMail {
    pub to: Email,
    pub subject: String,
    pub text_body: String,
}

#[derive(Debug, thiserror::Error)]
pub enum MailError {
    /// The relay refused or could not be reached; the caller may retry later.
    #[error("mail delivery failed: {0}")]
    Delivery(String),
}

#[cfg_attr(any(test, feature = "mocks"), mockall::automock)]
#[async_trait::async_trait]
pub trait Mailer: Send + Sync {
    /// MUST return only after the relay accepted the message, or an error.
    async fn send(&self, mail: OutgoingMail) -> Result<(), MailError>;
}
