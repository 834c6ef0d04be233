//! `/v1/user/favouriteMail`: whether the member is mailed about kept projects
//! (48 hours before one ends, and its news). Only the caller's own setting.

use actix_web::web::{self, Json};
use actix_web::{get, post};
use ports::following::mail::FollowMail;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_actix_web::service_config::ServiceConfig;

use crate::auth::AuthUser;
use crate::{ApiError, ErrorBody};

pub(crate) fn config(cfg: &mut ServiceConfig) {
    cfg.service(get_setting);
    cfg.service(set_setting);
}

/// お気に入りのプロジェクトについてメールで受け取る.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct FavouriteMailSetting {
    /// True: mailed 48 hours before a kept project ends and when it publishes news (opt-in; off by default).
    enabled: bool,
}

/// The caller's choice (off until chosen).
#[utoipa::path(
    tag = "my page",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The setting", body = FavouriteMailSetting),
        (status = 401, description = "`unauthorized`", body = ErrorBody),
    )
)]
#[get("/user/favouriteMail")]
async fn get_setting(user: AuthUser, mail: web::Data<dyn FollowMail>) -> Result<Json<FavouriteMailSetting>, ApiError> {
    let enabled = mail.opted_in(user.0.id).await.map_err(|e| ApiError::internal(&e))?;
    Ok(Json(FavouriteMailSetting { enabled }))
}

/// Sets the caller's choice; answers it as stored. The one-click opt-out link in every such mail also stops them.
#[utoipa::path(
    tag = "my page",
    request_body = FavouriteMailSetting,
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The setting", body = FavouriteMailSetting),
        (status = 400, description = "`malformed_request`", body = ErrorBody),
        (status = 401, description = "`unauthorized`", body = ErrorBody),
    )
)]
#[post("/user/favouriteMail")]
async fn set_setting(
    user: AuthUser,
    mail: web::Data<dyn FollowMail>,
    body: Result<Json<FavouriteMailSetting>, actix_web::Error>,
) -> Result<Json<FavouriteMailSetting>, actix_web::Error> {
    let wanted = body?.into_inner().enabled;
    let enabled = mail.set_opted_in(user.0.id, wanted).await.map_err(|e| ApiError::internal(&e))?;
    Ok(Json(FavouriteMailSetting { enabled }))
}
