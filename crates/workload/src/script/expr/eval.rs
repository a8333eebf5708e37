//! Evaluating an expression as pgbench does: NULL in, NULL out (but for IS and debug); AND, OR
//! and CASE evaluate lazily (a NULL left side of AND/OR is the answer, unlike SQL); integers
//! overflow into an error, never wrap; doubles become integers rounded half to even; the error
//! texts are pgbench's.

use super::prng::PgPrng;
use super::tree::{Expr, Func};
use super::value::Value;
use super::{hash, text};
use std::collections::HashMap;

/// Where expressions read variables.
pub trait Variables {
    fn get(&self, name: &str) -> Option<&Value>;
}

impl<S: std::hash::BuildHasher> Variables for HashMap<String, Value, S> {
    fn get(&self, name: &str) -> Option<&Value> {
        HashMap::get(self, name)
    }
}

/// What evaluation needs besides the expression.
pub struct Env<'a> {
    pub vars: &'a dyn Variables,
    /// The client's sequence for random functions.
    pub rng: &'a mut PgPrng,
    /// The script (0-based) and command (1-based) `debug()` names.
    pub at: (usize, usize),
}

type Res = Result<Value, String>;

fn as_int(v: &Value) -> Result<i64, String> {
    match v {
        Value::Int(i) => Ok(*i),
        Value::Double(d) => {
            // C's rint: to the nearest, ties to even; then the range [-2^63, 2^63).
            let r = d.round_ties_even();
            if r.is_nan() || !(-9.223_372_036_854_776e18..9.223_372_036_854_776e18).contains(&r) {
                return Err(format!("double to int overflow for {}", c_fixed(r)));
            }
            Ok(r as i64)
        }
        other => Err(format!("cannot coerce {} to int", other.type_name())),
    }
}

fn as_double(v: &Value) -> Result<f64, String> {
    match v {
        Value::Int(i) => Ok(*i as f64),
        Value::Double(d) => Ok(*d),
        other => Err(format!("cannot coerce {} to double", other.type_name())),
    }
}

fn as_bool(v: &Value) -> Result<bool, String> {
    match v {
        Value::Bool(b) => Ok(*b),
        other => Err(format!("cannot coerce {} to boolean", other.type_name())),
    }
}

/// A value's truth where a condition is asked for (AND, OR, CASE, \if): NULL is false,
/// numbers are true when not zero.
pub fn truth(v: &Value) -> bool {
    match v {
        Value::Null | Value::Text(_) => false,
        Value::Bool(b) => *b,
        Value::Int(i) => *i != 0,
        Value::Double(d) => *d != 0.0,
    }
}

/// C's `%f` (six decimals; nan and inf as glibc prints them).
fn c_fixed(d: f64) -> String {
    if d.is_nan() {
        return if d.is_sign_negative() { "-nan" } else { "nan" }.into();
    }
    if d.is_infinite() {
        return if d < 0.0 { "-inf" } else { "inf" }.into();
    }
    format!("{d:.6}")
}

/// A variable's value; text (from -D, \gset, \aset) read as pgbench reads it.
fn variable(name: &str, env: &Env<'_>) -> Res {
    match env.vars.get(name) {
        None => Err(format!("undefined variable \"{name}\"")),
        Some(Value::Text(t)) => Value::from_text(name, t),
        Some(v) => Ok(v.clone()),
    }
}

pub fn eval(e: &Expr, env: &mut Env<'_>) -> Res {
    match e {
        Expr::Const(v) => Ok(v.clone()),
        Expr::Var(name) => variable(name, env),
        Expr::Case(arms, other) => {
            for (c, v) in arms {
                if truth(&eval(c, env)?) {
                    return eval(v, env);
                }
            }
            eval(other, env)
        }
        Expr::Call(Func::And, a) => and(&a[0], &a[1], env),
        Expr::Call(Func::Or, a) => or(&a[0], &a[1], env),
        Expr::Call(_, args) if args.len() > MAX_FUNCTION_ARGS => Err(format!(
            "too many function arguments, maximum is {MAX_FUNCTION_ARGS}"
        )),
        Expr::Call(f, args) => {
            // Up to four arguments (every function but least/greatest) stay on the stack.
            let mut v: smallvec::SmallVec<[Value; 4]> = smallvec::SmallVec::new();
            for a in args {
                v.push(eval(a, env)?);
            }
            if !matches!(f, Func::Is | Func::Debug) && v.contains(&Value::Null) {
                return Ok(Value::Null);
            }
            call(*f, &v, env)
        }
    }
}

