use chrono::{DateTime, Duration, Utc};
use jsonwebtoken::{decode, encode, Algorithm, DecodingKey, EncodingKey, Header, Validation};
use ports::accounts::{IssuedToken, SessionClaims, TokenIssuer, UserId};
use serde::{Deserialize, Serialize};

/// HS256 session tokens. Expiry is checked against the injected clock, not
/// the library's, so tests can move time.
#[derive(Clone)]
pub struct JwtTokens {
    encoding: EncodingKey,
    decoding: DecodingKey,
    lifetime: Duration,
}

#[derive(Debug, Serialize, Deserialize)]
struct Claims {
    sub: String,
    /// Password version: the account's `password_changed_at` in milliseconds.
    pwv: i64,
    iat: i64,
    exp: i64,
}

impl JwtTokens {
    pub fn new(secret: &[u8], lifetime: Duration) -> Self {
        Self { encoding: EncodingKey::from_secret(secret), decoding: DecodingKey::from_secret(secret), lifetime }
    }
}

impl TokenIssuer for JwtTokens {
    fn issue(&self, claims: SessionClaims, now: DateTime<Utc>) -> anyhow::Result<IssuedToken> {
        let expires_at = now + self.lifetime;
        let body = Claims {
            sub: claims.user.0.to_string(),
            pwv: claims.password_version,
            iat: now.timestamp(),
            exp: expires_at.timestamp(),
        };
        Ok(IssuedToken { token: encode(&Header::new(Algorithm::HS256), &body, &self.encoding)?, expires_at })
    }

    fn verify(&self, token: &str, now: DateTime<Utc>) -> Option<SessionClaims> {
        let mut validation = Validation::new(Algorithm::HS256);
        validation.validate_exp = false;
        validation.set_required_spec_claims(&["exp", "sub"]);
        let claims = decode::<Claims>(token, &self.decoding, &validation).ok()?.claims;
        if now.timestamp() >= claims.exp {
            return None;
        }
        Some(SessionClaims { user: UserId(claims.sub.parse().ok()?), password_version: claims.pwv })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(secret: &[u8]) -> JwtTokens {
        JwtTokens::new(secret, Duration::hours(24))
    }

    fn claims() -> SessionClaims {
        SessionClaims { user: UserId(42), password_version: 1_700_000_000_123 }
    }

    #[test]
    fn an_issued_token_verifies_to_its_claims_until_it_expires() {
        let now = Utc::now();
        let issued = tokens(b"secret").issue(claims(), now).unwrap();

        assert_eq!(issued.expires_at, now + Duration::hours(24));
        assert_eq!(tokens(b"secret").verify(&issued.token, now + Duration::hours(23)), Some(claims()));
        assert_eq!(tokens(b"secret").verify(&issued.token, now + Duration::hours(24)), None);
    }

    #[test]
    fn a_token_signed_with_another_secret_is_refused() {
        let issued = tokens(b"other").issue(claims(), Utc::now()).unwrap();
        assert_eq!(tokens(b"secret").verify(&issued.token, Utc::now()), None);
    }

    #[test]
    fn garbage_is_refused() {
        assert_eq!(tokens(b"secret").verify("not.a.token", Utc::now()), None);
        assert_eq!(tokens(b"secret").verify("", Utc::now()), None);
    }
}
