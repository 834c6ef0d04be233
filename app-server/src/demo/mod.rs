//! `app-server seed-demo`: demo data set in Gunma, and the images it shows.
//!
//! Demo accounts (password `demo-password-1` for all):
//! - administrator: `demo-admin@example.jp`
//! - supporters: `demo-taro@example.jp`, `demo-hanako@example.jp`, `demo-jiro@example.jp`,
//!   `demo-vip@example.jp` (sees a return restricted to that address), and the companies
//!   `demo-jomo-denki@example.jp`, `demo-akagi-foods@example.jp`, `demo-haruna-mori@example.jp`,
//!   `demo-haruna-print@example.jp`, `demo-silent-corp@example.jp` (supports anonymously).
//!
//! Idempotent: running it twice leaves the same rows (see `adapters_postgres::demo`). End dates are
//! relative to today (Asia/Tokyo) so the demo always has open and ended projects.

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

fn ret(slug: &str, return_type: i16, title: &str, price: i64) -> DemoReturn {
    DemoReturn {
        slug: slug.into(),
        return_type,
        title: title.into(),
        description: format!("<p>{title}のお礼として、活動報告とお礼のメールをお届けします。</p>"),
        price,
        ..DemoReturn::default()
    }
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

fn body(paragraphs: &[&str], image: &str) -> String {
    let mut html = String::from("<h2>プロジェクトについて</h2>");
    for p in paragraphs {
        html.push_str(&format!("<p>{p}</p>"));
    }
    html.push_str(&format!(
        r#"<p><img src="{image}" alt="活動の様子"></p><h3>資金の使いみち</h3><ul><li>材料費・設備費</li><li>地域の皆さまへの報告会</li><li>リターンの制作・発送</li></ul><p>詳しくは<a href="https://www.pref.gunma.jp/" target="_blank">群馬県のサイト</a>もご覧ください。</p>"#
    ));
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
    // The operator's order, not the price order: the featured seedling first (issue #13).
    let mut returns = vec![
        DemoReturn {
            stock_limit: Some(30),
            address_required: true,
            address_label: Some("お届け先".into()),
            image_src: Some(return_image.clone()),
            description_image: Some(return_image.clone()),
            description_comment: Some("苗木は秋の植え付け時期に発送します。".into()),
            delivery_month: month_after(today, 10),
            ..ret("rose-seedling", 0, "ばらの苗木 1鉢（数量限定・配送あり）", 10_000)
        },
        DemoReturn {
            delivery_month: month_after(today, 2),
            ..ret("thanks-mail", 0, "お礼のメール（何口でも）", 3_000)
        },
        DemoReturn {
            stock_limit: Some(3),
            image_src: Some(plate_image),
            delivery_month: month_after(today, 4),
            ..ret("garden-name-plate", 0, "花壇ネームプレート（完売）", 5_000)
        },
        DemoReturn {
            disabled: true,
            disabled_comment: Some("会場調整中のため、受付を一時停止しています。".into()),
            ..ret("guided-tour", 0, "園長と歩くガイドツアー", 8_000)
        },
        DemoReturn {
            lot_disable: true,
            ..ret("one-time-workshop", 0, "植え替えワークショップ参加券（1口のみ）", 4_000)
        },
        DemoReturn {
            course: Some("A".into()), ..ret("company-gold", 1, "企業協賛 ゴールド（ロゴ掲載）", 50_000)
        },
        DemoReturn {
            course: Some("B".into()), ..ret("company-silver", 2, "団体協賛 シルバー（ロゴ掲載）", 30_000)
        },
        DemoReturn {
            course: Some("C".into()), ..ret("company-bronze", 1, "企業協賛 ブロンズ（ロゴ掲載）", 10_000)
        },
        DemoReturn { flag: 900, ..ret("staff-only", 0, "関係者用（非表示）", 1_000) },
        DemoReturn {
            show_user_email: Some(vip.into()),
            ..ret("vip-dinner", 0, "特別招待：ばら園ディナー（ご招待の方のみ）", 30_000)
        },
    ];
    returns[1].description = "<p>活動報告のメールをお届けします。何口でもご支援いただけます。</p>".into();
    let owner_icon = "maebashi-owner.svg";
    files.write(owner_icon, logo_svg("花壇再生の会", "#e91e63").as_bytes())?;
    out.push(DemoProject {
        slug: "maebashi-rose-garden".into(),
        area: Some("maebashi".into()),
        category: Some("community".into()),
        title: "前橋ばら園 花壇よみがえりプロジェクト".into(),
        description: "台風で傷んだ前橋の花壇を、市民の手でもう一度満開に。".into(),
        content: body(
            &[
                "前橋市のばら園は、半世紀にわたり市民に愛されてきた憩いの場です。",
                "昨年の台風で花壇の多くが傷み、植え替えと土壌改良が必要になりました。",
            ],
            &slider[1].0,
        ),
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
            news("目標の半分に到達しました", "", 10),
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
    out.push(DemoProject {
        slug: "takasaki-daruma".into(),
        area: Some("takasaki".into()),
        category: Some("culture-arts".into()),
        title: "高崎だるま 若手職人育成プロジェクト".into(),
        description: "二百年続く高崎だるまの絵付けを、次の世代へ。".into(),
        content: body(
            &["高崎だるまの工房では、職人の高齢化が進んでいます。", "若手職人の研修費と工房の改修費をご支援ください。"],
            &main,
        ),
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
                delivery_month: month_after(today, 3),
                ..ret("mini-daruma", 0, "ミニだるま（税別価格）", 3_000)
            },
            DemoReturn {
                address_required: true,
                address_label: Some("お届け先".into()),
                lot_disable: true,
                stock_limit: Some(50),
                delivery_month: month_after(today, 5),
                ..ret("custom-daruma", 0, "名入れだるま（1口限定・配送あり）", 20_000)
            },
            DemoReturn { course: Some("B".into()), ..ret("organisation", 2, "団体協賛（ロゴ掲載）", 30_000) },
            DemoReturn { ..ret("company", 1, "企業協賛（ロゴ掲載）", 100_000) },
            // Monthly: 1,000円 + tax = 1,100円 every month, by the same tax rule as the one-off returns.
            DemoReturn {
                monthly: true,
                lot_disable: true,
                ..ret("supporters-club", 0, "サポーターズクラブ（毎月のご支援）", 1_000)
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
    for name in ["織田 一郎", "桐生 さくら", "渡良瀬 健", "匿名希望の桐生市民"] {
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
        content: body(
            &["桐生は千三百年の歴史を持つ織物のまちです。", "使われなくなった機場を改修し、体験工房として開きました。"],
            &main,
        ),
        // Reached (370,000 of 300,000): the ended page shows 達成.
        target: 300_000,
        period_end: today - Duration::days(10),
        main_image_url: main,
        tax_includes: true,
        uses_manual_sponsors: true,
        returns: vec![ret("weaving-class", 0, "機織り体験チケット", 5_000), ret("stole", 0, "桐生織ストール", 15_000)],
        manual_sponsors: manual,
        news: vec![
            news("目標を達成しました！", "<p>ご支援ありがとうございました。</p>", 9),
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
        content: body(
            &[
                "伊勢崎市内の三つのこども食堂が共同で運営する基金です。",
                "寄付金は食材費と会場費に充てられます（寄付のため消費税はかかりません）。",
            ],
            &main,
        ),
        target: 600_000,
        period_end: today + Duration::days(60),
        main_image_url: main,
        is_donation: true,
        tax_includes: true,
        bank: Some(DemoBank {
            bank: "群馬中央銀行".into(),
            branch: "伊勢崎支店".into(),
            kinds: "普通".into(),
            number: "1234567".into(),
            nominee: "イセサキコドモショクドウキキン".into(),
        }),
        returns: vec![
            ret("donation-1000", 0, "寄付 1,000円", 1_000),
            ret("donation-10000", 0, "寄付 10,000円", 10_000),
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
        content: body(
            &["工場のまち太田の技術者がボランティアで指導します。", "工具と部品、会場の整備費をご支援ください。"],
            &main,
        ),
        target: 500_000,
        period_end: today + Duration::days(5),
        main_image_url: main,
        tax_includes: true,
        hide_footer_sponsors: true,
        returns: vec![
            ret("robot-kit", 0, "ロボットキット寄贈コース", 7_000),
            DemoReturn { ..ret("company", 1, "企業協賛（ロゴ掲載）", 60_000) },
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
        content: body(
            &["沼田の高原で育つりんごは、寒暖差が生む甘さが自慢です。", "防ひょうネットの設置費用を募りました。"],
            &main,
        ),
        // Not reached, All-or-Nothing: the ended page shows 未達成.
        target: 1_000_000,
        all_or_nothing: true,
        period_end: today - Duration::days(40),
        main_image_url: main,
        tax_includes: true,
        returns: vec![ret("apple-box", 0, "りんご 5kg 箱", 6_000), ret("tree-owner", 0, "りんごの木オーナー", 30_000)],
        news: vec![news("りんごを発送しました", "<p>今年も甘く実りました。</p>", 35)],
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
        content: body(
            &[
                "富岡製糸場の周りには、養蚕の歴史を伝える建物が数多く残っています。",
                "日本語・英語・中国語のマップを作り、駅と観光案内所で配布します。",
            ],
            &main,
        ),
        target: 400_000,
        period_end: today + Duration::days(90),
        main_image_url: main,
        tax_includes: true,
        returns: vec![
            DemoReturn {
                stock_limit: Some(5), ..ret("map-credit", 0, "マップにお名前掲載（限定5名）", 5_000)
            },
            ret("map-set", 0, "完成マップ3言語セット", 2_000),
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

/// `app-server seed-demo`: migrates, then loads the demo data (idempotent).
pub async fn seed(settings: &Settings) -> anyhow::Result<DemoCounts> {
    let pool = adapters_postgres::connect(&settings.database_url, 2)?;
    let migrate_pool = pool.clone();
    tokio::task::spawn_blocking(move || adapters_postgres::migrate(&migrate_pool)).await??;
    let today = domain::time::tokyo_date(chrono::Utc::now());
    let media_dir = settings.media_dir.clone();
    let set = tokio::task::spawn_blocking(move || demo_set(&media_dir, today)).await??;
    Ok(adapters_postgres::demo::apply(pool, set).await?)
}
