//! What a project page shows around the campaign: its images (main, slider,
//! honour banner, a return's picture), who runs it (the owner's profile) and
//! the questions it answers (FAQ). Operators may change all of it at any
//! time, before and after publication: none of it is a term supporters rely
//! on (docs/decisions.md, "Project content").
//!
//! Images are checked like every upload (`crate::profile::detect_image`,
//! `check_dimensions`: jpg/png/gif by content, 2 MB, 8000 px a side, 40 MP)
//! and re-encoded to the size their place needs ([`ImageSlot::fit`]).

use crate::profile::WebUrl;
use crate::text::TextRule;

/// Most slider images a project shows.
pub const MAX_SLIDER_IMAGES: usize = 10;
/// Most links an owner's profile lists.
pub const MAX_OWNER_LINKS: usize = 5;
/// Most FAQ entries a project page shows.
pub const MAX_FAQS: usize = 20;
/// The longest side of a stored project image (main, slider, honour, return):
/// the page shows them at most 800 CSS px wide, so 1600 px stays sharp on
/// high-density screens.
pub const PROJECT_IMAGE_EDGE: u32 = 1600;
/// The side of the square an owner's image is stored in (shown at 96-160 px).
pub const OWNER_IMAGE_SIDE: u32 = 400;

pub const SLIDER_ALT: TextRule = TextRule::new("alt", "代替テキスト", 120);
pub const OWNER_NAME: TextRule = TextRule::new("name", "実行者名", 100).required();
pub const OWNER_PROFILE: TextRule = TextRule::new("profile", "実行者のプロフィール", 1000).multiline();
pub const LINK_LABEL: TextRule = TextRule::new("label", "リンクの表示名", 60).required();
pub const FAQ_QUESTION: TextRule = TextRule::new("question", "質問", 200).required();
pub const FAQ_ANSWER: TextRule = TextRule::new("answer", "回答", 2000).required().multiline();

pub const MSG_URL: &str = "リンク先はhttp://またはhttps://で始まるURLを入力してください。";
pub const MSG_SLIDER_FULL: &str = "スライダー画像は10枚までです。";
pub const MSG_SLIDER_CHANGED: &str = "スライダー画像が他の操作で変わりました。画面を読み込み直してください。";
pub const MSG_TOO_MANY_LINKS: &str = "リンクは5件までです。";
pub const MSG_TOO_MANY_FAQS: &str = "よくある質問は20件までです。";
pub const MSG_OWNER_FIRST: &str = "実行者の画像は、実行者名を保存してから登録してください。";
pub const MSG_UNDECODABLE: &str = "画像を読み込めませんでした。別の画像を選択してください。";

/// Where an uploaded image goes on the project page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ImageSlot {
    /// The main visual (also the OGP image).
    Main,
    /// One more image of the slider, at its end.
    Slider,
    /// The honour banner.
    Honor,
    /// The owner's photo or logo.
    Owner,
    /// A return's picture.
    Return,
}

/// How an image is re-encoded for its place.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImageFit {
    /// Scaled down (never up) to fit `edge` px a side, aspect kept.
    Within(u32),
    /// Scaled down to fit a `side` px square, then centred on a square
    /// canvas as large as its longer side (transparent for PNG and GIF,
    /// white for JPEG): a wide logo keeps all of itself inside the round or
    /// square frame the page draws, instead of being cropped.
    PaddedSquare(u32),
}

impl ImageSlot {
    pub const ALL: [Self; 5] = [Self::Main, Self::Slider, Self::Honor, Self::Owner, Self::Return];

    pub const fn code(self) -> &'static str {
        match self {
            Self::Main => "main",
            Self::Slider => "slider",
            Self::Honor => "honor",
            Self::Owner => "owner",
            Self::Return => "return",
        }
    }

    pub fn parse(code: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|s| s.code() == code)
    }

    pub const fn fit(self) -> ImageFit {
        match self {
            Self::Owner => ImageFit::PaddedSquare(OWNER_IMAGE_SIDE),
            Self::Main | Self::Slider | Self::Honor | Self::Return => ImageFit::Within(PROJECT_IMAGE_EDGE),
        }
    }
}

/// A refused field: its request path (`faqs.1.answer`) and the message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContentFieldError {
    pub field: String,
    pub message: String,
}

impl ContentFieldError {
    pub fn new(field: impl Into<String>, message: impl Into<String>) -> Self {
        Self { field: field.into(), message: message.into() }
    }
}

