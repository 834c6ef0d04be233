//! Following projects from my page: the projects a member keeps (お気に入り)
//! and the projects the member supports (one line per project).

pub mod mail;
mod repository;
mod service;

#[cfg(any(test, feature = "mocks"))]
pub use repository::MockFavouriteRepository;
pub use repository::{FavouriteRepository, KeepOutcome, KeptProject};
#[cfg(any(test, feature = "mocks"))]
pub use service::MockFollowing;
pub use service::{
    FavouriteCard, Following, FollowingError, FollowingService, SupportedProject, SupportedReturn, FAVOURITES_LIMIT,
};

#[cfg(test)]
mod tests;
