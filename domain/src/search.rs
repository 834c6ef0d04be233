//! Keyword search as people type Japanese: the same text in full-width or
//! half-width characters, in katakana or hiragana, in capitals or not, with
//! or without spaces, is the same text.
//!
//! Both sides go through [`fold`]: NFKC (full-width ASCII becomes ASCII,
//! half-width katakana becomes full-width, `ｶﾞ` becomes `ガ`), lower case,
//! katakana folded into hiragana, and every space removed. A project's
//! searchable text ([`index_text`]) is folded once when the catalog loads;
//! a query ([`SearchQuery::parse`]) is split into words on spaces (full-width
//! ones too) and matches a text that contains every word (AND).
//!
//! Substring matching, not morphological analysis: `ばら` finds `前橋ばら園`,
//! and it also finds `ばらばら`. No synonyms, no reading of kanji (`薔薇` is
//! not `ばら`), no ranking (docs/decisions.md, "Keyword search").

use unicode_normalization::UnicodeNormalization;

/// Most characters a query may have (as typed, before folding).
pub const MAX_QUERY_CHARS: usize = 100;

/// Shown when a query is longer than [`MAX_QUERY_CHARS`].
pub const MSG_QUERY_TOO_LONG: &str = "キーワードは100文字以内で入力してください。";

/// Between the parts of an indexed text. Queries never contain it (their
/// words have no whitespace), so no word matches across two parts.
const PART_SEPARATOR: char = '\n';

/// Katakana that has a hiragana twin (ァ..ヶ, and the iteration marks ヽヾ).
fn hiragana_of(c: char) -> char {
    match c {
        '\u{30A1}'..='\u{30F6}' | '\u{30FD}'..='\u{30FE}' => char::from_u32(c as u32 - 0x60).unwrap_or(c),
        _ => c,
    }
}

/// The searchable form of `text`: NFKC, lower case, katakana as hiragana,
/// whitespace removed. Folding a folded text changes nothing.
pub fn fold(text: &str) -> String {
    let mut out = fold_once(text);
    // Removing a space can put a combining mark (a lone half-width `ﾞ` after a space) next to a letter it
    // composes with; fold again until nothing changes (in practice once).
    for _ in 0..3 {
        if !out.chars().any(is_combining_mark) {
            break;
        }
        let again = fold_once(&out);
        if again == out {
            break;
        }
        out = again;
    }
    out
}

/// The combining marks that composition can join to the character before them.
fn is_combining_mark(c: char) -> bool {
    matches!(c, '\u{0300}'..='\u{036F}' | '\u{1AB0}'..='\u{1AFF}' | '\u{1DC0}'..='\u{1DFF}'
        | '\u{20D0}'..='\u{20FF}' | '\u{3099}'..='\u{309A}' | '\u{FE20}'..='\u{FE2F}')
}

fn fold_once(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.nfkc() {
        if c.is_whitespace() {
            continue;
        }
        for lower in c.to_lowercase() {
            out.push(hiragana_of(lower));
        }
    }
    out
}

/// The visible text of sanitised HTML: tags dropped (each one a space),
/// the common character references decoded. Not an HTML parser: the input
/// is our own sanitiser's output, whose attribute values escape `<` and `>`.
pub fn strip_html(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(start) = rest.find('<') {
        decode_into(&rest[..start], &mut out);
        out.push(' ');
        rest = match rest[start..].find('>') {
            Some(end) => &rest[start + end + 1..],
            None => "",
        };
    }
    decode_into(rest, &mut out);
    out
}

fn decode_into(text: &str, out: &mut String) {
    let mut rest = text;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        let after = &rest[amp..];
        let Some(semi) = after.find(';').filter(|&i| i <= 10) else {
            out.push('&');
            rest = &after[1..];
            continue;
        };
        let name = &after[1..semi];
        let decoded = match name {
            "amp" => Some('&'),
            "lt" => Some('<'),
            "gt" => Some('>'),
            "quot" => Some('"'),
            "apos" => Some('\''),
            "nbsp" => Some(' '),
            _ => name
                .strip_prefix("#x")
                .or_else(|| name.strip_prefix("#X"))
                .and_then(|hex| u32::from_str_radix(hex, 16).ok())
                .or_else(|| name.strip_prefix('#').and_then(|dec| dec.parse().ok()))
                .and_then(char::from_u32),
        };
        match decoded {
            Some(c) => {
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
}

/// What a project is found by: its title, lead, story (HTML, stripped),
/// owner's name and the titles and descriptions (HTML, stripped) of its
/// public returns, each folded, kept apart so a word never spans two of them.
pub fn index_text<'a>(
    title: &str,
    lead: &str,
    story_html: &str,
    owner: Option<&str>,
    returns: impl IntoIterator<Item = (&'a str, &'a str)>,
) -> String {
    let mut parts = vec![fold(title), fold(lead), fold(&strip_html(story_html))];
    if let Some(owner) = owner {
        parts.push(fold(owner));
    }
    for (return_title, return_html) in returns {
        parts.push(fold(return_title));
        parts.push(fold(&strip_html(return_html)));
    }
    parts.join(&PART_SEPARATOR.to_string())
}

/// Why a query was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum QueryError {
    #[error("キーワードは100文字以内で入力してください。")]
    TooLong,
}

