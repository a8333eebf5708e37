//! Numbers to and from text as pgbench writes and reads them (C's `%.15g` and strtod).

/// A double as pgbench prints one: C's `%.*g` with 15 significant digits.
pub fn format_double(d: f64) -> String {
    format_g(d, 15)
}

/// C's `%.{precision}g`.
pub fn format_g(d: f64, precision: usize) -> String {
    if d.is_nan() {
        return if d.is_sign_negative() { "-nan" } else { "nan" }.into();
    }
    if d.is_infinite() {
        return if d < 0.0 { "-inf" } else { "inf" }.into();
    }
    let p = precision.max(1);
    // The exponent after rounding to p significant digits decides the style.
    let sci = format!("{:.*e}", p - 1, d);
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    if exp < -4 || exp >= p as i32 {
        let m = trim_fraction(mantissa);
        let sign = if exp < 0 { '-' } else { '+' };
        format!("{m}e{sign}{:02}", exp.abs())
    } else {
        let decimals = (p as i32 - 1 - exp).max(0) as usize;
        trim_fraction(&format!("{d:.decimals$}")).to_string()
    }
}

/// `1.2300` → `1.23`, `4.000` → `4`.
fn trim_fraction(s: &str) -> &str {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.')
    } else {
        s
    }
}

/// Whether pgbench takes the text for an integer: leading blanks, an optional sign, then
/// only digits (none at all passes too, and then fails to read).
pub fn looks_like_int(s: &str) -> bool {
    let t = s.trim_start();
    let digits = t.strip_prefix(['+', '-']).unwrap_or(t);
    digits.bytes().all(|b| b.is_ascii_digit())
}

/// An integer as pgbench's strtoint64 reads one: leading blanks, an optional sign, digits.
pub fn parse_int(s: &str) -> Option<i64> {
    let t = s.trim_start();
    let digits = t.strip_prefix(['+', '-']).unwrap_or(t);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    t.strip_prefix('+').unwrap_or(t).parse().ok()
}

/// A double as strtod reads one, which must take the whole text (leading blanks allowed):
/// decimal or with an exponent, hexadecimal, `inf`/`infinity`/`nan` in any case.
pub fn parse_double(s: &str) -> Option<f64> {
    let t = s.trim_start();
    if t.is_empty() {
        return None;
    }
    let body = t.strip_prefix(['+', '-']).unwrap_or(t).to_ascii_lowercase();
    if ["inf", "infinity", "nan"].contains(&body.as_str()) {
        let v = if body == "nan" {
            f64::NAN
        } else {
            f64::INFINITY
        };
        return Some(if t.starts_with('-') { -v } else { v });
    }
    if let Some(hex) = body.strip_prefix("0x") {
        let v = u64::from_str_radix(hex, 16).ok()? as f64;
        return Some(if t.starts_with('-') { -v } else { v });
    }
    if !body.starts_with(|c: char| c.is_ascii_digit() || c == '.') {
        return None;
    }
    t.parse().ok().filter(|d: &f64| d.is_finite())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn doubles_print_as_c_does_with_15_digits() {
        assert_eq!(format_double(3.5), "3.5");
        assert_eq!(format_double(1.0), "1");
        assert_eq!(format_double(std::f64::consts::PI), "3.14159265358979");
        assert_eq!(format_double(1e20), "1e+20");
        assert_eq!(format_double(0.0001), "0.0001");
        assert_eq!(format_double(0.00001), "1e-05");
        assert_eq!(format_double(-2.5e-10), "-2.5e-10");
        assert_eq!(format_double(123456789012345.0), "123456789012345");
        assert_eq!(format_double(1234567890123456.0), "1.23456789012346e+15");
        assert_eq!(format_double(0.1 + 0.2), "0.3");
    }

    #[test]
    fn numbers_read_as_strtoint64_and_strtod() {
        assert_eq!(parse_int(" -42"), Some(-42));
        assert_eq!(parse_int("12 "), None);
        assert_eq!(parse_double("0x10"), Some(16.0));
        assert_eq!(parse_double("1e400"), None);
        assert_eq!(parse_int("+7"), Some(7));
        assert_eq!(parse_int("9223372036854775808"), None);
        assert_eq!(parse_int("1.5"), None);
        assert_eq!(parse_double("1.5"), Some(1.5));
        assert_eq!(parse_double("-1e3"), Some(-1000.0));
        assert_eq!(parse_double(".5"), Some(0.5));
        assert_eq!(parse_double("abc"), None);
        assert_eq!(parse_double("-Infinity"), Some(f64::NEG_INFINITY));
    }
}
