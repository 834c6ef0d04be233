//! The admin audit log against PostgreSQL: entries read back newest first with
//! their actor's address, and an oversized detail is refused by name.
#![allow(clippy::unwrap_used, clippy::expect_used)]
use adapters_postgres::testing::TestDatabase;
use adapters_postgres::PgAuditLog;
use diesel::{Connection, PgConnection, RunQueryDsl};
use domain::ids::{SaleId, UserId};
use ports::admin::audit::{AdminActionKind, AuditLog, NewAdminAction};
use ports::RepoError;
use serde_json::json;

fn add_admin(url: &str) {
    let mut conn = PgConnection::establish(url).unwrap();
    diesel::sql_query(
        "INSERT INTO users (id, email, status, password_hash) VALUES (7, 'admin@example.jp', 'member', 'x')",
    )
    .execute(&mut conn)
    .unwrap();
}

#[tokio::test]
async fn entries_read_back_newest_first_with_who_did_them() {
    let (db, pool) = TestDatabase::create().unwrap();
    add_admin(&db.url);
    let log = PgAuditLog::new(pool);

    let resend = NewAdminAction {
        target_email: Some("guest@example.jp".into()),
        ..NewAdminAction::new(UserId(7), AdminActionKind::RegisterMailResent)
    };
    let mail = NewAdminAction {
        mail_id: None,
        detail: json!({"recipients": 12}),
        ..NewAdminAction::new(UserId(7), AdminActionKind::MailSent)
    };
    let first = log.record(resend).await.unwrap();
    let second = log.record(mail).await.unwrap();

    let recent = log.recent(10).await.unwrap();
    assert_eq!(recent.iter().map(|e| e.id).collect::<Vec<_>>(), vec![second, first]);
    assert_eq!(recent[0].action, "mail_sent");
    assert_eq!(recent[0].detail, json!({"recipients": 12}));
    assert_eq!(recent[1].target_email.as_deref(), Some("guest@example.jp"));
    assert!(recent.iter().all(|e| e.actor_email == "admin@example.jp"));
    assert_eq!(log.recent(1).await.unwrap().len(), 1);
}

#[tokio::test]
async fn an_unknown_sale_or_an_oversized_detail_is_refused_by_its_rule() {
    let (db, pool) = TestDatabase::create().unwrap();
    add_admin(&db.url);
    let log = PgAuditLog::new(pool);

    let unknown_sale = NewAdminAction {
        sale_id: Some(SaleId(999)),
        ..NewAdminAction::new(UserId(7), AdminActionKind::RefundRequested)
    };
    let huge = NewAdminAction {
        detail: json!({"reason": "x".repeat(5000)}),
        ..NewAdminAction::new(UserId(7), AdminActionKind::RefundRequested)
    };

    let refused = log.record(unknown_sale).await.unwrap_err();
    assert!(matches!(&refused, RepoError::Constraint(v) if v.name == "admin_actions_sale_id_fkey"), "{refused:?}");
    let refused = log.record(huge).await.unwrap_err();
    assert!(matches!(&refused, RepoError::Constraint(v) if v.name == "admin_actions_detail_check"), "{refused:?}");
    assert!(log.recent(10).await.unwrap().is_empty());
}
