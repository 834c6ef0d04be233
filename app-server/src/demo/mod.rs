//! `app-server seed-demo`: demo data set in Gunma, and the images it shows.
//!
//! Demo accounts (password `demo-password-1` for all):
//! - administrator: `demo-admin@example.jp`
//! - supporters: `demo-taro@example.jp`, `demo-hanako@example.jp`, `demo-jiro@example.jp`,
//!   `demo-vip@example.jp` (sees a return restricted to that address), and the companies
//!   `demo-jomo-denki@example.jp`, `demo-akagi-foods@example.jp`, `demo-haruna-mori@example.jp`,
//!   `demo-haruna-print@example.jp`, `demo-silent-corp@example.jp` (supports anonymously).
//!
//! How it is written (`docs/decisions.md`, "The demo is written by the operators' use cases"):
//! - through the operators' use cases, as the demo administrator ([`author`]): project terms, returns
//!   and their order, publication, settings (additional question, bank account, sponsor switches), page
//!   texts (honour link, slider texts, owner profile and links, FAQ), news, and the supporters row of a
//!   manual sponsor list. Every rule of those screens applies, and a use case is called only where the
//!   stored data differs from the demo's, so a second run calls none;
//! - directly (`adapters_postgres::demo`), what no screen writes or cannot take from the demo: accounts
//!   and their password hashes and logos; sales, display names and comments; the demo's calendar (end
//!   dates and news dates relative to today, an ended project included); images by URL (generated SVG,
//!   which the raster-only upload refuses), course A to C sponsor entries with their SVG logos; each
//!   return's fixed slug.
//!
//! Idempotent: running it twice leaves the same rows. End dates are relative to today (Asia/Tokyo) so the
//! demo always has open and ended projects.

mod author;

pub use author::{project_terms, return_terms};
mod images;

use std::path::Path;

use adapters_postgres::demo::{
    DemoBank, DemoCounts, DemoImage, DemoManualSponsor, DemoNews, DemoOwner, DemoProject, DemoReturn, DemoSale,
    DemoSet, DemoUser,
};
use chrono::{Datelike, Duration, Months, NaiveDate};
use domain::payment::SaleStatus;
use domain::sponsor::ManualCourse;
use images::{logo_png, logo_svg, scene_svg, Motif, Palette};

use crate::config::Settings;

/// The password of every demo account.
pub const DEMO_PASSWORD: &str = "demo-password-1";
/// The demo administrator.
pub const DEMO_ADMIN_EMAIL: &str = "demo-admin@example.jp";
/// bcrypt cost of the demo accounts' hashes.
const DEMO_BCRYPT_COST: u32 = 10;

fn media(name: &str) -> String {
    format!("/media/demo/{name}")
}

struct Files<'a> {
    dir: &'a Path,
}

impl Files<'_> {
    fn write(&self, name: &str, bytes: &[u8]) -> anyhow::Result<()> {
        let path = self.dir.join("demo").join(name);
        // Same bytes: leave the file (and its mtime) alone.
        if std::fs::read(&path).ok().as_deref() == Some(bytes) {
            return Ok(());
        }
        std::fs::write(&path, bytes).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))
    }

    fn scene(&self, name: &str, caption: &str, sub: &str, palette: Palette, motif: Motif) -> anyhow::Result<String> {
        self.write(name, scene_svg(caption, sub, palette, motif).as_bytes())?;
        Ok(media(name))
    }
}

const ROSE: Palette = Palette { sky_top: "#8ec5fc", sky_bottom: "#e0c3fc", hills: "#5b8c5a", accent: "#e91e63" };
const DARUMA: Palette = Palette { sky_top: "#ffecd2", sky_bottom: "#fcb69f", hills: "#6d8b74", accent: "#d32f2f" };
const LOOM: Palette = Palette { sky_top: "#a1c4fd", sky_bottom: "#c2e9fb", hills: "#4a6fa5", accent: "#3949ab" };
const KITCHEN: Palette = Palette { sky_top: "#fddb92", sky_bottom: "#d1fdff", hills: "#7cb342", accent: "#ff7043" };
const GEARS: Palette = Palette { sky_top: "#89f7fe", sky_bottom: "#66a6ff", hills: "#37474f", accent: "#ffb300" };
const APPLE: Palette = Palette { sky_top: "#f6d365", sky_bottom: "#fda085", hills: "#558b2f", accent: "#c62828" };
const SILK: Palette = Palette { sky_top: "#e0eafc", sky_bottom: "#cfdef3", hills: "#78909c", accent: "#f8bbd0" };

struct Supporter {
    email: &'static str,
    displayname: &'static str,
    company: Option<(&'static str, &'static str, [u8; 3])>,
}

const SUPPORTERS: &[Supporter] = &[
    Supporter { email: "demo-taro@example.jp", displayname: "群馬 太郎", company: None },
    Supporter { email: "demo-hanako@example.jp", displayname: "上州 花子", company: None },
    Supporter { email: "demo-jiro@example.jp", displayname: "赤城 次郎", company: None },
    Supporter { email: "demo-vip@example.jp", displayname: "榛名 優子", company: None },
    Supporter {
        email: "demo-jomo-denki@example.jp",
        displayname: "上毛電機株式会社",
        company: Some(("上毛電機株式会社", "https://example.jp/jomo-denki", [21, 101, 192])),
    },
    Supporter {
        email: "demo-akagi-foods@example.jp",
        displayname: "赤城食品株式会社",
        company: Some(("赤城食品株式会社", "https://example.jp/akagi-foods", [46, 125, 50])),
    },
    Supporter {
        email: "demo-haruna-mori@example.jp",
        displayname: "NPO法人はるなの森",
        company: Some(("NPO法人はるなの森", "https://example.jp/haruna-mori", [0, 137, 123])),
    },
    Supporter {
        email: "demo-haruna-print@example.jp",
        displayname: "有限会社榛名印刷",
        company: Some(("有限会社榛名印刷", "https://example.jp/haruna-print", [123, 31, 162])),
    },
    Supporter {
        email: "demo-silent-corp@example.jp",
        displayname: "株式会社しののめ",
        company: Some(("株式会社しののめ", "https://example.jp/shinonome", [230, 81, 0])),
    },
];

