//! A script's command line (sysbench-lua.md §1.2): the options it declares in
//! `sysbench.cmdline.options`, read after its top level ran, turned into option rows the
//! command line is read with; and `sysbench.opt` (plus, in legacy mode, the globals) exported
//! from the values read.

use dbpress_core::options::parse_bool;
use dbpress_core::options::table::{Group, Kind, Spec};
use mlua::{Lua, Table, Value as LuaValue};

/// One option for `sysbench.opt`, as dbpress read it.
pub struct Opt {
    /// With underscores, as scripts spell it.
    pub name: String,
    pub kind: Kind,
    pub text: String,
    /// Given on the command line (else a script's declared default wins over dbpress's).
    pub explicit: bool,
}

/// One option a script declares: `name = {desc, default, [type]}`.
#[derive(Debug, Clone, PartialEq)]
pub struct Declared {
    /// As the script spells it (`table_size`, `i-dash`).
    pub name: String,
    pub desc: String,
    pub kind: Kind,
    /// The default as option text (`on`, `10`, `x,y`); None when the script gives none.
    pub default: Option<String>,
}

/// The message sysbench gives for a row that is not `{desc, default, ...}`, with the place in
/// its own `sysbench.cmdline.lua` it is raised from (scripts' error greps see that place).
pub const WRONG_STRUCTURE: &str =
    "[string \"sysbench.cmdline.lua\"]:132: wrong table structure in sysbench.cmdline.options";

/// sysbench's message for a description that is not a string: its FFI refuses to pass the
/// value as a C string, at that line of its `sysbench.cmdline.lua`.
fn not_a_c_string(value: &LuaValue) -> mlua::Error {
    mlua::Error::runtime(format!(
        "[string \"sysbench.cmdline.lua\"]:138: cannot convert '{}' to 'const char *'",
        // LuaJIT knows one number type.
        match value.type_name() {
            "integer" => "number",
            other => other,
        }
    ))
}

