//! dbpress as tpcc_load (#42): invoked through a link named `tpcc_load` (or
//! `--compat=tpcc_load`), it reads tpcc_load's command line with its getopt, echoes each option
//! as tpcc_load does, prints its banner and parameter block (the password starred), and loads
//! tpcc-mysql's tables as tpcc_load does (`tpcc::peer::load`: one session, a prepared INSERT
//! per row, its commits and progress text). Exit codes are tpcc_load's: 0, or 255 when it
//! cannot go on. `dbpress tpcc-load` stays dbpress's own, parallel bulk load of the same line.

use super::flags::{connection, get};
use super::getopt::{self, atoi};
use crate::cli::parse_workload;
use dbpress_config::to_driver::make_driver;
use dbpress_config::RunConfig;
use dbpress_core::error::Result;
use dbpress_driver::DbErrorKind;
use dbpress_workload::tpcc::peer::load::{load, LoadPlan, LoadStopped};

const BANNER: &str = "*************************************\n*** TPCC-mysql Data Loader        ***\n*************************************\n";
const USAGE: &str = "Usage: tpcc_load -h server_host -P port -d database_name -u mysql_user -p mysql_password -w warehouses -l part -m min_wh -n max_wh\n* [part]: 1=ITEMS 2=WAREHOUSE 3=CUSTOMER 4=ORDERS\n";
/// tpcc_load's flags, each taking a value.
const FLAGS: &str = "hPdupwlmn";
/// tpcc_load's `exit(-1)`.
const FAILED: u8 = 255;

/// The option's echo line, as tpcc_load prints it (a password starred: dbpress prints none).
fn echo(c: char, v: &str) -> String {
    let shown = if c == 'p' && !v.is_empty() {
        "*****"
    } else {
        v
    };
    format!("option {c} with value '{shown}'")
}

/// Run as tpcc_load: `program` is argv[0] as typed (getopt's messages name it).
pub fn main(program: &str, args: &[String]) -> u8 {
    getopt::speak_as(program, args, speak, FAILED)
}

fn speak(program: &str, args: &[String]) -> Result<u8> {
    let Some((extras, _, flags)) =
        getopt::banner_and_line(program, args, BANNER, USAGE, FLAGS, echo)
    else {
        return Ok(0);
    };
    dbpress_core::out!("{}", parameters(&flags));
    let Some(db) = get(&flags, 'd') else {
        // tpcc_load reads an uninitialised buffer here; dbpress names what is missing.
        return Err(dbpress_core::error::usage(
            "no -d: name the database that holds tpcc-mysql's tables (made by its create_table.sql), e.g. -d tpcc1000",
        ));
    };
    let mut words = vec!["tpcc".to_string(), "prepare".to_string()];
    words.extend(connection(&flags, db));
    words.push("--db-driver=mysql".into());
    words.extend(extras);
    let (workload, command, opts) = parse_workload(&words)?;
    let cfg = RunConfig::from_options(&workload, command, &opts)?;
    let driver = make_driver(&cfg)?;
    let mut conn = match driver.connect(0) {
        Ok(c) => c,
        Err(e) => {
            let e = dbpress_driver::mysql::libmariadb_words::connect_failure(&e);
            dbpress_core::out!("\n{}, {}, {}\n", e.code, sqlstate(&e), e.message);
            return Ok(FAILED);
        }
    };
    let mut say = |s: &str| dbpress_core::out!("{s}");
    match load(
        conn.as_mut(),
        plan(&flags),
        super::as_start::seed(),
        &mut say,
    ) {
        Ok(()) => Ok(0),
        Err(LoadStopped(e)) => {
            let _ = std::io::Write::flush(&mut dbpress_core::out::Stdout);
            if e.kind == DbErrorKind::DuplicateKey {
                eprintln!(
                    "{program}: these rows are loaded already (tpcc_load would try again forever): load into empty tables (tpcc-mysql's create_table.sql), or name the warehouses not loaded yet with -l -m -n"
                );
            }
            Ok(FAILED)
        }
    }
}

