//! Account edit rules: names, company site URL, delivery address and image
//! uploads (spec 001 §3, §5, §9).

use serde::{Deserialize, Serialize};
use std::fmt;

use crate::text::{rules, TextError, TextRule};

pub const MSG_COMPANY_NAME_REQUIRED: &str = "企業名を入力してください。";
pub const MSG_URL_FORMAT: &str = "正しいURLの形式で入力してください。";
pub const MSG_DISPLAY_NAME_REQUIRED: &str = "表示名を入力してください。";
/// Address forms start on this prefecture (the site's home region).
pub const DEFAULT_PREFECTURE: &str = "群馬県";
/// Shortest and longest domestic phone number, in digits (landlines have
/// 10, mobile and IP phones 11); the schema's `addresses_tel_number_check`
/// says the same.
pub const TEL_MIN_DIGITS: usize = 10;
pub const TEL_MAX_DIGITS: usize = 11;

/// The company name of the corporate edit screen (required, at most 100
/// characters, one line).
pub fn company_name(raw: &str) -> Result<String, TextError> {
    rules::COMPANY_NAME.parse(raw)
}

/// A sale's display name (payment step 1, or edited in the payment history).
pub fn display_name(raw: &str) -> Result<String, TextError> {
    rules::SALE_DISPLAY_NAME.parse(raw)
}

/// The profile edit form. A field left out (or `null`) is left as it is; a
/// blank one clears it (docs/api.md, "Partial updates").
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProfileInput {
    pub username: Option<String>,
    pub displayname: Option<String>,
    pub profile: Option<String>,
    pub age_group: Option<String>,
}

/// A profile edit whose every rule holds: `None` leaves the field as it is,
/// `Some(None)` clears it, `Some(Some(text))` sets it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProfileFields {
    pub username: Option<Option<String>>,
    pub displayname: Option<Option<String>>,
    pub profile: Option<Option<String>>,
    pub age_group: Option<Option<String>>,
}

impl ProfileInput {
    /// Checks the fields sent, in form order, and reports the first problem.
    pub fn validate(&self) -> Result<ProfileFields, TextError> {
        let edit =
            |rule: TextRule, sent: &Option<String>| sent.as_deref().map(|v| rule.parse_optional(Some(v))).transpose();
        Ok(ProfileFields {
            username: edit(rules::USERNAME, &self.username)?,
            displayname: edit(rules::PROFILE_DISPLAY_NAME, &self.displayname)?,
            profile: edit(rules::PROFILE, &self.profile)?,
            age_group: edit(rules::AGE_GROUP, &self.age_group)?,
        })
    }
}

/// An absolute `http` or `https` URL with a plausible host. Other schemes
/// (`javascript:`, `data:`) are refused because these URLs become links on
/// public pages; credentials in the authority (`user@host`) are refused
/// because they are a classic way to disguise the real host.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct WebUrl(String);

#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("{}", MSG_URL_FORMAT)]
pub struct UrlError;

impl WebUrl {
    pub const MAX_LEN: usize = 2048;

