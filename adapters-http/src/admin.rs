//! The administrators' API (`/v1/admin/...` and the seed's admin paths). Every
//! handler takes [`AdminUser`], so anyone else gets the 404 of an unknown path.
//! This module holds what all admin screens share (the audit log), the
//! dashboard and the resend of registration mails.

use actix_web::web::{self, Json};
use actix_web::{get, post, HttpRequest};
use chrono::{DateTime, NaiveDate, SecondsFormat, Utc};
use domain::account::{AccountStatus, Email, ResendOutcome};
use domain::time::tokyo;
use ports::accounts::Signup;
use ports::admin::audit::{AdminActionEntry, AdminActionKind, AuditLog, NewAdminAction};
use ports::admin::dashboard::{
    AdminDashboard, Dashboard, FailedMail, FailedMailSource, PendingTransfer, ProjectFigures,
};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_actix_web::service_config::ServiceConfig;
use validator::Validate;

use crate::auth::AdminUser;
use crate::rate::{self, Subject};
use crate::{ApiError, ErrorBody};

pub(crate) fn config(cfg: &mut ServiceConfig) {
    cfg.service(recent_actions).service(dashboard).service(resend_register_mail);
}

/// An instant as the admin API writes it: ISO 8601, Tokyo time, whole seconds.
pub(crate) fn iso(instant: DateTime<Utc>) -> String {
    instant.with_timezone(&tokyo()).to_rfc3339_opts(SecondsFormat::Secs, true)
}

/// How many entries the dashboard shows unless asked for another number.
const DEFAULT_ACTIONS: u32 = 20;
/// The most entries one request returns.
const MAX_ACTIONS: u32 = 200;

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct ActionsQuery {
    /// 1 to 200 entries; 20 when absent.
    #[param(minimum = 1, maximum = 200)]
    limit: Option<u32>,
}

/// One admin action, as the dashboard lists it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct AdminActionDto {
    id: i64,
    /// The administrator's e-mail address.
    actor_email: String,
    /// `refund_requested`, `bulk_refund_started`, `mail_sent`, `register_mail_resent`, ...
    action: String,
    #[schema(required = true)]
    sale_id: Option<i64>,
    #[schema(required = true)]
    mail_id: Option<i64>,
    #[schema(required = true)]
    project_id: Option<i64>,
    #[schema(required = true)]
    target_email: Option<String>,
    /// Amounts, counts or a reason, by action.
    #[schema(value_type = Object)]
    detail: serde_json::Value,
    /// ISO 8601, Tokyo time.
    created_at: String,
}

