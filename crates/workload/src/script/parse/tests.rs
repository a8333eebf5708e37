use super::*;
use crate::script::sql::Store;

fn commands(text: &str) -> Vec<Command> {
    parse("t.sql", text, 1).unwrap().commands
}

#[test]
fn sql_keeps_its_variables_and_casts() {
    let s = parse(
        "t.sql",
        "\\set aid random(1, 100000 * :scale)\nBEGIN;\n\
         UPDATE pgbench_accounts SET abalance = abalance + :delta\n  WHERE aid = :aid;\n\
         SELECT x::int FROM t WHERE a = :aid;\nEND;\n",
        1,
    )
    .unwrap();
    assert_eq!(s.commands.len(), 5);
    let Command::Sql(update) = &s.commands[2] else {
        panic!("{:?}", s.commands[2])
    };
    assert_eq!(update.line, 3);
    assert_eq!(
        update.bound().0,
        "UPDATE pgbench_accounts SET abalance = abalance + ?\n  WHERE aid = ?"
    );
    assert_eq!(
        free_variables(&s),
        vec![("scale".to_string(), 0), ("delta".to_string(), 3)]
    );
}

#[test]
fn if_blocks_link_each_test_to_the_next_branch_and_the_end() {
    let c = commands(
        "\\if :a\nSELECT 1;\n\\elif :b\n\\if :c\nSELECT 2;\n\\endif\n\\else\nSELECT 3;\n\\endif\nSELECT 4;\n",
    );
    assert!(matches!(c[0], Command::If { next: 2, .. }));
    assert!(matches!(
        c[2],
        Command::Elif {
            next: 6,
            end: 8,
            ..
        }
    ));
    assert!(matches!(c[3], Command::If { next: 5, .. }));
    assert!(matches!(c[6], Command::Else { end: 8 }));
    assert!(matches!(c[8], Command::EndIf));
}

#[test]
fn misplaced_branches_are_condition_errors_after_the_whole_script() {
    let e = parse("c.sql", "SELECT 1;\n\\else\n\\endif\n", 1).unwrap_err();
    assert_eq!(
        e,
        "condition error in script \"c.sql\" command 2: \\else without matching \\if"
    );
    let e = parse("c.sql", "\\if true\nSELECT 1;\n", 1).unwrap_err();
    assert_eq!(
        e,
        "condition error in script \"c.sql\" command 3: \\if without matching \\endif"
    );
    let e = parse("c.sql", "\\if 1\n\\else\n\\elif 2\n\\endif\n", 1).unwrap_err();
    assert!(e.ends_with("command 3: \\elif after \\else"), "{e}");
    // A syntax error later in the file is reported first, as pgbench checks blocks last.
    let e = parse("c.sql", "\\endif\n\\set x 1 +\n", 1).unwrap_err();
    assert!(e.starts_with("c.sql:2: syntax error"), "{e}");
}

#[test]
fn gset_and_aset_attach_to_the_sql_before_them() {
    let c = commands("SELECT 1 AS a \\gset p_\nSELECT 2 AS b;\n\\aset\n");
    let Command::Sql(first) = &c[0] else { panic!() };
    assert_eq!(first.store, Some(Store::Last("p_".into())));
    let Command::Sql(second) = &c[1] else {
        panic!()
    };
    assert_eq!(second.store, Some(Store::Every(String::new())));
    let e = parse("g.sql", "\\set a 1\n\\gset\n", 1).unwrap_err();
    assert_eq!(e, "g.sql:2: \\gset must follow an SQL command (\\set a 1)");
    let e = parse("g.sql", "SELECT 1 \\gset\n\\aset\n", 1).unwrap_err();
    assert_eq!(e, "g.sql:2: \\gset must follow an SQL command");
}

#[test]
fn errors_print_as_pgbench_prints_them() {
    let e = parse("bad.sql", "SELECT 1;\n\\set i 1 +\n", 1).unwrap_err();
    assert_eq!(
        e,
        "bad.sql:2: syntax error in command \"set\"\n\\set i 1 +\n          ^ error found here"
    );
    let e = parse("bad.sql", "\\set x random(1)\n", 1).unwrap_err();
    assert_eq!(
        e,
        "bad.sql:1: unexpected number of arguments (random) in command \"set\"\n\\set x random(1)\n               ^ error found here"
    );
    assert_eq!(
        one_line(&parse("bad.sql", "\\set x random(1)\n", 1).unwrap_err()),
        "bad.sql:1: unexpected number of arguments (random) in command \"set\", at column 16"
    );
    let e = parse("bad.sql", "\\set x foo(1)\n", 1).unwrap_err();
    assert!(e.starts_with("bad.sql:1: unexpected function name (foo) in command \"set\"\n\\set x foo(1)\n         ^"), "{e}");
    let e = parse("bad.sql", "\\foo bar\n", 1).unwrap_err();
    assert_eq!(
        e,
        "bad.sql:1: invalid command in command \"foo\"\n\\foo bar"
    );
    let e = parse("bad.sql", "\\sleep 10 hours\n", 1).unwrap_err();
    assert_eq!(
        e,
        "bad.sql:1: unrecognized time unit, must be us, ms or s (hours) in command \"sleep\"\n\\sleep 10 hours\n          ^ error found here"
    );
    let e = parse("bad.sql", "\\set\n", 1).unwrap_err();
    assert_eq!(e, "bad.sql:1: missing argument in command \"set\"");
    let e = parse("empty.sql", "-- nothing\n", 1).unwrap_err();
    assert_eq!(e, "empty command list for script \"empty.sql\"");
    // At the end of a file with no newline the caret is under the last character.
    let e = parse("bad.sql", "\\set i 1 +", 1).unwrap_err();
    assert!(
        e.ends_with("\\set i 1 +\n         ^ error found here"),
        "{e}"
    );
}

#[test]
fn sleep_takes_pgbench_spellings() {
    assert_eq!(
        commands("\\sleep 10ms\n")[0],
        Command::Sleep(Sleep::Micros(10_000))
    );
    assert_eq!(
        commands("\\sleep 2\n")[0],
        Command::Sleep(Sleep::Micros(2_000_000))
    );
    assert_eq!(
        commands("\\SLEEP 5 US\n")[0],
        Command::Sleep(Sleep::Micros(5))
    );
    assert_eq!(
        commands("\\sleep :d ms\n")[0],
        Command::Sleep(Sleep::Var("d".into(), 1000))
    );
    let e = parse("s.sql", "\\sleep x\n", 1).unwrap_err();
    assert!(
        e.starts_with("s.sql:1: invalid sleep time, must be an integer (x)"),
        "{e}"
    );
}

#[test]
fn issue_34_copy_from_stdin_is_refused_when_read() {
    let e = parse("load.sql", "\\set n 1\nCOPY t (a) FROM stdin;\n", 1)
        .err()
        .unwrap();
    assert!(
        e.contains("load.sql:2:") && e.contains("COPY … FROM STDIN"),
        "{e}"
    );
    assert!(parse("ok.sql", "COPY t FROM '/srv/rows.csv';", 1).is_ok());
}
