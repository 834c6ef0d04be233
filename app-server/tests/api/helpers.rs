use std::time::Duration;

use adapters_postgres::testing::TestDatabase;
use app_server::config::Settings;
use app_server::startup::Application;

pub struct TestApp {
    pub address: String,
    pub client: reqwest::Client,
    pub db: TestDatabase,
    maildev: String,
    server: actix_web::dev::ServerHandle,
}

impl Drop for TestApp {
    /// Stops the server before the database is dropped, so no worker thread
    /// is still talking to a vanished database when the test process exits.
    fn drop(&mut self) {
        drop(self.server.stop(false));
    }
}

/// Starts the application on a free port against a fresh database.
pub async fn spawn_app() -> TestApp {
    spawn_app_with(|_| {}).await
}

/// Like `spawn_app`, with settings adjusted by `adjust` first.
pub async fn spawn_app_with(adjust: impl FnOnce(&mut Settings)) -> TestApp {
    app_server::telemetry::init();
    let (db, _pool) = TestDatabase::create().expect("test database");
    let mut settings = Settings::from_env().expect("settings");
    settings.port = 0;
    settings.database_url = db.url.clone();
    settings.database_pool_size = 4;
    settings.frontend_dir = "does-not-exist".into();
    // The cheapest bcrypt cost: these tests are about behaviour, not hashing strength.
    settings.bcrypt_cost = 4;
    settings.media_dir = std::env::temp_dir().join(format!("media-{}", db.name));
    // Campaigns close only where a test asks for it (`campaign.rs`): the demo's ended projects stay as seeded.
    settings.campaign_close_seconds = 0;
    adjust(&mut settings);
    let app = Application::build(settings).await.expect("application");
    let address = format!("http://127.0.0.1:{}", app.port());
    let server = app.handle();
    tokio::spawn(app.run_until_stopped());
    TestApp {
        address,
        client: reqwest::Client::new(),
        db,
        server,
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

    pub async fn get_with_token(&self, path: &str, token: &str) -> reqwest::Response {
        self.client.get(format!("{}{path}", self.address)).bearer_auth(token).send().await.expect("request")
    }

    pub async fn post_json_with_token(&self, path: &str, token: &str, body: &serde_json::Value) -> reqwest::Response {
        self.client.post(format!("{}{path}", self.address)).bearer_auth(token).json(body).send().await.expect("request")
    }

    /// Signs `email` up through the API and the mailed key, with `password`.
    pub async fn register_member(&self, email: &str, password: &str) {
        let resp = self.post_json("/v1/user/register", &serde_json::json!({"flag": 100, "email": email})).await;
        assert_eq!(resp.status(), 200);
        let mails = self.mails_to(email, 1).await;
        let key = link_key(mails.last().expect("activation mail"), "?activate=");
        let resp = self
            .post_json(
                "/v1/user/registPassword",
                &serde_json::json!({"flag": 1, "password": password, "activatekey": key}),
            )
            .await;
        assert_eq!(resp.status(), 200);
    }

    /// Logs in and returns the token.
    pub async fn login(&self, email: &str, password: &str) -> String {
        let resp = self.post_json("/v1/user/login", &serde_json::json!({"email": email, "password": password})).await;
        assert_eq!(resp.status(), 200, "login of {email}");
        let body: serde_json::Value = resp.json().await.expect("json");
        body["token"].as_str().expect("token").to_string()
    }

    /// Runs SQL against the test database.
    pub fn execute(&self, sql: &str) {
        use diesel::{Connection, RunQueryDsl};
        let mut conn = diesel::PgConnection::establish(&self.db.url).expect("connect");
        diesel::sql_query(sql).execute(&mut conn).expect("sql");
    }

    /// Mails the catcher received for `to` (any letter case), oldest first,
    /// waiting up to 5 s for at least `at_least`.
    pub async fn mails_to(&self, to: &str, at_least: usize) -> Vec<serde_json::Value> {
        self.mails_until(to, |found| found.len() >= at_least).await
    }

    /// The mails to `to` once one of them satisfies `wanted` (or after 20 s): a count is not enough for a demo
    /// address that other tests mail at the same time.
    pub async fn mails_with(&self, to: &str, wanted: impl Fn(&serde_json::Value) -> bool) -> Vec<serde_json::Value> {
        self.mails_until(to, |found| found.iter().any(&wanted)).await
    }

    async fn mails_until(&self, to: &str, done: impl Fn(&[serde_json::Value]) -> bool) -> Vec<serde_json::Value> {
        let mut found = Vec::new();
        // Up to 20 s: mail goes through the job queue, and the whole suite shares two cores.
        for _ in 0..200 {
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
            if done(&found) {
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
    link_key(mail, "?activate=")
}

/// The key following `marker` (e.g. `?secret=`) in a mail's text.
pub fn link_key(mail: &serde_json::Value, marker: &str) -> String {
    let text = mail["text"].as_str().expect("text body");
    let start = text.find(marker).expect("link in mail") + marker.len();
    text[start..].split_whitespace().next().expect("key").to_string()
}

/// Like `spawn_app_with`, with the demo data loaded, media in a temporary
/// directory and no read cache (each test sees its own writes at once).
pub async fn spawn_demo_app_with(adjust: impl FnOnce(&mut Settings)) -> TestApp {
    let media = std::env::temp_dir().join(format!("cf-media-{}", uuid::Uuid::new_v4().simple()));
    let media_for_app = media.clone();
    let app = spawn_app_with(move |s| {
        s.catalog_cache_ttl_ms = 0;
        s.media_dir = media_for_app;
        adjust(s);
    })
    .await;
    let mut settings = Settings::from_env().expect("settings");
    settings.database_url = app.db.url.clone();
    settings.media_dir = media;
    app_server::demo::seed(&settings).await.expect("demo seed");
    // The seed writes through the operators' use cases, so the log holds the demo administrator's set-up;
    // each test reads the log of what it did itself (`demo.rs` pins the seed's own entries).
    use diesel::{Connection, RunQueryDsl};
    let mut conn = diesel::PgConnection::establish(&app.db.url).expect("connect");
    diesel::sql_query("DELETE FROM admin_actions").execute(&mut conn).expect("the seed's log left out");
    app
}

pub async fn spawn_demo_app() -> TestApp {
    spawn_demo_app_with(|_| {}).await
}

impl TestApp {
    /// The demo project's id from the home list.
    pub async fn project_id(&self, slug: &str) -> i64 {
        let body: serde_json::Value = self.get("/v1/helper/get/master").await.json().await.expect("json");
        body["master"]["projects"]
            .as_array()
            .expect("projects")
            .iter()
            .find(|p| p["slug"] == slug)
            .and_then(|p| p["id"].as_i64())
            .expect("demo project")
    }

    /// One number (a column named `value`) from SQL against the test database.
    pub fn query_i64(&self, sql: &str) -> i64 {
        query_i64_at(&self.db.url, sql)
    }

    /// One text value (a column named `value`) from SQL against the test database.
    pub fn query_text(&self, sql: &str) -> String {
        use diesel::{Connection, RunQueryDsl};
        #[derive(diesel::QueryableByName)]
        struct Value {
            #[diesel(sql_type = diesel::sql_types::Text)]
            value: String,
        }
        let mut conn = diesel::PgConnection::establish(&self.db.url).expect("connect");
        diesel::sql_query(sql).get_result::<Value>(&mut conn).expect("sql").value
    }

    /// `app-server reconcile` over the test's database: the provider and our sales agree on every payment
    /// (the demo data's payments, never made at the provider, are listed apart).
    pub fn assert_reconciled(&self) {
        let (printed, success) = self.reconcile();
        assert_eq!(printed.lines().last(), Some("differences: 0"), "{printed}");
        assert!(success, "{printed}");
    }

    /// What `app-server reconcile` prints over the test's database, and whether it exited 0.
    pub fn reconcile(&self) -> (String, bool) {
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_app-server"))
            .arg("reconcile")
            .env("DATABASE_URL", &self.db.url)
            .env("RUST_LOG", "error")
            .output()
            .expect("reconcile runs");
        let printed = format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
        (printed, output.status.success())
    }
}

/// One number (a column named `value`) from SQL against the database at `url`.
pub fn query_i64_at(url: &str, sql: &str) -> i64 {
    use diesel::{Connection, RunQueryDsl};
    #[derive(diesel::QueryableByName)]
    struct Value {
        #[diesel(sql_type = diesel::sql_types::BigInt)]
        value: i64,
    }
    let mut conn = diesel::PgConnection::establish(url).expect("connect");
    diesel::sql_query(sql).get_result::<Value>(&mut conn).expect("sql").value
}
