//! Receipts (領収書) and donation receipts (寄附金受領証明書), carrying what a
//! qualified invoice (適格請求書) needs: the issuer's registration number, the
//! addressee, and the total and consumption tax per rate, rounded once per
//! rate (docs/decisions.md, "The tax rule").

use crate::authoring::FieldError;
use crate::money::{tax_for, TaxMode, TaxRate, Yen};
use crate::text::{TextError, TextRule};
use std::cmp::Reverse;
use std::fmt;

pub const MSG_REGISTRATION_NUMBER: &str = "登録番号はTと13桁の数字で入力してください。";
/// Printed on the receipt of a sale refunded in full (its amount reads 0円).
pub const MSG_FULLY_REFUNDED: &str = "全額返金済みです。";
/// Printed on the receipt of a partly refunded sale.
pub const MSG_PARTLY_REFUNDED: &str = "一部返金済みです。返金後の金額を記載しています。";

/// The addressee (宛名) a supporter may type; blank means the member's name.
pub const ADDRESSEE: TextRule = TextRule::new("addressee", "宛名", 60);

/// The name of whoever issues a project's receipts (the project owner, as
/// the seller), set by an operator.
pub const ISSUER_NAME: TextRule = TextRule::new("issuerName", "発行者名", 100).required();

/// An issuer's invoice registration number (登録番号): `T` and 13 digits.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct RegistrationNumber(String);

#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("{}", MSG_REGISTRATION_NUMBER)]
pub struct InvalidRegistrationNumber;

impl RegistrationNumber {
    /// Accepts what people paste from the tax office's site: full-width Ｔ and
    /// digits become half-width and surrounding spaces go; anything else
    /// (hyphens, a lower-case t, 12 or 14 digits) is refused.
    pub fn parse(input: &str) -> Result<Self, InvalidRegistrationNumber> {
        let normalised: String = input.trim().chars().map(half_width).collect();
        let digits = normalised.strip_prefix('T').ok_or(InvalidRegistrationNumber)?;
        if digits.len() != 13 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(InvalidRegistrationNumber);
        }
        Ok(Self(normalised))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for RegistrationNumber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

fn half_width(c: char) -> char {
    match c {
        'Ｔ' => 'T',
        '０'..='９' => char::from_digit(u32::from(c) - u32::from('０'), 10).unwrap_or(c),
        other => other,
    }
}

/// Who issues a project's receipts: the project owner (the seller), by
/// name, with a registration number when the owner is a registered issuer
/// of qualified invoices.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReceiptIssuer {
    pub name: String,
    pub registration_number: Option<RegistrationNumber>,
}

impl ReceiptIssuer {
    /// Checks both fields and answers every refused one (`issuerName`,
    /// `registrationNumber`), in form order. A blank number means none.
    pub fn parse(name: &str, registration_number: Option<&str>) -> Result<Self, Vec<FieldError>> {
        let name = ISSUER_NAME.parse(name).map_err(|e| FieldError { field: ISSUER_NAME.field, message: e.to_string() });
        let number = match registration_number.filter(|n| !crate::text::is_blank(n)) {
            None => Ok(None),
            Some(raw) => RegistrationNumber::parse(raw)
                .map(Some)
                .map_err(|e| FieldError { field: "registrationNumber", message: e.to_string() }),
        };
        match (name, number) {
            (Ok(name), Ok(registration_number)) => Ok(Self { name, registration_number }),
            (name, number) => Err([name.err(), number.err()].into_iter().flatten().collect()),
        }
    }
}

/// The addressee printed on a receipt: what the supporter typed, or the
/// member's name when they typed nothing.
pub fn addressee_or_default(input: Option<&str>, member_name: &str) -> Result<String, TextError> {
    Ok(ADDRESSEE.parse_optional(input)?.unwrap_or_else(|| member_name.to_owned()))
}

/// A receipt for a sale, or for a donation, which is no sale and carries no
/// consumption tax.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ReceiptKind {
    Sale,
    Donation,
}

impl ReceiptKind {
    /// Donation projects (their sales are `Exempt`) give donation receipts.
    pub const fn for_tax_mode(mode: TaxMode) -> Self {
        match mode {
            TaxMode::Exempt => Self::Donation,
            TaxMode::Inclusive | TaxMode::Exclusive => Self::Sale,
        }
    }

    /// The rate a line of this receipt shows: none on a donation receipt.
    pub const fn line_rate(self, rate: TaxRate) -> Option<TaxRate> {
        match self {
            Self::Sale => Some(rate),
            Self::Donation => None,
        }
    }
}

