//! A project's settings beside its terms: the additional question asked at
//! payment step 1, the bank account shown to anonymous transfers, the
//! connected account that receives the money, and the sponsor walls'
//! switches (docs/decisions.md, "Project settings").
//!
//! The connected account decides where the money goes and which fee
//! schedule applies, so like the terms supporters rely on it is locked once
//! the project is published. The rest stays editable.

use crate::money::FeeSchedule;
use crate::text::TextRule;

pub const QUESTION_LABEL: TextRule = TextRule::new("label", "質問の見出し", 50).required();
pub const QUESTION_TEXT: TextRule = TextRule::new("text", "質問の説明", 500).multiline();
pub const QUESTION_DESCRIPTION: TextRule = TextRule::new("description", "入力欄の補足", 500).multiline();
pub const QUESTION_ALERT: TextRule = TextRule::new("alert", "未入力時のメッセージ", 100);
pub const BANK_NAME: TextRule = TextRule::new("bank", "銀行名", 50).required();
pub const BANK_BRANCH: TextRule = TextRule::new("branch", "支店名", 50).required();
pub const BANK_KINDS: TextRule = TextRule::new("kinds", "口座種別", 20).required();
pub const BANK_NUMBER: TextRule = TextRule::new("number", "口座番号", 20).required();
pub const BANK_NOMINEE: TextRule = TextRule::new("nominee", "口座名義", 100).required();

/// Most lines the answer field may have.
pub const MAX_FORM_LINES: i32 = 10;
/// Longest connected account id accepted (`acct_` and its letters and digits).
pub const MAX_ACCOUNT_ID: usize = 64;

pub const MSG_FORM_LINES: &str = "入力欄の行数は1〜10で入力してください。";
pub const MSG_BANK_ALL_OR_NONE: &str = "振込先の口座は5項目すべてを入力するか、すべて空欄にしてください。";
pub const MSG_ACCOUNT_ID: &str = "連結アカウントIDは「acct_」で始まる半角英数字で入力してください。";
pub const MSG_ACCOUNT_LOCKED: &str = "公開後は連結アカウントを変更できません。";
/// The rates were part of the terms the project was published with.
pub const MSG_FEE_LOCKED: &str = "公開後は手数料の区分を変更できません。";

/// A refused field: its request path (`bank.branch`) and the message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SettingsFieldError {
    pub field: String,
    pub message: String,
}

impl SettingsFieldError {
    pub fn new(field: impl Into<String>, message: impl Into<String>) -> Self {
        Self { field: field.into(), message: message.into() }
    }
}

/// The question supporters answer at payment step 1.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AdditionalQuestion {
    pub label: String,
    /// Shown above the field; `None` = none.
    pub text: Option<String>,
    /// Shown under it (or as its placeholder); `None` = none.
    pub description: Option<String>,
    /// The message when the answer is left empty (an answer is always
    /// required); `None` = '{label}を入力してください'.
    pub alert: Option<String>,
    /// 1 = a one-line input, more = a text area of that many lines.
    pub form_line: i32,
}

/// The project's own account for anonymous transfers: all five or none.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BankDetails {
    pub bank: String,
    pub branch: String,
    pub kinds: String,
    pub number: String,
    pub nominee: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProjectSettings {
    /// `None` = no question asked.
    pub additional: Option<AdditionalQuestion>,
    /// `None` = anonymous transfers are not offered an account.
    pub bank: Option<BankDetails>,
    /// `None` = the platform's own account.
    pub connected_account_id: Option<String>,
    /// The application fee's rates on sales paid to the connected account
    /// (none are taken without one).
    pub fee_schedule: FeeSchedule,
    /// The sponsor walls come from the operator's list instead of sales.
    pub uses_manual_sponsors: bool,
    /// The footer sponsor area is hidden on this project's pages.
    pub hide_footer_sponsors: bool,
}

fn text(rule: TextRule, prefix: &str, raw: &str, errors: &mut Vec<SettingsFieldError>) -> String {
    rule.parse(raw).unwrap_or_else(|e| {
        errors.push(SettingsFieldError::new(format!("{prefix}.{}", rule.field), e.to_string()));
        String::new()
    })
}

fn optional(rule: TextRule, prefix: &str, raw: Option<&str>, errors: &mut Vec<SettingsFieldError>) -> Option<String> {
    Some(text(rule, prefix, raw.unwrap_or_default(), errors)).filter(|t| !t.is_empty())
}

