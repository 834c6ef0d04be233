//! Session plumbing for HTTP: JWT tokens, bcrypt hashing and the extractor
//! that turns a bearer token into the calling user.

mod extractor;
mod hashing;
mod jwt;

pub use extractor::{AdminUser, AuthUser, MaybeAuthUser};
pub use hashing::BcryptHasher;
pub use jwt::JwtTokens;