/// One line of a receipt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReceiptLine {
    pub description: String,
    /// 0 for a line not sold in lots (上乗せ支援).
    pub lots: i64,
    /// Tax included, after any refund ([`kept_amount`]).
    pub amount: Yen,
    /// `None`: not taxable (非課税・対象外).
    pub rate: Option<TaxRate>,
}

/// The total and the consumption tax of one rate on a receipt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RateTotal {
    pub rate: Option<TaxRate>,
    /// Tax included.
    pub total: Yen,
    pub tax: Yen,
}

/// Totals per rate, highest rate first and non-taxable last. The tax of each
/// rate is taken once from its total, `floor(total × rate / (100 + rate))`, as
/// the invoice rules require; never summed from the lines. A line below zero
/// counts as zero; sums beyond `i64` saturate.
pub fn tax_by_rate(lines: &[ReceiptLine]) -> Vec<RateTotal> {
    let mut totals: Vec<RateTotal> = Vec::new();
    for line in lines {
        let amount = line.amount.0.max(0);
        match totals.iter_mut().find(|t| t.rate == line.rate) {
            Some(t) => t.total = Yen(t.total.0.saturating_add(amount)),
            None => totals.push(RateTotal { rate: line.rate, total: Yen(amount), tax: Yen::ZERO }),
        }
    }
    for t in &mut totals {
        t.tax = t.rate.map_or(Yen::ZERO, |rate| tax_for(t.total, rate, TaxMode::Inclusive));
    }
    totals.sort_by_key(|t| (t.rate.is_none(), Reverse(t.rate.map(TaxRate::percent))));
    totals
}

/// What a receipt shows for a sale: what the supporter paid less what was
/// refunded, never below zero.
pub fn kept_amount(total: Yen, refunded: Yen) -> Yen {
    Yen(total.0.saturating_sub(refunded.0.max(0)).max(0))
}

/// The note a receipt carries about refunds, if any.
pub fn refund_note(total: Yen, refunded: Yen) -> Option<&'static str> {
    if refunded.0 <= 0 {
        None
    } else if kept_amount(total, refunded) == Yen::ZERO {
        Some(MSG_FULLY_REFUNDED)
    } else {
        Some(MSG_PARTLY_REFUNDED)
    }
}

/// How the per-rate table names a rate: `10%対象`, `8%対象（軽減税率）`, or
/// `対象外` for what carries no consumption tax (a donation).
pub fn rate_label(rate: Option<TaxRate>) -> String {
    match rate {
        Some(rate) if rate.percent() == REDUCED_RATE_PERCENT => format!("{}%対象（軽減税率）", rate.percent()),
        Some(rate) => format!("{}%対象", rate.percent()),
        None => "対象外".to_owned(),
    }
}

/// Japan's reduced consumption-tax rate (food, newspapers), which a qualified
/// invoice must mark.
const REDUCED_RATE_PERCENT: u32 = 8;

/// What the receipt says the money was for (但し書き).
pub fn purpose(kind: ReceiptKind, project_title: &str) -> String {
    match kind {
        ReceiptKind::Sale => format!("「{project_title}」へのご支援として"),
        ReceiptKind::Donation => format!("「{project_title}」への寄附として"),
    }
}

/// The number printed on a receipt: the sale's, and from the second issue
/// on which issue it is (`R00000041`, `R00000041-2`), so that every printed
/// receipt is told apart.
pub fn receipt_number(sale: i64, issued_count: u32) -> String {
    if issued_count > 1 {
        format!("R{sale:08}-{issued_count}")
    } else {
        format!("R{sale:08}")
    }
}

