//! The end of a campaign: the closing sweep that decides each project once
//! its end has passed ([`closing`]) and the payouts to the owners of
//! successful ones ([`payouts`]).

pub mod closing;
pub mod payouts;
