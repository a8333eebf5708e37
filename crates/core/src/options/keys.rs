//! Typed option keys: an option's name with the values it takes (a whole number's range, a
//! number's, a switch, text), so a reader names an option by a constant (a misspelling is a
//! compile error) and its range is written once. `option_keys!` declares a module's keys with
//! the list its test checks against the option table.

use super::table::{Kind, Table};
use super::values::{boolean, choice, float, int, OptionValues};
use crate::error::Result;

/// A whole-number option and its range.
#[derive(Clone, Copy, Debug)]
pub struct IntOpt {
    pub name: &'static str,
    pub min: u64,
    pub max: u64,
}

/// A number option and its range.
#[derive(Clone, Copy, Debug)]
pub struct FloatOpt {
    pub name: &'static str,
    pub min: f64,
    pub max: f64,
}

/// An on/off option.
#[derive(Clone, Copy, Debug)]
pub struct BoolOpt {
    pub name: &'static str,
}

/// A text option (a word, a path, a list), read as given.
#[derive(Clone, Copy, Debug)]
pub struct TextOpt {
    pub name: &'static str,
}

impl IntOpt {
    pub const fn new(name: &'static str, min: u64, max: u64) -> IntOpt {
        IntOpt { name, min, max }
    }
}

impl FloatOpt {
    pub const fn new(name: &'static str, min: f64, max: f64) -> FloatOpt {
        FloatOpt { name, min, max }
    }
}

impl BoolOpt {
    pub const fn new(name: &'static str) -> BoolOpt {
        BoolOpt { name }
    }
}

impl TextOpt {
    pub const fn new(name: &'static str) -> TextOpt {
        TextOpt { name }
    }
}

/// What a key says about its option's kind in the table (a text key reads a word or a list).
pub trait Key {
    fn name(&self) -> &'static str;
    fn fits(&self, kind: Kind) -> bool;
}

impl Key for IntOpt {
    fn name(&self) -> &'static str {
        self.name
    }
    fn fits(&self, kind: Kind) -> bool {
        kind == Kind::Int
    }
}

impl Key for FloatOpt {
    fn name(&self) -> &'static str {
        self.name
    }
    fn fits(&self, kind: Kind) -> bool {
        // A whole number is a number: an Int option may be read with a fraction's range.
        matches!(kind, Kind::Float | Kind::Int)
    }
}

impl Key for BoolOpt {
    fn name(&self) -> &'static str {
        self.name
    }
    fn fits(&self, kind: Kind) -> bool {
        kind == Kind::Bool
    }
}

impl Key for TextOpt {
    fn name(&self) -> &'static str {
        self.name
    }
    // Any option can be read as the text given (a number kept as typed, for the echo).
    fn fits(&self, _kind: Kind) -> bool {
        true
    }
}

impl OptionValues {
    /// The whole number given (or the default), within the key's range.
    pub fn int(&self, k: IntOpt) -> Result<u64> {
        int(self, k.name, k.min, k.max)
    }

    /// The number given (or the default), within the key's range.
    pub fn float(&self, k: FloatOpt) -> Result<f64> {
        float(self, k.name, k.min, k.max)
    }

    /// Whether the switch is on.
    pub fn flag(&self, k: BoolOpt) -> Result<bool> {
        boolean(self, k.name)
    }

    /// The text given, or the default, of any option (a number as typed).
    pub fn text(&self, k: impl Key) -> &str {
        self.get(k.name())
    }

    /// The text given, as one of the values `f` knows (`known` lists them for the error).
    pub fn choice<T>(&self, k: TextOpt, known: &str, f: impl Fn(&str) -> Option<T>) -> Result<T> {
        choice(self, k.name, known, f)
    }

    /// Whether the command line gave the option (its default otherwise).
    pub fn given(&self, k: impl Key) -> bool {
        self.is_set(k.name())
    }
}

/// Declare typed option keys, and `ALL`: each key's name with a check of its kind, for the
/// test that every key is in the option table as its kind.
///
/// ```ignore
/// option_keys! {
///     THREADS: IntOpt("threads", 1, 100_000),
///     HISTOGRAM: BoolOpt("histogram"),
/// }
/// ```
#[macro_export]
macro_rules! option_keys {
    ($( $(#[$doc:meta])* $id:ident : $ty:ident ( $($arg:expr),* ) ),* $(,)?) => {
        $( $(#[$doc])* pub const $id: $crate::options::keys::$ty =
            $crate::options::keys::$ty::new($($arg),*); )*
        /// Every key above, for the test that the option table has each as its kind.
        #[allow(dead_code)]
        pub const ALL: &[&dyn $crate::options::keys::Key] = &[$(&$id),*];
    };
}

/// Every key of `keys` is in `table` (the one its reader's options are read with), as the
/// kind it reads: the names that the compiler cannot check.
pub fn check_in_table(table: &Table, keys: &[&dyn Key]) -> std::result::Result<(), String> {
    let wrong: Vec<String> = keys
        .iter()
        .filter_map(|k| match table.find(k.name()) {
            None => Some(format!("--{} is not in the option table", k.name())),
            Some(spec) if !k.fits(spec.kind) => Some(format!(
                "--{} is a {:?} option, read with another kind of key",
                k.name(),
                spec.kind
            )),
            Some(_) => None,
        })
        .collect();
    if wrong.is_empty() {
        Ok(())
    } else {
        Err(wrong.join("\n"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_missing_from_the_table_or_of_another_kind_is_named() {
        let missing = TextOpt::new("no-such-option");
        let wrong_kind = BoolOpt::new("threads");
        let fine = IntOpt::new("threads", 1, 10);
        let e = check_in_table(&Table::general(), &[&missing, &wrong_kind, &fine]).unwrap_err();
        assert_eq!(
            e,
            "--no-such-option is not in the option table\n--threads is a Int option, read with another kind of key"
        );
        assert!(check_in_table(&Table::general(), &[&fine]).is_ok());
    }

    #[test]
    fn typed_getters_read_the_value_given_or_the_default_within_the_range() {
        let mut opts = OptionValues::default();
        let threads = IntOpt::new("threads", 1, 8);
        assert_eq!(opts.int(threads).unwrap(), 1);
        assert!(!opts.given(threads));
        opts.set("threads", "9");
        assert!(opts.given(threads));
        assert_eq!(
            opts.int(threads).unwrap_err().message(),
            "invalid value '9' for --threads: expected a whole number from 1 to 8"
        );
    }
}
