//! Free text that people type and we store: one rule per field (label,
//! maximum length, single or multi line, required or not), one cleaning
//! function, and the messages shown for each failure.
//!
//! This module is the one place for text limits and their messages. The
//! schema repeats each limit as a named CHECK constraint (migration
//! `2026-11-26-100000_text_limits`), the HTTP layer maps those constraint
//! names back to these rules, and the frontend reads
//! `frontend/src/lib/validation-rules.json`, which a test here keeps equal to
//! [`rules_json`].

use serde::Serialize;

/// Template of the message for a missing required text.
pub const MSG_REQUIRED: &str = "{label}を入力してください。";
/// Template of the message for a text over its limit.
pub const MSG_TOO_LONG: &str = "{label}は{max}文字以内で入力してください。";
/// Template of the message for a text with a control character (or a line
/// break in a single-line field).
pub const MSG_FORBIDDEN_CHARACTER: &str = "{label}に使用できない文字が含まれています。";

/// How one stored text field is checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TextRule {
    /// The request field name (the seed's spelling).
    pub field: &'static str,
    /// What the form calls the field; messages start with it.
    pub label: &'static str,
    /// Most characters (Unicode scalar values, after trimming).
    pub max_chars: usize,
    /// Line breaks and tabs allowed (profile, comment, additional data).
    pub multiline: bool,
    /// An empty (or invisible-only) value is refused.
    pub required: bool,
}

