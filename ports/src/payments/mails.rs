//! The payment mails, in Japanese: thanks for a card payment, the transfer
//! instructions, the transfer received, the transfer cancelled at its
//! deadline, the konbini voucher, its payment and its expiry, and a monthly support's months, failures, stop and end. Plain text, sent through the durable queue.

use chrono::{DateTime, Datelike, NaiveDate, Timelike, Utc};
use domain::payment::{BankTransferInstructions, KonbiniVoucher, BANK_TRANSFER_DEADLINE_TEXT};
use domain::time::{tokyo_date, tokyo_datetime};

use super::ledger::{SaleRecord, SubscriptionRecord};
use crate::accounts::SiteInfo;
use crate::mailer::OutgoingMail;
use crate::receipts::ReceiptLinks;

#[derive(Debug, Clone)]
pub struct PaymentMails {
    pub site: SiteInfo,
    /// The link to each paid sale's receipt (`ReceiptLinks::none()`: the mails go without it).
    pub receipt_links: ReceiptLinks,
}

/// `2026年12月1日`, as the complete screen writes dates.
pub fn japanese_date(date: NaiveDate) -> String {
    format!("{}年{}月{}日", date.year(), date.month(), date.day())
}

/// `2026年12月1日（火）23:59` (Asia/Tokyo): a konbini voucher's deadline, as
/// the screens and mails write it.
pub fn japanese_date_time(instant: DateTime<Utc>) -> String {
    const WEEKDAYS: [&str; 7] = ["月", "火", "水", "木", "金", "土", "日"];
    let local = tokyo_datetime(instant);
    let weekday = WEEKDAYS[local.weekday().num_days_from_monday() as usize];
    format!("{}（{weekday}）{:02}:{:02}", japanese_date(local.date()), local.hour(), local.minute())
}

/// How to pay a voucher, chain by chain, as the mail lists it.
pub fn voucher_block(voucher: &KonbiniVoucher) -> String {
    let mut block = format!(
        "お支払い期限：{}
",
        japanese_date_time(voucher.expires_at)
    );
    for store in &voucher.stores {
        block.push_str(&format!("\n■{}\nお客様番号（受付番号）：{}\n", store.chain.label(), store.payment_code));
        if let Some(number) = &store.confirmation_number {
            block.push_str(&format!("確認番号：{number}\n"));
        }
    }
    if let Some(url) = &voucher.hosted_voucher_url {
        block.push_str(&format!("\nお支払い方法の詳しいご案内（払込票）：\n{url}\n"));
    }
    block
}

impl PaymentMails {
    fn subject(&self, what: &str) -> String {
        format!("【{}】{}", self.site.site_name, what)
    }

    fn summary(&self, sale: &SaleRecord) -> String {
        // 上乗せ支援 gets its own line, only when there is one.
        let extra = if sale.terms.extra.is_positive() {
            format!("{}：{}円\n", domain::extra_amount::EXTRA_AMOUNT_LABEL, sale.terms.extra.grouped())
        } else {
            String::new()
        };
        format!(
            "プロジェクト：{project}\nリターン：{ret}\n口数：{lot}\n{extra}合計金額：{total}円（税込）\nお名前の表示：{name}\n",
            project = sale.project_title,
            ret = sale.return_title,
            lot = sale.terms.lot.get(),
            total = sale.terms.total.grouped(),
            name = sale.display_name,
        )
    }

    /// The paid mails' line with the link to the sale's receipt; empty without a link.
    fn receipt_line(&self, sale: &SaleRecord) -> String {
        self.receipt_links
            .link(&self.site.public_url, sale.id)
            .map(|link| format!("\n領収書は次のページから発行・印刷できます：\n{link}\n"))
            .unwrap_or_default()
    }

    fn footer(&self, sale: &SaleRecord) -> String {
        format!(
            "\nプロジェクトページ：{url}/projects/{slug}/\n{signature}",
            url = self.site.public_url,
            slug = sale.project_slug,
            signature = self.site.signature(),
        )
    }