    pub fn parse(raw: &str) -> Result<Self, UrlError> {
        let url = raw.trim();
        if url.len() > Self::MAX_LEN || url.chars().any(|c| c.is_whitespace() || c.is_control()) {
            return Err(UrlError);
        }
        let lower = url.to_ascii_lowercase();
        let rest = ["https://", "http://"]
            .iter()
            .find_map(|scheme| lower.starts_with(scheme).then(|| &url[scheme.len()..]))
            .ok_or(UrlError)?;
        let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
        if !is_valid_authority(authority) {
            return Err(UrlError);
        }
        Ok(Self(url.to_string()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

fn is_valid_authority(authority: &str) -> bool {
    if authority.contains('@') {
        return false;
    }
    let (host, port) = match authority.rsplit_once(':') {
        Some((host, port)) => (host, Some(port)),
        None => (authority, None),
    };
    let port_ok = port.is_none_or(|p| !p.is_empty() && p.len() <= 5 && p.chars().all(|c| c.is_ascii_digit()));
    let host_ok = host == "localhost"
        || (host.contains('.')
            && host.split('.').all(|label| {
                !label.is_empty()
                    && !label.starts_with('-')
                    && !label.ends_with('-')
                    && label.chars().all(|c| c.is_alphanumeric() || c == '-')
            }));
    port_ok && host_ok
}

/// An optional URL field: empty means "no site", anything else must parse.
pub fn parse_optional_url(raw: &str) -> Result<Option<WebUrl>, UrlError> {
    if raw.trim().is_empty() {
        return Ok(None);
    }
    WebUrl::parse(raw).map(Some)
}

impl fmt::Display for WebUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl TryFrom<String> for WebUrl {
    type Error = UrlError;
    fn try_from(value: String) -> Result<Self, Self::Error> {
        Self::parse(&value)
    }
}

impl From<WebUrl> for String {
    fn from(value: WebUrl) -> Self {
        value.0
    }
}

/// The 47 prefectures, in the conventional north-to-south order of forms.
pub const PREFECTURES: [&str; 47] = [
    "北海道",
    "青森県",
    "岩手県",
    "宮城県",
    "秋田県",
    "山形県",
    "福島県",
    "茨城県",
    "栃木県",
    "群馬県",
    "埼玉県",
    "千葉県",
    "東京都",
    "神奈川県",
    "新潟県",
    "富山県",
    "石川県",
    "福井県",
    "山梨県",
    "長野県",
    "岐阜県",
    "静岡県",
    "愛知県",
    "三重県",
    "滋賀県",
    "京都府",
    "大阪府",
    "兵庫県",
    "奈良県",
    "和歌山県",
    "鳥取県",
    "島根県",
    "岡山県",
    "広島県",
    "山口県",
    "徳島県",
    "香川県",
    "愛媛県",
    "高知県",
    "福岡県",
    "佐賀県",
    "長崎県",
    "熊本県",
    "大分県",
    "宮崎県",
    "鹿児島県",
    "沖縄県",
];

/// A delivery address as typed into the form.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AddressInput {
    pub name: String,
    pub tel_number: String,
    pub zip: String,
    pub pref: String,
    pub city: String,
    pub address: String,
    pub building: Option<String>,
}

/// A delivery address whose every rule holds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Address {
    pub name: String,
    pub tel_number: String,
    pub zip: String,
    pub pref: String,
    pub city: String,
    pub address: String,
    pub building: Option<String>,
}

/// One field's problem; the form shows each beside its field.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum AddressError {
    #[error("電話番号を入力してください。")]
    TelRequired,
    #[error("電話番号は半角数字10〜11桁（ハイフンなし）で入力してください。")]
    TelFormat,
    #[error("郵便番号を入力してください。")]
    ZipRequired,
    #[error("郵便番号は半角数字7桁（ハイフンなし）で入力してください。")]
    ZipFormat,
    #[error("都道府県を選択してください。")]
    PrefInvalid,
    /// A free-text field (name, city, address, building): required, too
    /// long or holding a control character.
    #[error("{1}")]
    Text(&'static str, TextError),
}

impl AddressError {
    /// The request field the error belongs to (`telNumber`, `city`, ...).
    pub const fn field(&self) -> &'static str {
        match self {
            Self::TelRequired | Self::TelFormat => "telNumber",
            Self::ZipRequired | Self::ZipFormat => "zip",
            Self::PrefInvalid => "pref",
            Self::Text(field, _) => field,
        }
    }
}

impl AddressInput {
    /// A blank form, prefilled with the default prefecture.
    pub fn blank() -> Self {
        Self { pref: DEFAULT_PREFECTURE.to_string(), ..Self::default() }
    }

