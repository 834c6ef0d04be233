//! Supporter comments on a project page (spec 000 §2-4): the text rule that
//! an edit must satisfy. Only the author may edit; the use case checks that.

use serde::{Deserialize, Serialize};

use crate::text::{rules, TextError, TextRule};

/// Shown when the edited comment is empty (only spaces or invisible
/// characters count as empty).
pub const MSG_COMMENT_REQUIRED: &str = "コメントを入力してください。";
/// Shown when the comment is longer than [`COMMENT_MAX_CHARS`].
pub const MSG_COMMENT_TOO_LONG: &str = "コメントは1000文字以内で入力してください。";
/// Most characters (not bytes) a comment may have, after trimming.
pub const COMMENT_MAX_CHARS: usize = rules::COMMENT.max_chars;

/// A comment text that passed the rules: trimmed, not blank, at most 1000
/// characters, no control character but line breaks and tabs. Plain text:
/// it is escaped when rendered, never parsed as HTML.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CommentText(String);

impl CommentText {
    pub fn parse(raw: &str) -> Result<Self, TextError> {
        rules::COMMENT.parse(raw).map(Self)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// Why an operator hid a comment (terms of use 第18条): required, one line,
/// kept with the comment and in the audit log.
pub const HIDE_REASON: TextRule = TextRule::new("reason", "非表示の理由", 200).required();

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn a_hidden_comment_needs_a_short_reason() {
        assert_eq!(HIDE_REASON.parse("　").unwrap_err().to_string(), "非表示の理由を入力してください。");
        assert_eq!(
            HIDE_REASON.parse(&"a".repeat(201)).unwrap_err().to_string(),
            "非表示の理由は200文字以内で入力してください。"
        );
        assert_eq!(HIDE_REASON.parse(" 誹謗中傷のため ").unwrap(), "誹謗中傷のため");
        assert!(HIDE_REASON.parse("理由\n改行").is_err(), "one line");
    }

    #[test]
    fn an_empty_or_blank_comment_is_refused_with_the_spec_message() {
        assert_eq!(CommentText::parse("").unwrap_err().to_string(), "コメントを入力してください。");
        assert_eq!(CommentText::parse(" \n\u{3000}").unwrap_err().to_string(), MSG_COMMENT_REQUIRED);
        assert_eq!(CommentText::parse("\u{200B}\u{200B}").unwrap_err().to_string(), MSG_COMMENT_REQUIRED);
    }

    #[test]
    fn a_thousand_characters_are_accepted_and_one_more_is_refused() {
        assert!(CommentText::parse(&"あ".repeat(1000)).is_ok());
        let err = CommentText::parse(&"あ".repeat(1001)).unwrap_err();
        assert_eq!(err.to_string(), "コメントは1000文字以内で入力してください。");
        assert_eq!(err.to_string(), MSG_COMMENT_TOO_LONG);
    }

    #[test]
    fn a_nul_is_refused_but_line_breaks_are_kept() {
        assert_eq!(
            CommentText::parse("応援\0").unwrap_err().to_string(),
            "コメントに使用できない文字が含まれています。"
        );
        assert_eq!(CommentText::parse("応援\nしています").unwrap().as_str(), "応援\nしています");
    }

    #[test]
    fn surrounding_whitespace_is_trimmed_and_does_not_count() {
        let text = CommentText::parse(&format!("  {}  ", "a".repeat(1000))).unwrap();
        assert_eq!(text.as_str().len(), 1000);
        assert_eq!(CommentText::parse(" 応援しています！ ").unwrap().as_str(), "応援しています！");
    }

    proptest! {
        #[test]
        fn an_accepted_comment_is_never_blank_nor_too_long(raw in ".{0,1100}") {
            if let Ok(text) = CommentText::parse(&raw) {
                prop_assert!(!text.as_str().trim().is_empty());
                prop_assert!(text.as_str().chars().count() <= COMMENT_MAX_CHARS);
            }
        }
    }
}