/// A keyword query: its words, folded, each of which must be found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchQuery {
    words: Vec<String>,
}

impl SearchQuery {
    /// `Ok(None)` for a query with no words (blank): it filters nothing.
    /// Words are split on any whitespace (the ideographic space too), folded,
    /// and repeated ones dropped.
    pub fn parse(raw: &str) -> Result<Option<Self>, QueryError> {
        if raw.chars().count() > MAX_QUERY_CHARS {
            return Err(QueryError::TooLong);
        }
        let normalised: String = raw.nfkc().collect();
        let mut words: Vec<String> = Vec::new();
        for word in normalised.split_whitespace().map(fold).filter(|w| !w.is_empty()) {
            if !words.contains(&word) {
                words.push(word);
            }
        }
        Ok((!words.is_empty()).then_some(Self { words }))
    }

    pub fn words(&self) -> &[String] {
        &self.words
    }

    /// Whether an indexed text ([`index_text`]) holds every word.
    pub fn matches(&self, indexed: &str) -> bool {
        self.words.iter().all(|word| indexed.contains(word.as_str()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn finds(query: &str, text: &str) -> bool {
        SearchQuery::parse(query).unwrap().unwrap().matches(&index_text(text, "", "", None, []))
    }

    #[test]
    fn katakana_finds_hiragana_and_the_reverse() {
        assert!(finds("ローズ", "ろーずガーデン"));
        assert!(finds("ろーず", "ローズガーデン"));
        assert!(finds("バラ", "前橋ばら園"));
    }

    #[test]
    fn half_width_katakana_finds_full_width() {
        assert!(finds("ﾊﾞﾗ", "バラの花壇"));
        assert!(finds("ﾊﾞﾗ", "前橋ばら園"));
        assert_eq!(fold("ｶﾞﾝﾊﾞﾚ"), "がんばれ");
    }

    #[test]
    fn full_width_letters_and_digits_find_ascii_whatever_the_case() {
        assert!(finds("ＮＰＯ", "NPO法人はるなの森"));
        assert!(finds("npo", "ＮＰＯ法人"));
        assert!(finds("２０２６", "2026年の春"));
    }

    #[test]
    fn every_word_must_be_found_and_spaces_of_either_width_split_words() {
        let story = index_text("花壇よみがえり", "", "<p>前橋市の<strong>ばら</strong>園</p>", None, []);
        let both = SearchQuery::parse("前橋　バラ").unwrap().unwrap();
        assert_eq!(both.words(), ["前橋", "ばら"]);
        assert!(both.matches(&story));
        assert!(!SearchQuery::parse("前橋 りんご").unwrap().unwrap().matches(&story));
    }

    #[test]
    fn spaces_inside_the_text_do_not_stop_a_match() {
        assert!(finds("こども食堂", "いせさき こども 食堂"));
    }

    #[test]
    fn a_word_never_spans_the_title_and_the_lead() {
        let text = index_text("前橋ばら", "園の再生", "", None, []);
        assert!(!SearchQuery::parse("ばら園").unwrap().unwrap().matches(&text));
        assert!(SearchQuery::parse("ばら 園").unwrap().unwrap().matches(&text));
    }

    #[test]
    fn the_owners_name_the_story_and_the_returns_without_markup_are_searched() {
        let text = index_text(
            "t",
            "l",
            "<p>桐生の<a href=\"https://example.jp/\">機場</a> &amp; 工房</p>",
            Some("織都の会"),
            [("ストール", "<p>手織りの<b>絹</b></p>")],
        );
        for query in ["機場", "&工房", "織都", "すとーる", "絹", "example"] {
            assert_eq!(SearchQuery::parse(query).unwrap().unwrap().matches(&text), query != "example", "{query}");
        }
    }

    #[test]
    fn character_references_are_decoded_and_unknown_ones_kept() {
        assert_eq!(strip_html("a&lt;b&gt;&#12354;&#x3044;&nbsp;&zz;&"), "a<b>あい &zz;&");
    }

    #[test]
    fn a_blank_query_filters_nothing_and_a_long_one_is_refused() {
        assert_eq!(SearchQuery::parse(" 　 ").unwrap(), None);
        assert_eq!(SearchQuery::parse(&"あ".repeat(MAX_QUERY_CHARS)).unwrap().map(|q| q.words().len()), Some(1));
        assert_eq!(SearchQuery::parse(&"あ".repeat(MAX_QUERY_CHARS + 1)), Err(QueryError::TooLong));
        assert_eq!(QueryError::TooLong.to_string(), MSG_QUERY_TOO_LONG);
    }

    #[test]
    fn repeated_words_count_once() {
        assert_eq!(SearchQuery::parse("バラ ばら ﾊﾞﾗ").unwrap().unwrap().words(), ["ばら"]);
    }

    /// Japanese as typed: kana of both kinds and widths, kanji, ASCII and full-width ASCII, spaces.
    const TYPED: &str = "[ぁ-ゖァ-ヶｦ-ﾟ一-龠a-zA-Z0-9Ａ-Ｚａ-ｚ０-９ 　ー・]{0,40}";

    fn to_katakana(text: &str) -> String {
        text.chars()
            .map(|c| match c {
                '\u{3041}'..='\u{3096}' => char::from_u32(c as u32 + 0x60).unwrap_or(c),
                _ => c,
            })
            .collect()
    }

    fn to_full_width(text: &str) -> String {
        text.chars()
            .map(|c| match c {
                '!'..='~' => char::from_u32(c as u32 - 0x21 + 0xFF01).unwrap_or(c),
                ' ' => '\u{3000}',
                _ => c,
            })
            .collect()
    }

    proptest! {
        #[test]
        fn folding_twice_is_folding_once(text in TYPED) {
            prop_assert_eq!(fold(&fold(&text)), fold(&text));
        }

        #[test]
        fn katakana_and_hiragana_fold_alike(text in "[ぁ-ゖー]{0,30}") {
            prop_assert_eq!(fold(&to_katakana(&text)), fold(&text));
        }

        #[test]
        fn full_width_ascii_folds_like_ascii(text in "[ -~]{0,30}") {
            prop_assert_eq!(fold(&to_full_width(&text)), fold(&text));
        }

        #[test]
        fn folded_text_has_no_space_no_capital_and_no_katakana(text in TYPED) {
            let folded = fold(&text);
            prop_assert!(!folded.chars().any(|c| c.is_whitespace() || c.is_uppercase()));
            let katakana = '\u{30A1}'..='\u{30F6}';
            prop_assert!(!folded.chars().any(|c| katakana.contains(&c)), "{}", folded);
        }

        /// Any piece of a text, typed in the other kana and width, finds it.
        #[test]
        fn a_piece_of_the_text_typed_differently_finds_it(text in "[ぁ-ゖ一-龠a-z0-9]{1,30}", a in 0usize..30, len in 1usize..10) {
            let chars: Vec<char> = text.chars().collect();
            let start = a % chars.len();
            let piece: String = chars[start..(start + len).min(chars.len())].iter().collect();
            let typed = to_full_width(&to_katakana(&piece));
            let query = SearchQuery::parse(&typed).unwrap().unwrap();
            prop_assert!(query.matches(&index_text(&text, "", "", None, [])), "{} in {}", typed, text);
        }

        #[test]
        fn a_query_matches_only_texts_holding_every_word(words in prop::collection::vec("[ぁ-ゖ]{1,4}", 1..4), text in "[ぁ-ゖ]{0,40}") {
            let query = SearchQuery::parse(&words.join("　")).unwrap().unwrap();
            let indexed = index_text(&text, "", "", None, []);
            prop_assert_eq!(query.matches(&indexed), words.iter().all(|w| indexed.contains(&fold(w))));
        }

        #[test]
        fn stripping_markup_leaves_no_tag(text in "[a-zあ-ん<>/ =\"]{0,60}") {
            let stripped = strip_html(&format!("<p>{text}</p>"));
            prop_assert!(!stripped.contains("<p>"));
        }
    }
}
