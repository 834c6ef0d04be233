//! Pure business rules of the crowdfunding site: no I/O, no async, no clock.
//! Time and money are always passed in as arguments.

pub mod account;
