//! Outgoing mail over SMTP with lettre: the local mail catcher in development,
//! a real relay (STARTTLS or implicit TLS, with credentials) in production.

use async_trait::async_trait;
use lettre::message::header::{Header, HeaderName, HeaderValue};
use lettre::message::{header::ContentType, Mailbox, MultiPart};
use lettre::transport::smtp::authentication::Credentials;
use lettre::Address;
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};
use ports::mailer::{MailError, Mailer, OutgoingMail, RichMail, RichMailer};

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

/// `List-Unsubscribe` (RFC 2369): mail programs show an "unsubscribe" button that opens the opt-out page.
#[derive(Debug, Clone)]
struct ListUnsubscribe(String);

impl Header for ListUnsubscribe {
    fn name() -> HeaderName {
        HeaderName::new_from_ascii_str("List-Unsubscribe")
    }

    fn parse(s: &str) -> Result<Self, Box<dyn std::error::Error + Send + Sync>> {
        Ok(Self(s.trim().trim_start_matches('<').trim_end_matches('>').to_string()))
    }

    fn display(&self) -> HeaderValue {
        HeaderValue::new(Self::name(), format!("<{}>", self.0))
    }
}

fn delivery_error(e: &lettre::transport::smtp::Error) -> MailError {
    tracing::warn!(error = %e, permanent = e.is_permanent(), "SMTP delivery failed");
    // A 5xx answer (a recipient the relay refuses) will not change on a retry.
    if e.is_permanent() {
        MailError::Rejected(e.to_string())
    } else {
        MailError::Delivery(e.to_string())
    }
}

impl SmtpMailer {
    fn rich_message(&self, mail: RichMail) -> Result<Message, MailError> {
        let to: Address = mail.to.as_str().parse().map_err(|e| MailError::Rejected(format!("recipient: {e}")))?;
        let mut builder = Message::builder()
            .from(self.from.clone())
            .to(Mailbox::new(None, to))
            .subject(mail.subject)
            .message_id(Some(mail.message_id));
        if let Some(url) = mail.unsubscribe_url {
            builder = builder.header(ListUnsubscribe(url));
        }
        builder
            .multipart(MultiPart::alternative_plain_html(mail.text_body, mail.html_body))
            .map_err(|e| MailError::Rejected(e.to_string()))
    }
}

/// Whether the relay may have taken a message whose send failed. An answer
/// code (4xx/5xx), a failed connect or TLS handshake means it did not; a
/// session that broke off (network error, timeout, an unreadable answer)
/// may have ended after the data was sent. lettre names the connect failure
/// only in its message ("Connection error").
fn may_have_been_accepted(e: &lettre::transport::smtp::Error) -> bool {
    !(e.is_transient() || e.is_permanent() || e.is_tls() || e.to_string().starts_with("Connection error"))
}

#[async_trait]
impl RichMailer for SmtpMailer {
    async fn send_rich(&self, mail: RichMail) -> Result<(), MailError> {
        let message = self.rich_message(mail)?;
        self.transport.send(message).await.map_err(|e| {
            if may_have_been_accepted(&e) {
                tracing::warn!(error = %e, "SMTP session broke off; the relay may have the message");
                MailError::Uncertain(e.to_string())
            } else {
                delivery_error(&e)
            }
        })?;
        Ok(())
    }
}