/// The options the script's top level declared; None when it declares none (legacy mode:
/// unknown options are then taken as strings).
pub(crate) fn declared(lua: &Lua) -> mlua::Result<Option<Vec<Declared>>> {
    let Some(options) = cmdline(lua)?.raw_get::<Option<Table>>("options")? else {
        return Ok(None);
    };
    let mut out = Vec::new();
    for pair in options.pairs::<LuaValue, LuaValue>() {
        let (LuaValue::String(name), LuaValue::Table(row)) = pair? else {
            return Err(mlua::Error::runtime(WRONG_STRUCTURE));
        };
        let desc = match row.raw_get::<LuaValue>(1)? {
            LuaValue::String(s) => s.to_string_lossy(),
            LuaValue::Nil => String::new(),
            other => return Err(not_a_c_string(&other)),
        };
        let default: LuaValue = row.raw_get(2)?;
        let explicit: Option<i64> = row.raw_get::<Option<f64>>(3)?.map(|t| t as i64);
        out.push(Declared {
            name: name.to_string_lossy(),
            desc,
            kind: explicit
                .and_then(kind_of_arg)
                .unwrap_or_else(|| kind_of(&default)),
            default: default_text(&default),
        });
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(Some(out))
}

/// sysbench's `ARG_SIZE` and `ARG_FILE`.
const ARG_SIZE: i64 = 3;
const ARG_FILE: i64 = 7;

/// sysbench's `ARG_*` number as the kind dbpress parses (SIZE and FILE as text; `export`
/// gives a size's bytes and no file).
fn kind_of_arg(t: i64) -> Option<Kind> {
    Some(match t {
        1 => Kind::Bool,
        2 => Kind::Int,
        4 => Kind::Float,
        ARG_SIZE | 5 | ARG_FILE => Kind::Str,
        6 => Kind::List,
        _ => return None,
    })
}

/// The kind sysbench infers from a default: boolean, number (a double), table (a list), else
/// a string.
fn kind_of(default: &LuaValue) -> Kind {
    match default {
        LuaValue::Boolean(_) => Kind::Bool,
        LuaValue::Number(_) | LuaValue::Integer(_) => Kind::Float,
        LuaValue::Table(_) => Kind::List,
        _ => Kind::Str,
    }
}

fn default_text(v: &LuaValue) -> Option<String> {
    Some(match v {
        LuaValue::Nil => return None,
        LuaValue::Boolean(b) => if *b { "on" } else { "off" }.to_string(),
        LuaValue::Table(t) => t
            .clone()
            .sequence_values::<LuaValue>()
            .filter_map(|v| v.ok())
            .map(|v| v.to_string().unwrap_or_default())
            .collect::<Vec<_>>()
            .join(","),
        other => other.to_string().unwrap_or_default(),
    })
}

/// The declared options as option rows (dashed names, as the scanner keys them), living as
/// long as the process: a script declares them once per run.
pub fn rows(script_name: &str, declared: &[Declared]) -> Vec<Spec> {
    let leak = |s: String| -> &'static str { Box::leak(s.into_boxed_str()) };
    let title = leak(format!("{script_name} options"));
    declared
        .iter()
        .map(|d| {
            Spec::new(
                leak(d.name.replace('_', "-")),
                d.kind,
                leak(d.default.clone().unwrap_or_default()),
                Group::Workload(title),
                leak(d.desc.clone()),
            )
        })
        .collect()
}

/// Legacy mode's rows: each option the command line gave that dbpress does not know, a string.
pub fn legacy_rows(names: &[String]) -> Vec<Spec> {
    names
        .iter()
        .map(|n| {
            let name: &'static str = Box::leak(n.clone().into_boxed_str());
            Spec::new(name, Kind::Str, "", Group::Workload("script options"), "")
        })
        .collect()
}

fn cmdline(lua: &Lua) -> mlua::Result<Table> {
    let sysbench: Table = lua.globals().raw_get("sysbench")?;
    sysbench.raw_get("cmdline")
}

/// Fill `sysbench.opt` from the script's option values, after its top level ran: each typed
/// as its row says; a declared option with a built-in's name keeps the script's default
/// unless the command line gave it (sysbench ignores the default for the run, not for
/// `sysbench.opt`). In legacy mode every option is also a global, except over a global
/// function (so `--help` cannot hide `help()`).
pub(crate) fn export(lua: &Lua, opts: &[Opt]) -> mlua::Result<()> {
    let sysbench: Table = lua.globals().raw_get("sysbench")?;
    let opt: Table = sysbench.raw_get("opt")?;
    for o in opts {
        opt.raw_set(o.name.as_str(), typed(lua, o.kind, &o.text)?)?;
    }
    let declared: Option<Table> = cmdline(lua)?.raw_get("options")?;
    let Some(declared) = declared else {
        return export_globals(lua, &opt);
    };
    for pair in declared.pairs::<String, LuaValue>() {
        let (name, row) = pair?;
        let LuaValue::Table(row) = row else { continue };
        let default: LuaValue = row.raw_get(2)?;
        let key = name.replace('-', "_");
        let given: Option<&Opt> = opts.iter().find(|o| o.name == key);
        let arg = row.raw_get::<Option<f64>>(3)?.map(|t| t as i64);
        // The kind the row declares, else its default's: a default of another type is read
        // as the declared kind (`{'n', '12', ARG_INT}` is 12), as under sysbench.
        let kind = arg
            .and_then(kind_of_arg)
            .unwrap_or_else(|| kind_of(&default));
        match arg {
            // A size is its number of bytes (`1M` is 1048576), a file name is not exported:
            // as sysbench exports them.
            Some(ARG_SIZE) => {
                let text = match given {
                    Some(o) if o.explicit => Some(o.text.clone()),
                    _ => default_text(&default),
                };
                opt.raw_set(key, LuaValue::Number(size(&text.unwrap_or_default())))?;
                continue;
            }
            Some(ARG_FILE) => {
                opt.raw_set(key, LuaValue::Nil)?;
                continue;
            }
            _ => {}
        }
        let value = match (given, default_text(&default)) {
            (Some(o), _) if o.explicit => continue,
            // The script's default (for its own row the same text; for a built-in's name the
            // script's, as sysbench exports it).
            (_, Some(t)) => typed(lua, kind, &t)?,
            // A flag declared without a default is on until the command line says otherwise,
            // as under sysbench.
            (Some(o), None) if o.kind == Kind::Bool && o.text.is_empty() => LuaValue::Boolean(true),
            (Some(_), None) => continue,
            (None, None) => LuaValue::String(lua.create_string("")?),
        };
        opt.raw_set(key, value)?;
    }
    Ok(())
}

fn export_globals(lua: &Lua, opt: &Table) -> mlua::Result<()> {
    let globals = lua.globals();
    for pair in opt.pairs::<String, LuaValue>() {
        let (name, value) = pair?;
        if !matches!(
            globals.raw_get::<LuaValue>(name.as_str())?,
            LuaValue::Function(_)
        ) {
            globals.raw_set(name, value)?;
        }
    }
    Ok(())
}

/// An option's text as the Lua value sysbench exports for its kind.
pub(crate) fn typed(lua: &Lua, kind: Kind, text: &str) -> mlua::Result<LuaValue> {
    Ok(match kind {
        Kind::Bool => LuaValue::Boolean(parse_bool(text).unwrap_or(false)),
        // As C's strtod reads it: the number the text starts with, 0 for none (`--n=`).
        Kind::Int | Kind::Float => LuaValue::Number(leading_number(text)),
        Kind::Str => LuaValue::String(lua.create_string(text)?),
        Kind::List => {
            let t = lua.create_table()?;
            for (i, part) in text.split(',').filter(|p| !p.is_empty()).enumerate() {
                t.raw_set(i + 1, part)?;
            }
            LuaValue::Table(t)
        }
    })
}

/// The number `text` starts with (after blanks), 0 when it starts with none.
fn leading_number(text: &str) -> f64 {
    let text = text.trim_start();
    (1..=text.len())
        .rev()
        .filter(|&end| text.is_char_boundary(end))
        .find_map(|end| text[..end].parse::<f64>().ok())
        .unwrap_or(0.0)
}

/// A size as sysbench reads one: digits and at most one of K, M, G, T (binary multiples, any
/// case); anything else is 0.
fn size(text: &str) -> f64 {
    dbpress_core::options::size_bytes(text).map_or(0.0, |n| n as f64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::{Script, State};
    use dbpress_core::options::table::Table;
    use dbpress_core::options::OptionValues;

    fn declared_by(lua: &str) -> Option<Vec<Declared>> {
        let mut script = Script::from_source(
            "t.lua",
            lua.as_bytes().to_vec().into(),
            "",
            &OptionValues::new(Table::general()),
        );
        script.opts.clear();
        State::main(&script).unwrap().declared().unwrap()
    }

    #[test]
    fn a_declared_option_takes_the_kind_of_its_default_or_its_arg_type() {
        let d = declared_by(
            "sysbench.cmdline.options = { n = {'num', 3}, b = {'bool', false}, \
             l = {'list', {'a', 2}}, s = {'str'}, ['f-x'] = {'file', 'p', sysbench.cmdline.ARG_FILE}, \
             i = {'int', 4, sysbench.cmdline.ARG_INT} }",
        )
        .unwrap();
        let got: Vec<(&str, Kind, Option<&str>)> = d
            .iter()
            .map(|d| (d.name.as_str(), d.kind, d.default.as_deref()))
            .collect();
        assert_eq!(
            got,
            [
                ("b", Kind::Bool, Some("off")),
                ("f-x", Kind::Str, Some("p")),
                ("i", Kind::Int, Some("4")),
                ("l", Kind::List, Some("a,2")),
                ("n", Kind::Float, Some("3")),
                ("s", Kind::Str, None),
            ]
        );
        // Rows are keyed with dashes, as the scanner reads `--f_x` and `--f-x` alike.
        let names: Vec<&str> = rows("t.lua", &d).iter().map(|r| r.name).collect();
        assert_eq!(names, ["b", "f-x", "i", "l", "n", "s"]);
    }

    #[test]
    fn numbers_and_sizes_read_as_sysbench_reads_them() {
        assert_eq!(leading_number("2x"), 2.0);
        assert_eq!(leading_number(" -3.5e1z"), -35.0);
        assert_eq!(leading_number("abc"), 0.0);
        assert_eq!(leading_number(""), 0.0);
        assert_eq!(size("1M"), 1048576.0);
        assert_eq!(size("2k"), 2048.0);
        assert_eq!(size("1T"), 1099511627776.0);
        assert_eq!(size("3"), 3.0);
        for bad in ["1.5M", "10b", "", "5X", "abc", "-1K"] {
            assert_eq!(size(bad), 0.0, "{bad}");
        }
    }

    #[test]
    fn no_options_table_is_legacy_mode_and_a_bad_row_is_sysbenchs_message() {
        assert_eq!(declared_by("x = 1"), None);
        let mut script = Script::from_source(
            "t.lua",
            b"sysbench.cmdline.options = { x = 5 }".to_vec().into(),
            "",
            &OptionValues::new(Table::general()),
        );
        script.opts.clear();
        let e = State::main(&script).unwrap().declared().unwrap_err();
        assert_eq!(e.to_string(), WRONG_STRUCTURE);
    }

    #[test]
    fn issue_42_a_description_that_is_no_string_is_sysbenchs_ffi_message() {
        let mut script = Script::from_source(
            "t.lua",
            b"sysbench.cmdline.options = { a = {1, 2} }".to_vec().into(),
            "",
            &OptionValues::new(Table::general()),
        );
        script.opts.clear();
        let e = State::main(&script).unwrap().declared().unwrap_err();
        assert_eq!(
            e.to_string(),
            "[string \"sysbench.cmdline.lua\"]:138: cannot convert 'number' to 'const char *'"
        );
    }
}
