//! `/v1/user/...`: registration.

use actix_web::web::{self, Json};
use actix_web::{post, HttpRequest};
use domain::account::{Email, SignupOutcome};
use ports::accounts::{Signup, SignupError};
use ports::payments::support::Supports;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_actix_web::service_config::ServiceConfig;
use validator::Validate;

use crate::rate::{self, Subject};
use crate::{ApiError, ErrorBody};

pub(crate) fn config(cfg: &mut ServiceConfig) {
    cfg.service(register).service(reregister);
}

/// `{"flag": 100, "email": "..."}` as the seed's client sends it. `flag` is
/// accepted for compatibility and ignored: the server decides the outcome.
#[derive(Debug, Deserialize, Validate, ToSchema)]
pub(crate) struct RegisterRequest {
    /// Sent by the seed's client (100); ignored.
    #[allow(dead_code)]
    flag: Option<i32>,
    #[validate(length(max = 1000))]
    #[schema(max_length = 254, example = "taro@example.jp")]
    email: String,
    /// Payment step 1 for a guest: make (or find) the guest account; no mail is sent.
    #[serde(default, rename = "isGuest")]
    is_guest: bool,
    /// Agreement to the terms of use and the privacy policy (the sign-up screen always sends it).
    /// `false` is refused; absent is accepted, so the seed's clients that never sent it keep working.
    #[serde(default, rename = "agreeTerms")]
    agree_terms: Option<bool>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct RegisterResponse {
    /// 100 confirmation mail sent; 200 already a guest; 1 already registered.
    #[schema(example = 100)]
    user_flag: i32,
    /// Guest registration only: the address already was a guest (the client shows
    /// 'ご指定のメールアドレスはすでにゲスト登録されています。').
    #[serde(skip_serializing_if = "Option::is_none")]
    exists: Option<bool>,
}

impl RegisterRequest {
    /// A sign-up that says it was not agreed to is refused (a guest's payment step has its own agreement).
    fn check_agreement(&self) -> Result<(), ApiError> {
        if !self.is_guest && self.agree_terms == Some(false) {
            return Err(ApiError::validation(domain::account::MSG_SIGNUP_AGREEMENT));
        }
        Ok(())
    }

    fn try_into_email(self) -> Result<Email, ApiError> {
        self.validate().map_err(|_| ApiError::validation(domain::account::MSG_EMAIL_FORMAT))?;
        Email::parse(&self.email).map_err(|e| ApiError::validation(e.to_string()))
    }
}

fn respond(result: Result<SignupOutcome, SignupError>) -> Result<Json<RegisterResponse>, ApiError> {
    Ok(Json(RegisterResponse { user_flag: result?.flag(), exists: None }))
}

async fn limit_signup(req: &HttpRequest, email: &Email) -> Result<(), ApiError> {
    rate::enforce(req, &[(rate::SIGNUP_PER_IP, Subject::Ip), (rate::SIGNUP_PER_EMAIL, Subject::Email(email.as_str()))])
        .await
}

/// Provisional registration by e-mail, or a guest's registration.
///
/// Sends the activation mail (100), or tells that the address is a guest
/// (200) or a member (1). With `isGuest` (payment step 1): makes or finds the
/// guest account, answers 200 with `exists`, sends no mail, and refuses a
/// member's address (409 `member_exists`). Rate limits: 30 per 10 minutes per
/// client address, 5 per 10 minutes per e-mail.
#[utoipa::path(
    tag = "accounts",
    responses(
        (status = 200, description = "The address's state", body = RegisterResponse),
        (status = 400, description = "`malformed_request` or `validation_failed` (e-mail, or `agreeTerms` false)", body = ErrorBody),
        (status = 409, description = "`member_exists` (guest registration of a member's address)", body = ErrorBody),
        (status = 429, description = "`rate_limited`", body = ErrorBody),
        (status = 503, description = "`mail_unavailable`", body = ErrorBody),
    )
)]
#[post("/user/register")]
async fn register(
    req: HttpRequest,
    signup: web::Data<dyn Signup>,
    supports: web::Data<dyn Supports>,
    body: Json<RegisterRequest>,
) -> Result<Json<RegisterResponse>, ApiError> {
    let body = body.into_inner();
    body.check_agreement()?;
    let is_guest = body.is_guest;
    let email = body.try_into_email()?;
    limit_signup(&req, &email).await?;
    if is_guest {
        let exists = supports.register_guest(&email).await?;
        return Ok(Json(RegisterResponse { user_flag: SignupOutcome::AlreadyGuest.flag(), exists: Some(exists) }));
    }
    respond(signup.register(&email).await)
}

/// A guest proceeds to full registration.
///
/// Sends the activation mail to a guest (100); a member gets 1. Same rate
/// limits as `register`.
#[utoipa::path(
    tag = "accounts",
    responses(
        (status = 200, description = "The address's state", body = RegisterResponse),
        (status = 400, description = "`malformed_request`, `validation_failed` or `not_a_guest`", body = ErrorBody),
        (status = 429, description = "`rate_limited`", body = ErrorBody),
        (status = 503, description = "`mail_unavailable`", body = ErrorBody),
    )
)]
#[post("/user/reRegister")]
async fn reregister(
    req: HttpRequest,
    signup: web::Data<dyn Signup>,
    body: Json<RegisterRequest>,
) -> Result<Json<RegisterResponse>, ApiError> {
    let body = body.into_inner();
    body.check_agreement()?;
    let email = body.try_into_email()?;
    limit_signup(&req, &email).await?;
    respond(signup.reregister(&email).await)
}

