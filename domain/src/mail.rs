//! Mail and text excerpts: admin mail list and sponsor/comment excerpts,
//! and the admin mail form's rules (spec 000 §5, spec 001 §2, §5, §9).

use serde::{Deserialize, Serialize};

use crate::ids::ProjectId;

/// Length of the body excerpt in the admin's sent-mail list.
pub const ADMIN_MAIL_EXCERPT_CHARS: usize = 95;
/// Default excerpt length on the public side (sponsors, comments).
pub const SPONSOR_EXCERPT_CHARS: usize = 30;
/// Appended when an excerpt was cut.
pub const ELLIPSIS: char = '…';

pub const MSG_MAIL_TITLE_REQUIRED: &str = "タイトルを入力してください。";
pub const MSG_MAIL_CONTENT_REQUIRED: &str = "内容を入力してください。";

/// Visible text of an HTML fragment: tags removed (with the contents of
/// `script` and `style`), common entities decoded, runs of whitespace
/// (including block boundaries) collapsed to one space, trimmed.
pub fn plain_text(html: &str) -> String {
    let stripped = strip_tags(html);
    decode_entities(&stripped).split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The first `max_chars` characters (not bytes) of the visible text, with
/// '…' appended only when something was cut. The ellipsis is extra, so the
/// text itself keeps the spec's full length.
pub fn excerpt(html: &str, max_chars: usize) -> String {
    truncate_chars(&plain_text(html), max_chars)
}

/// Cuts plain text to `max_chars` characters, adding '…' when cut.
pub fn truncate_chars(text: &str, max_chars: usize) -> String {
    match text.char_indices().nth(max_chars) {
        None => text.to_string(),
        Some((cut, _)) => {
            let mut out = text[..cut].to_string();
            out.push(ELLIPSIS);
            out
        }
    }
}

/// The admin list excerpt (95 characters).
pub fn admin_mail_excerpt(html: &str) -> String {
    excerpt(html, ADMIN_MAIL_EXCERPT_CHARS)
}

/// The public-side excerpt (30 characters).
pub fn sponsor_excerpt(html: &str) -> String {
    excerpt(html, SPONSOR_EXCERPT_CHARS)
}

fn strip_tags(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(open) = rest.find('<') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        if !after.starts_with(|c: char| c.is_ascii_alphabetic() || matches!(c, '/' | '!' | '?')) {
            out.push('<');
            rest = after;
            continue;
        }
        let Some(close) = after.find('>') else {
            // An unterminated tag: drop it rather than show markup.
            return out;
        };
        let tag = &after[..close];
        rest = &after[close + 1..];
        let name: String = tag
            .trim_start_matches('/')
            .chars()
            .take_while(char::is_ascii_alphanumeric)
            .collect::<String>()
            .to_ascii_lowercase();
        if !tag.starts_with('/') && matches!(name.as_str(), "script" | "style") {
            rest = skip_past_closing(rest, &name);
        }
        out.push(' ');
    }
    out.push_str(rest);
    out
}

fn skip_past_closing<'a>(rest: &'a str, name: &str) -> &'a str {
    let closing = format!("</{name}");
    let lower = rest.to_ascii_lowercase();
    match lower.find(&closing) {
        Some(at) => rest[at..].find('>').map_or("", |gt| &rest[at + gt + 1..]),
        None => "",
    }
}

