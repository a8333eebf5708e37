//! Issue 42: pgbench's script language, compared with PostgreSQL's own pgbench on the same
//! scripts against the same server: every value `debug()` shows under `--random-seed` (the
//! same draws), and every error text a bad expression or script gets.

use crate::common::*;
use crate::engines::pg_server;
use std::process::{Command, Output};

/// pgbench's connection to the test server, and dbpress's with pgbench's flags.
const TARGET: &[&str] = &[
    "-h",
    "/var/run/postgresql",
    "-p",
    "5432",
    "-U",
    "sbtest",
    "sbtest",
];

fn pgbench(args: &[&str]) -> Output {
    Command::new("pgbench")
        .args(args)
        .args(TARGET)
        .env("PGPASSWORD", "sbtest")
        .output()
        .expect("pgbench runs (postgresql's client package, installed by scripts/services.sh)")
}

fn dbpress_script(args: &[&str]) -> Output {
    Command::new(bin())
        .arg("script")
        .arg("run")
        .args(args)
        .args(TARGET)
        .env("PGPASSWORD", "sbtest")
        .output()
        .expect("dbpress runs")
}

/// Expressions whose values both tools print with debug(): every operator and function, the
/// coercions, NULL and boolean rules, doubles as C prints them, and seeded random draws.
const VALUES: &[&str] = &[
    "1 + 2 * 3 - 4 / 3",
    "7 / 2.0",
    "-7 % 3",
    "7 % 2.5",
    "1 + 2 << 3",
    "1 | 2 & 3",
    "~ 1 + 2",
    "5 # 3",
    "1 << 63",
    "-9223372036854775808",
    "abs(-5) + abs(,-1)",
    "abs(-2.5)",
    "1 / 3.0",
    "1e20 * 2",
    "1234567890123456.0",
    "0.00001",
    "-0.0",
    "sqrt(2)",
    "ln(10)",
    "exp(1)",
    "pow(2, 0.5)",
    "power(2, 10)",
    "pi()",
    "int(2.5) + int(3.5) + int(-2.5)",
    "double(7)",
    "least(3, 1.5, 2)",
    "greatest(3, 9, 2)",
    "mod(-7, 3)",
    "5 > 3 AND NOT false",
    "NULL OR true",
    "false OR NULL",
    "NULL AND 1 / 0 = 1",
    "NULL + 1",
    "NULL IS NULL",
    "1 ISNULL",
    "2 NOTNULL",
    "(1 = 1) IS TRUE",
    "(1 = 2) IS NOT FALSE",
    "1 = 1.0",
    "1 <> 2",
    "3 >= 3",
    "CASE WHEN 0 THEN 1 WHEN 2.5 THEN 2 END",
    "CASE WHEN false THEN 1 ELSE 3 END",
    "CASE WHEN false THEN 1 END",
    "hash(42)",
    "hash(42, 7)",
    "hash_murmur2(-1, 0)",
    "hash_fnv1a(123456789, 5)",
    "permute(0, 10)",
    "permute(7, 100, 5)",
    "permute(-1, 10, 3)",
    "permute(12345, 1000000007, 99)",
    "random(1, 1000000)",
    "random(-5, 5)",
    "random(1, 9223372036854775806)",
    "random_exponential(1, 1000, 2.5)",
    "random_gaussian(1, 1000, 3.0)",
    "random_zipfian(1, 1000, 1.2)",
    "random_zipfian(1, 10, 2.0)",
    ":client_id",
    ":random_seed",
    ":default_seed",
    ":t",
    ":price * 2",
    ":lead + 1",
    ":nul IS NULL",
    ":yes AND :off",
];

fn debug_lines(o: &Output) -> Vec<String> {
    stderr(o)
        .lines()
        .filter(|l| l.starts_with("debug("))
        .map(str::to_string)
        .collect()
}