    /// Checks every field and reports all problems at once, in form order.
    /// Telephone is 10 or 11 half-width digits, zip exactly 7, both without
    /// hyphens; the text fields follow `text::rules`.
    pub fn validate(&self) -> Result<Address, Vec<AddressError>> {
        let mut errors = Vec::new();
        let mut text = |rule: crate::text::TextRule, value: &str| match rule.parse(value) {
            Ok(v) => v,
            Err(e) => {
                errors.push(AddressError::Text(rule.field, e));
                String::new()
            }
        };
        let name = text(rules::ADDRESS_NAME, &self.name);
        let city = text(rules::ADDRESS_CITY, &self.city);
        let address = text(rules::ADDRESS_STREET, &self.address);
        let building = text(rules::ADDRESS_BUILDING, self.building.as_deref().unwrap_or_default());
        let tel_number = self.tel_number.trim().to_string();
        let zip = self.zip.trim().to_string();
        let pref = self.pref.trim().to_string();
        if tel_number.is_empty() {
            errors.push(AddressError::TelRequired);
        } else if !is_tel(&tel_number) {
            errors.push(AddressError::TelFormat);
        }
        if zip.is_empty() {
            errors.push(AddressError::ZipRequired);
        } else if !is_zip(&zip) {
            errors.push(AddressError::ZipFormat);
        }
        if !PREFECTURES.contains(&pref.as_str()) {
            errors.push(AddressError::PrefInvalid);
        }
        if !errors.is_empty() {
            errors.sort_by_key(|e| FORM_ORDER.iter().position(|f| *f == e.field()));
            return Err(errors);
        }
        let building = Some(building).filter(|b| !b.is_empty());
        Ok(Address { name, tel_number, zip, pref, city, address, building })
    }
}

/// The order of the address form's fields, for reporting errors.
const FORM_ORDER: [&str; 7] = ["name", "telNumber", "zip", "pref", "city", "address", "building"];

/// 10 or 11 half-width digits, no hyphen (`0272000000`, `09012345678`).
fn is_tel(s: &str) -> bool {
    (TEL_MIN_DIGITS..=TEL_MAX_DIGITS).contains(&s.len()) && is_ascii_digits(s)
}

/// Seven half-width digits, no hyphen (`3710000`).
fn is_zip(s: &str) -> bool {
    s.len() == 7 && is_ascii_digits(s)
}

fn is_ascii_digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

/// Largest accepted upload: 2 MB (2,097,152 bytes).
pub const MAX_UPLOAD_BYTES: u64 = 2_097_152;
/// Accepted file-name extensions, as the file picker filters them.
pub const ALLOWED_EXTENSIONS: [&str; 4] = ["jpg", "jpeg", "png", "gif"];

/// An accepted image format, decided from the file's content.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ImageKind {
    Jpeg,
    Png,
    Gif,
}

