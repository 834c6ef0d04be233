//! Accounts: e-mail and password rules, signup outcomes.

use serde::{Deserialize, Serialize};
use std::fmt;

/// Validation message when the e-mail field is empty (spec 000 §5).
pub const MSG_EMAIL_REQUIRED: &str = "メールアドレスを入力してください";
/// Validation message when the e-mail is malformed (spec 000 §5).
pub const MSG_EMAIL_FORMAT: &str = "正しいメールアドレスの形式で入力してください";
/// Sign-up refused because the terms and the privacy policy were not agreed to.
pub const MSG_SIGNUP_AGREEMENT: &str = "利用規約とプライバシーポリシーに同意してください。";

/// A syntactically valid, trimmed e-mail address. Comparison is case-insensitive
/// on the whole address, matching the database's unique index on `lower(email)`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Email(String);

#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum EmailError {
    #[error("{}", MSG_EMAIL_REQUIRED)]
    Required,
    #[error("{}", MSG_EMAIL_FORMAT)]
    Format,
}

impl Email {
    /// Longest address we accept (RFC 5321 path limit).
    pub const MAX_LEN: usize = 254;

    pub fn parse(raw: &str) -> Result<Self, EmailError> {
        let trimmed = raw.trim();
        if trimmed.is_empty() {
            return Err(EmailError::Required);
        }
        if trimmed.len() > Self::MAX_LEN || !is_plausible_address(trimmed) {
            return Err(EmailError::Format);
        }
        Ok(Self(trimmed.to_string()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The form used for uniqueness and look-ups.
    pub fn normalized(&self) -> String {
        self.0.to_lowercase()
    }

    /// The address with most of it hidden, for notices sent to another
    /// address (`taro.yamada@mail.example.jp` -> `ta***@ma***.example.jp`):
    /// the owner recognises their own address, a reader of the notice does not
    /// learn someone else's.
    pub fn masked(&self) -> String {
        fn keep_start(part: &str) -> String {
            let visible: String = part.chars().take(2.min(part.chars().count().saturating_sub(1))).collect();
            format!("{visible}***")
        }
        let Some((local, domain)) = self.0.split_once('@') else { return "***".to_string() };
        let (first_label, rest) = domain.split_once('.').unwrap_or((domain, ""));
        format!("{}@{}.{rest}", keep_start(local), keep_start(first_label))
    }
}

/// The characters of an unquoted local part (RFC 5322 `atext`), the set the
/// WHATWG spec allows for `<input type=email>`.
fn is_atext(c: char) -> bool {
    c.is_ascii_alphanumeric() || "!#$%&'*+/=?^_`{|}~-".contains(c)
}

/// An ASCII address the mailer can always send to: a dot-atom local part (no
/// quotes, no leading, trailing or doubled dot, at most 64 octets) and a host
/// name of at least two labels of letters, digits and inner hyphens (each at
/// most 63 octets). Stricter than RFC 5321 on purpose: quoted local parts,
/// IP literals and raw non-ASCII domains are refused, as browsers' e-mail
/// fields refuse them; lettre's `Address` accepts every address this accepts
/// (property test in `adapters-mail`). `frontend/src/lib/validation.ts`
/// applies the same pattern.
fn is_plausible_address(s: &str) -> bool {
    let Some((local, domain)) = s.split_once('@') else {
        return false;
    };
    let local_ok = !local.is_empty()
        && local.len() <= 64
        && local.split('.').all(|atom| !atom.is_empty() && atom.chars().all(is_atext));
    let domain_ok = domain.len() <= 253
        && domain.contains('.')
        && domain.split('.').all(|label| {
            !label.is_empty()
                && label.len() <= 63
                && !label.starts_with('-')
                && !label.ends_with('-')
                && label.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
        });
    local_ok && domain_ok
}

impl fmt::Display for Email {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl TryFrom<String> for Email {
    type Error = EmailError;
    fn try_from(value: String) -> Result<Self, Self::Error> {
        Self::parse(&value)
    }
}

impl From<Email> for String {
    fn from(value: Email) -> Self {
        value.0
    }
}

/// What the server answers to a signup (`userFlag` in spec 000 §4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(into = "i32")]
pub enum SignupOutcome {
    /// 100: a new provisional account; the activation mail was sent.
    ConfirmationSent,
    /// 200: the address belongs to a guest; the client offers re-registration.
    AlreadyGuest,
    /// 1: the address already belongs to a full member.
    AlreadyRegistered,
}

impl SignupOutcome {
    pub const fn flag(self) -> i32 {
        match self {
            Self::ConfirmationSent => 100,
            Self::AlreadyGuest => 200,
            Self::AlreadyRegistered => 1,
        }
    }
}

impl From<SignupOutcome> for i32 {
    fn from(value: SignupOutcome) -> Self {
        value.flag()
    }
}

/// Where an account stands, as stored in `users.status`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum AccountStatus {
    /// Supported once with only an e-mail address.
    Guest,
    /// Signed up, activation mail sent, no password yet.
    Provisional,
    /// Has a password and can log in.
    Member,
}

/// Decides the signup answer for an address from the account that already
/// holds it, if any. A provisional account gets a fresh activation mail.
pub fn signup_outcome(existing: Option<AccountStatus>) -> SignupOutcome {
    match existing {
        None | Some(AccountStatus::Provisional) => SignupOutcome::ConfirmationSent,
        Some(AccountStatus::Guest) => SignupOutcome::AlreadyGuest,
        Some(AccountStatus::Member) => SignupOutcome::AlreadyRegistered,
    }
}

/// Decides the re-registration answer: only guests (and provisional accounts
/// that lost their mail) get a new activation mail.
pub fn reregister_outcome(existing: Option<AccountStatus>) -> Result<SignupOutcome, ReRegisterError> {
    match existing {
        None => Err(ReRegisterError::NotAGuest),
        Some(AccountStatus::Guest | AccountStatus::Provisional) => Ok(SignupOutcome::ConfirmationSent),
        Some(AccountStatus::Member) => Ok(SignupOutcome::AlreadyRegistered),
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum ReRegisterError {
    #[error("このメールアドレスはゲスト登録されていません。")]
    NotAGuest,
}

/// What an administrator's resend of the registration mail
/// (`POST /v1/user/resendRegisterMail`) does for an address.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ResendOutcome {
    /// A provisional account or a guest: a new activation mail goes out and
    /// the earlier link stops working. Holds which of the two it was.
    Sent(AccountStatus),
    /// Already a member: nothing to activate, no mail.
    AlreadyMember,
    /// No account has the address: no mail, and no account is made (an
    /// administrator's resend is not a signup on someone's behalf).
    NotRegistered,
}

/// Decides the resend for the account holding an address, if any.
pub fn resend_outcome(existing: Option<AccountStatus>) -> ResendOutcome {
    match existing {
        None => ResendOutcome::NotRegistered,
        Some(status @ (AccountStatus::Provisional | AccountStatus::Guest)) => ResendOutcome::Sent(status),
        Some(AccountStatus::Member) => ResendOutcome::AlreadyMember,
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_masked_address_keeps_two_letters_of_each_part_and_the_rest_of_the_domain() {
        let masked = |s: &str| Email::parse(s).unwrap().masked();
        assert_eq!(masked("taro.yamada@mail.example.jp"), "ta***@ma***.example.jp");
        assert_eq!(masked("ab@example.com"), "a***@ex***.com");
        assert_eq!(masked("a@x.jp"), "***@***.jp");
    }

    use super::*;

    #[test]
    fn a_resend_mails_provisional_accounts_and_guests_only() {
        assert_eq!(resend_outcome(Some(AccountStatus::Provisional)), ResendOutcome::Sent(AccountStatus::Provisional));
        assert_eq!(resend_outcome(Some(AccountStatus::Guest)), ResendOutcome::Sent(AccountStatus::Guest));
        assert_eq!(resend_outcome(Some(AccountStatus::Member)), ResendOutcome::AlreadyMember);
        assert_eq!(resend_outcome(None), ResendOutcome::NotRegistered);
    }

    #[test]
    fn email_is_trimmed() {
        assert_eq!(Email::parse("  a@example.jp \n").unwrap().as_str(), "a@example.jp");
    }

    #[test]
    fn empty_email_is_required_with_spec_message() {
        let err = Email::parse("   ").unwrap_err();
        assert_eq!(err.to_string(), "メールアドレスを入力してください");
    }

    #[test]
    fn malformed_emails_get_the_format_message() {
        for bad in [
            "a",
            "a@",
            "@b.jp",
            "a@b",
            "a b@c.jp",
            "a@b..jp",
            "a@@b.jp",
            "a@-b.jp",
            "a,b@example.com",
            "a;b@example.com",
            "<a@example.com>",
            "a@example.com>",
            "太郎 <a@example.com>",
            "a..b@example.com",
            ".a@example.com",
            "\"a b\"@example.com",
            "a@[127.0.0.1]",
            "a@例え.jp",
            "a\0@example.com",
            "a(x)@example.com",
        ] {
            let err = Email::parse(bad).unwrap_err();
            assert_eq!(err.to_string(), "正しいメールアドレスの形式で入力してください", "{bad}");
        }
    }

    #[test]
    fn addresses_with_plus_tags_dots_and_subdomains_are_accepted() {
        for ok in ["taro.yamada+cf@mail.example.co.jp", "o'neil@example.com", "a_b-c@x-y.example", "1@2.jp"] {
            assert!(Email::parse(ok).is_ok(), "{ok}");
        }
    }

    #[test]
    fn normalized_email_is_lower_case() {
        assert_eq!(Email::parse("Taro@Example.JP").unwrap().normalized(), "taro@example.jp");
    }

    #[test]
    fn signup_flags_match_the_spec() {
        assert_eq!(signup_outcome(None).flag(), 100);
        assert_eq!(signup_outcome(Some(AccountStatus::Provisional)).flag(), 100);
        assert_eq!(signup_outcome(Some(AccountStatus::Guest)).flag(), 200);
        assert_eq!(signup_outcome(Some(AccountStatus::Member)).flag(), 1);
    }

    #[test]
    fn reregister_turns_a_guest_into_a_confirmation() {
        assert_eq!(reregister_outcome(Some(AccountStatus::Guest)), Ok(SignupOutcome::ConfirmationSent));
        assert_eq!(reregister_outcome(Some(AccountStatus::Member)), Ok(SignupOutcome::AlreadyRegistered));
        assert_eq!(reregister_outcome(None), Err(ReRegisterError::NotAGuest));
    }
}