fn sqlstate(e: &dbpress_driver::DbError) -> String {
    e.sqlstate.map_or_else(
        || "HY000".to_string(),
        |s| String::from_utf8_lossy(&s).into_owned(),
    )
}

/// What the line loads: without `-l` everything for warehouses 1..=`-w`; with it, that part
/// for `-m`..=`-n` (defaults 1 and 0, as tpcc_load's).
fn plan(flags: &[(char, String)]) -> LoadPlan {
    let n = |c: char, default: i64| get(flags, c).map_or(default, atoi);
    let wh = |x: i64| x.clamp(0, i64::from(u32::MAX)) as u32;
    match get(flags, 'l') {
        None => LoadPlan::All {
            warehouses: wh(n('w', 0)),
        },
        Some(l) => LoadPlan::Part {
            part: atoi(l),
            min: wh(n('m', 1)),
            max: wh(n('n', 0)),
        },
    }
}

/// tpcc_load's parameter block, the password starred.
fn parameters(flags: &[(char, String)]) -> String {
    let v = |c: char| get(flags, c).unwrap_or("");
    let n = |c: char, default: i64| get(flags, c).map_or(default, atoi);
    let pass = if v('p').is_empty() { "" } else { "*****" };
    let mut o = String::from("<Parameters>\n");
    if v('h') != "l" {
        o.push_str(&format!("     [server]: {}\n", v('h')));
        o.push_str(&format!("     [port]: {}\n", n('P', 3306)));
    }
    o.push_str(&format!("     [DBname]: {}\n", v('d')));
    o.push_str(&format!("       [user]: {}\n", v('u')));
    o.push_str(&format!("       [pass]: {pass}\n"));
    o.push_str(&format!("  [warehouse]: {}\n", n('w', 0)));
    if let Some(l) = get(flags, 'l') {
        o.push_str(&format!("  [part(1-4)]: {}\n", atoi(l)));
        o.push_str(&format!("     [MIN WH]: {}\n", n('m', 1)));
        o.push_str(&format!("     [MAX WH]: {}\n", n('n', 0)));
    }
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flags(v: &[(char, &str)]) -> Vec<(char, String)> {
        v.iter().map(|(c, s)| (*c, s.to_string())).collect()
    }

    #[test]
    fn the_parameter_block_is_tpcc_loads_with_the_password_starred() {
        let f = flags(&[
            ('h', "db1"),
            ('d', "tpcc"),
            ('u', "u"),
            ('p', "pw"),
            ('w', "3"),
        ]);
        assert_eq!(
            parameters(&f),
            "<Parameters>\n     [server]: db1\n     [port]: 3306\n     [DBname]: tpcc\n       [user]: u\n       [pass]: *****\n  [warehouse]: 3\n"
        );
        let f = flags(&[('h', "l"), ('d', "t"), ('l', "2"), ('n', "4")]);
        assert!(parameters(&f).starts_with("<Parameters>\n     [DBname]: t\n"));
        assert!(parameters(&f).ends_with("  [part(1-4)]: 2\n     [MIN WH]: 1\n     [MAX WH]: 4\n"));
        assert_eq!(echo('p', "secret"), "option p with value '*****'");
        assert_eq!(echo('p', ""), "option p with value ''");
    }

    #[test]
    fn the_line_picks_all_or_one_part() {
        assert!(matches!(
            plan(&flags(&[('w', "2")])),
            LoadPlan::All { warehouses: 2 }
        ));
        assert!(matches!(
            plan(&flags(&[('w', "2"), ('l', "3"), ('m', "2"), ('n', "2")])),
            LoadPlan::Part {
                part: 3,
                min: 2,
                max: 2
            }
        ));
        assert!(matches!(
            plan(&flags(&[('l', "2")])),
            LoadPlan::Part {
                part: 2,
                min: 1,
                max: 0
            }
        ));
    }
}
