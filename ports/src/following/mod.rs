//! Following projects from my page: the projects a member keeps (お気に入り)
//! and the projects the member supports (one line per project).

pub mod mail;
mod repository;
mod service;

pub use repository::{
    FavouriteRepository, KeepOutcome, KeptProject, NewsHeadline, SupportedPage, SupportedRecord, SupportedSale,
    SupportedStore,
};
#[cfg(any(test, feature = "mocks"))]
pub use repository::{MockFavouriteRepository, MockSupportedStore};
#[cfg(any(test, feature = "mocks"))]
pub use service::MockFollowing;
pub use service::{
    FavouriteCard, Following, FollowingError, FollowingService, SupportedList, SupportedProject, SupportedReturn,
    FAVOURITES_LIMIT, SUPPORTS_PER_PAGE,
};

#[cfg(test)]
mod tests;