#[test]
fn every_value_and_seeded_draw_is_pgbenchs() {
    let Some(_pg) = pg_server("pgbench-values") else {
        return;
    };
    let dir = scratch("pgbench-values");
    let file = dir.join("values.sql");
    let mut text: String = VALUES
        .iter()
        .enumerate()
        .map(|(i, e)| format!("\\set v{i} debug({e})\n"))
        .collect();
    text.push_str("SELECT 1;\n");
    std::fs::write(&file, text).unwrap();
    let f = file.to_str().unwrap();
    let defines = [
        "-D",
        "t=t",
        "-D",
        "price=3.50",
        "-D",
        "lead=007",
        "-D",
        "nul=null",
        "-D",
        "yes=y",
        "-D",
        "off=off",
    ];
    for seed in ["5", "1234567"] {
        let seed_arg = format!("--random-seed={seed}");
        let mut args = vec!["-n", "-t", "3", "-c", "1", &seed_arg, "-f", f];
        args.extend_from_slice(&defines);
        let peer = pgbench(&args);
        assert_eq!(peer.status.code(), Some(0), "{}", stderr(&peer));
        let mut ours_args = vec!["-t", "3", "-c", "1", &seed_arg, "-f", f];
        ours_args.extend_from_slice(&defines);
        let ours = dbpress_script(&ours_args);
        assert_eq!(ours.status.code(), Some(0), "{}", stderr(&ours));
        let (want, got) = (debug_lines(&peer), debug_lines(&ours));
        assert_eq!(want.len(), VALUES.len() * 3, "{}", stderr(&peer));
        for (i, (w, g)) in want.iter().zip(&got).enumerate() {
            let e = VALUES[i % VALUES.len()];
            assert_eq!(g, w, "seed {seed}, `{e}`: dbpress printed {g}, pgbench {w}");
        }
        assert_eq!(got.len(), want.len());
    }
}

/// Expressions that stop a client, with the error pgbench prints for each. (A variable no
/// one sets is found by dbpress's own command before it connects, with the line using it.)
const FAILURES: &[&str] = &[
    "9223372036854775807 + 1",
    "-9223372036854775808 - 1",
    "4611686018427387904 * 2",
    "-9223372036854775808 / -1",
    "1 / 0",
    "1 % 0",
    "int(1e30)",
    "NOT 1",
    "1 AND true",
    "true = true",
    "true + 1",
    ":word + 1",
    ":huge + 1",
    "random(2, 1)",
    "random(0, 9223372036854775807)",
    "random_gaussian(1, 10, 1.5)",
    "random_exponential(1, 10, 0)",
    "random_zipfian(1, 10, 1.0)",
    "permute(1, 0)",
];

/// The first `pgbench: error:` line's message.
fn peer_error(o: &Output) -> String {
    stderr(o)
        .lines()
        .find_map(|l| l.strip_prefix("pgbench: error: "))
        .unwrap_or_default()
        .to_string()
}

#[test]
fn every_evaluation_error_is_pgbenchs_text() {
    let Some(_pg) = pg_server("pgbench-failures") else {
        return;
    };
    let dir = scratch("pgbench-failures");
    let defines = ["-D", "word=abc", "-D", "huge=99999999999999999999"];
    for (i, e) in FAILURES.iter().enumerate() {
        let file = dir.join(format!("f{i}.sql"));
        std::fs::write(&file, format!("\\set x {e}\nSELECT 1;\n")).unwrap();
        let f = file.to_str().unwrap();
        let mut args = vec!["-n", "-t", "1", "-c", "1", "-f", f];
        args.extend_from_slice(&defines);
        let peer = pgbench(&args);
        assert_eq!(peer.status.code(), Some(2), "`{e}`: {}", stderr(&peer));
        let want = peer_error(&peer);
        assert!(!want.is_empty(), "`{e}`: {}", stderr(&peer));
        let ours = dbpress_script(&args[1..]);
        assert_ne!(ours.status.code(), Some(0), "`{e}`");
        let text = stderr(&ours);
        assert!(
            text.contains(&format!("\\set x: {want}")),
            "`{e}`: pgbench says `{want}`, dbpress: {text}"
        );
    }
}

/// Scripts pgbench refuses before connecting, each with its message.
const BAD_SCRIPTS: &[&str] = &[
    "\\set i 1 +\nSELECT 1;\n",
    "\\set x random(1)\nSELECT 1;\n",
    "\\set x foo(1)\nSELECT 1;\n",
    "\\set x least()\nSELECT 1;\n",
    "\\set x 1 $ 2\nSELECT 1;\n",
    "\\set x 100000000000000000000\nSELECT 1;\n",
    "\\set x 1 < 2 < 3\nSELECT 1;\n",
    "\\set\nSELECT 1;\n",
    "\\sleep 10 hours\nSELECT 1;\n",
    "\\sleep x\nSELECT 1;\n",
    "\\sleep 1 ms 2\nSELECT 1;\n",
    "\\foo bar\nSELECT 1;\n",
    "\\shell\nSELECT 1;\n",
    "\\setshell x\nSELECT 1;\n",
    "\\else\nSELECT 1;\n",
    "\\if true\nSELECT 1;\n",
    "\\if 1\n\\else\n\\elif 2\n\\endif\nSELECT 1;\n",
    "\\if 1\n\\else\n\\else\n\\endif\nSELECT 1;\n",
    "\\endif\nSELECT 1;\n",
    "\\if 1\n\\endif x\nSELECT 1;\n",
    "\\set a 1\n\\gset\nSELECT 1;\n",
    "SELECT 1 AS a \\gset x y\n",
    "-- only a comment\n",
];

