//! The account mails, in Japanese, with the site's name and links.

use chrono::Duration;
use domain::account::Email;

use crate::mailer::OutgoingMail;

/// What mails need to know about the site.
#[derive(Debug, Clone)]
pub struct SiteInfo {
    pub site_name: String,
    /// Public origin of the site, without a trailing slash.
    pub public_url: String,
    /// Who runs the site: the mails' signature (and the legal pages, the footer).
    pub operator: Operator,
}

/// The operator's details the commercial-transactions notice, the footer and
/// the mails show (`OPERATOR_*` settings). The serialised field names are
/// the ones the frontend reads (`window` config block, `config/site.ts`).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Operator {
    /// 販売事業者 (company name).
    pub name: String,
    /// 運営責任者.
    pub representative: String,
    /// 所在地.
    pub address: String,
    /// 電話番号.
    pub phone: String,
    /// メールアドレス.
    pub email: String,
    /// 問い合わせ受付時間.
    pub hours: String,
}

impl Operator {
    /// Stand-in values for development: they name no real company, and
    /// production refuses to start while any of them is still in place.
    pub fn placeholder() -> Self {
        Self {
            name: "株式会社ぐんま地域新聞（運営事務局）".into(),
            representative: "運営事務局長".into(),
            address: "〒371-0000 群馬県前橋市本町一丁目1番1号".into(),
            phone: "027-000-0000".into(),
            email: "support@example.jp".into(),
            hours: "平日 10:00〜17:00（土日祝日・年末年始を除く）".into(),
        }
    }
}

impl Default for Operator {
    fn default() -> Self {
        Self::placeholder()
    }
}

fn validity(ttl: Duration) -> String {
    if ttl.num_hours() >= 1 && ttl.num_minutes() % 60 == 0 {
        format!("{}時間", ttl.num_hours())
    } else {
        format!("{}分", ttl.num_minutes())
    }
}

impl SiteInfo {
    fn footer(&self) -> String {
        format!("このメールにお心当たりがない場合は、破棄してください。\n{}", self.signature())
    }

    /// The rule, the site and who runs it, with how to reach them.
    pub fn signature(&self) -> String {
        let o = &self.operator;
        format!(
            "\n――――――――――――――――――――\n{site}\n{url}/\n運営：{name}\n{address}\nTEL：{phone}（{hours}）\nお問い合わせ：{email}\n",
            site = self.site_name,
            url = self.public_url,
            name = o.name,
            address = o.address,
            phone = o.phone,
            hours = o.hours,
            email = o.email,
        )
    }

    pub fn activation_mail(&self, to: &Email, key: &str, ttl: Duration) -> OutgoingMail {
        OutgoingMail {
            to: to.clone(),
            subject: format!("【{}】会員登録のご案内", self.site_name),
            text_body: format!(
                "{site}へのご登録ありがとうございます。\n\n\
                 以下のURLからパスワードを設定して、本登録を完了してください。\n\
                 {url}/signup/password/?activate={key}\n\n\
                 このURLの有効期限は{valid}です。期限が切れた場合は、お手数ですが再度メールアドレスの登録からお手続きください。\n{footer}",
                site = self.site_name,
                url = self.public_url,
                valid = validity(ttl),
                footer = self.footer(),
            ),
        }
    }

    pub fn password_reset_mail(&self, to: &Email, key: &str, ttl: Duration) -> OutgoingMail {
        OutgoingMail {
            to: to.clone(),
            subject: format!("【{}】パスワード再設定のご案内", self.site_name),
            text_body: format!(
                "パスワード再発行のお手続きを受け付けました。\n\n\
                 以下のURLから新しいパスワードを設定してください。\n\
                 {url}/reset-password/?secret={key}\n\n\
                 このURLの有効期限は{valid}です。期限が切れた場合は、お手数ですが再度パスワード再発行のお手続きをお願いいたします。\n{footer}",
                url = self.public_url,
                valid = validity(ttl),
                footer = self.footer(),
            ),
        }
    }

