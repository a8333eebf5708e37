//! How pgbench reads option values, with its words for each one it refuses: strict integers
//! in a range (PostgreSQL's option_parse_int), C's atof and atoi, and `NAME@WEIGHT`.

/// A whole base-10 integer in `min..=max`, blanks around allowed; `label` as pgbench names the
/// option (`-c/--clients`).
pub fn int_in(value: &str, label: &str, min: i64, max: i64) -> Result<i64, String> {
    let t = value.trim_start();
    let digits = t.strip_prefix(['+', '-']).unwrap_or(t).trim_end();
    let whole = !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit());
    if !whole {
        return Err(format!("invalid value \"{value}\" for option {label}"));
    }
    match t.trim_end().parse::<i64>() {
        Ok(n) if (min..=max).contains(&n) => Ok(n),
        _ => Err(format!("{label} must be in range {min}..{max}")),
    }
}

/// C's atof: the longest number at the start (after blanks), 0 when there is none.
pub fn atof(value: &str) -> f64 {
    let t = value.trim_start();
    let b = t.as_bytes();
    let mut end = 0;
    if matches!(b.first(), Some(b'+' | b'-')) {
        end = 1;
    }
    let digits_from = end;
    while end < b.len() && (b[end].is_ascii_digit() || b[end] == b'.') {
        end += 1;
    }
    if end > digits_from && matches!(b.get(end), Some(b'e' | b'E')) {
        let mut e = end + 1;
        if matches!(b.get(e), Some(b'+' | b'-')) {
            e += 1;
        }
        if b.get(e).is_some_and(u8::is_ascii_digit) {
            end = e;
            while end < b.len() && b[end].is_ascii_digit() {
                end += 1;
            }
        }
    }
    // "1.2.3" reads as 1.2: back off to the longest prefix that is a number.
    (digits_from..=end)
        .rev()
        .find_map(|e| t[..e].parse::<f64>().ok())
        .unwrap_or(0.0)
}

/// C's atoi: the leading integer, 0 when there is none (saturating).
pub fn atoi(value: &str) -> i64 {
    let t = value.trim_start();
    let sign = t.starts_with('-');
    let body = t.strip_prefix(['+', '-']).unwrap_or(t);
    let digits: String = body.chars().take_while(char::is_ascii_digit).collect();
    let n = digits
        .parse::<i64>()
        .unwrap_or(if digits.is_empty() { 0 } else { i64::MAX });
    if sign {
        -n
    } else {
        n
    }
}

/// `NAME@WEIGHT` (the last `@`), weight 1 when none is given.
pub fn weighted(option: &str) -> Result<(String, u32), String> {
    let Some((name, w)) = option.rsplit_once('@') else {
        return Ok((option.to_string(), 1));
    };
    let t = w.trim_start();
    let digits = t.strip_prefix(['+', '-']).unwrap_or(t);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("invalid weight specification: @{w}"));
    }
    match t.parse::<i64>() {
        Ok(n) if (0..=i64::from(i32::MAX)).contains(&n) => Ok((name.to_string(), n as u32)),
        _ => Err(format!(
            "weight specification out of range (0 .. 2147483647): {w}"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_read_as_pgbench_reads_them() {
        assert_eq!(int_in("4", "-c/--clients", 1, 9), Ok(4));
        assert_eq!(
            int_in("0", "-c/--clients", 1, 2147483647),
            Err("-c/--clients must be in range 1..2147483647".to_string())
        );
        assert_eq!(
            int_in("1x", "-c/--clients", 1, 2147483647),
            Err("invalid value \"1x\" for option -c/--clients".to_string())
        );
        assert!(
            int_in("99999999999999999999", "-t/--transactions", 1, 2147483647)
                .unwrap_err()
                .contains("must be in range")
        );
        assert_eq!(atof("1x"), 1.0);
        assert_eq!(atof("x"), 0.0);
        assert_eq!(atof(" 2.5e1ms"), 25.0);
        assert_eq!(atoi("x"), 0);
        assert_eq!(atoi("-3"), -3);
        assert_eq!(weighted("a.sql@3"), Ok(("a.sql".into(), 3)));
        assert_eq!(weighted("tpcb-like"), Ok(("tpcb-like".into(), 1)));
        assert_eq!(
            weighted("x@y"),
            Err("invalid weight specification: @y".to_string())
        );
        assert_eq!(
            weighted("x@-1"),
            Err("weight specification out of range (0 .. 2147483647): -1".to_string())
        );
    }
}