#[test]
fn every_script_error_is_pgbenchs_text() {
    let Some(_pg) = pg_server("pgbench-bad-scripts") else {
        return;
    };
    let dir = scratch("pgbench-bad-scripts");
    for (i, script) in BAD_SCRIPTS.iter().enumerate() {
        let file = dir.join(format!("b{i}.sql"));
        std::fs::write(&file, script).unwrap();
        let f = file.to_str().unwrap();
        let peer = pgbench(&["-n", "-t", "1", "-f", f]);
        assert_eq!(peer.status.code(), Some(1), "{script:?}: {}", stderr(&peer));
        let want = peer_error(&peer);
        let ours = dbpress_script(&["-t", "1", "-f", f]);
        assert_eq!(ours.status.code(), Some(2), "{script:?}: {}", stderr(&ours));
        assert_one_clean_line(&ours);
        // dbpress's own command says it in one line: pgbench's first, and the caret's column.
        assert!(
            stderr(&ours).contains(&want),
            "{script:?}: pgbench says `{want}`, dbpress: {}",
            stderr(&ours)
        );
    }
}

/// Meta-commands in every query mode: branches, rows kept by `\gset`, a shell's answer, a
/// sleep of a variable's length, SQL with values pasted or bound.
const META_SCRIPT: &str = "\\set n random(1, 10)
\\if :n > 5
\\set branch debug(1)
\\elif :n > 2
\\set branch debug(2)
\\else
\\set branch debug(3)
\\endif
SELECT :n * 2 AS twice, 'x' AS word, :n > 4 AS big \\gset g_
\\set a debug(:g_twice + 1)
\\set b debug(:g_big)
\\setshell sh echo 42
\\set d debug(:sh + :n)
\\shell true
\\sleep :n us
\\if :g_twice > 10 AND :n < 8
\\set e debug(true)
\\endif
SELECT :n AS last
\\gset
\\set f debug(:last * 10)
";

/// Compounds go by the simple protocol only (the server refuses them prepared).
const COMPOUND_SCRIPT: &str = "\\set n random(1, 100)
SELECT 1 AS one \\; SELECT 2 AS two, :n AS three \\aset
\\set b debug(:one + :two + :three)
SELECT 7 AS last \\; SELECT 8 AS last \\gset
\\set c debug(:last)
SELECT 1 AS none WHERE false \\; SELECT 5 AS some \\aset p_
\\set d debug(:p_some)
";

#[test]
fn meta_commands_run_as_pgbench_runs_them_in_every_mode() {
    let Some(_pg) = pg_server("pgbench-meta") else {
        return;
    };
    let dir = scratch("pgbench-meta");
    let meta = dir.join("meta.sql");
    std::fs::write(&meta, META_SCRIPT).unwrap();
    let compound = dir.join("compound.sql");
    std::fs::write(&compound, COMPOUND_SCRIPT).unwrap();
    for (file, mode) in [
        (&meta, "simple"),
        (&meta, "prepared"),
        (&meta, "extended"),
        (&compound, "simple"),
    ] {
        let f = file.to_str().unwrap();
        let args = [
            "-t",
            "6",
            "-c",
            "1",
            "--random-seed=77",
            "-M",
            mode,
            "-f",
            f,
        ];
        let peer = pgbench(&[&["-n"], &args[..]].concat());
        assert_eq!(peer.status.code(), Some(0), "{mode}: {}", stderr(&peer));
        let ours = dbpress_script(&args);
        assert_eq!(ours.status.code(), Some(0), "{mode}: {}", stderr(&ours));
        let (want, got) = (debug_lines(&peer), debug_lines(&ours));
        assert!(want.len() >= 6 * 3, "{}", stderr(&peer));
        assert_eq!(got, want, "{} in -M {mode}", file.display());
    }
}