    pub fn email_change_mail(&self, to: &Email, key: &str, ttl: Duration) -> OutgoingMail {
        OutgoingMail {
            to: to.clone(),
            subject: format!("【{}】メールアドレス変更のご確認", self.site_name),
            text_body: format!(
                "メールアドレス変更のお手続きを受け付けました。\n\n\
                 以下のURLを開くと変更が完了します（ログインした状態で開いてください）。\n\
                 {url}/edit/email/updated?activate={key}\n\n\
                 このURLの有効期限は{valid}です。URLを開くまで、ログインには変更前のメールアドレスをお使いください。\n{footer}",
                url = self.public_url,
                valid = validity(ttl),
                footer = self.footer(),
            ),
        }
    }

    /// To the current address when a change is requested: the new address
    /// masked, and what to do if it was not the owner.
    pub fn email_change_requested_notice(&self, current: &Email, requested: &Email) -> OutgoingMail {
        OutgoingMail {
            to: current.clone(),
            subject: format!("【{}】メールアドレス変更のお手続きを受け付けました", self.site_name),
            text_body: format!(
                "ログイン用メールアドレスを {masked} に変更するお手続きを受け付けました。\n\
                 変更後のアドレスに届いたURLを開くと変更が完了します。\n\n\
                 お心当たりがない場合は、第三者がログインしている可能性があります。\n\
                 すぐにパスワードを変更し、運営までご連絡ください。\n\
                 {url}/edit/password/\n{footer}",
                masked = requested.masked(),
                url = self.public_url,
                footer = self.footer(),
            ),
        }
    }

    /// To the old address once the change is complete.
    pub fn email_changed_notice(&self, old: &Email, new: &Email) -> OutgoingMail {
        OutgoingMail {
            to: old.clone(),
            subject: format!("【{}】メールアドレスが変更されました", self.site_name),
            text_body: format!(
                "ログイン用メールアドレスが {masked} に変更されました。\n\
                 今後のお知らせは新しいアドレスにお送りします。他の端末のログイン状態は解除されました。\n\n\
                 お心当たりがない場合は、至急運営までご連絡ください。\n{footer}",
                masked = new.masked(),
                footer = self.footer(),
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn site() -> SiteInfo {
        SiteInfo {
            site_name: "ぐんまクラウドファンディング".into(),
            public_url: "https://cf.example.jp".into(),
            operator: Operator {
                name: "上州新報社".into(),
                email: "help@joshu.example".into(),
                ..Operator::placeholder()
            },
        }
    }

    #[test]
    fn every_mail_is_signed_with_the_operators_details() {
        let to = Email::parse("a@example.jp").unwrap();
        let body = site().activation_mail(&to, "K", Duration::hours(24)).text_body;
        assert!(body.contains("運営：上州新報社"), "{body}");
        assert!(body.contains("お問い合わせ：help@joshu.example"), "{body}");
        assert!(body.contains("TEL：027-000-0000"), "{body}");
    }

    #[test]
    fn validity_reads_in_hours_or_minutes() {
        assert_eq!(validity(Duration::hours(24)), "24時間");
        assert_eq!(validity(Duration::minutes(30)), "30分");
    }

    #[test]
    fn each_mail_links_to_its_screen() {
        let to = Email::parse("a@example.jp").unwrap();
        assert!(site()
            .activation_mail(&to, "K", Duration::hours(24))
            .text_body
            .contains("https://cf.example.jp/signup/password/?activate=K"));
        assert!(site()
            .password_reset_mail(&to, "K", Duration::hours(1))
            .text_body
            .contains("https://cf.example.jp/reset-password/?secret=K"));
        assert!(site()
            .email_change_mail(&to, "K", Duration::hours(24))
            .text_body
            .contains("https://cf.example.jp/edit/email/updated?activate=K"));
    }
}
