//! The payment mails, in Japanese: thanks for a card payment, the transfer
//! instructions, the transfer received, and the transfer cancelled at its
//! deadline. Plain text, sent through the durable queue.

use chrono::{Datelike, NaiveDate};
use domain::payment::{BankTransferInstructions, BANK_TRANSFER_DEADLINE_TEXT};

use super::ledger::SaleRecord;
use crate::accounts::SiteInfo;
use crate::mailer::OutgoingMail;

#[derive(Debug, Clone)]
pub struct PaymentMails {
    pub site: SiteInfo,
}

/// `2026年12月1日`, as the complete screen writes dates.
pub fn japanese_date(date: NaiveDate) -> String {
    format!("{}年{}月{}日", date.year(), date.month(), date.day())
}

impl PaymentMails {
    fn subject(&self, what: &str) -> String {
        format!("【{}】{}", self.site.site_name, what)
    }

    fn summary(&self, sale: &SaleRecord) -> String {
        format!(
            "プロジェクト：{project}\nリターン：{ret}\n口数：{lot}\n合計金額：{total}円（税込）\nお名前の表示：{name}\n",
            project = sale.project_title,
            ret = sale.return_title,
            lot = sale.terms.lot.get(),
            total = sale.terms.total.grouped(),
            name = sale.display_name,
        )
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
                 ご支援後のキャンセルはお受けできません。リターンのお届けまで数か月かかる場合があります。\n{footer}",
                name = sale.display_name,
                summary = self.summary(sale),
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
                "{name} 様\n\nお振り込みを確認しました。ご支援いただき、誠にありがとうございます。\n\n{summary}{footer}",
                name = sale.display_name,
                summary = self.summary(sale),
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
