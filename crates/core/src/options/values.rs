//! The options as the user gave them, by canonical name (validated later), with the notices
//! parsing left; typed getters whose errors name the flag and the values it takes.

use super::table::Table;
use crate::error::{usage, Result};
use std::collections::BTreeMap;

/// Option values by canonical name, as typed (validated later), plus deprecation notices, and
/// the option table they were read with (which gives the defaults and the rows to echo).
#[derive(Debug, Clone)]
pub struct OptionValues {
    table: Table,
    values: BTreeMap<&'static str, String>,
    pub notices: Vec<String>,
}

/// No value given, over the installed option table.
impl Default for OptionValues {
    fn default() -> OptionValues {
        OptionValues::new(super::table::installed())
    }
}

/// The same values and notices (the table is where they came from, not what they are).
impl PartialEq for OptionValues {
    fn eq(&self, other: &OptionValues) -> bool {
        self.values == other.values && self.notices == other.notices
    }
}

impl OptionValues {
    /// No value given yet, over `table`.
    pub fn new(table: Table) -> OptionValues {
        OptionValues {
            table,
            values: BTreeMap::new(),
            notices: Vec::new(),
        }
    }

    /// The option table these values were read with: their defaults, the rows to echo.
    pub fn table(&self) -> &Table {
        &self.table
    }

    /// The value given, or the option's default.
    pub fn get(&self, name: &str) -> &str {
        match self.values.get(name) {
            Some(v) => v,
            None => self.table.find(name).map(|s| s.default).unwrap_or_else(|| {
                panic!("option --{name} is not in the option table (programming error)")
            }),
        }
    }

    pub fn is_set(&self, name: &str) -> bool {
        self.values.contains_key(name)
    }

    pub fn set(&mut self, name: &'static str, value: impl Into<String>) {
        self.values.insert(name, value.into());
    }

    /// As if `name` had not been given (its default again).
    pub fn unset(&mut self, name: &str) {
        self.values.remove(name);
    }

    /// Every option given explicitly, secrets included (callers decide what to show).
    pub fn explicit(&self) -> impl Iterator<Item = (&'static str, &str)> {
        self.values.iter().map(|(k, v)| (*k, v.as_str()))
    }
}

/// sysbench's sizes (`ARG_SIZE`): a whole number of bytes, or with K, M, G or T (either
/// case) for KiB, MiB, GiB or TiB. None for anything else.
pub fn size_bytes(text: &str) -> Option<u64> {
    let (digits, shift) = match text.as_bytes().last()?.to_ascii_uppercase() {
        b'K' => (&text[..text.len() - 1], 10),
        b'M' => (&text[..text.len() - 1], 20),
        b'G' => (&text[..text.len() - 1], 30),
        b'T' => (&text[..text.len() - 1], 40),
        _ => (text, 0),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse::<u64>().ok()?.checked_mul(1u64 << shift)
}

/// sysbench's line for a value its option cannot take (it names the option with
/// underscores, as it keeps it).
pub(super) fn sysbench_invalid(name: &str, raw: &str) -> String {
    format!(
        "Invalid value for the '{}' option: '{raw}'",
        name.replace('-', "_")
    )
}

/// sysbench's `FATAL:` line for a number its option reads but refuses (each test words its
/// own; `--threads`'s ends in a blank line). Said on stdout.
fn sysbench_out_of_range(name: &str, v: u64) -> String {
    match name {
        "threads" => format!("Invalid value for --threads: {v}.\n"),
        "verbosity" => format!("Invalid value for verbosity: {v}"),
        "cpu-max-prime" => format!("Invalid value of cpu-max-prime: {v}."),
        "file-block-size" => format!("Invalid value for file-block-size: {v}."),
        n if n.starts_with("file-") || n.starts_with("memory-") => {
            format!("Invalid value for {n}: {v}")
        }
        n => format!("Invalid value for --{n}: {v}"),
    }
}

/// True for sysbench's boolean spellings.
pub fn parse_bool(v: &str) -> Option<bool> {
    match v.to_ascii_lowercase().as_str() {
        "on" | "true" | "1" | "yes" => Some(true),
        "off" | "false" | "0" | "no" => Some(false),
        _ => None,
    }
}

pub fn int(opts: &OptionValues, name: &str, min: u64, max: u64) -> Result<u64> {
    let raw = opts.get(name);
    // Two of sysbench's numbers it reads later, as a script's options: its words for a
    // refused option, after its first line.
    let late = matches!(name, "warmup-time" | "thread-init-timeout");
    if late && crate::personality::is_sysbench() && raw.trim().parse::<u64>().is_err() {
        return Err(crate::error::failed(format!(
            "invalid option: --{name}={raw}"
        )));
    }
    // sysbench reads an empty number (a bare `--events`) as 0.
    let digits = match raw.trim() {
        "" if crate::personality::is_sysbench() => "0",
        d => d,
    };
    let v: u64 = digits.parse().map_err(|_| {
        usage(crate::personality::words(
            || sysbench_invalid(name, raw),
            || format!("invalid value '{raw}' for --{name}: expected a whole number from {min} to {max}"),
        ))
    })?;
    if v < min || v > max {
        return Err(crate::personality::refused(
            sysbench_out_of_range(name, v),
            || {
                format!(
                    "invalid value '{raw}' for --{name}: expected a whole number from {min} to {max}"
                )
            },
        ));
    }
    Ok(v)
}

pub fn float(opts: &OptionValues, name: &str, min: f64, max: f64) -> Result<f64> {
    let raw = opts.get(name);
    let digits = match raw.trim() {
        "" if crate::personality::is_sysbench() => "0",
        d => d,
    };
    match digits.parse::<f64>() {
        Ok(v) if v.is_finite() && v >= min && v <= max => Ok(v),
        Err(_) if crate::personality::is_sysbench() => Err(usage(sysbench_invalid(name, raw))),
        _ => Err(usage(format!(
            "invalid value '{raw}' for --{name}: expected a number from {min} to {max}"
        ))),
    }
}

pub fn boolean(opts: &OptionValues, name: &str) -> Result<bool> {
    let raw = opts.get(name);
    parse_bool(raw).ok_or_else(|| {
        crate::personality::refused(format!("invalid option: --{name}={raw}"), || {
            format!("invalid value '{raw}' for --{name}: use on/off (also true/false, 1/0)")
        })
    })
}

pub fn choice<T>(
    opts: &OptionValues,
    name: &str,
    known: &str,
    f: impl Fn(&str) -> Option<T>,
) -> Result<T> {
    let raw = opts.get(name);
    f(&raw.to_ascii_lowercase()).ok_or_else(|| {
        usage(format!(
            "invalid value '{raw}' for --{name}: use one of {known}"
        ))
    })
}
