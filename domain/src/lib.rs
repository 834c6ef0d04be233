//! Pure business rules of the crowdfunding site: no I/O, no async, no clock.
//! Time and money are always passed in as arguments.

pub mod account;
pub mod auth;
pub mod authoring;
pub mod calendar;
pub mod closing;
pub mod comment;
pub mod csv;
pub mod delivery;
pub mod discovery;
pub mod extra_amount;
pub mod ids;
pub mod jobs;
pub mod lot;
pub mod mail;
pub mod manual_sponsor;
pub mod money;
pub mod news;
pub mod pagination;
pub mod payment;
pub mod payout;
pub mod profile;
pub mod project;
pub mod project_content;
pub mod project_settings;
pub mod receipt;
pub mod refund;
pub mod returns;
pub mod search;
pub mod shared_rules;
pub mod sponsor;
pub mod text;
pub mod time;