/// `a AND b`: a NULL `a` is the answer (b not evaluated); both sides must be booleans.
fn and(a: &Expr, b: &Expr, env: &mut Env<'_>) -> Res {
    let x = eval(a, env)?;
    if x == Value::Null {
        return Ok(Value::Null);
    }
    if !as_bool(&x)? {
        return Ok(Value::Bool(false));
    }
    match eval(b, env)? {
        Value::Null => Ok(Value::Null),
        y => Ok(Value::Bool(as_bool(&y)?)),
    }
}

/// `a OR b`, as AND.
fn or(a: &Expr, b: &Expr, env: &mut Env<'_>) -> Res {
    let x = eval(a, env)?;
    if x == Value::Null {
        return Ok(Value::Null);
    }
    if as_bool(&x)? {
        return Ok(Value::Bool(true));
    }
    match eval(b, env)? {
        Value::Null => Ok(Value::Null),
        y => Ok(Value::Bool(as_bool(&y)?)),
    }
}

/// pgbench evaluates at most this many arguments of a function (least, greatest).
const MAX_FUNCTION_ARGS: usize = 16;

fn any_double(v: &[Value]) -> bool {
    v.iter().any(|x| matches!(x, Value::Double(_)))
}

fn call(f: Func, v: &[Value], env: &mut Env<'_>) -> Res {
    use Func::*;
    match f {
        Add | Sub | Mul | Div => arithmetic(f, &v[0], &v[1]),
        Mod => {
            let (a, b) = (as_int(&v[0])?, as_int(&v[1])?);
            match b {
                0 => Err("division by zero".into()),
                -1 => Ok(Value::Int(0)),
                _ => Ok(Value::Int(a % b)),
            }
        }
        Eq | Ne | Lt | Le => compare(f, &v[0], &v[1]),
        BitAnd | BitOr | BitXor | Shl | Shr => {
            let (a, b) = (as_int(&v[0])?, as_int(&v[1])?);
            Ok(Value::Int(match f {
                BitAnd => a & b,
                BitOr => a | b,
                BitXor => a ^ b,
                // The shift count as the machine takes it (low six bits).
                Shl => a.wrapping_shl(b as u32),
                _ => a.wrapping_shr(b as u32),
            }))
        }
        Not => Ok(Value::Bool(!as_bool(&v[0])?)),
        Is => Ok(Value::Bool(match (&v[0], &v[1]) {
            (Value::Null, Value::Null) => true,
            (Value::Bool(a), Value::Bool(b)) => a == b,
            _ => false,
        })),
        Debug => {
            let shown = match &v[0] {
                Value::Null => "null".to_string(),
                Value::Bool(b) => format!("boolean {b}"),
                Value::Int(i) => format!("int {i}"),
                Value::Double(d) => format!("double {}", text::format_double(*d)),
                Value::Text(t) => format!("string {t}"),
            };
            eprintln!("debug(script={},command={}): {shown}", env.at.0, env.at.1);
            Ok(v[0].clone())
        }
        Abs => match v[0] {
            // i64::MIN stays itself, as the C expression does on this machine.
            Value::Int(i) => Ok(Value::Int(i.wrapping_abs())),
            _ => Ok(Value::Double(as_double(&v[0])?.abs())),
        },
        Int => Ok(Value::Int(as_int(&v[0])?)),
        Double => Ok(Value::Double(as_double(&v[0])?)),
        Sqrt => Ok(Value::Double(as_double(&v[0])?.sqrt())),
        Ln => Ok(Value::Double(as_double(&v[0])?.ln())),
        Exp => Ok(Value::Double(as_double(&v[0])?.exp())),
        Pow => Ok(Value::Double(as_double(&v[0])?.powf(as_double(&v[1])?))),
        Pi => Ok(Value::Double(std::f64::consts::PI)),
        Least | Greatest => extreme(f == Least, v),
        HashMurmur2 | HashFnv1a => {
            let (x, seed) = (as_int(&v[0])?, as_int(&v[1])? as u64);
            Ok(Value::Int(if f == HashFnv1a {
                hash::fnv1a(x, seed)
            } else {
                hash::murmur2(x, seed)
            }))
        }
        Permute => {
            let (x, size, seed) = (as_int(&v[0])?, as_int(&v[1])?, as_int(&v[2])?);
            if size <= 0 {
                return Err("permute size parameter must be greater than zero".into());
            }
            Ok(Value::Int(hash::permute(x, size, seed)))
        }
        Random | RandomExponential | RandomGaussian | RandomZipfian => random(f, v, env.rng),
        And | Or => unreachable!("AND and OR are evaluated lazily"),
    }
}

