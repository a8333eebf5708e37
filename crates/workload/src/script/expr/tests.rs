use super::prng::PgPrng;
use super::*;
use std::collections::HashMap;

fn vars() -> HashMap<String, Value> {
    HashMap::from([
        ("scale".to_string(), Value::Int(3)),
        ("default_seed".to_string(), Value::Int(5)),
        ("t".to_string(), Value::Text("t".into())),
        ("f".to_string(), Value::Text("2.5".into())),
        ("bad".to_string(), Value::Text("abc".into())),
    ])
}

fn try_run(text: &str) -> Result<Value, String> {
    let mut rng = PgPrng::new(7);
    let vars = vars();
    let mut env = Env {
        vars: &vars,
        rng: &mut rng,
        at: (0, 1),
    };
    eval(&parse(text).map_err(|e| e.to_string())?, &mut env)
}

fn run(text: &str) -> Value {
    try_run(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

#[test]
fn arithmetic_follows_pgbench() {
    assert_eq!(run("1 + 2 * 3"), Value::Int(7));
    assert_eq!(run("(1 + 2) * 3"), Value::Int(9));
    assert_eq!(run("7 / 2"), Value::Int(3), "integer division truncates");
    assert_eq!(run("-7 % 3"), Value::Int(-1));
    assert_eq!(run("7.0 / 2"), Value::Double(3.5));
    assert_eq!(run("100000 * :scale"), Value::Int(300_000));
    assert_eq!(run("least(5, :scale, 9)"), Value::Int(3));
    assert_eq!(run("greatest(1, 2.5)"), Value::Double(2.5));
    assert_eq!(run("abs(-4)"), Value::Int(4));
    assert_eq!(run("mod(10, 4)"), Value::Int(2));
    assert_eq!(run("-9223372036854775808"), Value::Int(i64::MIN));
    assert_eq!(run("1 << 3 | 1"), Value::Int(9));
    assert_eq!(run("~ 0"), Value::Int(-1));
    assert_eq!(run("5 # 3"), Value::Int(6));
    assert_eq!(run(":f * 2"), Value::Double(5.0));
    assert_eq!(run("pow(2, 10)"), Value::Double(1024.0));
    assert_eq!(run("int(-3.7)"), Value::Int(-4));
    assert_eq!(
        run("int(2.5) + int(3.5)"),
        Value::Int(6),
        "rounded half to even"
    );
    assert_eq!(run("7 % 2.5"), Value::Int(1));
    assert_eq!(
        run("~ 1 + 2"),
        Value::Int(-4),
        "~ binds as the bitwise operators"
    );
    assert_eq!(run("1 + 2 << 3"), Value::Int(24));
    assert_eq!(run("abs(,-1)"), Value::Int(1));
}

#[test]
fn overflow_and_division_are_errors_not_wraps() {
    assert_eq!(
        try_run("9223372036854775807 + 1").unwrap_err(),
        "bigint add out of range"
    );
    assert_eq!(
        try_run("-9223372036854775808 / -1").unwrap_err(),
        "bigint div out of range"
    );
    assert_eq!(try_run("1 / 0").unwrap_err(), "division by zero");
    assert_eq!(try_run("1 % 0").unwrap_err(), "division by zero");
    assert_eq!(run("-9223372036854775808 % -1"), Value::Int(0));
    assert_eq!(
        try_run("int(1e30)").unwrap_err(),
        "double to int overflow for 1000000000000000019884624838656.000000"
    );
    assert!(try_run("9223372036854775809")
        .unwrap_err()
        .contains("bigint constant overflow (9223372036854775809)"));
    assert!(
        try_run("9223372036854775808")
            .unwrap_err()
            .contains("syntax error"),
        "only after a minus"
    );
}

#[test]
fn booleans_and_null_follow_pgbench_not_sql() {
    assert_eq!(run("1 < 2 AND 3 > 2"), Value::Bool(true));
    assert_eq!(
        run("NULL AND false"),
        Value::Null,
        "a NULL left side decides"
    );
    assert_eq!(run("NULL OR true"), Value::Null);
    assert_eq!(run("false OR NULL"), Value::Null);
    assert_eq!(
        run("NULL AND 1 / 0 = 1"),
        Value::Null,
        "the right side is not evaluated"
    );
    assert_eq!(run("NOT false"), Value::Bool(true));
    assert_eq!(run("NULL + 1"), Value::Null);
    assert_eq!(run("NULL IS NULL"), Value::Bool(true));
    assert_eq!(run("1 ISNULL"), Value::Bool(false));
    assert_eq!(run("1 NOTNULL"), Value::Bool(true));
    assert_eq!(run("(1 = 1) IS TRUE"), Value::Bool(true));
    assert_eq!(run("(1 = 2) IS NOT FALSE"), Value::Bool(false));
    assert_eq!(run(":t"), Value::Bool(true), "a \\gset 't' is true");
    assert_eq!(
        try_run("NOT 1").unwrap_err(),
        "cannot coerce int to boolean"
    );
    assert_eq!(
        try_run("1 AND true").unwrap_err(),
        "cannot coerce int to boolean"
    );
    assert_eq!(
        try_run("true = true").unwrap_err(),
        "cannot coerce boolean to int"
    );
    assert_eq!(
        run("CASE WHEN :scale > 5 THEN 1 WHEN :scale = 3 THEN 2 ELSE 3 END"),
        Value::Int(2)
    );
    assert_eq!(run("CASE WHEN false THEN 1 END"), Value::Null);
    assert_eq!(run("CASE WHEN 0 THEN 1 WHEN 2.5 THEN 2 END"), Value::Int(2));
    // The right side of a decided AND/OR is not evaluated: no division by zero.
    assert_eq!(run("false AND 1 / 0 = 1"), Value::Bool(false));
}

#[test]
fn variables_read_as_pgbench_reads_them() {
    assert_eq!(
        try_run(":nosuch + 1").unwrap_err(),
        "undefined variable \"nosuch\""
    );
    assert_eq!(
        try_run(":bad + 1").unwrap_err(),
        "malformed variable \"bad\" value: \"abc\""
    );
}

#[test]
fn random_functions_check_their_arguments() {
    assert_eq!(
        try_run("random(2, 1)").unwrap_err(),
        "empty range given to random"
    );
    assert_eq!(
        try_run("random(-9223372036854775808, 9223372036854775807)").unwrap_err(),
        "random range is too large"
    );
    assert_eq!(
        try_run("random_gaussian(1, 10, 1.5)").unwrap_err(),
        "gaussian parameter must be at least 2.000000 (not 1.500000)"
    );
    assert_eq!(
        try_run("random_exponential(1, 10, 0)").unwrap_err(),
        "exponential parameter must be greater than zero (not 0.000000)"
    );
    assert_eq!(
        try_run("random_zipfian(1, 10, 0.5)").unwrap_err(),
        "zipfian parameter must be in range [1.001, 1000] (not 0.500000)"
    );
    assert_eq!(
        try_run("permute(1, 0)").unwrap_err(),
        "permute size parameter must be greater than zero"
    );
    assert!(matches!(run("random(1, 10)"), Value::Int(1..=10)));
    assert_eq!(run("hash(1)"), run("hash_murmur2(1, 5)"), "default_seed");
    assert_eq!(run("permute(3, 10)"), run("permute(3, 10, :default_seed)"));
}

#[test]
fn parse_errors_say_what_and_where() {
    let e = parse("random(1)").unwrap_err();
    assert_eq!(
        (e.message.as_str(), e.more.as_deref()),
        ("unexpected number of arguments", Some("random"))
    );
    let e = parse("foo(1)").unwrap_err();
    assert_eq!(e.message, "unexpected function name");
    let e = parse("1 +").unwrap_err();
    assert_eq!((e.message.as_str(), e.column), ("syntax error", 3));
    let e = parse("1 $ 2").unwrap_err();
    assert_eq!(
        (e.message.as_str(), e.more.as_deref(), e.column),
        ("unexpected character", Some("$"), 2)
    );
    assert!(parse("1 < 2 < 3").is_err(), "comparisons do not chain");
    assert!(parse("least()").is_err());
}