    pub fn card_thanks(&self, sale: &SaleRecord) -> OutgoingMail {
        OutgoingMail {
            to: sale.email.clone(),
            subject: self.subject("ご支援ありがとうございます"),
            text_body: format!(
                "{name} 様\n\nこのたびはご支援いただき、誠にありがとうございます。\nクレジットカードでのお支払いが完了しました。\n\n{summary}\n\
                 ご支援後のキャンセルはお受けできません。リターンのお届けまで数か月かかる場合があります。\n{receipt}{footer}",
                name = sale.display_name,
                summary = self.summary(sale),
                receipt = self.receipt_line(sale),
                footer = self.footer(sale),
            ),
        }
    }

    /// `None` while the provider has not issued the account to pay into.
    pub fn transfer_instructions(&self, sale: &SaleRecord) -> Option<OutgoingMail> {
        let instructions = sale.instructions.as_ref()?;
        let deadline = sale.transfer_deadline.map(japanese_date).unwrap_or_else(|| BANK_TRANSFER_DEADLINE_TEXT.into());
        Some(OutgoingMail {
            to: sale.email.clone(),
            subject: self.subject("お振込先のご案内"),
            text_body: format!(
                "{name} 様\n\nこのたびはご支援のお申し込みをいただき、誠にありがとうございます。\n\
                 以下の口座へ、{deadline}までにお振り込みください（{rule}）。\n期限を過ぎると、お申し込みはキャンセルとなります。\n\n\
                 {account}\n{summary}\n振込手数料はお客様のご負担となります。ご入金を確認しましたら、あらためてメールでお知らせします。\n{footer}",
                name = sale.display_name,
                rule = BANK_TRANSFER_DEADLINE_TEXT,
                account = account_block(instructions),
                summary = self.summary(sale),
                footer = self.footer(sale),
            ),
        })
    }

    pub fn transfer_received(&self, sale: &SaleRecord) -> OutgoingMail {
        OutgoingMail {
            to: sale.email.clone(),
            subject: self.subject("ご入金を確認しました"),
            text_body: format!(
                "{name} 様\n\nお振り込みを確認しました。ご支援いただき、誠にありがとうございます。\n\n{summary}{receipt}{footer}",
                name = sale.display_name,
                summary = self.summary(sale),
                receipt = self.receipt_line(sale),
                footer = self.footer(sale),
            ),
        }
    }

    pub fn transfer_expired(&self, sale: &SaleRecord) -> OutgoingMail {
        OutgoingMail {
            to: sale.email.clone(),
            subject: self.subject("お申し込みのキャンセルのお知らせ"),
            text_body: format!(
                "{name} 様\n\nお振り込みの期限までにご入金を確認できなかったため、以下のお申し込みはキャンセルとなりました。\n\n{summary}\n\
                 あらためてご支援いただく場合は、プロジェクトページからお申し込みください。\n\
                 行き違いでお振り込みいただいた場合は、お手数ですがこのメールにご返信ください。\n{footer}",
                name = sale.display_name,
                summary = self.summary(sale),
                footer = self.footer(sale),
            ),
        }
    }
}

impl PaymentMails {
    /// `None` while the provider has not issued the voucher.
    pub fn konbini_voucher(&self, sale: &SaleRecord) -> Option<OutgoingMail> {
        let voucher = sale.voucher.as_ref()?;
        Some(OutgoingMail {
            to: sale.email.clone(),
            subject: self.subject("コンビニでのお支払い方法のご案内"),
            text_body: format!(
                "{name} 様\n\nこのたびはご支援のお申し込みをいただき、誠にありがとうございます。\n\
                 {deadline}までに、以下のいずれかのコンビニエンスストアで{total}円をお支払いください。\n\
                 期限を過ぎると、お申し込みはキャンセルとなります。\n\n{voucher}\n{summary}\n\
                 お支払いを確認しましたら、あらためてメールでお知らせします。\n{footer}",
                name = sale.display_name,
                deadline = japanese_date_time(voucher.expires_at),
                total = sale.terms.total.grouped(),
                voucher = voucher_block(voucher),
                summary = self.summary(sale),
                footer = self.footer(sale),
            ),
        })
    }