/// Whether `id` looks like a payment provider's connected account
/// (`acct_` then letters and digits).
pub fn is_account_id(id: &str) -> bool {
    id.len() <= MAX_ACCOUNT_ID
        && id
            .strip_prefix("acct_")
            .is_some_and(|rest| !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_alphanumeric()))
}

/// The settings cleaned (trimmed; a question with a blank label, or a bank
/// account with all five blank, is none) or every refused field. `locked`
/// is the stored settings of a published project: who receives its money
/// (the connected account) and at which rates (the fee schedule) must stay
/// as they are; `None` before publication.
pub fn check_settings(
    mut input: ProjectSettings,
    locked: Option<&ProjectSettings>,
) -> Result<ProjectSettings, Vec<SettingsFieldError>> {
    let mut errors = Vec::new();
    input.additional = match input.additional.take() {
        None => None,
        Some(q)
            if crate::text::is_blank(&q.label)
                && [&q.text, &q.description, &q.alert]
                    .iter()
                    .all(|t| t.as_deref().is_none_or(crate::text::is_blank)) =>
        {
            None
        }
        Some(q) => {
            if !(1..=MAX_FORM_LINES).contains(&q.form_line) {
                errors.push(SettingsFieldError::new("additional.formLine", MSG_FORM_LINES));
            }
            Some(AdditionalQuestion {
                label: text(QUESTION_LABEL, "additional", &q.label, &mut errors),
                text: optional(QUESTION_TEXT, "additional", q.text.as_deref(), &mut errors),
                description: optional(QUESTION_DESCRIPTION, "additional", q.description.as_deref(), &mut errors),
                alert: optional(QUESTION_ALERT, "additional", q.alert.as_deref(), &mut errors),
                form_line: q.form_line,
            })
        }
    };
    input.bank = match input.bank.take() {
        None => None,
        Some(b) => {
            let parts = [&b.bank, &b.branch, &b.kinds, &b.number, &b.nominee];
            let blank = parts.iter().filter(|p| crate::text::is_blank(p)).count();
            if blank == parts.len() {
                None
            } else if blank > 0 {
                errors.push(SettingsFieldError::new("bank", MSG_BANK_ALL_OR_NONE));
                None
            } else {
                Some(BankDetails {
                    bank: text(BANK_NAME, "bank", &b.bank, &mut errors),
                    branch: text(BANK_BRANCH, "bank", &b.branch, &mut errors),
                    kinds: text(BANK_KINDS, "bank", &b.kinds, &mut errors),
                    number: text(BANK_NUMBER, "bank", &b.number, &mut errors),
                    nominee: text(BANK_NOMINEE, "bank", &b.nominee, &mut errors),
                })
            }
        }
    };
    input.connected_account_id = input.connected_account_id.map(|a| a.trim().to_string()).filter(|a| !a.is_empty());
    if let Some(account) = &input.connected_account_id {
        if !is_account_id(account) {
            errors.push(SettingsFieldError::new("connectedAccountId", MSG_ACCOUNT_ID));
        }
    }
    if let Some(locked) = locked {
        if input.connected_account_id != locked.connected_account_id {
            errors.push(SettingsFieldError::new("connectedAccountId", MSG_ACCOUNT_LOCKED));
        }
        if input.fee_schedule != locked.fee_schedule {
            errors.push(SettingsFieldError::new("feeSchedule", MSG_FEE_LOCKED));
        }
    }
    if errors.is_empty() {
        Ok(input)
    } else {
        Err(errors)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn question() -> AdditionalQuestion {
        AdditionalQuestion {
            label: " Tシャツのサイズ ".into(),
            text: Some("お届けするTシャツのサイズを教えてください。".into()),
            description: Some(" ".into()),
            alert: Some("サイズを入力してください。".into()),
            form_line: 1,
        }
    }

    fn bank() -> BankDetails {
        BankDetails {
            bank: "群馬銀行".into(),
            branch: "前橋支店".into(),
            kinds: "普通".into(),
            number: "1234567".into(),
            nominee: "マエバシバラエンノカイ".into(),
        }
    }

    fn settings() -> ProjectSettings {
        ProjectSettings {
            additional: Some(question()),
            bank: Some(bank()),
            connected_account_id: Some(" acct_1AbC ".into()),
            fee_schedule: FeeSchedule::Standard,
            uses_manual_sponsors: true,
            hide_footer_sponsors: false,
        }
    }

    fn fields(errors: &[SettingsFieldError]) -> Vec<&str> {
        errors.iter().map(|e| e.field.as_str()).collect()
    }

    #[test]
    fn full_settings_are_kept_trimmed_and_blank_optional_texts_dropped() {
        let checked = check_settings(settings(), None).unwrap();
        let q = checked.additional.unwrap();
        assert_eq!((q.label.as_str(), q.description), ("Tシャツのサイズ", None));
        assert_eq!(checked.connected_account_id.as_deref(), Some("acct_1AbC"));
        assert_eq!(checked.bank, Some(bank()));
    }

    #[test]
    fn a_bank_account_is_all_five_fields_or_none() {
        let none = BankDetails {
            bank: " ".into(),
            branch: String::new(),
            kinds: String::new(),
            number: String::new(),
            nominee: String::new(),
        };
        assert_eq!(check_settings(ProjectSettings { bank: Some(none), ..settings() }, None).unwrap().bank, None);
        let partial = BankDetails { branch: " ".into(), ..bank() };
        let errors = check_settings(ProjectSettings { bank: Some(partial), ..settings() }, None).unwrap_err();
        assert_eq!(errors, vec![SettingsFieldError::new("bank", MSG_BANK_ALL_OR_NONE)]);
        let long = BankDetails { nominee: "ア".repeat(101), ..bank() };
        let errors = check_settings(ProjectSettings { bank: Some(long), ..settings() }, None).unwrap_err();
        assert_eq!(fields(&errors), vec!["bank.nominee"]);
    }

    #[test]
    fn a_question_needs_a_label_and_one_to_ten_lines() {
        let blank = AdditionalQuestion { label: " ".into(), text: None, description: None, alert: None, form_line: 1 };
        assert_eq!(
            check_settings(ProjectSettings { additional: Some(blank), ..settings() }, None).unwrap().additional,
            None
        );
        let unlabelled = AdditionalQuestion { label: String::new(), ..question() };
        let errors = check_settings(ProjectSettings { additional: Some(unlabelled), ..settings() }, None).unwrap_err();
        assert_eq!(errors[0], SettingsFieldError::new("additional.label", "質問の見出しを入力してください。"));
        for lines in [0, 11] {
            let q = AdditionalQuestion { form_line: lines, ..question() };
            let errors = check_settings(ProjectSettings { additional: Some(q), ..settings() }, None).unwrap_err();
            assert_eq!(fields(&errors), vec!["additional.formLine"]);
        }
    }

    #[test]
    fn a_connected_account_is_acct_and_letters_and_digits_and_locked_once_published() {
        for bad in ["acct_", "acct_12-3", "cus_123", "acct_１２３", &format!("acct_{}", "a".repeat(60))] {
            let input = ProjectSettings { connected_account_id: Some(bad.to_string()), ..settings() };
            assert_eq!(check_settings(input, None).unwrap_err()[0].message, MSG_ACCOUNT_ID, "{bad}");
        }
        let stored = check_settings(settings(), None).unwrap();
        let other = ProjectSettings { connected_account_id: Some("acct_other".into()), ..stored.clone() };
        let changed = check_settings(settings(), Some(&other)).unwrap_err();
        assert_eq!(changed, vec![SettingsFieldError::new("connectedAccountId", MSG_ACCOUNT_LOCKED)]);
        assert!(check_settings(settings(), Some(&stored)).is_ok());
        let cleared = ProjectSettings { connected_account_id: Some(" ".into()), ..settings() };
        assert_eq!(check_settings(cleared.clone(), None).unwrap().connected_account_id, None);
        assert!(check_settings(cleared, Some(&stored)).is_err());
    }

    #[test]
    fn the_fee_schedule_is_free_until_published_then_locked() {
        let internal = ProjectSettings { fee_schedule: FeeSchedule::Internal, ..settings() };
        assert_eq!(check_settings(internal.clone(), None).unwrap().fee_schedule, FeeSchedule::Internal);
        let stored = check_settings(settings(), None).unwrap();
        let refused = check_settings(internal, Some(&stored)).unwrap_err();
        assert_eq!(refused, vec![SettingsFieldError::new("feeSchedule", MSG_FEE_LOCKED)]);
    }

    proptest! {
        #[test]
        fn an_accepted_account_id_is_always_well_formed(raw in "[ -~]{0,70}") {
            let input = ProjectSettings { connected_account_id: Some(raw), ..settings() };
            if let Ok(ok) = check_settings(input, None) {
                if let Some(id) = ok.connected_account_id {
                    prop_assert!(id.starts_with("acct_") && id.len() <= MAX_ACCOUNT_ID);
                }
            }
        }
    }
}