fn users(files: &Files<'_>) -> anyhow::Result<Vec<DemoUser>> {
    let hash = bcrypt::hash(DEMO_PASSWORD, DEMO_BCRYPT_COST)?;
    let mut users = vec![DemoUser {
        email: DEMO_ADMIN_EMAIL.into(),
        password_hash: hash.clone(),
        displayname: Some("運営事務局".into()),
        corporatename: None,
        corporateurl: None,
        administrator: true,
        logo: None,
        icon: None,
    }];
    for (i, s) in SUPPORTERS.iter().enumerate() {
        let slug = s.email.trim_start_matches("demo-").trim_end_matches("@example.jp");
        let logo = match s.company {
            Some((_, _, colour)) => {
                let bytes = logo_png(colour, u32::try_from(i).unwrap_or(0))?;
                let name = format!("logo-{slug}.png");
                files.write(&name, &bytes)?;
                Some(DemoImage {
                    storage_key: format!("demo/{name}"),
                    url: media(&name),
                    content_type: "image/png".into(),
                    byte_size: i32::try_from(bytes.len())?,
                })
            }
            None => None,
        };
        users.push(DemoUser {
            email: s.email.into(),
            password_hash: hash.clone(),
            displayname: Some(s.displayname.into()),
            corporatename: s.company.map(|c| c.0.into()),
            corporateurl: s.company.map(|c| c.1.into()),
            administrator: false,
            logo,
            icon: None,
        });
    }
    Ok(users)
}

/// A return whose description says what is in it and how and when it comes ([`desc`]); stored
/// sanitised, like anything an operator writes.
fn ret(slug: &str, return_type: i16, title: &str, price: i64, description: &str) -> DemoReturn {
    DemoReturn {
        slug: slug.into(),
        return_type,
        title: title.into(),
        description: adapters_http::html::sanitize(description),
        price,
        ..DemoReturn::default()
    }
}

/// A return's description: what is in it, then how and when it is delivered.
fn desc(contents: &str, delivery: &str) -> String {
    format!("<p>{contents}</p><p>{delivery}</p>")
}

/// A delivery month as the return card writes it ("2027年3月").
fn month_ja(month: Option<NaiveDate>) -> String {
    month.map_or_else(|| "準備が整い次第".to_string(), |m| format!("{}年{}月", m.year(), m.month()))
}

#[allow(clippy::too_many_arguments)]
fn sale(
    key: &str,
    email: &str,
    return_slug: &str,
    lot: i64,
    days_ago: i64,
    displayname: &str,
    anonymous: bool,
    comment: Option<&str>,
) -> DemoSale {
    DemoSale {
        key: format!("demo-{key}"),
        user_email: email.into(),
        return_slug: return_slug.into(),
        lot,
        status: SaleStatus::Succeeded,
        payment_type: 1,
        days_ago,
        displayname: displayname.into(),
        anonymous,
        comment: comment.map(str::to_string),
    }
}

/// The first day of the month `months` after today's (a delivery month).
fn month_after(today: NaiveDate, months: u32) -> Option<NaiveDate> {
    today.with_day(1).and_then(|first| first.checked_add_months(Months::new(months)))
}

fn faq(question: &str, answer: &str) -> (String, String) {
    (question.into(), answer.into())
}

fn news(title: &str, description: &str, days_ago: i64) -> DemoNews {
    DemoNews { title: title.into(), description: description.into(), days_ago }
}

/// Yen as the story writes it: "1,500,000円".
fn yen(amount: i64) -> String {
    let digits = amount.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    format!("{out}円")
}

/// What a project's story holds besides its own paragraphs: its budget (資金の使いみち, items that add up
/// to the goal), what happens if the goal is not reached, and where to read more.
struct Story<'a> {
    paragraphs: &'a [&'a str],
    image: &'a str,
    budget: &'a [(&'a str, i64)],
    if_short: &'a str,
    link: (&'a str, &'a str),
}