impl ImageKind {
    pub const fn content_type(self) -> &'static str {
        match self {
            Self::Jpeg => "image/jpeg",
            Self::Png => "image/png",
            Self::Gif => "image/gif",
        }
    }

    /// The extension we store the file under, whatever it was uploaded as.
    pub const fn extension(self) -> &'static str {
        match self {
            Self::Jpeg => "jpg",
            Self::Png => "png",
            Self::Gif => "gif",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum UploadError {
    #[error("ファイルが空です。")]
    Empty,
    #[error("ファイルサイズは2MB以内にしてください。")]
    TooLarge,
    #[error("jpg、jpeg、png、gif形式の画像を選択してください。")]
    UnsupportedType,
    /// Above [`MAX_IMAGE_SIDE`] or [`MAX_IMAGE_PIXELS`], whatever the file size.
    #[error("画像の縦横が大きすぎます。縦・横それぞれ8000ピクセル以内、合計4000万画素以内の画像を選択してください。")]
    TooManyPixels,
    /// The image could not be processed in time (a pathological file).
    #[error("画像を処理できませんでした。別の画像を選択してください。")]
    Unprocessable,
}

/// Longest accepted side of an uploaded image, in pixels.
pub const MAX_IMAGE_SIDE: u32 = 8000;
/// Most pixels an uploaded image may have: 40 megapixels covers phone and
/// camera photos (a 48 MP phone saves 12 MP by default) while bounding the
/// memory a decode takes (40 MP x 4 bytes = 160 MB), since a small file can
/// declare an enormous image (a "decompression bomb").
pub const MAX_IMAGE_PIXELS: u64 = 40_000_000;

/// The pixel budget, decided from the dimensions a file's header declares,
/// before anything is decoded.
pub fn check_dimensions(width: u32, height: u32) -> Result<(), UploadError> {
    if width > MAX_IMAGE_SIDE || height > MAX_IMAGE_SIDE || u64::from(width) * u64::from(height) > MAX_IMAGE_PIXELS {
        return Err(UploadError::TooManyPixels);
    }
    Ok(())
}

/// Decides whether an upload is an accepted image. `head` is the start of
/// the file (12 bytes are enough), `len` its full size. The content decides,
/// not the name or the client's content type, which are trivially forged.
pub fn detect_image(head: &[u8], len: u64) -> Result<ImageKind, UploadError> {
    if len == 0 {
        return Err(UploadError::Empty);
    }
    if len > MAX_UPLOAD_BYTES {
        return Err(UploadError::TooLarge);
    }
    if head.starts_with(&[0xFF, 0xD8, 0xFF]) {
        Ok(ImageKind::Jpeg)
    } else if head.starts_with(&[0x89, b'P', b'N', b'G', 0x0D, 0x0A, 0x1A, 0x0A]) {
        Ok(ImageKind::Png)
    } else if head.starts_with(b"GIF87a") || head.starts_with(b"GIF89a") {
        Ok(ImageKind::Gif)
    } else {
        Err(UploadError::UnsupportedType)
    }
}

/// Whether a file name has an accepted extension (case-insensitive); used
/// only to filter the picker, never as the decision.
pub fn has_allowed_extension(file_name: &str) -> bool {
    file_name.rsplit_once('.').is_some_and(|(_, ext)| ALLOWED_EXTENSIONS.contains(&ext.to_ascii_lowercase().as_str()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn valid_address() -> AddressInput {
        AddressInput {
            name: "上毛 太郎".into(),
            tel_number: "0272000000".into(),
            zip: "3710000".into(),
            pref: "群馬県".into(),
            city: "前橋市".into(),
            address: "大手町1-1-1".into(),
            building: None,
        }
    }

    #[test]
    fn phone_numbers_of_ten_or_eleven_digits_are_accepted_and_others_refused() {
        for ok in ["0272000000", "09012345678"] {
            assert!(AddressInput { tel_number: ok.into(), ..valid_address() }.validate().is_ok(), "{ok}");
        }
        for bad in ["02720", "027200000", "090123456789", "090123456789012"] {
            let errors = AddressInput { tel_number: bad.into(), ..valid_address() }.validate().unwrap_err();
            assert_eq!(errors, vec![AddressError::TelFormat], "{bad}");
            assert_eq!(errors[0].to_string(), "電話番号は半角数字10〜11桁（ハイフンなし）で入力してください。");
        }
    }

    #[test]
    fn a_city_of_sixty_thousand_characters_is_refused_with_its_limit() {
        let errors = AddressInput { city: "前".repeat(60_000), ..valid_address() }.validate().unwrap_err();
        assert_eq!(errors[0].field(), "city");
        assert_eq!(errors[0].to_string(), "市区町村は50文字以内で入力してください。");
    }

    #[test]
    fn a_nul_in_any_address_field_is_refused() {
        let with_nul = |f: fn(&mut AddressInput)| {
            let mut input = valid_address();
            f(&mut input);
            input.validate().unwrap_err()[0].to_string()
        };
        assert_eq!(with_nul(|a| a.name.push('\0')), "お名前に使用できない文字が含まれています。");
        assert_eq!(with_nul(|a| a.address.push('\0')), "番地に使用できない文字が含まれています。");
        assert_eq!(with_nul(|a| a.building = Some("\0".into())), "建物名に使用できない文字が含まれています。");
    }

    #[test]
    fn a_long_company_name_is_refused() {
        assert_eq!(
            company_name(&"社".repeat(5000)).unwrap_err().to_string(),
            "企業名は100文字以内で入力してください。"
        );
        assert!(company_name(&"社".repeat(100)).is_ok());
    }

    #[test]
    fn profile_fields_follow_their_rules_and_blank_clears() {
        let input = ProfileInput {
            username: Some(" taro ".into()),
            displayname: Some("\u{200B}".into()),
            profile: Some("よろしく\nお願いします".into()),
            age_group: None,
        };
        let fields = input.validate().unwrap();
        assert_eq!(fields.username, Some(Some("taro".into())));
        assert_eq!(fields.displayname, Some(None), "blank clears");
        assert_eq!(fields.profile, Some(Some("よろしく\nお願いします".into())));
        assert_eq!(fields.age_group, None, "left out is left as it is");
        let err = ProfileInput { displayname: Some("a\0".into()), ..ProfileInput::default() }.validate().unwrap_err();
        assert_eq!(err.to_string(), "表示名に使用できない文字が含まれています。");
    }

    #[test]
    fn empty_company_name_gets_the_spec_message() {
        assert_eq!(company_name("  ").unwrap_err().to_string(), "企業名を入力してください。");
        assert_eq!(company_name(" 上毛商事 "), Ok("上毛商事".into()));
    }

    #[test]
    fn empty_display_name_gets_the_spec_message() {
        assert_eq!(display_name("").unwrap_err().to_string(), "表示名を入力してください。");
    }

    #[test]
    fn http_and_https_urls_are_accepted() {
        for ok in
            ["https://example.co.jp", "http://example.jp/path?q=1#x", "HTTPS://例え.jp/", "http://localhost:8080/"]
        {
            assert!(WebUrl::parse(ok).is_ok(), "{ok}");
        }
    }

    #[test]
    fn other_schemes_and_malformed_urls_get_the_spec_message() {
        for bad in [
            "example.jp",
            "ftp://example.jp",
            "javascript:alert(1)",
            "https://",
            "https://exa mple.jp",
            "https://user@evil.jp",
            "https://example",
            "https://example.jp:port",
            "https://-bad.jp",
        ] {
            assert_eq!(WebUrl::parse(bad).unwrap_err().to_string(), "正しいURLの形式で入力してください。", "{bad}");
        }
    }

    #[test]
    fn empty_optional_url_means_no_site() {
        assert_eq!(parse_optional_url("  "), Ok(None));
        assert!(parse_optional_url("nope").is_err());
    }

    #[test]
    fn blank_address_form_starts_in_gunma() {
        assert_eq!(AddressInput::blank().pref, "群馬県");
    }

    #[test]
    fn valid_address_passes_and_empty_building_becomes_none() {
        let input = AddressInput { building: Some(" ".into()), ..valid_address() };
        assert_eq!(input.validate().unwrap().building, None);
    }

    #[test]
    fn hyphenated_or_full_width_digits_are_refused() {
        let input =
            AddressInput { tel_number: "027-200-0000".into(), zip: "３７１００００".into(), ..valid_address() };
        assert_eq!(input.validate().unwrap_err(), vec![AddressError::TelFormat, AddressError::ZipFormat]);
    }

    #[test]
    fn zip_needs_exactly_seven_digits() {
        let input = AddressInput { zip: "371000".into(), ..valid_address() };
        assert_eq!(input.validate().unwrap_err(), vec![AddressError::ZipFormat]);
    }

    #[test]
    fn every_missing_required_field_is_reported() {
        let errors = AddressInput { pref: "どこか".into(), ..AddressInput::default() }.validate().unwrap_err();
        assert_eq!(
            errors,
            vec![
                AddressError::Text("name", TextError::Required { label: "お名前" }),
                AddressError::TelRequired,
                AddressError::ZipRequired,
                AddressError::PrefInvalid,
                AddressError::Text("city", TextError::Required { label: "市区町村" }),
                AddressError::Text("address", TextError::Required { label: "番地" }),
            ]
        );
    }

    #[test]
    fn images_are_recognised_by_their_magic_bytes() {
        assert_eq!(detect_image(&[0xFF, 0xD8, 0xFF, 0xE0], 100), Ok(ImageKind::Jpeg));
        assert_eq!(detect_image(b"\x89PNG\r\n\x1a\n\0\0", 100), Ok(ImageKind::Png));
        assert_eq!(detect_image(b"GIF89a...", 100), Ok(ImageKind::Gif));
        assert_eq!(detect_image(b"<svg xmlns=", 100), Err(UploadError::UnsupportedType));
    }

    #[test]
    fn a_renamed_non_image_is_refused_whatever_its_name() {
        assert!(has_allowed_extension("logo.PNG"));
        assert_eq!(detect_image(b"%PDF-1.7", 100), Err(UploadError::UnsupportedType));
    }

    #[test]
    fn upload_of_exactly_two_megabytes_is_accepted_and_one_byte_more_refused() {
        let jpeg = [0xFF, 0xD8, 0xFF];
        assert_eq!(detect_image(&jpeg, 2_097_152), Ok(ImageKind::Jpeg));
        assert_eq!(detect_image(&jpeg, 2_097_153), Err(UploadError::TooLarge));
        assert_eq!(detect_image(&jpeg, 0), Err(UploadError::Empty));
    }

    #[test]
    fn unknown_extensions_are_not_offered() {
        assert!(!has_allowed_extension("logo.svg"));
        assert!(!has_allowed_extension("noext"));
    }

    /// The first bytes of an upload: half of the cases a real JPEG, PNG or GIF signature followed by
    /// anything, the rest arbitrary bytes (mostly junk, sometimes a signature cut short).
    fn upload_head() -> impl Strategy<Value = Vec<u8>> {
        let signature = prop_oneof![
            Just(vec![0xFF, 0xD8, 0xFF]),
            Just(b"\x89PNG\r\n\x1a\n".to_vec()),
            Just(b"GIF87a".to_vec()),
            Just(b"GIF89a".to_vec()),
        ];
        let valid = (signature, proptest::collection::vec(any::<u8>(), 0..8)).prop_map(|(mut head, tail)| {
            head.extend(tail);
            head
        });
        let truncated = valid.clone().prop_flat_map(|head| {
            let len = head.len();
            (Just(head), 0..len).prop_map(|(head, cut)| head[..cut].to_vec())
        });
        prop_oneof![valid, truncated, proptest::collection::vec(any::<u8>(), 0..16)]
    }

    /// Sizes around the 2 MB limit and zero as often as anywhere in `u64`.
    fn upload_len() -> impl Strategy<Value = u64> {
        prop_oneof![Just(0u64), 1..=MAX_UPLOAD_BYTES, MAX_UPLOAD_BYTES - 2..=MAX_UPLOAD_BYTES + 2, any::<u64>()]
    }

    fn starts_with_a_signature(head: &[u8]) -> bool {
        head.starts_with(&[0xFF, 0xD8, 0xFF])
            || head.starts_with(b"\x89PNG\r\n\x1a\n")
            || head.starts_with(b"GIF87a")
            || head.starts_with(b"GIF89a")
    }

    proptest! {
        #[test]
        fn an_upload_is_accepted_exactly_when_it_is_a_known_image_of_one_byte_to_two_megabytes(
            head in upload_head(), len in upload_len()
        ) {
            let accepted = detect_image(&head, len).is_ok();
            prop_assert_eq!(accepted, starts_with_a_signature(&head) && len > 0 && len <= MAX_UPLOAD_BYTES);
        }

        #[test]
        fn accepted_phone_numbers_have_ten_or_eleven_ascii_digits(tel in prop_oneof!["[0-9]{0,16}", "[0-9０-９-]{0,16}"]) {
            let input = AddressInput { tel_number: tel.clone(), ..valid_address() };
            match input.validate() {
                Ok(address) => prop_assert!(
                    (10..=11).contains(&address.tel_number.len()) && address.tel_number.bytes().all(|b| b.is_ascii_digit())
                ),
                Err(errors) => prop_assert!(errors.iter().all(|e| e.field() == "telNumber")),
            }
        }

        #[test]
        fn a_zip_is_accepted_exactly_when_it_is_seven_ascii_digits(
            zip in prop_oneof!["[0-9]{7}", "[0-9０-９ -]{6,8}", "\\PC{0,9}"]
        ) {
            let input = AddressInput { zip: zip.clone(), ..valid_address() };
            let seven_digits = zip.len() == 7 && zip.bytes().all(|b| b.is_ascii_digit());
            prop_assert_eq!(input.validate().is_ok(), seven_digits, "zip {:?}", zip);
        }

        #[test]
        fn accepted_urls_start_with_http_or_https(
            raw in prop_oneof!["(?i)https?://[a-z0-9]{1,10}\\.[a-z]{2,3}(/[a-z0-9]{0,5})?", "\\PC{0,40}"]
        ) {
            if let Ok(url) = WebUrl::parse(&raw) {
                let lower = url.as_str().to_ascii_lowercase();
                prop_assert!(lower.starts_with("http://") || lower.starts_with("https://"));
            }
        }
    }

    #[test]
    fn images_within_the_pixel_budget_are_accepted() {
        for (w, h) in [(1, 1), (8000, 5000), (4000, 8000), (6000, 6000)] {
            assert_eq!(check_dimensions(w, h), Ok(()), "{w}x{h}");
        }
    }

    #[test]
    fn images_above_the_pixel_budget_get_a_message_naming_the_limits() {
        for (w, h) in [(20000, 20000), (8001, 10), (10, 8001), (8000, 5001), (u32::MAX, u32::MAX)] {
            assert_eq!(check_dimensions(w, h), Err(UploadError::TooManyPixels), "{w}x{h}");
        }
        assert_eq!(
            UploadError::TooManyPixels.to_string(),
            "画像の縦横が大きすぎます。縦・横それぞれ8000ピクセル以内、合計4000万画素以内の画像を選択してください。"
        );
    }
}