fn arithmetic(f: Func, a: &Value, b: &Value) -> Res {
    if matches!(a, Value::Double(_)) || matches!(b, Value::Double(_)) {
        let (x, y) = (as_double(a)?, as_double(b)?);
        return Ok(Value::Double(match f {
            Func::Add => x + y,
            Func::Sub => x - y,
            Func::Mul => x * y,
            _ => x / y,
        }));
    }
    let (x, y) = (as_int(a)?, as_int(b)?);
    let (r, name) = match f {
        Func::Add => (x.checked_add(y), "add"),
        Func::Sub => (x.checked_sub(y), "sub"),
        Func::Mul => (x.checked_mul(y), "mul"),
        _ if y == 0 => return Err("division by zero".into()),
        _ => (x.checked_div(y), "div"),
    };
    r.map(Value::Int)
        .ok_or_else(|| format!("bigint {name} out of range"))
}

fn compare(f: Func, a: &Value, b: &Value) -> Res {
    let r = if matches!(a, Value::Double(_)) || matches!(b, Value::Double(_)) {
        let (x, y) = (as_double(a)?, as_double(b)?);
        match f {
            Func::Eq => x == y,
            Func::Ne => x != y,
            Func::Lt => x < y,
            _ => x <= y,
        }
    } else {
        let (x, y) = (as_int(a)?, as_int(b)?);
        match f {
            Func::Eq => x == y,
            Func::Ne => x != y,
            Func::Lt => x < y,
            _ => x <= y,
        }
    };
    Ok(Value::Bool(r))
}

fn extreme(least: bool, v: &[Value]) -> Res {
    if any_double(v) {
        let mut best = as_double(&v[0])?;
        for x in &v[1..] {
            let d = as_double(x)?;
            if (least && d < best) || (!least && d > best) {
                best = d;
            }
        }
        return Ok(Value::Double(best));
    }
    let mut best = as_int(&v[0])?;
    for x in &v[1..] {
        let i = as_int(x)?;
        best = if least { best.min(i) } else { best.max(i) };
    }
    Ok(Value::Int(best))
}

fn random(f: Func, v: &[Value], rng: &mut PgPrng) -> Res {
    let (lb, ub) = (as_int(&v[0])?, as_int(&v[1])?);
    if ub < lb {
        return Err("empty range given to random".into());
    }
    if ub.checked_sub(lb).and_then(|d| d.checked_add(1)).is_none() {
        return Err("random range is too large".into());
    }
    let drawn = match f {
        Func::Random => rng.uniform(lb, ub),
        Func::RandomExponential => {
            let p = as_double(&v[2])?;
            if p <= 0.0 {
                return Err(format!(
                    "exponential parameter must be greater than zero (not {p:.6})"
                ));
            }
            rng.exponential(lb, ub, p)
        }
        Func::RandomGaussian => {
            let p = as_double(&v[2])?;
            if p < 2.0 {
                return Err(format!(
                    "gaussian parameter must be at least 2.000000 (not {p:.6})"
                ));
            }
            rng.gaussian(lb, ub, p)
        }
        _ => {
            let s = as_double(&v[2])?;
            if !(1.001..=1000.0).contains(&s) {
                return Err(format!(
                    "zipfian parameter must be in range [1.001, 1000] (not {s:.6})"
                ));
            }
            rng.zipfian(lb, ub, s)
        }
    };
    Ok(Value::Int(drawn))
}