fn body(story: &Story<'_>) -> String {
    let mut html = String::from("<h2>プロジェクトについて</h2>");
    for p in story.paragraphs {
        html.push_str(&format!("<p>{p}</p>"));
    }
    html.push_str(&format!(r#"<p><img src="{}" alt="活動の様子"></p><h3>資金の使いみち</h3><ul>"#, story.image));
    for (item, amount) in story.budget {
        html.push_str(&format!("<li>{item}：{}</li>", yen(*amount)));
    }
    let total: i64 = story.budget.iter().map(|(_, amount)| amount).sum();
    html.push_str(&format!("</ul><p>合計：{}（税込）</p>", yen(total)));
    html.push_str(&format!("<h3>目標金額に届かなかった場合</h3><p>{}</p>", story.if_short));
    let (label, url) = story.link;
    html.push_str(&format!(r#"<p>活動の様子は<a href="{url}" target="_blank">{label}</a>でもお伝えしています。</p>"#));
    // Stored sanitised, like anything an owner writes.
    adapters_http::html::sanitize(&html)
}

#[allow(clippy::too_many_lines)]
fn projects(files: &Files<'_>, today: NaiveDate) -> anyhow::Result<Vec<DemoProject>> {
    let (taro, hanako, jiro, vip) =
        ("demo-taro@example.jp", "demo-hanako@example.jp", "demo-jiro@example.jp", "demo-vip@example.jp");
    let (jomo, akagi, mori, print, silent) = (
        "demo-jomo-denki@example.jp",
        "demo-akagi-foods@example.jp",
        "demo-haruna-mori@example.jp",
        "demo-haruna-print@example.jp",
        "demo-silent-corp@example.jp",
    );
    let mut out = Vec::new();

    // 1. Maebashi: slider, every availability case, every sponsor tier.
    let main =
        files.scene("maebashi-main.svg", "前橋ばら園 花壇よみがえりプロジェクト", "前橋市", ROSE, Motif::Roses)?;
    let slider = vec![
        (main.clone(), "前橋ばら園の花壇".to_string()),
        (
            files.scene("maebashi-2.svg", "ボランティアの植え替え作業", "前橋市 敷島公園", ROSE, Motif::Kitchen)?,
            "植え替え作業".to_string(),
        ),
        (files.scene("maebashi-3.svg", "満開のばらと赤城山", "前橋市", ROSE, Motif::Roses)?, "満開のばら".to_string()),
        (
            files.scene("maebashi-4.svg", "ばらまつり 夜のライトアップ", "前橋市", SILK, Motif::Silk)?,
            "ライトアップ".to_string(),
        ),
    ];
    let return_image = files.scene("maebashi-return.svg", "ばらの苗木とお礼状", "リターン", ROSE, Motif::Roses)?;
    let plate_image = files.scene("maebashi-plate.svg", "花壇ネームプレート", "リターン", SILK, Motif::Roses)?;
    let (seedling_month, mail_month, plate_month) =
        (month_after(today, 10), month_after(today, 2), month_after(today, 4));
    // The operator's order, not the price order: the featured seedling first (issue #13).
    let returns = vec![
        DemoReturn {
            stock_limit: Some(30),
            address_required: true,
            address_label: Some("お届け先".into()),
            image_src: Some(return_image.clone()),
            description_image: Some(return_image.clone()),
            description_comment: Some("苗木は秋の植え付け時期に発送します。".into()),
            delivery_month: seedling_month,
            ..ret(
                "rose-seedling",
                0,
                "ばらの苗木 1鉢（数量限定・配送あり）",
                10_000,
                &desc(
                    "ばら園の温室で育てた四季咲きのばらの苗木（6号鉢・高さ約40cm）を1鉢、育て方のしおりとボランティアからのお礼状を添えてお届けします。品種は園にお任せください。",
                    &format!(
                        "{}に、ご指定のお届け先へ宅配便でお送りします（送料込み）。発送の日はメールでお知らせします。",
                        month_ja(seedling_month)
                    ),
                ),
            )
        },
        DemoReturn {
            delivery_month: mail_month,
            ..ret(
                "thanks-mail",
                0,
                "お礼のメール（何口でも）",
                3_000,
                &desc(
                    "会の代表からのお礼のメールと、花壇の植え替えが進む様子を写真で伝える活動報告（月1回、花壇が満開になるまで）をお届けします。何口でもご支援いただけます。",
                    &format!("お礼のメールは{}までにお送りし、活動報告はその後も毎月メールでお届けします。", month_ja(mail_month)),
                ),
            )
        },
        DemoReturn {
            stock_limit: Some(3),
            image_src: Some(plate_image),
            delivery_month: plate_month,
            ..ret(
                "garden-name-plate",
                0,
                "花壇ネームプレート（完売）",
                5_000,
                &desc(
                    "よみがえった花壇の縁に、ご支援者のお名前（12文字まで）を刻んだ木製のネームプレート（縦8cm×横20cm）を5年間設置します。刻むお名前はお申し込み後にメールで伺います。",
                    &format!("{}に設置し、設置したプレートの写真をメールでお送りします。", month_ja(plate_month)),
                ),
            )
        },
        DemoReturn {
            disabled: true,
            disabled_comment: Some("会場調整中のため、受付を一時停止しています。".into()),
            ..ret(
                "guided-tour",
                0,
                "園長と歩くガイドツアー",
                8_000,
                &desc(
                    "園長がばらの見どころと花壇再生の歩みをご案内する、約60分のガイドツアーに1名様をご招待します。",
                    "開催はばらが見ごろを迎える時期の土曜日です。日程が決まり次第メールでご案内し、当日は現地（前橋ばら園 正門前）に集合です。",
                ),
            )
        },
        DemoReturn {
            lot_disable: true,
            ..ret(
                "one-time-workshop",
                0,
                "植え替えワークショップ参加券（1口のみ）",
                4_000,
                &desc(
                    "ボランティアと一緒に花壇の土づくりと苗木の植え替えをする、約2時間のワークショップに1名様をご招待します。軍手と道具はお貸しします。お1人さま1口までです。",
                    "開催日（土曜日の午前）はメールでご案内します。当日は会場の受付でお名前をお伝えください。",
                ),
            )
        },
        DemoReturn {
            course: Some("A".into()),
            ..ret(
                "company-gold",
                1,
                "企業協賛 ゴールド（ロゴ掲載）",
                50_000,
                &desc(
                    "企業さま向けの協賛です。ご登録の企業ロゴとサイトへのリンクを、このページの協賛欄に掲載します。ロゴの大きさはご支援の合計で決まり、1口（5万円）で大、合計50万円以上で最大になります。",
                    "お支払いの確認後すぐに掲載が始まり、サイト下部の協賛企業欄にも掲載します。プロジェクト終了後、活動報告書（PDF）をメールでお送りします。",
                ),
            )
        },
        DemoReturn {
            course: Some("B".into()),
            ..ret(
                "company-silver",
                2,
                "団体協賛 シルバー（ロゴ掲載）",
                30_000,
                &desc(
                    "団体さま向けの協賛です。ご登録の団体ロゴとサイトへのリンクを、このページの協賛欄に中サイズで掲載します（ご支援の合計が5万円以上で大サイズ）。",
                    "お支払いの確認後すぐに掲載が始まり、サイト下部の協賛欄にも掲載します。プロジェクト終了後、活動報告書（PDF）をメールでお送りします。",
                ),
            )
        },
        DemoReturn {
            course: Some("C".into()),
            ..ret(
                "company-bronze",
                1,
                "企業協賛 ブロンズ（ロゴ掲載）",
                10_000,
                &desc(
                    "地元のお店や小さな会社向けの協賛です。ご登録の企業ロゴとサイトへのリンクを、このページの協賛欄に小サイズで掲載します（ご支援の合計が3万円以上で中サイズ）。",
                    "お支払いの確認後すぐに掲載が始まり、サイト下部の協賛企業欄にも掲載します。お礼のメールもお送りします。",
                ),
            )
        },
        DemoReturn {
            flag: 900,
            ..ret(
                "staff-only",
                0,
                "関係者用（非表示）",
                1_000,
                &desc(
                    "会の運営ボランティアと園の職員が、作業の合間に少額を支援するための非公開のコースです。品物のお届けはありません。",
                    "ご支援の確認後、会の代表からお礼のメールをお送りします。",
                ),
            )
        },
        DemoReturn {
            show_user_email: Some(vip.into()),
            ..ret(
                "vip-dinner",
                0,
                "特別招待：ばら園ディナー（ご招待の方のみ）",
                30_000,
                &desc(
                    "満開のばらを眺めながら、園内のレストハウスで地元の食材を使ったコース料理を楽しむ夕食会に1名様をご招待します。園長と会の代表がご一緒します。",
                    "開催日はご招待の方にメールでご案内します。当日は現地（前橋ばら園 レストハウス）の受付でお名前をお伝えください。",
                ),
            )
        },
    ];
    let owner_icon = "maebashi-owner.svg";
    files.write(owner_icon, logo_svg("花壇再生の会", "#e91e63").as_bytes())?;
    out.push(DemoProject {
        slug: "maebashi-rose-garden".into(),
        area: Some("maebashi".into()),
        category: Some("community".into()),
        title: "前橋ばら園 花壇よみがえりプロジェクト".into(),
        description: "台風で傷んだ前橋の花壇を、市民の手でもう一度満開に。".into(),
        content: body(&Story {
            paragraphs: &[
                "前橋市のばら園は、半世紀にわたり市民に愛されてきた憩いの場です。",
                "昨年の台風で花壇の多くが傷み、植え替えと土壌改良が必要になりました。",
                "来年のばらまつりまでに、市民ボランティアの手で約400㎡の花壇をよみがえらせます。",
            ],
            image: &slider[1].0,
            budget: &[
                ("傷んだ花壇の土壌改良（客土・堆肥、約400㎡）", 420_000),
                ("植え替えるばらの苗木 120株", 360_000),
                ("散水設備の修理", 150_000),
                ("リターンの制作・発送（苗木・ネームプレート・お礼状）", 180_000),
                ("ボランティアの保険と作業道具", 90_000),
                ("サイト手数料（20%）", 300_000),
            ],
            if_short: "このプロジェクトはオールイン方式です。目標金額に届かなかった場合も、集まった支援金で土壌改良と苗木の植え付けを優先して進め、足りない分は会の積立金で補います。リターンはすべてお届けします。",
            link: ("会の活動日誌", "https://example.jp/maebashi-rose/blog"),
        }),
        target: 1_500_000,
        period_end: today + Duration::days(45),
        main_image_url: main,
        tax_includes: true,
        slider,
        returns,
        owner: Some(DemoOwner {
            name: "前橋ばら園 花壇再生の会".into(),
            image_url: Some(media(owner_icon)),
            profile: Some(
                "ばら園の近くに住む市民と園のボランティアで2019年に結成しました。毎週土曜日に花壇の手入れを続けています。"
                    .into(),
            ),
            links: vec![
                ("会の公式サイト".into(), "https://example.jp/maebashi-rose".into()),
                ("活動日誌（ブログ）".into(), "https://example.jp/maebashi-rose/blog".into()),
            ],
        }),
        faqs: vec![
            faq("苗木はいつ届きますか？", "秋の植え付け時期（各リターンに記載のお届け月）に、宅配便でお届けします。"),
            faq("領収書は発行できますか？", "ご支援完了後、マイページの支援履歴から確認できます。発行をご希望の方は運営までご連絡ください。"),
            faq("目標金額に届かなかった場合はどうなりますか？", "このプロジェクトはオールイン方式です。目標金額に届かなくても、集まった支援金で花壇の再生を進めます。"),
        ],
        news: vec![
            news("植え替えボランティアを募集します", "<p>毎週土曜日の午前中に作業しています。</p>", 3),
            // After 上毛電機's second support (821,000 of 1,500,000 paid by then; 721,000 the day before).
            news("目標の半分に到達しました", "", 5),
            news("プロジェクトを開始しました", "<p>ご支援よろしくお願いいたします。</p>", 30),
        ],
        sales: vec![
            sale(
                "maebashi-01",
                jomo,
                "company-gold",
                10,
                20,
                "上毛電機株式会社",
                false,
                Some("地元企業として応援しています。"),
            ),
            sale("maebashi-02", jomo, "company-gold", 2, 5, "上毛電機株式会社", false, None),
            sale(
                "maebashi-03",
                akagi,
                "company-gold",
                2,
                12,
                "赤城食品株式会社",
                false,
                Some("満開のばらを楽しみにしています！"),
            ),
            sale("maebashi-04", print, "company-bronze", 1, 8, "有限会社榛名印刷", false, None),
            sale("maebashi-14", mori, "company-silver", 1, 7, "NPO法人はるなの森", false, None),
            sale("maebashi-05", silent, "company-gold", 1, 6, "株式会社しののめ", true, None),
            sale(
                "maebashi-06",
                taro,
                "thanks-mail",
                2,
                15,
                "群馬 太郎",
                false,
                Some("子どもの頃によく遊びに行きました。がんばってください！"),
            ),
            sale(
                "maebashi-07",
                hanako,
                "rose-seedling",
                1,
                9,
                "上州 花子",
                false,
                Some("苗木が届くのを楽しみにしています。"),
            ),
            sale(
                "maebashi-08",
                jiro,
                "thanks-mail",
                1,
                4,
                "赤城 次郎",
                true,
                Some("匿名で失礼します。応援しています。"),
            ),
            sale("maebashi-09", taro, "garden-name-plate", 1, 14, "群馬 太郎", false, None),
            sale("maebashi-10", hanako, "garden-name-plate", 1, 13, "上州 花子", false, None),
            sale("maebashi-11", vip, "garden-name-plate", 1, 11, "榛名 優子", false, None),
            sale("maebashi-12", vip, "rose-seedling", 2, 2, "榛名 優子", false, None),
            // A bank transfer not yet received: holds 2 seedlings, counts toward no total.
            DemoSale {
                status: SaleStatus::AwaitingBankTransfer,
                payment_type: 2,
                ..sale("maebashi-13", jiro, "rose-seedling", 2, 1, "赤城 次郎", false, None)
            },
        ],
        ..DemoProject::default()
    });

    // 2. Takasaki: single image, honour image and link, prices with tax added, organisation return.
    let main =
        files.scene("takasaki-main.svg", "高崎だるま 若手職人育成プロジェクト", "高崎市", DARUMA, Motif::Daruma)?;
    let honor = files.scene("takasaki-honor.svg", "ぐんま伝統工芸 奨励賞 受賞", "高崎市", DARUMA, Motif::Medal)?;
    let mini = files.scene("takasaki-mini.svg", "手のひらサイズのミニだるま", "リターン", DARUMA, Motif::Daruma)?;
    let (mini_month, custom_month) = (month_after(today, 3), month_after(today, 5));
    out.push(DemoProject {
        slug: "takasaki-daruma".into(),
        area: Some("takasaki".into()),
        category: Some("culture-arts".into()),
        title: "高崎だるま 若手職人育成プロジェクト".into(),
        description: "二百年続く高崎だるまの絵付けを、次の世代へ。".into(),
        content: body(&Story {
            paragraphs: &[
                "高崎だるまの工房では、職人の高齢化が進んでいます。",
                "若手職人5人が半年かけて熟練の職人から絵付けを学ぶ研修費と、工房の改修費をご支援ください。",
            ],
            image: &main,
            budget: &[
                ("若手職人5人の絵付け研修（講師謝礼、6か月）", 270_000),
                ("工房の改修（換気扇・作業台）", 200_000),
                ("筆・顔料・張り子の材料", 90_000),
                ("リターンの制作・発送", 80_000),
                ("サイト手数料（20%）", 160_000),
            ],
            if_short: "このプロジェクトはオールオアナッシング方式です。終了日までに目標金額の800,000円に届かなかった場合、プロジェクトは不成立となり、ご支援金は全額返金されます（リターンのお届けもありません）。",
            link: ("工房の紹介ページ", "https://example.jp/takasaki-daruma"),
        }),
        target: 800_000,
        period_end: today + Duration::days(20),
        main_image_url: main.clone(),
        honor_img_url: Some(honor),
        honor_img_link: Some("https://example.jp/takasaki-daruma/award".into()),
        tax_includes: false,
        additional_data: Some((
            "職人へのメッセージ".into(),
            "絵付けを学ぶ若手職人へ、応援のひとことをお寄せください。工房に掲示します。".into(),
            "職人へのメッセージを入力してください。".into(),
        )),
        returns: vec![
            DemoReturn {
                image_src: Some(mini),
                delivery_month: mini_month,
                ..ret(
                    "mini-daruma",
                    0,
                    "ミニだるま（税別価格）",
                    3_000,
                    &desc(
                        "若手職人が一つずつ絵付けした、手のひらサイズのミニだるま（高さ約6cm・赤）を1個お届けします。底に絵付けした職人の名前が入ります。",
                        &format!(
                            "{}に工房（高崎市豊岡町）でお渡しします。受け取りの日時はメールでご案内しますので、当日は工房でお名前をお伝えください。",
                            month_ja(mini_month)
                        ),
                    ),
                )
            },
            DemoReturn {
                address_required: true,
                address_label: Some("お届け先".into()),
                lot_disable: true,
                stock_limit: Some(50),
                delivery_month: custom_month,
                ..ret(
                    "custom-daruma",
                    0,
                    "名入れだるま（1口限定・配送あり）",
                    20_000,
                    &desc(
                        "ご希望のお名前や言葉（10文字まで）を職人が金文字で書き入れる、名入れだるま（7号・高さ約21cm）を1体お作りします。書き入れる文字はお申し込み後にメールで伺います。",
                        &format!("{}に、ご指定のお届け先へ宅配便でお送りします（送料込み）。", month_ja(custom_month)),
                    ),
                )
            },
            DemoReturn {
                course: Some("B".into()),
                ..ret(
                    "organisation",
                    2,
                    "団体協賛（ロゴ掲載）",
                    30_000,
                    &desc(
                        "団体さま向けの協賛です。ご登録の団体ロゴとサイトへのリンクを、このページの協賛欄に中サイズで掲載します（ご支援の合計が5万円以上で大サイズ）。工房に掲げる協賛者の木札にも団体名を記します。",
                        "お支払いの確認後すぐに掲載が始まり、サイト下部の協賛欄にも掲載します。木札の写真はメールでお送りします。",
                    ),
                )
            },
            ret(
                "company",
                1,
                "企業協賛（ロゴ掲載）",
                100_000,
                &desc(
                    "企業さま向けの協賛です。ご登録の企業ロゴとサイトへのリンクを、このページの協賛欄に大サイズで掲載し、工房に掲げる協賛者の木札にも社名を記します。",
                    "お支払いの確認後すぐに掲載が始まり、サイト下部の協賛企業欄にも掲載します。工房での絵付け見学（約1時間・5名様まで）にもご招待し、日程はメールでご相談します。",
                ),
            ),
            // Monthly: 1,000円 + tax = 1,100円 every month, by the same tax rule as the one-off returns.
            DemoReturn {
                monthly: true,
                lot_disable: true,
                ..ret(
                    "supporters-club",
                    0,
                    "サポーターズクラブ（毎月のご支援）",
                    1_000,
                    &desc(
                        "毎月1,000円（税別）で若手職人の研修を支えるコースです。半年続けてくださった方は、工房の絵付け教室（約90分）にご招待します。",
                        "研修の様子を伝える職人の日誌を、毎月メールでお届けします。毎月のご支援はマイページからいつでも停止できます。",
                    ),
                )
            },
        ],
        news: vec![news("工房見学会を開催しました", "<p>20名の方にご参加いただきました。</p>", 2)],
        all_or_nothing: true,
        owner: Some(DemoOwner {
            name: "高崎だるま 若手職人の会".into(),
            image_url: None,
            profile: Some("高崎市豊岡地区の工房で絵付けを学ぶ20代・30代の職人5人の会です。".into()),
            links: vec![("工房の紹介ページ".into(), "https://example.jp/takasaki-daruma".into())],
        }),
        sales: vec![
            sale(
                "takasaki-01",
                mori,
                "organisation",
                1,
                7,
                "NPO法人はるなの森",
                false,
                Some("伝統を守る活動に共感します。"),
            ),
            sale("takasaki-02", akagi, "company", 1, 6, "赤城食品株式会社", false, None),
            sale("takasaki-03", taro, "mini-daruma", 3, 5, "群馬 太郎", false, Some("だるま市で毎年買っています。")),
            sale("takasaki-04", hanako, "custom-daruma", 1, 3, "上州 花子", false, None),
        ],
        ..DemoProject::default()
    });

    // 3. Kiryu: ended, manual sponsor list (courses A/B/C + supporters).
    let main = files.scene("kiryu-main.svg", "桐生織 機場（はたば）再生プロジェクト", "桐生市", LOOM, Motif::Loom)?;
    let mut manual = Vec::new();
    for (course, names) in [
        (ManualCourse::A, &["桐生織物協同組合", "わたらせ銀行"][..]),
        (ManualCourse::B, &["織都デザイン株式会社", "のこぎり屋根保存会", "桐生まちづくり会社"][..]),
        (ManualCourse::C, &["本町一丁目商店会", "新川ベーカリー", "天満宮前カフェ", "錦町工房"][..]),
    ] {
        let code = course.code();
        for (i, name) in names.iter().enumerate() {
            let file = format!("kiryu-sponsor-{code}{i}.svg");
            files.write(&file, logo_svg(name, ["#3949ab", "#00897b", "#6d4c41", "#c2185b"][i % 4]).as_bytes())?;
            manual.push(DemoManualSponsor {
                course,
                name: (*name).to_string(),
                logo_src: Some(media(&file)),
                link: Some(format!("https://example.jp/kiryu/{code}{i}")),
                amount: None,
            });
        }
    }
    // The supporters row names the project's own supporters, largest support first (none supported
    // anonymously); courses A to C are the sponsors who gave money or materials outside the site.
    for name in ["榛名 優子", "赤城 次郎", "群馬 太郎", "上州 花子"] {
        manual.push(DemoManualSponsor {
            course: ManualCourse::Supporter,
            name: name.into(),
            logo_src: None,
            link: None,
            amount: None,
        });
    }
    out.push(DemoProject {
        slug: "kiryu-textile".into(),
        area: Some("kiryu".into()),
        category: Some("culture-arts".into()),
        title: "桐生織 機場（はたば）再生プロジェクト".into(),
        description: "のこぎり屋根の工場に、もう一度織機の音を。".into(),
        content: body(&Story {
            paragraphs: &[
                "桐生は千三百年の歴史を持つ織物のまちです。",
                "使われなくなったのこぎり屋根の機場を改修し、誰でも機織りを体験できる工房として開きます。",
                "協賛欄には、このページでご支援くださった皆さまと、改修に協賛金や資材をご提供いただいた地元の企業・団体（協賛の内容に応じてA〜Cコース）のお名前を掲載しています。",
            ],
            image: &main,
            budget: &[
                ("機場の屋根と窓の補修", 110_000),
                ("手織り機2台の修理と調整", 60_000),
                ("体験用の糸と道具", 40_000),
                ("リターンの制作・発送（ストール）", 30_000),
                ("サイト手数料（20%）", 60_000),
            ],
            if_short: "このプロジェクトはオールイン方式です。目標金額に届かなかった場合も、集まった支援金で屋根と窓の補修を先に行い、工房を開きます。リターンはすべてお届けします。",
            link: ("機場の改修日誌", "https://example.jp/kiryu/hataba"),
        }),
        // Reached (370,000 of 300,000): the ended page shows 達成.
        target: 300_000,
        period_end: today - Duration::days(10),
        main_image_url: main,
        tax_includes: true,
        uses_manual_sponsors: true,
        returns: vec![
            ret(
                "weaving-class",
                0,
                "機織り体験チケット",
                5_000,
                &desc(
                    "改修した機場の手織り機で、コースター2枚を織る体験（約90分・1名様）のチケットです。織ったコースターはお持ち帰りいただけます。",
                    "体験日は毎月第2・第4土曜日からお選びいただけます。ご予約の方法をメールでご案内し、当日は現地（機場の入口）で受付をいたします。",
                ),
            ),
            ret(
                "stole",
                0,
                "桐生織ストール",
                15_000,
                &desc(
                    "改修した機場の織機で職人が織り上げる、桐生織の絹のストール（幅35cm×長さ180cm）を1枚お作りします。色は紺・えんじ・生成りから選べます。",
                    "プロジェクト終了の2か月後から、機場の店頭でお渡しします。色のご希望と受け取りの日時はメールで伺い、当日は店頭でお名前をお伝えください。",
                ),
            ),
        ],
        manual_sponsors: manual,
        news: vec![
            news(
                "目標を達成しました！",
                "<p>募集期間を終え、目標金額の300,000円を上回るご支援をいただきました。プロジェクトは成立です。ご支援ありがとうございました。</p><p>機場の改修を始め、リターンの準備ができ次第メールでご案内します。</p>",
                9,
            ),
            news("残り1週間です", "", 17),
        ],
        sales: vec![
            sale("kiryu-01", taro, "stole", 4, 40, "群馬 太郎", false, Some("ストールを母に贈ります。")),
            sale("kiryu-02", hanako, "weaving-class", 2, 30, "上州 花子", false, None),
            sale("kiryu-03", vip, "stole", 10, 25, "榛名 優子", false, None),
            sale("kiryu-04", jiro, "stole", 10, 20, "赤城 次郎", false, None),
        ],
        ..DemoProject::default()
    });

    // 4. Isesaki: a donation (no tax), with anonymous bank transfer details.
    let main = files.scene("isesaki-main.svg", "いせさき こども食堂 応援基金", "伊勢崎市", KITCHEN, Motif::Kitchen)?;
    out.push(DemoProject {
        slug: "isesaki-kodomo-shokudo".into(),
        area: Some("isesaki".into()),
        category: Some("children-education".into()),
        title: "いせさき こども食堂 応援基金".into(),
        description: "毎週木曜日、地域の子どもたちに温かい夕ごはんを。".into(),
        content: body(&Story {
            paragraphs: &[
                "伊勢崎市内の三つのこども食堂が共同で運営する基金です。毎週木曜日、3か所で合わせて約50人の子どもたちに夕ごはんを用意しています。",
                "寄附金は主に食材費と会場費に充てます（寄附のため消費税はかかりません）。",
            ],
            image: &main,
            budget: &[
                ("食材費（3か所・週1回、半年分）", 300_000),
                ("会場の使用料（公民館、半年分）", 72_000),
                ("調理器具と食器の買い替え", 60_000),
                ("衛生用品とボランティアの保険", 48_000),
                ("サイト手数料（20%）", 120_000),
            ],
            if_short: "この基金はオールイン方式の寄附です。目標金額に届かなかった場合も、いただいた寄附金はすべて食材費から順に充て、開催の回数を保ちます。",
            link: ("こども食堂ネットワークのページ", "https://example.jp/isesaki-kodomo"),
        }),
        target: 600_000,
        period_end: today + Duration::days(60),
        main_image_url: main,
        is_donation: true,
        // Paid to the fund a month after the end (terms §9: a donation project is paid on the date set on it).
        donation_payout_date: Some(today + Duration::days(90)),
        tax_includes: true,
        bank: Some(DemoBank {
            bank: "群馬中央銀行".into(),
            branch: "伊勢崎支店".into(),
            kinds: "普通".into(),
            number: "1234567".into(),
            nominee: "イセサキコドモショクドウキキン".into(),
        }),
        returns: vec![
            ret(
                "donation-1000",
                0,
                "寄付 1,000円",
                1_000,
                &desc(
                    "見返りのない寄附のコースです（非課税）。1,000円で、子ども1人分の夕ごはん約3回の食材をまかなえます。",
                    "ご寄附の確認後にお礼のメールを、半年ごとに会計報告つきの活動報告をメールでお届けします。寄附金受領証明書はマイページから印刷できます。",
                ),
            ),
            ret(
                "donation-10000",
                0,
                "寄付 10,000円",
                10_000,
                &desc(
                    "見返りのない寄附のコースです（非課税）。10,000円で、食堂1か所の1回分（子ども約15人）の食材をまかなえます。",
                    "ご寄附の確認後にお礼のメールを、半年ごとに会計報告と子どもたちの寄せ書きの写真をメールでお届けします。寄附金受領証明書はマイページから印刷できます。",
                ),
            ),
        ],
        news: vec![news("今月の献立を公開しました", "<p>地元農家さんの野菜をたっぷり使っています。</p>", 1)],
        sales: vec![
            sale("isesaki-01", hanako, "donation-10000", 1, 6, "上州 花子", false, Some("子どもたちの笑顔のために。")),
            sale("isesaki-02", jiro, "donation-1000", 5, 3, "赤城 次郎", true, None),
            sale("isesaki-03", taro, "donation-1000", 3, 2, "群馬 太郎", false, None),
        ],
        ..DemoProject::default()
    });

    // 5. Ota: the footer sponsor area is hidden on this project.
    let main = files.scene("ota-main.svg", "太田 ものづくり少年団 ロボット工房", "太田市", GEARS, Motif::Gears)?;
    out.push(DemoProject {
        slug: "ota-monozukuri".into(),
        area: Some("ota".into()),
        category: Some("children-education".into()),
        // Takes cards only: step 2 offers no bank transfer.
        card_only: true,
        title: "太田 ものづくり少年団 ロボット工房".into(),
        description: "ものづくりのまち太田で、子どもたちがロボットを作る工房を。".into(),
        content: body(&Story {
            paragraphs: &[
                "工場のまち太田の技術者がボランティアで指導します。",
                "駅前の空き店舗を工房に整え、小学4年生から中学生までの20人が、毎月2回ロボットづくりに取り組みます。工具と部品、会場の整備費をご支援ください。",
            ],
            image: &main,
            budget: &[
                ("ロボット教材キット 20台", 180_000),
                ("工具と作業台", 100_000),
                ("工房（空き店舗）の電気工事と内装", 80_000),
                ("指導ボランティアの保険と交通費", 40_000),
                ("サイト手数料（20%）", 100_000),
            ],
            if_short: "このプロジェクトはオールイン方式です。目標金額に届かなかった場合も、集まった支援金で教材キットと工具をそろえ、工房を開きます。内装は少年団の保護者と技術者の手で進めます。",
            link: ("少年団の活動ブログ", "https://example.jp/ota-monozukuri"),
        }),
        target: 500_000,
        period_end: today + Duration::days(5),
        main_image_url: main,
        tax_includes: true,
        hide_footer_sponsors: true,
        returns: vec![
            ret(
                "robot-kit",
                0,
                "ロボットキット寄贈コース",
                7_000,
                &desc(
                    "1口ごとに、ロボット教材キット（モーター2個・距離センサー付き）1台を少年団に寄贈します。キットは工房に置き、子どもたちが順番に使います。",
                    "寄贈したキットを組み立てる工作教室のあと、子どもたちの写真とお礼のメッセージをメールでお届けします。",
                ),
            ),
            ret(
                "company",
                1,
                "企業協賛（ロゴ掲載）",
                60_000,
                &desc(
                    "企業さま向けの協賛です。ご登録の企業ロゴとサイトへのリンクを、このページの協賛欄に大サイズで掲載し、工房の壁に掲げる協賛ボードにも社名を入れます。",
                    "お支払いの確認後すぐに掲載が始まり、サイト下部の協賛企業欄にも掲載します（このプロジェクトのページでは下部の協賛欄を表示しません）。協賛ボードの写真はメールでお送りします。",
                ),
            ),
        ],
        news: vec![news("第1回の工作教室を開きました", "", 4)],
        sales: vec![
            sale("ota-01", jomo, "company", 1, 3, "上毛電機株式会社", false, Some("技術者も派遣します！")),
            sale("ota-02", taro, "robot-kit", 1, 2, "群馬 太郎", false, None),
        ],
        ..DemoProject::default()
    });

    // 6. Numata: ended long ago.
    let main = files.scene("numata-main.svg", "沼田りんご園 ひょう害からの復興", "沼田市", APPLE, Motif::Apples)?;
    out.push(DemoProject {
        slug: "numata-apple".into(),
        area: Some("numata".into()),
        category: Some("food-agriculture".into()),
        title: "沼田りんご園 ひょう害からの復興".into(),
        description: "ひょうで傷ついたりんご園に、防ひょうネットを。".into(),
        content: body(&Story {
            paragraphs: &[
                "沼田の高原で育つりんごは、寒暖差が生む甘さが自慢です。",
                "昨年のひょうで実の多くが傷つきました。来年の実りを守るため、園の約50アールに防ひょうネットを張ります。",
            ],
            image: &main,
            budget: &[
                ("防ひょうネットの資材（約50アール分）", 520_000),
                ("支柱とワイヤーの設置工事", 220_000),
                ("リターン（りんご）の箱詰めと発送の準備", 60_000),
                ("サイト手数料（20%）", 200_000),
            ],
            if_short: "このプロジェクトはオールオアナッシング方式です。終了日までに目標金額の1,000,000円に届かなかった場合、プロジェクトは不成立となり、ご支援金は全額返金されます（リターンのお届けもありません）。",
            link: ("りんご園の便り", "https://example.jp/numata-apple"),
        }),
        // Not reached, All-or-Nothing: the ended page shows 未達成.
        target: 1_000_000,
        all_or_nothing: true,
        period_end: today - Duration::days(40),
        main_image_url: main,
        tax_includes: true,
        returns: vec![
            ret(
                "apple-box",
                0,
                "りんご 5kg 箱",
                6_000,
                &desc(
                    "ネットで守ったりんご「サンふじ」5kg（14〜20玉）を1箱。収穫したその週に箱詰めします。",
                    "11月の収穫期に、園の直売所（沼田市白沢町）でお渡しします。受け取りの期間はメールでご案内しますので、当日は直売所でお名前をお伝えください。",
                ),
            ),
            ret(
                "tree-owner",
                0,
                "りんごの木オーナー",
                30_000,
                &desc(
                    "りんごの木1本のオーナーになっていただきます。木にお名前の札を掛け、春の花、夏の実、秋の色づきの様子を写真でお伝えします。",
                    "生育の便りは年3回メールでお届けします。秋の収穫期には園にご招待し、その木のりんご（約10kg）を現地で収穫してお持ち帰りいただけます。",
                ),
            ),
        ],
        // Ended below its goal: the news tells supporters so, and nothing is shipped.
        news: vec![news(
            "目標金額に届かず、プロジェクトは不成立となりました",
            "<p>ご支援いただいた皆さま、ありがとうございました。募集期間内に目標金額の1,000,000円に届かず、このプロジェクトは不成立となりました。オールオアナッシング方式のため、ご支援金は全額返金され、リターンのお届けもありません。</p><p>防ひょうネットは、規模を小さくして自己資金で一部を張ります。来年の実りをまたお知らせします。</p>",
            39,
        )],
        sales: vec![
            sale("numata-01", hanako, "tree-owner", 1, 60, "上州 花子", false, Some("毎年楽しみにしています。")),
            sale("numata-02", taro, "apple-box", 2, 55, "群馬 太郎", false, None),
        ],
        ..DemoProject::default()
    });

    // 7. Tomioka: open for long, a limited return with a pending bank transfer holding stock.
    let main = files.scene("tomioka-main.svg", "富岡 シルクのまち歩きマップ", "富岡市", SILK, Motif::Silk)?;
    out.push(DemoProject {
        slug: "tomioka-silk-walk".into(),
        area: Some("tomioka".into()),
        category: Some("culture-arts".into()),
        title: "富岡 シルクのまち歩きマップ".into(),
        description: "世界遺産のまちを歩いて楽しむ、多言語マップを作ります。".into(),
        content: body(&Story {
            paragraphs: &[
                "富岡製糸場の周りには、養蚕の歴史を伝える建物が数多く残っています。",
                "日本語・英語・中国語のマップを作り、駅と観光案内所で配布します。",
            ],
            image: &main,
            budget: &[
                ("取材・デザインと英語・中国語への翻訳", 170_000),
                ("印刷（3言語 各3,000部）", 120_000),
                ("配布用ラックの設置（駅・観光案内所の4か所）", 30_000),
                ("サイト手数料（20%）", 80_000),
            ],
            if_short: "このプロジェクトはオールイン方式です。目標金額に届かなかった場合も、集まった支援金で3言語のマップを作ります。印刷の部数を減らし、PDF版を市の観光サイトで配布して補います。",
            link: ("まち歩きの会のページ", "https://example.jp/tomioka-walk"),
        }),
        target: 400_000,
        period_end: today + Duration::days(90),
        main_image_url: main,
        tax_includes: true,
        returns: vec![
            DemoReturn {
                stock_limit: Some(5),
                ..ret(
                    "map-credit",
                    0,
                    "マップにお名前掲載（限定5名）",
                    5_000,
                    &desc(
                        "完成したマップの裏面「このマップを応援してくれた人」の欄に、ご希望のお名前（ニックネーム可・12文字まで）を3言語すべての版に掲載します。",
                        "掲載するお名前はお申し込み後にメールで伺います。完成したマップのPDFもメールでお送りします。",
                    ),
                )
            },
            ret(
                "map-set",
                0,
                "完成マップ3言語セット",
                2_000,
                &desc(
                    "完成したまち歩きマップ（日本語・英語・中国語、A2判の折りたたみ）を各1部、3部セットでご用意します。",
                    "完成のお知らせをメールでお送りします。富岡市観光案内所の窓口で、お名前をお伝えのうえお受け取りください。",
                ),
            ),
        ],
        news: vec![],
        sales: vec![
            sale("tomioka-01", vip, "map-credit", 1, 2, "榛名 優子", false, Some("素敵なマップになりますように。")),
            DemoSale {
                status: SaleStatus::AwaitingBankTransfer,
                payment_type: 2,
                ..sale("tomioka-02", taro, "map-credit", 2, 1, "群馬 太郎", false, None)
            },
        ],
        ..DemoProject::default()
    });
    Ok(out)
}

/// Builds the demo set and its image files under `MEDIA_DIR/demo/`.
pub fn demo_set(media_dir: &Path, today: NaiveDate) -> anyhow::Result<DemoSet> {
    std::fs::create_dir_all(media_dir.join("demo"))
        .map_err(|e| anyhow::anyhow!("{}: {e}", media_dir.join("demo").display()))?;
    let files = Files { dir: media_dir };
    Ok(DemoSet { users: users(&files)?, projects: projects(&files, today)? })
}

/// `app-server seed-demo`: migrates, then loads the demo data (idempotent): the accounts directly, then each
/// project through the operators' use cases ([`author`]) and its history directly.
pub async fn seed(settings: &Settings) -> anyhow::Result<DemoCounts> {
    let pool = adapters_postgres::connect(&settings.database_url, 2)?;
    let migrate_pool = pool.clone();
    tokio::task::spawn_blocking(move || adapters_postgres::migrate(&migrate_pool)).await??;
    let today = domain::time::tokyo_date(chrono::Utc::now());
    let media_dir = settings.media_dir.clone();
    let set = tokio::task::spawn_blocking(move || demo_set(&media_dir, today)).await??;
    let admin = adapters_postgres::demo::upsert_users(&pool, set.users).await?;
    let authors = author::Authors::new(pool.clone(), admin, settings)?;
    for project in &set.projects {
        authors.project(project, today).await?;
    }
    Ok(adapters_postgres::demo::counts_of(&pool).await?)
}
