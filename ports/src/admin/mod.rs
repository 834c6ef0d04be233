//! The administrators' side: the audit log every admin action writes to
//! (refunds, mass mail, resent registration mails) and the dashboard reads.

pub mod audit;
pub mod mass_mail;