fn decode_entities(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        let after = &rest[amp..];
        match after.find(';').filter(|semi| *semi <= 10).and_then(|semi| entity(&after[1..semi]).map(|c| (c, semi))) {
            Some((c, semi)) => {
                out.push(c);
                rest = &after[semi + 1..];
            }
            None => {
                out.push('&');
                rest = &after[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

fn entity(name: &str) -> Option<char> {
    match name {
        "amp" => Some('&'),
        "lt" => Some('<'),
        "gt" => Some('>'),
        "quot" => Some('"'),
        "apos" => Some('\''),
        "nbsp" => Some(' '),
        _ => {
            let code = name.strip_prefix('#')?;
            let value = match code.strip_prefix(['x', 'X']) {
                Some(hex) => u32::from_str_radix(hex, 16).ok()?,
                None => code.parse().ok()?,
            };
            char::from_u32(value)
        }
    }
}

/// Longest mass-mail title (characters); a subject line, not an article.
pub const MAIL_TITLE_MAX_CHARS: usize = 200;
/// Largest mass-mail body (bytes of HTML).
pub const MAIL_CONTENT_MAX_BYTES: usize = 200_000;
pub const MSG_MAIL_TITLE_TOO_LONG: &str = "タイトルは200文字以内で入力してください。";
/// A control character, line break or NUL in the one-line title (the text rules of every stored text).
pub const MSG_MAIL_TITLE_FORBIDDEN_CHARACTER: &str = "タイトルに使用できない文字が含まれています。";
pub const MSG_MAIL_CONTENT_FORBIDDEN_CHARACTER: &str = "本文に使用できない文字が含まれています。";
pub const MSG_MAIL_CONTENT_TOO_LONG: &str = "内容が長すぎます。";

/// Who a mass mail goes to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum MailSegment {
    /// Every member (accounts with a password) who has not opted out. Carries an opt-out link.
    AllMembers,
    /// Everyone with a paid sale of the project (members and guests).
    ProjectSupporters(ProjectId),
    /// The readers of one of the project's news items (`domain::news`), who
    /// did not opt out. Carries an opt-out link.
    ProjectNews(ProjectId),
}

impl MailSegment {
    /// The code `sent_mails.segment` stores.
    pub const fn code(self) -> &'static str {
        match self {
            Self::AllMembers => "all_users",
            Self::ProjectSupporters(_) => "project_supporters",
            Self::ProjectNews(_) => "project_news",
        }
    }

    /// Whether the mail is advertising to the whole membership, which the law (特定電子メール法) requires to
    /// carry a way to refuse further mail, and which skips those who did.
    pub const fn needs_opt_out(self) -> bool {
        matches!(self, Self::AllMembers | Self::ProjectNews(_))
    }
}

/// The plain-text part of an HTML mail body: paragraphs, line breaks and
/// list items become lines, links keep their address in brackets, every
/// other tag is dropped and entities decoded.
pub fn html_to_text(html: &str) -> String {
    let mut marked = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(open) = rest.find('<') {
        marked.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let Some(close) = after.find('>') else {
            marked.push_str(&rest[open..]);
            rest = "";
            break;
        };
        let tag = &after[..close];
        let lower = tag.to_ascii_lowercase();
        let name: String = lower.trim_start_matches('/').chars().take_while(char::is_ascii_alphanumeric).collect();
        let closing = lower.starts_with('/');
        match name.as_str() {
            "br" => marked.push('\n'),
            "p" | "div" | "h1" | "h2" | "h3" | "h4" | "h5" | "h6" | "blockquote" | "ul" | "ol" if closing => {
                marked.push_str("\n\n")
            }
            "li" if !closing => marked.push_str("\n・"),
            "a" if !closing => {
                if let Some(href) = attribute(tag, "href") {
                    // Kept as text until the closing tag, where the address follows the link text.
                    marked.push_str(&format!("\u{1}{href}\u{2}"));
                }
            }
            "a" => marked.push('\u{3}'),
            _ => {}
        }
        // Keep the whole tag so plain_text's tag stripping (script/style contents) still applies.
        marked.push('<');
        marked.push_str(tag);
        marked.push('>');
        rest = &after[close + 1..];
    }
    marked.push_str(rest);
    let lines: Vec<String> = marked
        .split('\n')
        .map(|line| {
            let text = plain_text(line);
            // The list item's own tag became a space after the bullet.
            let text = text.strip_prefix("・ ").map_or(text.clone(), |item| format!("・{item}"));
            link_addresses(&text)
        })
        .collect();
    let mut out = String::new();
    let mut blank = true;
    for line in lines {
        if line.is_empty() {
            if !blank {
                out.push('\n');
            }
            blank = true;
        } else {
            out.push_str(&line);
            out.push('\n');
            blank = false;
        }
    }
    out.trim_end().to_string()
}

/// `\u{1}href\u{2}text\u{3}` → `text（href）`, or just `href` when the text is the address.
fn link_addresses(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find('\u{1}') {
        out.push_str(&rest[..start]);
        let after = &rest[start + 1..];
        let (Some(mid), Some(end)) = (after.find('\u{2}'), after.find('\u{3}')) else {
            rest = after;
            continue;
        };
        if end < mid {
            rest = after;
            continue;
        }
        let href = &after[..mid];
        let label = after[mid + 1..end].trim();
        if label.is_empty() || label == href {
            out.push_str(href);
        } else {
            out.push_str(&format!("{label}（{href}）"));
        }
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    out.replace(['\u{1}', '\u{2}', '\u{3}'], "")
}

fn attribute(tag: &str, name: &str) -> Option<String> {
    let lower = tag.to_ascii_lowercase();
    let at = lower.find(&format!("{name}=\""))?;
    let value_start = at + name.len() + 2;
    let end = tag[value_start..].find('"')?;
    Some(decode_entities(&tag[value_start..value_start + end]))
}

/// A mass mail ready to send: title and body both present.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MailDraft {
    /// The project the mail is about, if any.
    pub project_id: Option<ProjectId>,
    pub title: String,
    /// The body as HTML; sanitising it is the adapter's job.
    pub content: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum MailDraftError {
    #[error("{}", MSG_MAIL_TITLE_REQUIRED)]
    TitleRequired,
    #[error("{}", MSG_MAIL_CONTENT_REQUIRED)]
    ContentRequired,
    #[error("{}", MSG_MAIL_TITLE_TOO_LONG)]
    TitleTooLong,
    #[error("{}", MSG_MAIL_CONTENT_TOO_LONG)]
    ContentTooLong,
    #[error("{}", MSG_MAIL_TITLE_FORBIDDEN_CHARACTER)]
    TitleForbiddenCharacter,
    #[error("{}", MSG_MAIL_CONTENT_FORBIDDEN_CHARACTER)]
    ContentForbiddenCharacter,
}

impl MailDraftError {
    /// The form field the message belongs to.
    pub const fn field(self) -> &'static str {
        match self {
            Self::TitleRequired | Self::TitleTooLong | Self::TitleForbiddenCharacter => "title",
            Self::ContentRequired | Self::ContentTooLong | Self::ContentForbiddenCharacter => "content",
        }
    }
}

impl MailDraft {
    /// Checks the admin mail form. A body that is only markup (the rich-text
    /// editor's empty `<p><br></p>`) counts as empty.
    pub fn parse(project_id: Option<ProjectId>, title: &str, content: &str) -> Result<Self, Vec<MailDraftError>> {
        let mut errors = Vec::new();
        let title = title.trim();
        if title.is_empty() {
            errors.push(MailDraftError::TitleRequired);
        } else if title.chars().count() > MAIL_TITLE_MAX_CHARS {
            errors.push(MailDraftError::TitleTooLong);
        } else if crate::text::has_forbidden_character(title, false) {
            errors.push(MailDraftError::TitleForbiddenCharacter);
        }
        if content.len() > MAIL_CONTENT_MAX_BYTES {
            errors.push(MailDraftError::ContentTooLong);
        } else if crate::text::has_forbidden_character(content, true) {
            errors.push(MailDraftError::ContentForbiddenCharacter);
        } else if plain_text(content).is_empty() && !content.contains("<img") {
            errors.push(MailDraftError::ContentRequired);
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        Ok(Self { project_id, title: title.to_string(), content: content.to_string() })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn a_title_with_a_control_character_or_line_break_is_refused() {
        for title in ["お知らせ\u{0}", "お知らせ\r\nBcc: x@example.jp", "件名\u{7}"] {
            let refused = MailDraft::parse(None, title, "<p>本文</p>").unwrap_err();
            assert_eq!(refused, vec![MailDraftError::TitleForbiddenCharacter], "{title:?}");
            assert_eq!(refused[0].to_string(), "タイトルに使用できない文字が含まれています。");
        }
        let refused = MailDraft::parse(None, "お知らせ", "<p>本文\u{0}</p>").unwrap_err();
        assert_eq!(refused, vec![MailDraftError::ContentForbiddenCharacter]);
        assert!(MailDraft::parse(None, "お知らせ", "<p>一行目</p>\n<p>二行目</p>").is_ok());
    }

    #[test]
    fn tags_are_stripped_and_blocks_become_spaces() {
        assert_eq!(plain_text("<p>こんにちは</p><p>世界<br>です</p>"), "こんにちは 世界 です");
    }

    #[test]
    fn script_and_style_contents_are_dropped() {
        assert_eq!(plain_text("a<script>alert('x')</script>b<STYLE>p{}</STYLE>c"), "a b c");
    }

    #[test]
    fn entities_are_decoded_after_stripping() {
        assert_eq!(plain_text("&lt;b&gt; &amp; &#12354;&#x3042;"), "<b> & ああ");
        assert_eq!(plain_text("AT&T a < b"), "AT&T a < b");
    }

    #[test]
    fn admin_excerpt_counts_95_characters_not_bytes() {
        let body = format!("<p>{}</p>", "あ".repeat(100));
        let cut = admin_mail_excerpt(&body);
        assert_eq!(cut.chars().count(), 96);
        assert!(cut.ends_with('…'));
        assert_eq!(cut.trim_end_matches('…').chars().count(), 95);
    }

    #[test]
    fn sponsor_excerpt_is_30_characters() {
        assert_eq!(sponsor_excerpt(&"い".repeat(30)), "い".repeat(30));
        assert_eq!(sponsor_excerpt(&"い".repeat(31)), format!("{}…", "い".repeat(30)));
    }

    #[test]
    fn mail_needs_a_title_and_a_body() {
        let errors = MailDraft::parse(None, " ", "<p><br></p>").unwrap_err();
        let messages: Vec<String> = errors.iter().map(ToString::to_string).collect();
        assert_eq!(messages, vec!["タイトルを入力してください。", "内容を入力してください。"]);
        assert!(MailDraft::parse(Some(ProjectId(1)), "お知らせ", "<p>本文</p>").is_ok());
    }

    #[test]
    fn the_text_part_keeps_paragraphs_lines_and_link_addresses() {
        let html = "<p>皆さま</p><p>1行目<br>2行目</p><ul><li>A</li><li>B</li></ul>\
                    <p><a href=\"https://example.jp/a?b=1&amp;c=2\">詳しくはこちら</a></p><script>x()</script>";
        assert_eq!(
            html_to_text(html),
            "皆さま\n\n1行目\n2行目\n\n・A\n・B\n\n詳しくはこちら（https://example.jp/a?b=1&c=2）"
        );
    }

    #[test]
    fn segments_store_the_migration_codes_and_only_all_members_need_an_opt_out() {
        assert_eq!(MailSegment::AllMembers.code(), "all_users");
        assert_eq!(MailSegment::ProjectSupporters(ProjectId(3)).code(), "project_supporters");
        assert!(MailSegment::AllMembers.needs_opt_out());
        assert!(!MailSegment::ProjectSupporters(ProjectId(3)).needs_opt_out());
        assert_eq!(MailSegment::ProjectNews(ProjectId(3)).code(), "project_news");
        assert!(MailSegment::ProjectNews(ProjectId(3)).needs_opt_out());
    }

    proptest! {
        #[test]
        fn excerpt_never_exceeds_the_limit_plus_ellipsis(html in "\\PC{0,300}", max in 0usize..120) {
            let cut = excerpt(&html, max);
            prop_assert!(cut.chars().count() <= max + 1);
            let text = plain_text(&html);
            prop_assert!(text.starts_with(cut.trim_end_matches(ELLIPSIS)) || cut.ends_with(ELLIPSIS));
        }

        #[test]
        fn the_text_part_never_holds_markup_of_a_script(body in "\\PC{0,100}") {
            let text = html_to_text(&format!("<p>{body}</p><script>alert(1)</script>"));
            prop_assert!(!text.contains("alert(1)"));
        }

        #[test]
        fn plain_text_of_tag_free_text_without_entities_is_only_whitespace_collapsed(text in "[^<&]{0,200}") {
            prop_assert_eq!(plain_text(&text), text.split_whitespace().collect::<Vec<_>>().join(" "));
        }
    }
}
