//! CSV files the operator opens in Excel: UTF-8 with a byte-order mark (Excel
//! reads UTF-8 only with it), CRLF line ends, every field quoted as RFC 4180
//! says, and no cell that a spreadsheet would run as a formula.

/// The byte-order mark every file starts with.
pub const BOM: char = '\u{feff}';

/// The characters that make a spreadsheet read a cell as a formula (or, for
/// tab and CR, hide such a start behind whitespace).
const FORMULA_STARTS: [char; 6] = ['=', '+', '-', '@', '\t', '\r'];

/// One field, quoted: a value starting with `=`, `+`, `-`, `@`, a tab or a CR
/// gets a leading `'` so that Excel shows it as text instead of running it
/// (CSV injection), except a plain integer such as `-500`, which no
/// spreadsheet runs; a `"` inside is doubled.
pub fn cell(value: &str) -> String {
    let formula = value.starts_with(FORMULA_STARTS) && value.parse::<i64>().is_err();
    let mut out = String::with_capacity(value.len() + 3);
    out.push('"');
    if formula {
        out.push('\'');
    }
    out.push_str(&value.replace('"', "\"\""));
    out.push('"');
    out
}

/// One record: the quoted fields joined by commas, ended by CRLF.
pub fn row<I, S>(fields: I) -> String
where
    I: IntoIterator<Item = S>,
    S: AsRef<str>,
{
    let cells: Vec<String> = fields.into_iter().map(|f| cell(f.as_ref())).collect();
    let mut line = cells.join(",");
    line.push_str("\r\n");
    line
}

/// A whole file: the byte-order mark, the header, then one record per row.
pub fn file<'a, R, S>(header: &[&str], rows: R) -> String
where
    R: IntoIterator<Item = &'a [S]>,
    S: AsRef<str> + 'a,
{
    let mut out = String::new();
    out.push(BOM);
    out.push_str(&row(header));
    for fields in rows {
        out.push_str(&row(fields));
    }
    out
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use proptest::prelude::*;

    /// Reads one quoted record back as RFC 4180 defines it (the test's own parser).
    fn parse_record(line: &str) -> Vec<String> {
        let mut fields = Vec::new();
        let mut chars = line.chars().peekable();
        loop {
            assert_eq!(chars.next(), Some('"'), "every field is quoted: {line:?}");
            let mut field = String::new();
            loop {
                match chars.next() {
                    Some('"') if chars.peek() == Some(&'"') => {
                        chars.next();
                        field.push('"');
                    }
                    Some('"') => break,
                    Some(c) => field.push(c),
                    None => panic!("unterminated field in {line:?}"),
                }
            }
            fields.push(field);
            match chars.next() {
                Some(',') => continue,
                Some('\r') => {
                    assert_eq!(chars.next(), Some('\n'));
                    assert_eq!(chars.next(), None);
                    return fields;
                }
                other => panic!("unexpected {other:?} in {line:?}"),
            }
        }
    }

    #[test]
    fn a_formula_is_shown_as_text() {
        assert_eq!(cell("=HYPERLINK(\"http://x\")"), "\"'=HYPERLINK(\"\"http://x\"\")\"");
        assert_eq!(cell("+81 90"), "\"'+81 90\"");
        assert_eq!(cell("-2+3"), "\"'-2+3\"");
        assert_eq!(cell("@SUM(A1)"), "\"'@SUM(A1)\"");
        assert_eq!(cell("\t=1"), "\"'\t=1\"");
        assert_eq!(cell("\r=1"), "\"'\r=1\"");
    }

    #[test]
    fn plain_text_numbers_and_dates_are_kept_as_they_are() {
        assert_eq!(cell("前橋市本町1-2-3"), "\"前橋市本町1-2-3\"");
        assert_eq!(cell("-500"), "\"-500\"");
        assert_eq!(cell("2026-11-28"), "\"2026-11-28\"");
        assert_eq!(cell(""), "\"\"");
    }

    #[test]
    fn quotes_commas_and_line_breaks_stay_inside_one_field() {
        assert_eq!(cell("a \"b\", c\r\nd"), "\"a \"\"b\"\", c\r\nd\"");
    }

    #[test]
    fn a_file_starts_with_the_byte_order_mark_and_ends_every_record_with_crlf() {
        let rows = [vec!["1".to_string(), "たろう".to_string()]];
        let csv = file(&["id", "name"], rows.iter().map(Vec::as_slice));
        assert_eq!(csv, "\u{feff}\"id\",\"name\"\r\n\"1\",\"たろう\"\r\n");
        assert_eq!(&csv.as_bytes()[..3], [0xef, 0xbb, 0xbf]);
    }

    proptest! {
        #[test]
        fn every_value_reads_back_and_never_starts_a_formula(values in proptest::collection::vec(any::<String>(), 1..6)) {
            let line = row(&values);
            prop_assert!(line.ends_with("\r\n"));
            let read = parse_record(&line);
            prop_assert_eq!(read.len(), values.len());
            for (value, read) in values.iter().zip(&read) {
                let dangerous = value.starts_with(FORMULA_STARTS) && value.parse::<i64>().is_err();
                prop_assert!(!dangerous || read.starts_with('\''), "{value:?} read as {read:?}");
                let expected = if dangerous { format!("'{value}") } else { value.clone() };
                prop_assert_eq!(read, &expected);
            }
        }
    }
}