    pub fn konbini_received(&self, sale: &SaleRecord) -> OutgoingMail {
        OutgoingMail {
            to: sale.email.clone(),
            subject: self.subject("お支払いを確認しました"),
            text_body: format!(
                "{name} 様\n\nコンビニでのお支払いを確認しました。ご支援いただき、誠にありがとうございます。\n\n{summary}{receipt}{footer}",
                name = sale.display_name,
                summary = self.summary(sale),
                receipt = self.receipt_line(sale),
                footer = self.footer(sale),
            ),
        }
    }

    pub fn konbini_expired(&self, sale: &SaleRecord) -> OutgoingMail {
        OutgoingMail {
            to: sale.email.clone(),
            subject: self.subject("お申し込みのキャンセルのお知らせ"),
            text_body: format!(
                "{name} 様\n\nコンビニでのお支払いの期限までにお支払いを確認できなかったため、以下のお申し込みはキャンセルとなりました。\n\n{summary}\n\
                 あらためてご支援いただく場合は、プロジェクトページからお申し込みください。\n{footer}",
                name = sale.display_name,
                summary = self.summary(sale),
                footer = self.footer(sale),
            ),
        }
    }
}

fn account_block(i: &BankTransferInstructions) -> String {
    let mut block = format!(
        "お振込金額：{amount}円\n銀行名：{bank}\n支店名：{branch}\n口座種別：{kind}\n口座番号：{number}\n口座名義：{holder}\n",
        amount = i.amount_remaining.grouped(),
        bank = i.bank_name,
        branch = i.branch_name,
        kind = i.account_type.label(),
        number = i.account_number,
        holder = i.account_holder_name,
    );
    if let Some(reference) = &i.reference {
        block.push_str(&format!("お振込人名の前に付ける番号：{reference}\n"));
    }
    block
}

/// Why a subscription stops at the end of its period.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StopReason {
    Member,
    NoCardLeft,
    ProjectEnded,
}

impl PaymentMails {
    fn monthly_subject(&self, what: &str) -> String {
        format!("【{}】{}", self.site.site_name, what)
    }

    fn monthly_footer(&self) -> String {
        format!(
            "\n毎月のご支援の確認・停止はマイページから行えます：{url}/account/\n\n――――――――――――――――――――\n{site}\n{url}/\n",
            url = self.site.public_url,
            site = self.site.site_name,
        )
    }

    fn monthly_summary(&self, row: &SubscriptionRecord) -> String {
        format!(
            "プロジェクト：{project}\nリターン：{ret}\n毎月のお支払い：{amount}円（税込）\n",
            project = row.project_title,
            ret = row.return_title,
            amount = row.amount.grouped(),
        )
    }

    /// A later month was charged.
    pub fn monthly_paid(&self, row: &SubscriptionRecord, sale: &SaleRecord) -> OutgoingMail {
        let next = row.current_period_end.map(|d| format!("次回のお支払い予定日：{}\n", japanese_date(tokyo_date(d))));
        OutgoingMail {
            to: row.email.clone(),
            subject: self.monthly_subject("毎月のご支援のお支払いが完了しました"),
            text_body: format!(
                "{name} 様\n\nいつもご支援いただき、誠にありがとうございます。\n今月分のお支払い（{total}円）が完了しました。\n\n{summary}{next}{footer}",
                name = row.display_name,
                total = sale.terms.total.grouped(),
                summary = self.monthly_summary(row),
                next = next.unwrap_or_default(),
                footer = self.monthly_footer(),
            ),
        }
    }