/// Why a text was refused; `Display` is the message the form shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum TextError {
    #[error("{label}を入力してください。")]
    Required { label: &'static str },
    #[error("{label}は{max}文字以内で入力してください。")]
    TooLong { label: &'static str, max: usize },
    #[error("{label}に使用できない文字が含まれています。")]
    ForbiddenCharacter { label: &'static str },
}

impl TextError {
    pub const fn label(&self) -> &'static str {
        match self {
            Self::Required { label } | Self::TooLong { label, .. } | Self::ForbiddenCharacter { label } => label,
        }
    }
}

/// Characters that draw nothing: format characters (Unicode category Cf,
/// such as U+200B ZERO WIDTH SPACE and U+FEFF), the Hangul fillers and the
/// blank braille pattern, which people use to make a name look empty. A text
/// made only of these and whitespace counts as empty.
pub fn is_invisible(c: char) -> bool {
    INVISIBLE_RANGES.iter().any(|&(lo, hi)| (lo..=hi).contains(&c))
}

/// The ranges behind [`is_invisible`] (inclusive); the frontend reads the same
/// list from the generated rules file.
pub const INVISIBLE_RANGES: [(char, char); 20] = [
    ('\u{00AD}', '\u{00AD}'),
    ('\u{034F}', '\u{034F}'),
    ('\u{061C}', '\u{061C}'),
    ('\u{115F}', '\u{1160}'),
    ('\u{17B4}', '\u{17B5}'),
    ('\u{180B}', '\u{180F}'),
    ('\u{200B}', '\u{200F}'),
    ('\u{202A}', '\u{202E}'),
    ('\u{2060}', '\u{206F}'),
    ('\u{2800}', '\u{2800}'),
    ('\u{3164}', '\u{3164}'),
    ('\u{FE00}', '\u{FE0F}'),
    ('\u{FEFF}', '\u{FEFF}'),
    ('\u{FFA0}', '\u{FFA0}'),
    ('\u{FFF9}', '\u{FFFB}'),
    ('\u{1BCA0}', '\u{1BCA3}'),
    ('\u{1D173}', '\u{1D17A}'),
    ('\u{E0000}', '\u{E0FFF}'),
    ('\u{0600}', '\u{0605}'),
    ('\u{06DD}', '\u{06DD}'),
];

/// True when nothing visible is left: empty, or only whitespace and
/// [`is_invisible`] characters.
pub fn is_blank(s: &str) -> bool {
    s.chars().all(|c| c.is_whitespace() || is_invisible(c))
}

/// Characters no stored text may hold: C0/C1 controls (U+0000 NUL included:
/// PostgreSQL cannot store it), DEL, the Unicode line and paragraph
/// separators outside multi-line fields, and the noncharacters U+FFFE/U+FFFF.
fn is_forbidden(c: char, multiline: bool) -> bool {
    let allowed_in_multiline = matches!(c, '\n' | '\r' | '\t');
    if c.is_control() {
        return !(multiline && allowed_in_multiline);
    }
    matches!(c, '\u{FFFE}' | '\u{FFFF}') || (!multiline && matches!(c, '\u{2028}' | '\u{2029}'))
}

/// Whether `text` holds a character no stored text may hold (see
/// `is_forbidden`): for texts checked by their own rules, such as a mail's.
pub fn has_forbidden_character(text: &str, multiline: bool) -> bool {
    text.chars().any(|c| is_forbidden(c, multiline))
}

/// Trims, checks characters and length, and normalises line breaks to `\n`.
/// An empty result is returned as `""` (blank input included); required-ness
/// is the caller's ([`TextRule::parse`]).
fn clean(input: &str, label: &'static str, max_chars: usize, multiline: bool) -> Result<String, TextError> {
    if input.chars().any(|c| is_forbidden(c, multiline)) {
        return Err(TextError::ForbiddenCharacter { label });
    }
    if is_blank(input) {
        return Ok(String::new());
    }
    let trimmed = input.trim_matches(|c: char| c.is_whitespace() || (is_invisible(c) && !is_variation_selector(c)));
    let text = if multiline { trimmed.replace("\r\n", "\n").replace('\r', "\n") } else { trimmed.to_string() };
    if text.chars().count() > max_chars {
        return Err(TextError::TooLong { label, max: max_chars });
    }
    Ok(text)
}

/// Variation selectors belong to the character before them (an emoji's
/// colour form), so they are never trimmed off the end.
fn is_variation_selector(c: char) -> bool {
    matches!(c, '\u{FE00}'..='\u{FE0F}' | '\u{180B}'..='\u{180D}' | '\u{E0100}'..='\u{E01EF}')
}

/// A single-line text of at most `max_chars` characters; blank gives `""`.
pub fn single_line(input: &str, max_chars: usize, label: &'static str) -> Result<String, TextError> {
    clean(input, label, max_chars, false)
}

/// A multi-line text (line breaks and tabs allowed); blank gives `""`.
pub fn multi_line(input: &str, max_chars: usize, label: &'static str) -> Result<String, TextError> {
    clean(input, label, max_chars, true)
}

impl TextRule {
    pub(crate) const fn new(field: &'static str, label: &'static str, max_chars: usize) -> Self {
        Self { field, label, max_chars, multiline: false, required: false }
    }

    pub(crate) const fn required(self) -> Self {
        Self { required: true, ..self }
    }

    pub(crate) const fn multiline(self) -> Self {
        Self { multiline: true, ..self }
    }

    /// The cleaned text; a blank value of a required field is refused, of
    /// an optional one gives `""`.
    pub fn parse(&self, input: &str) -> Result<String, TextError> {
        let text = clean(input, self.label, self.max_chars, self.multiline)?;
        if self.required && text.is_empty() {
            return Err(TextError::Required { label: self.label });
        }
        Ok(text)
    }

    /// For optional fields: `None` for a missing or blank value.
    pub fn parse_optional(&self, input: Option<&str>) -> Result<Option<String>, TextError> {
        match input {
            None => Ok(None),
            Some(raw) => Ok(Some(self.parse(raw)?).filter(|t| !t.is_empty())),
        }
    }
}

/// Every stored free-text field and its limit. The numbers are repeated by the
/// schema's CHECK constraints; `docs/decisions.md` lists them.
pub mod rules {
    use super::TextRule;

    /// Profile: user name.
    pub const USERNAME: TextRule = TextRule::new("username", "ユーザー名", 50);
    /// Profile: display name (may be cleared).
    pub const PROFILE_DISPLAY_NAME: TextRule = TextRule::new("displayname", "表示名", 50);
    /// Profile: self-introduction.
    pub const PROFILE: TextRule = TextRule::new("profile", "プロフィール", 1000).multiline();
    /// Profile: age group (a choice; the limit only bounds what is stored).
    pub const AGE_GROUP: TextRule = TextRule::new("ageGroup", "年代", 20);
    /// Corporate data: company name, shown publicly on sponsor walls.
    pub const COMPANY_NAME: TextRule = TextRule::new("corporatename", "企業名", 100).required();
    /// A sale's display name (payment step 1, history edit), shown publicly.
    pub const SALE_DISPLAY_NAME: TextRule = TextRule::new("displayname", "表示名", 50).required();
    /// A supporter comment, shown publicly.
    pub const COMMENT: TextRule = TextRule::new("comment", "コメント", 1000).required().multiline();
    /// Delivery address: recipient name.
    pub const ADDRESS_NAME: TextRule = TextRule::new("name", "お名前", 50).required();
    /// Delivery address: city, ward, town.
    pub const ADDRESS_CITY: TextRule = TextRule::new("city", "市区町村", 50).required();
    /// Delivery address: street and number.
    pub const ADDRESS_STREET: TextRule = TextRule::new("address", "番地", 100).required();
    /// Delivery address: building and room (optional).
    pub const ADDRESS_BUILDING: TextRule = TextRule::new("building", "建物名", 100);
    /// The answer to a project's additional-data question (payment step 1);
    /// the form shows the project's own label in place of this one.
    pub const ADDITIONAL_DATA: TextRule = TextRule::new("additionalData", "追加情報", 1000).multiline();

    /// All of the above with the key the frontend uses, in the order of the
    /// documentation table.
    pub const ALL: [(&str, TextRule); 12] = [
        ("username", USERNAME),
        ("profileDisplayName", PROFILE_DISPLAY_NAME),
        ("profile", PROFILE),
        ("ageGroup", AGE_GROUP),
        ("companyName", COMPANY_NAME),
        ("saleDisplayName", SALE_DISPLAY_NAME),
        ("comment", COMMENT),
        ("addressName", ADDRESS_NAME),
        ("addressCity", ADDRESS_CITY),
        ("addressStreet", ADDRESS_STREET),
        ("addressBuilding", ADDRESS_BUILDING),
        ("additionalData", ADDITIONAL_DATA),
    ];
}

#[cfg(test)]
mod tests {
    use super::rules::*;
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn a_nul_character_is_refused_with_the_field_label() {
        let err = COMPANY_NAME.parse("上毛\0商事").unwrap_err();
        assert_eq!(err.to_string(), "企業名に使用できない文字が含まれています。");
        assert_eq!(PROFILE.parse("a\0").unwrap_err().to_string(), "プロフィールに使用できない文字が含まれています。");
    }

    #[test]
    fn line_breaks_are_allowed_only_in_multi_line_fields() {
        assert_eq!(PROFILE.parse("一行目\r\n二行目\t!").unwrap(), "一行目\n二行目\t!");
        assert_eq!(COMMENT.parse("a\nb").unwrap(), "a\nb");
        assert!(matches!(USERNAME.parse("a\nb"), Err(TextError::ForbiddenCharacter { .. })));
        assert!(matches!(ADDRESS_CITY.parse("前橋市\t"), Err(TextError::ForbiddenCharacter { .. })));
        assert!(matches!(ADDRESS_CITY.parse("前橋\u{2028}市"), Err(TextError::ForbiddenCharacter { .. })));
        assert!(matches!(COMMENT.parse("a\u{7}b"), Err(TextError::ForbiddenCharacter { .. })));
    }

    #[test]
    fn the_limit_counts_characters_not_bytes() {
        assert_eq!(ADDRESS_CITY.parse(&"前".repeat(50)).unwrap().chars().count(), 50);
        let err = ADDRESS_CITY.parse(&"前".repeat(51)).unwrap_err();
        assert_eq!(err.to_string(), "市区町村は50文字以内で入力してください。");
    }

    #[test]
    fn sixty_thousand_characters_are_refused() {
        let err = ADDRESS_BUILDING.parse(&"x".repeat(60_000)).unwrap_err();
        assert_eq!(err, TextError::TooLong { label: "建物名", max: 100 });
    }

    #[test]
    fn invisible_only_text_counts_as_empty() {
        for blank in ["", "   ", "\u{3000}", "\u{200B}", "\u{200B}\u{FEFF} \u{2060}", "\u{3164}", "\n\u{200D}\n"] {
            assert_eq!(COMMENT.parse(blank).unwrap_err().to_string(), "コメントを入力してください。", "{blank:?}");
            assert_eq!(USERNAME.parse_optional(Some(blank)).unwrap_or_default(), None, "{blank:?}");
        }
    }

    #[test]
    fn surrounding_invisibles_are_trimmed_but_emoji_variation_selectors_stay() {
        assert_eq!(SALE_DISPLAY_NAME.parse("\u{200B} 太郎 \u{FEFF}").unwrap(), "太郎");
        assert_eq!(SALE_DISPLAY_NAME.parse("太郎\u{2764}\u{FE0F}").unwrap(), "太郎\u{2764}\u{FE0F}");
    }

    #[test]
    fn required_messages_match_the_spec() {
        assert_eq!(COMPANY_NAME.parse("").unwrap_err().to_string(), "企業名を入力してください。");
        assert_eq!(SALE_DISPLAY_NAME.parse(" ").unwrap_err().to_string(), "表示名を入力してください。");
        assert_eq!(ADDRESS_NAME.parse("").unwrap_err().to_string(), "お名前を入力してください。");
        assert_eq!(ADDRESS_STREET.parse("").unwrap_err().to_string(), "番地を入力してください。");
    }

    #[test]
    fn the_message_templates_render_like_the_errors() {
        let render = |t: &str, max: usize| t.replace("{label}", "企業名").replace("{max}", &max.to_string());
        assert_eq!(render(MSG_TOO_LONG, 100), TextError::TooLong { label: "企業名", max: 100 }.to_string());
        assert_eq!(render(MSG_REQUIRED, 0), TextError::Required { label: "企業名" }.to_string());
        assert_eq!(render(MSG_FORBIDDEN_CHARACTER, 0), TextError::ForbiddenCharacter { label: "企業名" }.to_string());
    }

    fn any_rule() -> impl Strategy<Value = TextRule> {
        proptest::sample::select(rules::ALL.iter().map(|(_, r)| *r).collect::<Vec<_>>())
    }

    /// Mostly printable text (Japanese and ASCII), sometimes a control or
    /// invisible character, of lengths on both sides of every limit.
    fn text() -> impl Strategy<Value = String> {
        let piece = prop_oneof![
            8 => "[a-zあ-ん漢字 ]{1,40}",
            1 => proptest::sample::select(vec!["\0", "\n", "\r\n", "\t", "\u{7F}", "\u{85}", "\u{200B}", "\u{3000}", "\u{2028}", "\u{FEFF}"])
                .prop_map(str::to_string),
        ];
        prop_oneof![
            proptest::collection::vec(piece, 0..8).prop_map(|v| v.concat()),
            (0usize..1100).prop_map(|n| "あ".repeat(n)),
        ]
    }

    proptest! {
        #[test]
        fn accepted_text_respects_every_rule(rule in any_rule(), raw in text()) {
            match rule.parse(&raw) {
                Ok(t) => {
                    prop_assert!(t.chars().count() <= rule.max_chars);
                    prop_assert!(!t.contains('\0'));
                    prop_assert!(t.chars().all(|c| !c.is_control() || (rule.multiline && matches!(c, '\n' | '\t'))));
                    prop_assert!(!rule.required || !is_blank(&t));
                    prop_assert!(!t.starts_with(char::is_whitespace) && !t.ends_with(char::is_whitespace));
                }
                Err(TextError::Required { .. }) => prop_assert!(rule.required && is_blank(&raw)),
                Err(TextError::TooLong { max, .. }) => prop_assert!(raw.chars().count() > max),
                Err(TextError::ForbiddenCharacter { .. }) => {
                    let has_forbidden = raw.chars().any(|c| c.is_control() || matches!(c, '\u{2028}' | '\u{2029}'));
                    prop_assert!(has_forbidden);
                }
            }
        }

        #[test]
        fn printable_text_within_the_limit_is_kept_as_typed(rule in any_rule(), raw in "[a-zあ-ん漢字]{1,20}") {
            prop_assert_eq!(rule.parse(&raw), Ok(raw.clone()));
        }
    }
}
