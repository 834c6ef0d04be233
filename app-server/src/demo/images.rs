//! Demo images drawn locally: SVG scenes for projects and returns, and
//! small PNG logos for company supporters (uploads accept only
//! JPEG/PNG/GIF, so logos are real PNGs).

/// Colours of one scene: sky top, sky bottom, hills, accent.
#[derive(Debug, Clone, Copy)]
pub struct Palette {
    pub sky_top: &'static str,
    pub sky_bottom: &'static str,
    pub hills: &'static str,
    pub accent: &'static str,
}

/// What the scene shows in front of the hills.
#[derive(Debug, Clone, Copy)]
pub enum Motif {
    Roses,
    Daruma,
    Loom,
    Apples,
    Gears,
    Kitchen,
    Silk,
    Medal,
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

fn motif_shapes(motif: Motif, accent: &str) -> String {
    match motif {
        Motif::Roses => (0..7)
            .map(|i| {
                let x = 140 + i * 150;
                let y = 470 + (i % 2) * 40;
                format!(
                    r##"<circle cx="{x}" cy="{y}" r="46" fill="{accent}"/><circle cx="{x}" cy="{y}" r="26" fill="#ffd1dc"/><circle cx="{x}" cy="{y}" r="10" fill="{accent}"/><rect x="{}" y="{}" width="8" height="90" fill="#2e7d32"/>"##,
                    x - 4,
                    y + 40
                )
            })
            .collect(),
        Motif::Daruma => (0..3)
            .map(|i| {
                let x = 330 + i * 270;
                format!(
                    r##"<ellipse cx="{x}" cy="450" rx="110" ry="125" fill="{accent}"/><ellipse cx="{x}" cy="430" rx="62" ry="55" fill="#fff3e0"/><circle cx="{}" cy="425" r="14" fill="#222"/><circle cx="{}" cy="425" r="14" fill="#fff" stroke="#222" stroke-width="4"/><path d="M{} 520 q60 30 120 0" stroke="#ffd54f" stroke-width="10" fill="none"/>"##,
                    x - 24,
                    x + 24,
                    x - 60
                )
            })
            .collect(),
        Motif::Loom => (0..12)
            .map(|i| {
                let colours = ["#e53935", "#fb8c00", "#fdd835", "#43a047", "#1e88e5", "#8e24aa"];
                format!(r##"<rect x="{}" y="360" width="60" height="240" fill="{}" opacity="0.9"/>"##, 160 + i * 75, colours[i % 6])
            })
            .chain(std::iter::once(format!(r##"<rect x="140" y="450" width="920" height="40" fill="{accent}" opacity="0.8"/>"##)))
            .collect(),
        Motif::Apples => (0..9)
            .map(|i| {
                let x = 140 + i * 115;
                let y = 440 + (i % 3) * 45;
                format!(
                    r##"<circle cx="{x}" cy="{y}" r="44" fill="{accent}"/><rect x="{}" y="{}" width="6" height="22" fill="#5d4037"/><ellipse cx="{}" cy="{}" rx="16" ry="8" fill="#43a047"/>"##,
                    x - 3,
                    y - 62,
                    x + 16,
                    y - 52
                )
            })
            .collect(),
        Motif::Gears => (0..4)
            .map(|i| {
                let x = 250 + i * 230;
                let r = 70 + (i % 2) * 25;
                format!(
                    r##"<circle cx="{x}" cy="470" r="{r}" fill="none" stroke="{accent}" stroke-width="26" stroke-dasharray="22 12"/><circle cx="{x}" cy="470" r="{}" fill="{accent}"/>"##,
                    r / 3
                )
            })
            .collect(),
        Motif::Kitchen => (0..5)
            .map(|i| {
                let x = 200 + i * 200;
                format!(
                    r##"<ellipse cx="{x}" cy="500" rx="80" ry="28" fill="#fff"/><path d="M{} 480 a80 60 0 0 0 160 0 z" fill="{accent}"/><circle cx="{x}" cy="455" r="22" fill="#fff8e1"/>"##,
                    x - 80
                )
            })
            .collect(),
        Motif::Silk => (0..8)
            .map(|i| {
                format!(
                    r##"<path d="M0 {} C300 {} 900 {} 1200 {}" stroke="{accent}" stroke-width="6" fill="none" opacity="0.8"/>"##,
                    380 + i * 25,
                    300 + i * 40,
                    560 - i * 20,
                    420 + i * 22
                )
            })
            .chain(std::iter::once(
                r##"<rect x="420" y="380" width="360" height="170" fill="#8d6e63"/><polygon points="400,380 600,300 800,380" fill="#5d4037"/><rect x="470" y="420" width="50" height="60" fill="#fff3e0"/><rect x="575" y="420" width="50" height="60" fill="#fff3e0"/><rect x="680" y="420" width="50" height="60" fill="#fff3e0"/>"##.to_string(),
            ))
            .collect(),
        Motif::Medal => format!(
            r##"<circle cx="600" cy="430" r="150" fill="{accent}"/><circle cx="600" cy="430" r="115" fill="#fff8e1"/><polygon points="600,340 625,405 695,405 640,445 660,512 600,472 540,512 560,445 505,405 575,405" fill="{accent}"/>"##
        ),
    }
}

/// A 1200×630 scene (the OGP share size) with a caption centred, so the 3:2 crops of cards and heroes keep it.
pub fn scene_svg(caption: &str, sub: &str, palette: Palette, motif: Motif) -> String {
    let Palette { sky_top, sky_bottom, hills, accent } = palette;
    format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="630" viewBox="0 0 1200 630" role="img" aria-label="{caption_attr}">
<defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="{sky_top}"/><stop offset="1" stop-color="{sky_bottom}"/></linearGradient></defs>
<rect width="1200" height="630" fill="url(#sky)"/>
<circle cx="1020" cy="120" r="70" fill="#fff59d" opacity="0.9"/>
<path d="M0 400 L180 250 L330 360 L520 190 L700 340 L860 230 L1040 330 L1200 260 L1200 630 L0 630 Z" fill="{hills}" opacity="0.55"/>
<path d="M0 460 Q300 380 600 450 T1200 430 L1200 630 L0 630 Z" fill="{hills}"/>
{shapes}
<rect x="0" y="530" width="1200" height="100" fill="#000" opacity="0.35"/>
<text x="600" y="577" text-anchor="middle" font-family="'Noto Sans CJK JP','Hiragino Sans',sans-serif" font-size="38" font-weight="700" fill="#fff">{caption}</text>
<text x="600" y="613" text-anchor="middle" font-family="'Noto Sans CJK JP','Hiragino Sans',sans-serif" font-size="22" fill="#fff">{sub}</text>
</svg>
"##,
        caption_attr = escape(caption).replace('"', "&quot;"),
        caption = escape(caption),
        sub = escape(sub),
        shapes = motif_shapes(motif, accent),
    )
}

/// A 600×200 sponsor logo (manual sponsor lists accept SVG).
pub fn logo_svg(name: &str, colour: &str) -> String {
    format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="600" height="200" viewBox="0 0 600 200" role="img" aria-label="{n}">
<rect width="600" height="200" rx="24" fill="#fff"/><circle cx="100" cy="100" r="64" fill="{colour}"/><rect x="70" y="70" width="60" height="60" rx="8" fill="#fff" opacity="0.85"/>
<text x="190" y="118" font-family="'Noto Sans CJK JP','Hiragino Sans',sans-serif" font-size="44" font-weight="700" fill="{colour}">{n}</text>
</svg>
"##,
        n = escape(name)
    )
}

/// A compressed RGB PNG (demo logos stay a few KB, as real uploads would).
fn png_rgb(width: u32, height: u32, pixel: impl Fn(u32, u32) -> [u8; 3]) -> image::ImageResult<Vec<u8>> {
    let image = image::RgbImage::from_fn(width, height, |x, y| image::Rgb(pixel(x, y)));
    let mut out = std::io::Cursor::new(Vec::new());
    image.write_to(&mut out, image::ImageFormat::Png)?;
    Ok(out.into_inner())
}

/// A company logo mark: a ring and bars in `colour` on white, 240×120.
pub fn logo_png(colour: [u8; 3], variant: u32) -> image::ImageResult<Vec<u8>> {
    png_rgb(240, 120, |x, y| {
        let (dx, dy) = (i64::from(x) - 60, i64::from(y) - 60);
        let d2 = dx * dx + dy * dy;
        let ring = (1_200..=2_500).contains(&d2);
        let dot = d2 < 400 + i64::from(variant % 3) * 150;
        let bar = (120..225).contains(&x)
            && ((y / 16) % 2 == 1)
            && y > 20
            && y < 100
            && x < 225 - (y / 16) * (variant % 4 + 2);
        if ring || dot || bar {
            colour
        } else {
            [255, 255, 255]
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_logo_is_a_png_by_its_magic_bytes() {
        let png = logo_png([200, 30, 30], 1).unwrap();
        assert_eq!(&png[..8], &[0x89, b'P', b'N', b'G', 0x0d, 0x0a, 0x1a, 0x0a]);
        assert!(png.len() < 8_192, "a demo logo stays small: {} bytes", png.len());
        let decoded = image::load_from_memory(&png).unwrap();
        assert_eq!((decoded.width(), decoded.height()), (240, 120));
    }

    #[test]
    fn scenes_escape_their_captions() {
        let svg = scene_svg(
            "A&B <前橋>",
            "群馬",
            Palette { sky_top: "#000", sky_bottom: "#111", hills: "#222", accent: "#333" },
            Motif::Roses,
        );
        assert!(svg.contains("A&amp;B &lt;前橋&gt;"));
    }
}