    /// A month's charge failed: change the card before the next attempt.
    pub fn monthly_failed(&self, row: &SubscriptionRecord, next_attempt: Option<DateTime<Utc>>) -> OutgoingMail {
        let retry = match next_attempt {
            Some(at) => format!(
                "{}にあらためてお支払いを試みます。それまでに、以下のページからお支払いに使うクレジットカードを変更してください。\n",
                japanese_date(tokyo_date(at))
            ),
            None => "お支払いを再度試みることができなかったため、毎月のご支援は停止されます。\n".to_string(),
        };
        OutgoingMail {
            to: row.email.clone(),
            subject: self.monthly_subject("毎月のご支援のお支払いができませんでした"),
            text_body: format!(
                "{name} 様\n\n毎月のご支援のお支払いに、登録されているクレジットカードをご利用いただけませんでした。\n{retry}\nお支払い方法の変更：{url}/edit/payment\n\n{summary}{footer}",
                name = row.display_name,
                url = self.site.public_url,
                summary = self.monthly_summary(row),
                footer = self.monthly_footer(),
            ),
        }
    }

    /// A month's charge waits for the supporter to authenticate with the card
    /// (the bank asked for 3-D Secure): the page that completes it.
    pub fn monthly_needs_authentication(&self, row: &SubscriptionRecord) -> OutgoingMail {
        OutgoingMail {
            to: row.email.clone(),
            subject: self.monthly_subject("毎月のご支援のお支払いにカードの本人認証が必要です"),
            text_body: format!(
                "{name} 様

毎月のご支援のお支払いで、カード会社が本人認証（3Dセキュア）を求めています。
以下のページで本人認証を行うと、今月分のお支払いが完了します。それまでお支払いは未完了のままです。

本人認証のページ：{url}/account/monthly/{id}/authenticate

{summary}{footer}",
                name = row.display_name,
                url = self.site.public_url,
                id = row.id,
                summary = self.monthly_summary(row),
                footer = self.monthly_footer(),
            ),
        }
    }

    /// The subscription is over.
    pub fn monthly_ended(&self, row: &SubscriptionRecord, payment_failed: bool) -> OutgoingMail {
        let why = if payment_failed {
            "お支払いを何度か試みましたが完了できなかったため、毎月のご支援を終了しました。"
        } else {
            "毎月のご支援が終了しました。"
        };
        OutgoingMail {
            to: row.email.clone(),
            subject: self.monthly_subject("毎月のご支援が終了しました"),
            text_body: format!(
                "{name} 様\n\n{why}\nこれまでのご支援、誠にありがとうございました。\n\n{summary}\n\
                 あらためてご支援いただく場合は、プロジェクトページからお申し込みください：{url}/projects/{slug}/\n{footer}",
                name = row.display_name,
                summary = self.monthly_summary(row),
                url = self.site.public_url,
                slug = row.project_slug,
                footer = self.monthly_footer(),
            ),
        }
    }

    /// Stopping at the period's end: by the member, for want of a card, or with the project.
    pub fn monthly_stopping(&self, row: &SubscriptionRecord, why: StopReason) -> OutgoingMail {
        let why = match why {
            StopReason::Member => "毎月のご支援の停止を承りました。",
            StopReason::NoCardLeft => {
                "お支払いに使われていたクレジットカードが削除され、ほかに登録済みのカードがないため、毎月のご支援を停止します。"
            }
            StopReason::ProjectEnded => "プロジェクトの終了にともない、毎月のご支援を停止します。",
        };
        let until = row
            .current_period_end
            .map(|d| {
                format!(
                    "{}までのご支援期間はそのまま続き、以降のお支払いはありません。\n",
                    japanese_date(tokyo_date(d))
                )
            })
            .unwrap_or_default();
        OutgoingMail {
            to: row.email.clone(),
            subject: self.monthly_subject("毎月のご支援の停止について"),
            text_body: format!(
                "{name} 様\n\n{why}\n{until}\n{summary}{footer}",
                name = row.display_name,
                summary = self.monthly_summary(row),
                footer = self.monthly_footer(),
            ),
        }
    }
}