/// A slider image kept, with its (new) alternative text; the list's order
/// is the slider's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SliderEdit {
    pub id: i64,
    pub alt: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OwnerLink {
    pub label: String,
    /// An absolute http(s) URL once checked.
    pub url: String,
}

/// The owner's profile texts (the image is uploaded on its own).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OwnerTexts {
    pub name: String,
    /// Plain text; empty = none.
    pub profile: String,
    pub links: Vec<OwnerLink>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FaqEntry {
    pub question: String,
    pub answer: String,
}

/// Everything of the content form but the image files.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContentTexts {
    /// Where the honour banner links to; `None` = no link.
    pub honor_img_link: Option<String>,
    /// Every slider image to keep, in order; the others are removed.
    pub slider: Vec<SliderEdit>,
    /// `None` = the page shows no owner box.
    pub owner: Option<OwnerTexts>,
    pub faqs: Vec<FaqEntry>,
}

/// One optional http(s) link: blank gives `None`.
pub fn check_link(raw: Option<&str>) -> Result<Option<String>, &'static str> {
    match raw.map(str::trim).filter(|s| !s.is_empty()) {
        None => Ok(None),
        Some(url) => WebUrl::parse(url).map(|u| Some(u.as_str().to_string())).map_err(|_| MSG_URL),
    }
}

/// The alternative text of a slider image, cleaned.
pub fn check_alt(raw: &str) -> Result<String, ContentFieldError> {
    SLIDER_ALT.parse(raw).map_err(|e| ContentFieldError::new("alt", e.to_string()))
}

/// The texts cleaned (trimmed, blank optional values dropped) or every
/// refused field. `stored_slider` is the ids of the project's slider images
/// now: the form may keep any of them at most once, in any order, and
/// nothing else. An owner with every text blank is no owner; with a profile
/// or a link but no name, the name is asked for.
pub fn check_content(mut input: ContentTexts, stored_slider: &[i64]) -> Result<ContentTexts, Vec<ContentFieldError>> {
    let mut errors = Vec::new();
    match check_link(input.honor_img_link.as_deref()) {
        Ok(link) => input.honor_img_link = link,
        Err(message) => errors.push(ContentFieldError::new("honorImgLink", message)),
    }
    let mut seen = Vec::with_capacity(input.slider.len());
    let foreign = input.slider.iter().any(|s| {
        let repeated = seen.contains(&s.id);
        seen.push(s.id);
        repeated || !stored_slider.contains(&s.id)
    });
    if foreign {
        errors.push(ContentFieldError::new("slider", MSG_SLIDER_CHANGED));
    }
    for (i, image) in input.slider.iter_mut().enumerate() {
        match SLIDER_ALT.parse(&image.alt) {
            Ok(alt) => image.alt = alt,
            Err(e) => errors.push(ContentFieldError::new(format!("slider.{i}.alt"), e.to_string())),
        }
    }
    input.owner = match input.owner.take() {
        None => None,
        Some(owner) => check_owner(owner, &mut errors),
    };
    if input.faqs.len() > MAX_FAQS {
        errors.push(ContentFieldError::new("faqs", MSG_TOO_MANY_FAQS));
    } else {
        for (i, faq) in input.faqs.iter_mut().enumerate() {
            match FAQ_QUESTION.parse(&faq.question) {
                Ok(q) => faq.question = q,
                Err(e) => errors.push(ContentFieldError::new(format!("faqs.{i}.question"), e.to_string())),
            }
            match FAQ_ANSWER.parse(&faq.answer) {
                Ok(a) => faq.answer = a,
                Err(e) => errors.push(ContentFieldError::new(format!("faqs.{i}.answer"), e.to_string())),
            }
        }
    }
    if errors.is_empty() {
        Ok(input)
    } else {
        Err(errors)
    }
}

