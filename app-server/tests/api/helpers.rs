use std::time::Duration;

use adapters_postgres::testing::TestDatabase;
use app_server::config::Settings;
use app_server::startup::Application;

pub struct TestApp {
    pub address: String,
    pub client: reqwest::Client,
    pub db: TestDatabase,
    maildev: String,
}

/// Starts the application on a free port against a fresh database.
pub async fn spawn_app() -> TestApp {
    app_server::telemetry::init();
    let (db, _pool) = TestDatabase::create().expect("test database");
    let mut settings = Settings::from_env().expect("settings");
    settings.port = 0;
    settings.database_url = db.url.clone();
    settings.database_pool_size = 4;
    settings.frontend_dir = "does-not-exist".into();
    let app = Application::build(settings).await.expect("application");
    let address = format!("http://127.0.0.1:{}", app.port());
    tokio::spawn(app.run_until_stopped());
    TestApp {
        address,
        client: reqwest::Client::new(),
        db,
        maildev: std::env::var("MAILDEV_URL").unwrap_or_else(|_| "http://127.0.0.1:1080".into()),
    }
}

impl TestApp {
    pub async fn post_json(&self, path: &str, body: &serde_json::Value) -> reqwest::Response {
        self.client.post(format!("{}{path}", self.address)).json(body).send().await.expect("request")
    }

    pub async fn get(&self, path: &str) -> reqwest::Response {
        self.client.get(format!("{}{path}", self.address)).send().await.expect("request")
    }

    /// Mails the catcher received for `to` (any letter case), oldest first,
    /// waiting up to 5 s for at least `at_least`.
    pub async fn mails_to(&self, to: &str, at_least: usize) -> Vec<serde_json::Value> {
        let mut found = Vec::new();
        for _ in 0..50 {
            let all: Vec<serde_json::Value> =
                self.client.get(format!("{}/api/email", self.maildev)).send().await.unwrap().json().await.unwrap();
            found = all
                .into_iter()
                .filter(|m| {
                    m["to"].as_array().is_some_and(|t| {
                        t.iter().any(|a| a["address"].as_str().is_some_and(|addr| addr.eq_ignore_ascii_case(to)))
                    })
                })
                .collect();
            if found.len() >= at_least {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        found
    }
}

pub fn unique_email(prefix: &str) -> String {
    format!("{prefix}-{}@example.jp", uuid::Uuid::new_v4().simple())
}

/// The activation key from a mail body.
pub fn activation_key(mail: &serde_json::Value) -> String {
    let text = mail["text"].as_str().expect("text body");
    let start = text.find("?activate=").expect("activation link") + "?activate=".len();
    text[start..].split_whitespace().next().expect("key").to_string()
}
