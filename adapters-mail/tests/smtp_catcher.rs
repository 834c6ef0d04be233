#![allow(clippy::unwrap_used, clippy::expect_used)]
//! Sends through the real local mail catcher (maildev) and reads the message
//! back from its REST API. Needs `app-server/dev/services.sh up`.

use adapters_mail::{SmtpMailer, SmtpSecurity, SmtpSettings};
use domain::account::Email;
use ports::mailer::{Mailer, OutgoingMail};
use std::time::Duration;

fn env_or(key: &str, default: &str) -> String {
    std::env::var(key).unwrap_or_else(|_| default.to_string())
}

#[tokio::test]
async fn a_japanese_mail_reaches_the_catcher_intact() {
    let settings = SmtpSettings {
        host: env_or("SMTP_HOST", "127.0.0.1"),
        port: env_or("SMTP_PORT", "1025").parse().unwrap(),
        security: SmtpSecurity::None,
        credentials: None,
        from: "ぐんまクラウドファンディング <no-reply@cf.example.jp>".into(),
    };
    let mailer = SmtpMailer::new(&settings).unwrap();
    let to = format!("mail-test-{}@example.jp", uuid::Uuid::new_v4().simple());

    mailer
        .send(OutgoingMail {
            to: Email::parse(&to).unwrap(),
            subject: "【テスト】会員登録のご案内".into(),
            text_body:
                "以下のURLからパスワードを設定してください。\nhttp://127.0.0.1:8080/signup/password/?activate=abc\n"
                    .into(),
        })
        .await
        .unwrap();

    let catcher = env_or("MAILDEV_URL", "http://127.0.0.1:1080");
    let mail = poll_for(&catcher, &to).await;
    assert_eq!(mail["subject"], "【テスト】会員登録のご案内");
    assert!(mail["text"].as_str().unwrap().contains("パスワードを設定してください"));
    assert!(mail["text"].as_str().unwrap().contains("/signup/password/?activate=abc"));
    assert_eq!(mail["from"][0]["name"], "ぐんまクラウドファンディング");
}

async fn poll_for(catcher: &str, to: &str) -> serde_json::Value {
    let client = reqwest::Client::new();
    for _ in 0..50 {
        let mails: Vec<serde_json::Value> =
            client.get(format!("{catcher}/api/email")).send().await.unwrap().json().await.unwrap();
        if let Some(mail) =
            mails.into_iter().find(|m| m["to"].as_array().is_some_and(|t| t.iter().any(|a| a["address"] == to)))
        {
            return mail;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("no mail to {to} arrived at {catcher}");
}