#[async_trait]
impl Mailer for SmtpMailer {
    async fn send(&self, mail: OutgoingMail) -> Result<(), MailError> {
        // A bare address, never a "Name <addr>" form: `Email::parse` only lets
        // through addresses lettre's `Address` accepts (tests below).
        let to: Address = mail.to.as_str().parse().map_err(|e| MailError::Rejected(format!("recipient: {e}")))?;
        let to = Mailbox::new(None, to);
        let message = Message::builder()
            .from(self.from.clone())
            .to(to)
            .subject(mail.subject)
            .header(ContentType::TEXT_PLAIN)
            .body(mail.text_body)
            .map_err(|e| MailError::Rejected(e.to_string()))?;
        self.transport.send(message).await.map_err(|e| delivery_error(&e))?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use std::str::FromStr;

    use domain::account::Email;
    use domain::shared_rules::EMAIL_REFUSED;
    use lettre::Address;
    use proptest::prelude::*;

    /// Addresses that pass the old, looser check and that the mailer cannot
    /// send to: the domain must refuse every one.
    const UNSENDABLE: [&str; 10] = [
        "a,b@example.com",
        "a;b@example.com",
        "<a@example.com>",
        "a<b@example.com",
        "a>b@example.com",
        "a b@example.com",
        "\"a b\"@example.com",
        "a@b@example.com",
        "a(b)@example.com",
        "a:b@example.com",
    ];

    #[test]
    fn a_rich_mail_has_a_text_and_an_html_part_the_sender_and_the_unsubscribe_header() {
        let mailer = super::SmtpMailer::new(&super::SmtpSettings {
            host: "127.0.0.1".into(),
            port: 1025,
            security: super::SmtpSecurity::None,
            credentials: None,
            from: "ぐんまクラウドファンディング <no-reply@example.jp>".into(),
        })
        .unwrap();
        let message = mailer
            .rich_message(ports::mailer::RichMail {
                to: Email::parse("taro@example.jp").unwrap(),
                subject: "お知らせ".into(),
                text_body: "本文です".into(),
                html_body: "<p>本文です</p>".into(),
                unsubscribe_url: Some("https://cf.example.jp/mail/optout/?token=t".into()),
                message_id: "<mass-1-2@cf.example.jp>".into(),
            })
            .unwrap();
        let raw = String::from_utf8(message.formatted()).unwrap();
        assert!(raw.contains("multipart/alternative"), "{raw}");
        assert!(raw.contains("text/plain") && raw.contains("text/html"), "{raw}");
        assert!(raw.contains("List-Unsubscribe: <https://cf.example.jp/mail/optout/?token=t>"), "{raw}");
        assert!(raw.contains("Message-ID: <mass-1-2@cf.example.jp>"), "{raw}");
        assert!(raw.contains("no-reply@example.jp"), "{raw}");
    }

    #[tokio::test]
    async fn a_relay_that_cannot_be_reached_did_not_take_the_mail() {
        use ports::mailer::RichMailer;
        let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let mailer = super::SmtpMailer::new(&super::SmtpSettings {
            host: "127.0.0.1".into(),
            port: closed,
            security: super::SmtpSecurity::None,
            credentials: None,
            from: "no-reply@example.jp".into(),
        })
        .unwrap();
        let outcome = mailer
            .send_rich(ports::mailer::RichMail {
                to: Email::parse("taro@example.jp").unwrap(),
                subject: "s".into(),
                text_body: "t".into(),
                html_body: "<p>t</p>".into(),
                unsubscribe_url: None,
                message_id: "<m@example.jp>".into(),
            })
            .await;
        assert!(matches!(outcome, Err(ports::mailer::MailError::Delivery(_))), "{outcome:?}");
    }

    #[test]
    fn addresses_lettre_cannot_send_to_are_refused_by_the_domain() {
        for bad in UNSENDABLE.iter().chain(EMAIL_REFUSED.iter()) {
            assert!(Email::parse(bad).is_err(), "{bad}");
        }
    }

    /// Local parts drawn from every printable ASCII character (so that both
    /// accepted and refused addresses come up), and domains with and without
    /// proper labels.
    fn address() -> impl Strategy<Value = String> {
        let local = prop_oneof![
            3 => "[a-z0-9+_-]{1,10}(\\.[a-z0-9+_'-]{1,10}){0,2}",
            1 => "[a-z0-9.+_-]{1,20}",
            1 => "[!-~]{1,20}",
            1 => "[a-z]{1,5}[,;<> ()\"\\\\][a-z]{1,5}"];
        let domain = prop_oneof![
            3 => "[a-z0-9]{1,10}(\\.[a-z0-9]{1,10}){1,3}",
            1 => "[a-z0-9]{1,10}(\\.[a-z0-9-]{1,10}){1,3}",
            1 => "[a-z0-9-]{1,10}\\.[a-z]{2,3}",
            1 => "[!-~]{1,15}",
        ];
        (local, domain).prop_map(|(l, d)| format!("{l}@{d}"))
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        #[test]
        fn every_address_the_domain_accepts_lettre_accepts(raw in address()) {
            if let Ok(email) = Email::parse(&raw) {
                prop_assert!(Address::from_str(email.as_str()).is_ok(), "lettre refused {}", email);
            }
        }
    }

    #[test]
    fn the_generator_reaches_both_accepted_and_refused_addresses() {
        use proptest::strategy::ValueTree;
        use proptest::test_runner::TestRunner;
        let mut runner = TestRunner::deterministic();
        let (mut accepted, mut refused) = (0, 0);
        for _ in 0..500 {
            let raw = address().new_tree(&mut runner).unwrap().current();
            if Email::parse(&raw).is_ok() {
                accepted += 1;
            } else {
                refused += 1;
            }
        }
        assert!(accepted > 50 && refused > 50, "accepted {accepted}, refused {refused}");
    }
}