impl From<AdminActionEntry> for AdminActionDto {
    fn from(entry: AdminActionEntry) -> Self {
        Self {
            id: entry.id,
            actor_email: entry.actor_email,
            action: entry.action,
            sale_id: entry.sale_id.map(|id| id.0),
            mail_id: entry.mail_id,
            project_id: entry.project_id.map(|id| id.0),
            target_email: entry.target_email,
            detail: entry.detail,
            created_at: iso(entry.created_at),
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct AdminActionsResponse {
    actions: Vec<AdminActionDto>,
}

/// The newest admin actions (the audit log), newest first.
#[utoipa::path(
    params(ActionsQuery),
    tag = "admin",
    responses(
        (status = 200, description = "The newest entries", body = AdminActionsResponse),
        (status = 400, description = "`malformed_request`: `limit` is not 1-200", body = ErrorBody),
        (status = 404, description = "`not_found`: not an administrator (as for an unknown path)", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
#[get("/admin/get/actions")]
async fn recent_actions(
    _admin: AdminUser,
    audit: web::Data<dyn AuditLog>,
    query: Result<web::Query<ActionsQuery>, actix_web::Error>,
) -> Result<Json<AdminActionsResponse>, actix_web::Error> {
    // The query is read only after the administrator check: actix answers the first extractor that fails, so a
    // malformed query must not tell anyone else that this path exists.
    let limit = query?.limit.unwrap_or(DEFAULT_ACTIONS);
    if !(1..=MAX_ACTIONS).contains(&limit) {
        return Err(ApiError::BadRequest {
            code: "malformed_request",
            message: format!("limit は 1 から {MAX_ACTIONS} までの整数で指定してください。"),
        }
        .into());
    }
    let entries = audit.recent(limit).await.map_err(|e| ApiError::internal(&e))?;
    Ok(Json(AdminActionsResponse { actions: entries.into_iter().map(AdminActionDto::from).collect() }))
}

/// `{"email": "..."}`: the address whose registration mail is sent again.
#[derive(Debug, Deserialize, Validate, ToSchema)]
pub(crate) struct ResendRegisterMailRequest {
    #[validate(length(max = 1000))]
    #[schema(max_length = 254, example = "taro@example.jp")]
    email: String,
}

/// What the resend did.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub(crate) enum ResendResult {
    /// A new activation mail is on its way; the earlier link no longer works.
    Sent,
    /// The address is a member's: nothing to activate, no mail.
    Member,
    /// No account has the address: no mail, no account made.
    NotRegistered,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ResendRegisterMailResponse {
    result: ResendResult,
    /// What the screen shows: '再送処理完了' when a mail was sent.
    #[schema(example = "再送処理完了")]
    message: String,
    /// The account's flag when there is one: 100 provisional, 200 guest, 1 member.
    #[schema(required = true)]
    user_flag: Option<i32>,
}

/// Spec 001 §8: the resend is done.
pub(crate) const MSG_RESEND_DONE: &str = "再送処理完了";
pub(crate) const MSG_RESEND_MEMBER: &str =
    "このメールアドレスはすでに本登録済みの会員のものです。登録メールは送信していません。";
pub(crate) const MSG_RESEND_UNKNOWN: &str =
    "このメールアドレスで登録されたアカウントはありません。登録メールは送信していません。";

impl From<ResendOutcome> for ResendRegisterMailResponse {
    fn from(outcome: ResendOutcome) -> Self {
        let (result, message, user_flag) = match outcome {
            ResendOutcome::Sent(AccountStatus::Guest) => (ResendResult::Sent, MSG_RESEND_DONE, Some(200)),
            ResendOutcome::Sent(_) => (ResendResult::Sent, MSG_RESEND_DONE, Some(100)),
            ResendOutcome::AlreadyMember => (ResendResult::Member, MSG_RESEND_MEMBER, Some(1)),
            ResendOutcome::NotRegistered => (ResendResult::NotRegistered, MSG_RESEND_UNKNOWN, None),
        };
        Self { result, message: message.to_string(), user_flag }
    }
}

/// Resends the registration (activation) mail.
///
/// A provisional account or a guest gets a new activation link (the earlier
/// one stops working) and the action is written to the audit log; a member's
/// address and an unknown one get no mail (`result` says which). Rate
/// limits: 60 per hour per administrator, 3 per 10 minutes per address.
#[utoipa::path(
    tag = "admin",
    request_body = ResendRegisterMailRequest,
    responses(
        (status = 200, description = "What was done", body = ResendRegisterMailResponse),
        (status = 400, description = "`malformed_request` or `validation_failed` (e-mail)", body = ErrorBody),
        (status = 404, description = "`not_found`: not an administrator (as for an unknown path)", body = ErrorBody),
        (status = 429, description = "`rate_limited`", body = ErrorBody),
        (status = 503, description = "`mail_unavailable`", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
#[post("/user/resendRegisterMail")]
async fn resend_register_mail(
    req: HttpRequest,
    admin: AdminUser,
    signup: web::Data<dyn Signup>,
    audit: web::Data<dyn AuditLog>,
    body: Result<Json<ResendRegisterMailRequest>, actix_web::Error>,
) -> Result<Json<ResendRegisterMailResponse>, actix_web::Error> {
    // The body is read only after the administrator check (see `recent_actions`).
    let body = body?.into_inner();
    body.validate().map_err(|_| ApiError::validation(domain::account::MSG_EMAIL_FORMAT))?;
    let email = Email::parse(&body.email).map_err(|e| ApiError::validation(e.to_string()))?;
    rate::enforce(
        &req,
        &[
            (rate::RESEND_PER_ADMIN, Subject::User(admin.0.id.0)),
            (rate::RESEND_PER_EMAIL, Subject::Email(email.as_str())),
        ],
    )
    .await?;
    let outcome = signup.resend_activation(&email).await.map_err(ApiError::from)?;
    if let ResendOutcome::Sent(status) = outcome {
        let mut action = NewAdminAction::new(admin.0.id, AdminActionKind::RegisterMailResent);
        action.target_email = Some(email.as_str().to_string());
        let account = if status == AccountStatus::Guest { "guest" } else { "provisional" };
        action.detail = serde_json::json!({ "account": account });
        audit.record(action).await.map_err(|e| ApiError::internal(&e))?;
    }
    Ok(Json(outcome.into()))
}

/// One day of a project's funding chart.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct FundingPointDto {
    /// The day in Asia/Tokyo, `YYYY-MM-DD`.
    #[schema(example = "2026-11-26")]
    day: String,
    /// Yen that day.
    amount: i64,
    /// Yen raised up to and including that day.
    cumulative: i64,
}

/// One project's figures.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct DashboardProjectDto {
    id: i64,
    slug: String,
    title: String,
    /// Goal, yen.
    goal: i64,
    /// Raised (paid, tax included, less refunds): the same figure as `/v1/sales/get/sum` `result.amount`.
    raised: i64,
    /// Backers (paid supports): `/v1/sales/get/sum` `result.lot`.
    backers: i64,
    /// Percent of the goal, one decimal.
    progress: f64,
    days_left: u32,
    /// Totals (tax included) of paid sales, before refunds (`raised` is after them).
    paid: i64,
    paid_sales: i64,
    /// Totals of bank transfers not yet received.
    awaiting_transfer: i64,
    awaiting_sales: i64,
    /// Refunds the provider confirmed.
    refunded: i64,
    refunded_sales: i64,
    /// Days with funding, oldest first (at most 120; the first cumulative carries earlier days).
    series: Vec<FundingPointDto>,
}

impl From<ProjectFigures> for DashboardProjectDto {
    fn from(p: ProjectFigures) -> Self {
        let r = p.record;
        #[allow(clippy::cast_precision_loss)] // tenths of a percent: far below 2^52
        let progress = p.progress.tenths() as f64 / 10.0;
        Self {
            id: r.id.get(),
            slug: r.slug,
            title: r.title,
            goal: r.goal.0,
            raised: r.raised.amount.0,
            backers: r.raised.supports,
            progress,
            days_left: p.days_left,
            paid: r.paid.0,
            paid_sales: r.paid_sales,
            awaiting_transfer: r.awaiting_transfer.0,
            awaiting_sales: r.awaiting_sales,
            refunded: r.refunded.0,
            refunded_sales: r.refunded_sales,
            series: p
                .series
                .into_iter()
                .map(|point| FundingPointDto {
                    day: point.day.to_string(),
                    amount: point.amount.0,
                    cumulative: point.cumulative.0,
                })
                .collect(),
        }
    }
}

/// A bank transfer still awaited.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct PendingTransferDto {
    sale_id: i64,
    project_id: i64,
    project_title: String,
    email: String,
    total: i64,
    /// Yen still to arrive when the provider reported a partial transfer.
    #[schema(required = true)]
    remaining: Option<i64>,
    /// ISO 8601, Tokyo time.
    ordered_at: String,
    /// Last day to pay, `YYYY-MM-DD` (Asia/Tokyo); null for older sales without one.
    #[schema(required = true)]
    deadline: Option<String>,
    /// The deadline has passed (the sweep cancels it shortly).
    overdue: bool,
}

impl PendingTransferDto {
    fn new(t: PendingTransfer, today: NaiveDate) -> Self {
        Self {
            sale_id: t.sale.get(),
            project_id: t.project.get(),
            project_title: t.project_title,
            email: t.supporter_email,
            total: t.total.0,
            remaining: t.remaining.map(|y| y.0),
            ordered_at: iso(t.ordered_at),
            deadline: t.deadline.map(|d| d.to_string()),
            overdue: t.deadline.is_some_and(|d| d < today),
        }
    }
}

/// A mail the queue gave up on.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct FailedMailDto {
    /// Unique in the list: `job-{id}` for a queued mail, `recipient-{id}` for a mass-mail recipient.
    key: String,
    /// The mass mail this recipient belongs to (`/admin/mail/{id}/`); null for a queued mail.
    #[schema(required = true)]
    mail_id: Option<i64>,
    to: String,
    subject: String,
    attempts: i32,
    /// ISO 8601, Tokyo time.
    failed_at: String,
}

impl From<FailedMail> for FailedMailDto {
    fn from(m: FailedMail) -> Self {
        let (key, mail_id) = match m.source {
            FailedMailSource::Queued { job_id } => (format!("job-{job_id}"), None),
            FailedMailSource::MassMail { mail_id, recipient_id } => {
                (format!("recipient-{recipient_id}"), Some(mail_id))
            }
        };
        Self { key, mail_id, to: m.to, subject: m.subject, attempts: m.attempts, failed_at: iso(m.failed_at) }
    }
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct DashboardResponse {
    /// Today in Asia/Tokyo, `YYYY-MM-DD`.
    #[schema(example = "2026-11-26")]
    today: String,
    projects: Vec<DashboardProjectDto>,
    /// Oldest deadline first, at most 50.
    pending_transfers: Vec<PendingTransferDto>,
    /// Newest first, at most 50.
    failed_mails: Vec<FailedMailDto>,
}

impl From<Dashboard> for DashboardResponse {
    fn from(board: Dashboard) -> Self {
        let today = board.today;
        Self {
            today: today.to_string(),
            projects: board.projects.into_iter().map(DashboardProjectDto::from).collect(),
            pending_transfers: board.pending_transfers.into_iter().map(|t| PendingTransferDto::new(t, today)).collect(),
            failed_mails: board.failed_mails.into_iter().map(FailedMailDto::from).collect(),
        }
    }
}

/// The dashboard: per project raised, goal, backers, paid / awaiting
/// transfer / refunded totals, days left and a daily cumulative funding
/// series; pending bank transfers with their deadlines; failed mails.
///
/// `raised` and `backers` are read from the running totals the public pages
/// read; `paid` counts what `app-server reconcile` counts as ours.
#[utoipa::path(
    tag = "admin",
    responses(
        (status = 200, description = "The figures", body = DashboardResponse),
        (status = 404, description = "`not_found`: not an administrator (as for an unknown path)", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
#[get("/admin/get/dashboard")]
async fn dashboard(
    _admin: AdminUser,
    dashboard: web::Data<dyn AdminDashboard>,
) -> Result<Json<DashboardResponse>, ApiError> {
    let board = dashboard.dashboard().await.map_err(|e| ApiError::internal(&e))?;
    Ok(Json(board.into()))
}

#[cfg(test)]
mod tests {
    use actix_web::{test, App};
    use domain::account::{AccountStatus, Email, ResendOutcome};
    use domain::ids::UserId;
    use ports::accounts::{MockSessions, MockSignup, SessionUser};
    use ports::admin::audit::{AdminActionKind, MockAuditLog};

    use crate::test_support::Mocks;
    use crate::{configure, ErrorBody};

    fn sessions(is_admin: bool) -> MockSessions {
        let mut sessions = MockSessions::new();
        sessions.expect_authenticate().returning(move |_| {
            Ok(SessionUser { id: UserId(9), email: Email::parse("admin@example.jp").unwrap(), is_admin })
        });
        sessions
    }

    async fn resend(mocks: Mocks, email: &str) -> (u16, serde_json::Value) {
        let app = test::init_service(App::new().configure(configure(mocks.into_services()))).await;
        let req = test::TestRequest::post()
            .uri("/v1/user/resendRegisterMail")
            .insert_header(("authorization", "Bearer t"))
            .set_json(serde_json::json!({ "email": email }))
            .to_request();
        let resp = test::call_service(&app, req).await;
        let status = resp.status().as_u16();
        (status, test::read_body_json(resp).await)
    }

    #[actix_web::test]
    async fn a_resent_guest_mail_says_done_and_is_written_to_the_audit_log() {
        let mut signup = MockSignup::new();
        signup
            .expect_resend_activation()
            .withf(|email| email.as_str() == "guest@example.jp")
            .returning(|_| Ok(ResendOutcome::Sent(AccountStatus::Guest)));
        let mut audit = MockAuditLog::new();
        audit
            .expect_record()
            .withf(|a| {
                a.kind == AdminActionKind::RegisterMailResent
                    && a.actor == UserId(9)
                    && a.target_email.as_deref() == Some("guest@example.jp")
                    && a.detail["account"] == "guest"
            })
            .times(1)
            .returning(|_| Ok(1));
        let mocks = Mocks { signup, audit, sessions: sessions(true), ..Mocks::default() };

        let (status, body) = resend(mocks, " guest@example.jp ").await;

        assert_eq!(status, 200);
        assert_eq!(body, serde_json::json!({"result": "sent", "message": "再送処理完了", "userFlag": 200}));
    }

    #[actix_web::test]
    async fn a_member_or_unknown_address_is_explained_and_not_logged() {
        for (outcome, result, flag) in [
            (ResendOutcome::AlreadyMember, "member", serde_json::json!(1)),
            (ResendOutcome::NotRegistered, "not_registered", serde_json::Value::Null),
        ] {
            let mut signup = MockSignup::new();
            signup.expect_resend_activation().returning(move |_| Ok(outcome));
            let mut audit = MockAuditLog::new();
            audit.expect_record().never();
            let mocks = Mocks { signup, audit, sessions: sessions(true), ..Mocks::default() };

            let (status, body) = resend(mocks, "taro@example.jp").await;

            assert_eq!(status, 200);
            assert_eq!(body["result"], result);
            assert_eq!(body["userFlag"], flag);
            assert_ne!(body["message"], "再送処理完了");
        }
    }

    #[actix_web::test]
    async fn an_empty_or_malformed_address_gets_the_spec_message() {
        for (email, message) in
            [("  ", "メールアドレスを入力してください"), ("taro@", "正しいメールアドレスの形式で入力してください")]
        {
            let mut signup = MockSignup::new();
            signup.expect_resend_activation().never();
            let mocks = Mocks { signup, sessions: sessions(true), ..Mocks::default() };

            let (status, body) = resend(mocks, email).await;

            assert_eq!(status, 400);
            let body: ErrorBody = serde_json::from_value(body).unwrap();
            assert_eq!(body.error, "validation_failed");
            assert_eq!(body.message, message);
        }
    }

    #[actix_web::test]
    async fn a_member_is_answered_like_an_unknown_path_and_nothing_is_sent() {
        let mut signup = MockSignup::new();
        signup.expect_resend_activation().never();
        let mocks = Mocks { signup, sessions: sessions(false), ..Mocks::default() };

        let (status, body) = resend(mocks, "taro@example.jp").await;

        assert_eq!(status, 404);
        assert_eq!(body["error"], "not_found");
    }
}
