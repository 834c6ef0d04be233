//! Mail goes through the durable queue: a relay outage delays mail and never
//! fails the request that sends it.

use serde_json::{json, Value};

use crate::helpers::{spawn_app_with, unique_email};

/// A loopback port with nothing listening: the relay is down.
fn closed_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.local_addr().unwrap().port()
}

#[tokio::test]
async fn a_relay_outage_queues_the_mail_and_the_signup_still_succeeds() {
    let port = closed_port();
    let app = spawn_app_with(|s| s.smtp.port = port).await;
    let email = unique_email("outage");

    let resp = app.post_json("/v1/user/register", &json!({"flag": 100, "email": email})).await;

    assert_eq!(resp.status(), 200);
    assert_eq!(resp.json::<Value>().await.unwrap()["userFlag"], 100);
    // The worker tried at once, failed, and the mail waits for its next try.
    let mut waiting = 0;
    for _ in 0..300 {
        waiting = app.query_i64(
            "SELECT count(*) AS value FROM background_jobs \
             WHERE kind = 'send_mail' AND status = 'queued' AND attempts >= 1 AND last_error IS NOT NULL \
             AND run_after > now()",
        );
        if waiting == 1 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert_eq!(waiting, 1, "the activation mail is queued for a retry");
}

#[tokio::test]
async fn a_sent_mail_leaves_no_one_time_link_in_the_queue() {
    let app = crate::helpers::spawn_app().await;
    let email = unique_email("scrub");

    app.post_json("/v1/user/register", &json!({"flag": 100, "email": email})).await;
    app.mails_to(&email, 1).await;

    let mut done = 0;
    for _ in 0..300 {
        done = app.query_i64(
            "SELECT count(*) AS value FROM background_jobs WHERE kind = 'send_mail' AND status = 'succeeded' \
             AND payload ? 'to' AND NOT payload ? 'text_body'",
        );
        if done == 1 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert_eq!(done, 1);
}