fn check_owner(mut owner: OwnerTexts, errors: &mut Vec<ContentFieldError>) -> Option<OwnerTexts> {
    let all_blank = crate::text::is_blank(&owner.name)
        && crate::text::is_blank(&owner.profile)
        && owner.links.iter().all(|l| crate::text::is_blank(&l.label) && crate::text::is_blank(&l.url));
    if all_blank {
        return None;
    }
    match OWNER_NAME.parse(&owner.name) {
        Ok(name) => owner.name = name,
        Err(e) => errors.push(ContentFieldError::new("owner.name", e.to_string())),
    }
    match OWNER_PROFILE.parse(&owner.profile) {
        Ok(profile) => owner.profile = profile,
        Err(e) => errors.push(ContentFieldError::new("owner.profile", e.to_string())),
    }
    if owner.links.len() > MAX_OWNER_LINKS {
        errors.push(ContentFieldError::new("owner.links", MSG_TOO_MANY_LINKS));
        return Some(owner);
    }
    for (i, link) in owner.links.iter_mut().enumerate() {
        match LINK_LABEL.parse(&link.label) {
            Ok(label) => link.label = label,
            Err(e) => errors.push(ContentFieldError::new(format!("owner.links.{i}.label"), e.to_string())),
        }
        match check_link(Some(&link.url)) {
            Ok(Some(url)) => link.url = url,
            Ok(None) | Err(_) => errors.push(ContentFieldError::new(format!("owner.links.{i}.url"), MSG_URL)),
        }
    }
    Some(owner)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn texts() -> ContentTexts {
        ContentTexts {
            honor_img_link: Some(" https://example.jp/honor ".into()),
            slider: vec![SliderEdit { id: 2, alt: " 祭りの山車 ".into() }, SliderEdit { id: 1, alt: String::new() }],
            owner: Some(OwnerTexts {
                name: " 渋川へそ祭り実行委員会 ".into(),
                profile: "昭和59年から続く祭りです。\n毎年7月に開催。".into(),
                links: vec![OwnerLink { label: "公式サイト".into(), url: "https://heso.example.jp".into() }],
            }),
            faqs: vec![FaqEntry {
                question: "雨の日は？".into(), answer: "小雨なら開催します。".into()
            }],
        }
    }

    fn fields(errors: &[ContentFieldError]) -> Vec<&str> {
        errors.iter().map(|e| e.field.as_str()).collect()
    }

    #[test]
    fn a_full_form_is_kept_trimmed_in_its_order() {
        let checked = check_content(texts(), &[1, 2]).unwrap();
        assert_eq!(checked.honor_img_link.as_deref(), Some("https://example.jp/honor"));
        assert_eq!(
            checked.slider,
            vec![SliderEdit { id: 2, alt: "祭りの山車".into() }, SliderEdit { id: 1, alt: "".into() }]
        );
        assert_eq!(checked.owner.unwrap().name, "渋川へそ祭り実行委員会");
    }

    #[test]
    fn links_other_than_http_or_https_are_refused() {
        for bad in ["javascript:alert(1)", "data:text/html,x", "ftp://example.jp", "example.jp", "https://a@evil.jp"] {
            let mut input = texts();
            input.honor_img_link = Some(bad.into());
            input.owner.as_mut().unwrap().links[0].url = bad.into();
            let errors = check_content(input, &[1, 2]).unwrap_err();
            assert_eq!(fields(&errors), vec!["honorImgLink", "owner.links.0.url"], "{bad}");
            assert_eq!(errors[0].message, MSG_URL);
        }
    }

    #[test]
    fn a_blank_honour_link_means_none() {
        let input = ContentTexts { honor_img_link: Some("  ".into()), ..texts() };
        assert_eq!(check_content(input, &[1, 2]).unwrap().honor_img_link, None);
    }

    #[test]
    fn the_slider_may_only_keep_its_own_images_once_each() {
        let unknown = ContentTexts { slider: vec![SliderEdit { id: 9, alt: String::new() }], ..texts() };
        assert_eq!(fields(&check_content(unknown, &[1, 2]).unwrap_err()), vec!["slider"]);
        let twice = ContentTexts {
            slider: vec![SliderEdit { id: 1, alt: String::new() }, SliderEdit { id: 1, alt: String::new() }],
            ..texts()
        };
        assert_eq!(check_content(twice, &[1, 2]).unwrap_err()[0].message, MSG_SLIDER_CHANGED);
        let removed_all = ContentTexts { slider: vec![], ..texts() };
        assert!(check_content(removed_all, &[1, 2]).is_ok());
    }

    #[test]
    fn an_alt_text_is_one_line_of_at_most_120_characters() {
        let long = ContentTexts { slider: vec![SliderEdit { id: 1, alt: "あ".repeat(121) }], ..texts() };
        let errors = check_content(long, &[1]).unwrap_err();
        assert_eq!(errors[0].field, "slider.0.alt");
        assert_eq!(errors[0].message, "代替テキストは120文字以内で入力してください。");
        let two_lines = ContentTexts { slider: vec![SliderEdit { id: 1, alt: "一\n二".into() }], ..texts() };
        assert_eq!(fields(&check_content(two_lines, &[1]).unwrap_err()), vec!["slider.0.alt"]);
    }

    #[test]
    fn an_owner_with_nothing_written_is_no_owner_but_a_profile_without_a_name_asks_for_it() {
        let blank = OwnerTexts { name: " ".into(), profile: String::new(), links: vec![] };
        assert_eq!(check_content(ContentTexts { owner: Some(blank), ..texts() }, &[1, 2]).unwrap().owner, None);
        let nameless = OwnerTexts { name: String::new(), profile: "紹介".into(), links: vec![] };
        let errors = check_content(ContentTexts { owner: Some(nameless), ..texts() }, &[1, 2]).unwrap_err();
        assert_eq!(errors, vec![ContentFieldError::new("owner.name", "実行者名を入力してください。")]);
    }

    #[test]
    fn an_owner_lists_at_most_five_links_each_with_a_label() {
        let link = OwnerLink { label: "SNS".into(), url: "https://example.jp".into() };
        let mut input = texts();
        input.owner.as_mut().unwrap().links = vec![link.clone(); MAX_OWNER_LINKS];
        assert!(check_content(input.clone(), &[1, 2]).is_ok());
        input.owner.as_mut().unwrap().links.push(link);
        assert_eq!(check_content(input, &[1, 2]).unwrap_err()[0].message, MSG_TOO_MANY_LINKS);
        let mut unlabelled = texts();
        unlabelled.owner.as_mut().unwrap().links[0].label = " ".into();
        assert_eq!(fields(&check_content(unlabelled, &[1, 2]).unwrap_err()), vec!["owner.links.0.label"]);
    }

    #[test]
    fn the_faq_holds_at_most_twenty_entries_with_question_and_answer() {
        let entry = FaqEntry { question: "Q".into(), answer: "A".into() };
        let full = ContentTexts { faqs: vec![entry.clone(); MAX_FAQS], ..texts() };
        assert!(check_content(full, &[1, 2]).is_ok());
        let over = ContentTexts { faqs: vec![entry; MAX_FAQS + 1], ..texts() };
        assert_eq!(check_content(over, &[1, 2]).unwrap_err()[0].message, MSG_TOO_MANY_FAQS);
        let empty = ContentTexts { faqs: vec![FaqEntry { question: "Q".into(), answer: " ".into() }], ..texts() };
        let errors = check_content(empty, &[1, 2]).unwrap_err();
        assert_eq!(errors, vec![ContentFieldError::new("faqs.0.answer", "回答を入力してください。")]);
        let long = ContentTexts { faqs: vec![FaqEntry { question: "Q".repeat(201), answer: "A".into() }], ..texts() };
        assert_eq!(fields(&check_content(long, &[1, 2]).unwrap_err()), vec!["faqs.0.question"]);
    }

    #[test]
    fn the_owner_image_is_padded_into_a_square_and_the_others_fit_within_1600_px() {
        assert_eq!(ImageSlot::Owner.fit(), ImageFit::PaddedSquare(400));
        for slot in [ImageSlot::Main, ImageSlot::Slider, ImageSlot::Honor, ImageSlot::Return] {
            assert_eq!(slot.fit(), ImageFit::Within(1600));
        }
        for slot in ImageSlot::ALL {
            assert_eq!(ImageSlot::parse(slot.code()), Some(slot));
        }
        assert_eq!(ImageSlot::parse("avatar"), None);
    }

    proptest! {
        #[test]
        fn whatever_is_accepted_stays_within_its_bounds(
            question in ".{0,250}", answer in ".{0,50}", alt in ".{0,150}", link in ".{0,40}",
        ) {
            let input = ContentTexts {
                honor_img_link: Some(link.clone()),
                slider: vec![SliderEdit { id: 1, alt }],
                owner: Some(OwnerTexts {
                    name: "名".into(),
                    profile: String::new(),
                    links: vec![OwnerLink { label: "L".into(), url: link }],
                }),
                faqs: vec![FaqEntry { question, answer }],
            };
            if let Ok(ok) = check_content(input, &[1]) {
                prop_assert!(ok.slider[0].alt.chars().count() <= 120);
                prop_assert!(ok.faqs[0].question.chars().count() <= 200);
                for url in ok.honor_img_link.iter().chain(ok.owner.iter().flat_map(|o| o.links.iter().map(|l| &l.url))) {
                    let lower = url.to_ascii_lowercase();
                    prop_assert!(lower.starts_with("http://") || lower.starts_with("https://"));
                }
            }
        }
    }
}