#[cfg(test)]
mod tests {
    use actix_web::{test, App};
    use domain::account::SignupOutcome;
    use ports::accounts::MockSignup;

    use crate::test_support::Mocks;
    use crate::{configure, ErrorBody, Services};

    fn services(signup: MockSignup) -> Services {
        Mocks { signup, ..Mocks::default() }.into_services()
    }

    #[actix_web::test]
    async fn register_answers_the_user_flag() {
        let mut mock = MockSignup::new();
        mock.expect_register()
            .withf(|email| email.as_str() == "taro@example.jp")
            .returning(|_| Ok(SignupOutcome::AlreadyGuest));
        let app = test::init_service(App::new().configure(configure(services(mock)))).await;

        let req = test::TestRequest::post()
            .uri("/v1/user/register")
            .set_json(serde_json::json!({"flag": 100, "email": "  taro@example.jp "}))
            .to_request();
        let body: serde_json::Value = test::call_and_read_body_json(&app, req).await;

        assert_eq!(body, serde_json::json!({"userFlag": 200}));
    }

    #[actix_web::test]
    async fn a_guest_registration_says_whether_the_guest_existed_and_sends_no_mail() {
        let mut supports = ports::payments::support::MockSupports::new();
        supports.expect_register_guest().returning(|_| Ok(true));
        let mut signup = MockSignup::new();
        signup.expect_register().never();
        let services = Mocks { signup, supports, ..Mocks::default() }.into_services();
        let app = test::init_service(App::new().configure(configure(services))).await;

        let req = test::TestRequest::post()
            .uri("/v1/user/register")
            .set_json(serde_json::json!({"email": "guest@example.jp", "isGuest": true}))
            .to_request();
        let body: serde_json::Value = test::call_and_read_body_json(&app, req).await;

        assert_eq!(body, serde_json::json!({"userFlag": 200, "exists": true}));
    }

    #[actix_web::test]
    async fn a_sign_up_without_agreement_to_the_terms_is_refused_and_sends_nothing() {
        let mut mock = MockSignup::new();
        mock.expect_register().never();
        mock.expect_reregister().never();
        let app = test::init_service(App::new().configure(configure(services(mock)))).await;

        for uri in ["/v1/user/register", "/v1/user/reRegister"] {
            let req = test::TestRequest::post()
                .uri(uri)
                .set_json(serde_json::json!({"flag": 100, "email": "taro@example.jp", "agreeTerms": false}))
                .to_request();
            let resp = test::call_service(&app, req).await;

            assert_eq!(resp.status(), 400, "{uri}");
            let body: ErrorBody = test::read_body_json(resp).await;
            assert_eq!(body.message, "利用規約とプライバシーポリシーに同意してください。");
        }
    }

    #[actix_web::test]
    async fn a_sign_up_that_agrees_to_the_terms_goes_ahead() {
        let mut mock = MockSignup::new();
        mock.expect_register().times(1).returning(|_| Ok(SignupOutcome::ConfirmationSent));
        let app = test::init_service(App::new().configure(configure(services(mock)))).await;

        let req = test::TestRequest::post()
            .uri("/v1/user/register")
            .set_json(serde_json::json!({"flag": 100, "email": "taro@example.jp", "agreeTerms": true}))
            .to_request();
        let body: serde_json::Value = test::call_and_read_body_json(&app, req).await;

        assert_eq!(body, serde_json::json!({"userFlag": 100}));
    }

    #[actix_web::test]
    async fn a_malformed_email_gets_the_spec_message() {
        let mut mock = MockSignup::new();
        mock.expect_register().never();
        let app = test::init_service(App::new().configure(configure(services(mock)))).await;

        let req = test::TestRequest::post()
            .uri("/v1/user/register")
            .set_json(serde_json::json!({"flag": 100, "email": "not-an-address"}))
            .to_request();
        let resp = test::call_service(&app, req).await;

        assert_eq!(resp.status(), 400);
        let body: ErrorBody = test::read_body_json(resp).await;
        assert_eq!(body.error, "validation_failed");
        assert_eq!(body.message, "正しいメールアドレスの形式で入力してください");
    }

    #[actix_web::test]
    async fn a_body_that_is_not_json_gets_a_json_400() {
        let app = test::init_service(App::new().configure(configure(services(MockSignup::new())))).await;

        let req = test::TestRequest::post()
            .uri("/v1/user/register")
            .insert_header(("content-type", "application/json"))
            .set_payload("{email:")
            .to_request();
        let resp = test::call_service(&app, req).await;

        assert_eq!(resp.status(), 400);
        let body: ErrorBody = test::read_body_json(resp).await;
        assert_eq!(body.error, "malformed_request");
    }

    #[actix_web::test]
    async fn an_unknown_api_path_is_a_json_404() {
        let app = test::init_service(App::new().configure(configure(services(MockSignup::new())))).await;

        let resp = test::call_service(&app, test::TestRequest::get().uri("/v1/nothing/here").to_request()).await;

        assert_eq!(resp.status(), 404);
        let body: ErrorBody = test::read_body_json(resp).await;
        assert_eq!(body.error, "not_found");
    }
}