/// The title printed at the top; a reissue says so, so that two originals
/// never exist.
pub const fn receipt_title(kind: ReceiptKind, reissue: bool) -> &'static str {
    match (kind, reissue) {
        (ReceiptKind::Sale, false) => "領収書",
        (ReceiptKind::Sale, true) => "領収書（再発行）",
        (ReceiptKind::Donation, false) => "寄附金受領証明書",
        (ReceiptKind::Donation, true) => "寄附金受領証明書（再発行）",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn rate(percent: u32) -> Option<TaxRate> {
        Some(TaxRate::new(percent).unwrap())
    }

    fn line(amount: i64, rate: Option<TaxRate>) -> ReceiptLine {
        ReceiptLine { description: "返礼品".into(), lots: 1, amount: Yen(amount), rate }
    }

    #[test]
    fn registration_numbers_are_t_and_thirteen_digits_full_width_accepted() {
        assert_eq!(RegistrationNumber::parse("T1234567890123").unwrap().as_str(), "T1234567890123");
        assert_eq!(RegistrationNumber::parse("　Ｔ１２３４５６７８９０１２３ ").unwrap().to_string(), "T1234567890123");
        for bad in [
            "",
            "T",
            "1234567890123",
            "t1234567890123",
            "T123456789012",
            "T12345678901234",
            "T1234-567890123",
            "T 1234567890123",
            "T123456789012３x",
        ] {
            assert_eq!(RegistrationNumber::parse(bad), Err(InvalidRegistrationNumber), "{bad:?}");
        }
        assert_eq!(InvalidRegistrationNumber.to_string(), MSG_REGISTRATION_NUMBER);
    }

    #[test]
    fn an_issuer_needs_a_name_and_at_most_a_valid_number() {
        let issuer = ReceiptIssuer::parse(" 前橋ローズ株式会社 ", Some("Ｔ１２３４５６７８９０１２３")).unwrap();
        assert_eq!(issuer.name, "前橋ローズ株式会社");
        assert_eq!(issuer.registration_number.unwrap().as_str(), "T1234567890123");
        assert_eq!(ReceiptIssuer::parse("前橋ローズ", Some(" ")).unwrap().registration_number, None);
        assert_eq!(ReceiptIssuer::parse("前橋ローズ", None).unwrap().registration_number, None);
        let errors = ReceiptIssuer::parse(" ", Some("T123")).unwrap_err();
        assert_eq!(
            errors,
            vec![
                FieldError { field: "issuerName", message: "発行者名を入力してください。".into() },
                FieldError { field: "registrationNumber", message: MSG_REGISTRATION_NUMBER.into() },
            ]
        );
        let long = ReceiptIssuer::parse(&"名".repeat(101), None).unwrap_err();
        assert_eq!(long[0].message, "発行者名は100文字以内で入力してください。");
    }

    #[test]
    fn a_receipt_number_is_the_sales_and_names_the_issue_from_the_second_on() {
        assert_eq!(receipt_number(41, 0), "R00000041");
        assert_eq!(receipt_number(41, 1), "R00000041");
        assert_eq!(receipt_number(41, 2), "R00000041-2");
        assert_eq!(receipt_number(123_456_789, 1), "R123456789");
    }

    #[test]
    fn rates_are_labelled_and_the_reduced_rate_is_marked() {
        assert_eq!(rate_label(rate(10)), "10%対象");
        assert_eq!(rate_label(rate(8)), "8%対象（軽減税率）");
        assert_eq!(rate_label(None), "対象外");
        assert_eq!(purpose(ReceiptKind::Sale, "高崎だるま"), "「高崎だるま」へのご支援として");
        assert_eq!(purpose(ReceiptKind::Donation, "高崎だるま"), "「高崎だるま」への寄附として");
    }

    #[test]
    fn a_blank_addressee_is_the_members_name() {
        assert_eq!(addressee_or_default(None, "山田太郎").unwrap(), "山田太郎");
        assert_eq!(addressee_or_default(Some(" \u{3000}"), "山田太郎").unwrap(), "山田太郎");
        assert_eq!(addressee_or_default(Some(" 株式会社上毛 "), "山田太郎").unwrap(), "株式会社上毛");
        let err = addressee_or_default(Some(&"宛".repeat(61)), "山田太郎").unwrap_err();
        assert_eq!(err.to_string(), "宛名は60文字以内で入力してください。");
        assert!(addressee_or_default(Some("上毛\n商事"), "山田太郎").is_err());
    }

    #[test]
    fn tax_is_rounded_once_per_rate_highest_rate_first_non_taxable_last() {
        // Per line: 90 + 90 + 90 = 270 at 10 %; once on 3,000: 272.
        let lines = [
            line(1_000, rate(10)),
            line(5_000, None),
            line(1_080, rate(8)),
            line(1_000, rate(10)),
            line(1_000, rate(10)),
        ];
        let totals = tax_by_rate(&lines);
        assert_eq!(
            totals,
            vec![
                RateTotal { rate: rate(10), total: Yen(3_000), tax: Yen(272) },
                RateTotal { rate: rate(8), total: Yen(1_080), tax: Yen(80) },
                RateTotal { rate: None, total: Yen(5_000), tax: Yen::ZERO },
            ]
        );
        assert_eq!(tax_by_rate(&[]), vec![]);
    }

    #[test]
    fn donation_receipts_have_no_taxable_line() {
        let kind = ReceiptKind::for_tax_mode(TaxMode::Exempt);
        assert_eq!(kind, ReceiptKind::Donation);
        let lines = [line(10_000, kind.line_rate(TaxRate::STANDARD))];
        assert_eq!(tax_by_rate(&lines), vec![RateTotal { rate: None, total: Yen(10_000), tax: Yen::ZERO }]);
        assert_eq!(ReceiptKind::for_tax_mode(TaxMode::Exclusive).line_rate(TaxRate::STANDARD), rate(10));
    }

    #[test]
    fn a_refunded_sale_shows_what_was_kept_and_says_so() {
        assert_eq!((kept_amount(Yen(11_000), Yen(0)), refund_note(Yen(11_000), Yen(0))), (Yen(11_000), None));
        assert_eq!(kept_amount(Yen(11_000), Yen(5_500)), Yen(5_500));
        assert_eq!(refund_note(Yen(11_000), Yen(5_500)), Some(MSG_PARTLY_REFUNDED));
        assert_eq!(kept_amount(Yen(11_000), Yen(11_000)), Yen::ZERO);
        assert_eq!(refund_note(Yen(11_000), Yen(11_000)), Some(MSG_FULLY_REFUNDED));
        assert_eq!(kept_amount(Yen(11_000), Yen(20_000)), Yen::ZERO);
        assert_eq!(kept_amount(Yen(i64::MIN), Yen(i64::MAX)), Yen::ZERO);
    }

    #[test]
    fn titles_name_the_kind_and_a_reissue() {
        assert_eq!(receipt_title(ReceiptKind::Sale, false), "領収書");
        assert_eq!(receipt_title(ReceiptKind::Sale, true), "領収書（再発行）");
        assert_eq!(receipt_title(ReceiptKind::Donation, false), "寄附金受領証明書");
        assert_eq!(receipt_title(ReceiptKind::Donation, true), "寄附金受領証明書（再発行）");
    }

    fn lines() -> impl Strategy<Value = Vec<ReceiptLine>> {
        let rate = prop_oneof![Just(None), Just(rate(10)), Just(rate(8)), (0u32..=100).prop_map(rate)];
        proptest::collection::vec((0i64..=10_000_000_000, rate).prop_map(|(a, r)| line(a, r)), 0..12)
    }

    proptest! {
        #[test]
        fn rounding_once_per_rate_stays_within_a_yen_per_line_of_rounding_each_line(lines in lines()) {
            for t in tax_by_rate(&lines) {
                let of_rate: Vec<_> = lines.iter().filter(|l| l.rate == t.rate).collect();
                let per_line: i64 = of_rate.iter().map(|l| l.rate.map_or(0, |r| tax_for(l.amount, r, TaxMode::Inclusive).0)).sum();
                prop_assert!(per_line <= t.tax.0);
                prop_assert!(t.tax.0 <= per_line + i64::try_from(of_rate.len()).unwrap());
                prop_assert!(0 <= t.tax.0 && t.tax <= t.total);
            }
        }

        #[test]
        fn totals_add_up_to_the_lines_in_rate_order(lines in lines()) {
            let totals = tax_by_rate(&lines);
            prop_assert_eq!(totals.iter().map(|t| t.total.0).sum::<i64>(), lines.iter().map(|l| l.amount.0).sum::<i64>());
            let keys: Vec<_> = totals.iter().map(|t| t.rate.map_or(-1, |r| i64::from(r.percent()))).collect();
            prop_assert!(keys.windows(2).all(|w| w[0] > w[1]), "one total per rate, descending, non-taxable last: {:?}", keys);
        }

        #[test]
        fn kept_amount_is_never_negative_nor_above_the_total(total in any::<i64>(), refunded in any::<i64>()) {
            let kept = kept_amount(Yen(total), Yen(refunded));
            prop_assert!(kept.0 >= 0 && kept.0 <= total.max(0));
            prop_assert_eq!(refund_note(Yen(total), Yen(refunded)) == Some(MSG_FULLY_REFUNDED), refunded > 0 && kept == Yen::ZERO);
        }

        #[test]
        fn any_spacing_or_width_of_a_valid_number_parses_to_the_same(digits in "[0-9]{13}", full in proptest::collection::vec(any::<bool>(), 14), pad in "[ \u{3000}]{0,3}") {
            let typed: String = std::iter::once('T').chain(digits.chars()).zip(&full)
                .map(|(c, &f)| if f { char::from_u32(u32::from(c) + 0xFEE0).unwrap() } else { c })
                .collect();
            let parsed = RegistrationNumber::parse(&format!("{pad}{typed}{pad}")).unwrap();
            prop_assert_eq!(parsed.as_str(), format!("T{digits}"));
        }
    }
}
