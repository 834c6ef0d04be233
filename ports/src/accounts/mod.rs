//! Accounts: the user repository port and the account use cases.

mod repository;
mod signup;

#[cfg(any(test, feature = "mocks"))]
pub use repository::MockUserRepository;
pub use repository::{KeyPurpose, NewKey, UserId, UserRepository};
#[cfg(any(test, feature = "mocks"))]
pub use signup::MockSignup;
pub use signup::{Signup, SignupConfig, SignupError, SignupService};
