//! Accounts: the user repository port and the account use cases.

mod credentials;
mod email_change;
mod guard;
mod mails;
mod password;
mod profile;
mod repository;
mod session;
mod signup;

pub use credentials::{password_version, IssuedToken, PasswordHasher, SessionClaims, TokenIssuer};
#[cfg(any(test, feature = "mocks"))]
pub use credentials::{MockPasswordHasher, MockTokenIssuer};
#[cfg(any(test, feature = "mocks"))]
pub use email_change::MockEmailChanges;
pub use email_change::{
    EmailChangeConfig, EmailChangeError, EmailChangeRequest, EmailChangeService, EmailChanged, EmailChanges,
};
pub use mails::{Operator, SiteInfo};
#[cfg(any(test, feature = "mocks"))]
pub use password::MockPasswordFlows;
pub use password::{PasswordConfig, PasswordFlowError, PasswordFlows, PasswordService};
pub use profile::{
    HistoryEntry, Image, ImageRole, NewImage, PendingTransfer, ProfileError, ProfileRepository, ProfileService,
    ProfileUpdate, Profiles, StoredAddress, UserProfile, ZipAddress,
};
#[cfg(any(test, feature = "mocks"))]
pub use profile::{MockProfileRepository, MockProfiles};
#[cfg(any(test, feature = "mocks"))]
pub use repository::MockUserRepository;
pub use repository::{Credentials, KeyAction, KeyPurpose, NewKey, RedeemError, UserId, UserRepository};
#[cfg(any(test, feature = "mocks"))]
pub use session::MockSessions;
pub use session::{AuthError, LoginError, SessionService, SessionUser, Sessions};
#[cfg(any(test, feature = "mocks"))]
pub use signup::MockSignup;
pub use signup::{Signup, SignupConfig, SignupError, SignupService};
