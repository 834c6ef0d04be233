//! `/v1/user/...`: registration.

use actix_web::web::{self, Json};
use actix_web::HttpRequest;
use domain::account::{Email, SignupOutcome};
use ports::accounts::{Signup, SignupError};
use serde::{Deserialize, Serialize};
use validator::Validate;

use crate::rate::{self, Subject};
use crate::routes::Routes;
use crate::ApiError;

pub(crate) fn config(routes: &mut Routes) {
    routes.post("/user/register", register).post("/user/reRegister", reregister);
}

/// `{"flag": 100, "email": "..."}` as the seed's client sends it. `flag` is
/// accepted for compatibility and ignored: the server decides the outcome.
#[derive(Debug, Deserialize, Validate)]
pub(crate) struct RegisterRequest {
    #[allow(dead_code)]
    flag: Option<i32>,
    #[validate(length(max = 1000))]
    email: String,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct RegisterResponse {
    user_flag: i32,
}

impl RegisterRequest {
    fn try_into_email(self) -> Result<Email, ApiError> {
        self.validate().map_err(|_| ApiError::validation(domain::account::MSG_EMAIL_FORMAT))?;
        Email::parse(&self.email).map_err(|e| ApiError::validation(e.to_string()))
    }
}

fn respond(result: Result<SignupOutcome, SignupError>) -> Result<Json<RegisterResponse>, ApiError> {
    match result {
        Ok(outcome) => Ok(Json(RegisterResponse { user_flag: outcome.flag() })),
        Err(SignupError::NotAGuest(e)) => Err(ApiError::BadRequest { code: "not_a_guest", message: e.to_string() }),
        Err(SignupError::MailUnavailable(e)) => {
            tracing::warn!(error = %e, "activation mail not sent");
            Err(ApiError::Unavailable("mail_unavailable"))
        }
        Err(SignupError::Unexpected(e)) => Err(ApiError::internal(e.as_ref())),
    }
}

async fn limit_signup(req: &HttpRequest, email: &Email) -> Result<(), ApiError> {
    rate::enforce(req, &[(rate::SIGNUP_PER_IP, Subject::Ip), (rate::SIGNUP_PER_EMAIL, Subject::Email(email.as_str()))])
        .await
}

async fn register(
    req: HttpRequest,
    signup: web::Data<dyn Signup>,
    body: Json<RegisterRequest>,
) -> Result<Json<RegisterResponse>, ApiError> {
    let email = body.into_inner().try_into_email()?;
    limit_signup(&req, &email).await?;
    respond(signup.register(&email).await)
}

async fn reregister(
    req: HttpRequest,
    signup: web::Data<dyn Signup>,
    body: Json<RegisterRequest>,
) -> Result<Json<RegisterResponse>, ApiError> {
    let email = body.into_inner().try_into_email()?;
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
