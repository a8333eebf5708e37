//! pgbench's `\set` expressions (a subset): integer and float arithmetic, `:variables`, and the
//! functions random, random_gaussian, random_exponential, random_zipfian, abs, least, greatest,
//! hash (= hash_murmur2), hash_fnv1a, int, double, sqrt, pi, mod.

use dbpress_core::rand::{DistKind, DistParams, Distribution, Rng};

/// A variable's value.
#[derive(Clone, Debug, PartialEq)]
pub enum Num {
    Int(i64),
    Float(f64),
    Str(String),
}

impl Num {
    fn float(&self) -> Result<f64, String> {
        match self {
            Num::Int(i) => Ok(*i as f64),
            Num::Float(f) => Ok(*f),
            Num::Str(s) => s.parse().map_err(|_| format!("'{s}' is not a number")),
        }
    }

    fn int(&self) -> Result<i64, String> {
        match self {
            Num::Int(i) => Ok(*i),
            Num::Float(f) => Ok(*f as i64),
            Num::Str(s) => s.parse().map_err(|_| format!("'{s}' is not an integer")),
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    Lit(Num),
    Var(String),
    Neg(Box<Expr>),
    Bin(char, Box<Expr>, Box<Expr>),
    Call(String, Vec<Expr>),
}

const FUNCTIONS: &[(&str, usize, usize)] = &[
    ("random", 2, 2),
    ("random_gaussian", 3, 3),
    ("random_exponential", 3, 3),
    ("random_zipfian", 3, 3),
    ("abs", 1, 1),
    ("least", 1, usize::MAX),
    ("greatest", 1, usize::MAX),
    ("hash", 1, 2),
    ("hash_murmur2", 1, 2),
    ("hash_fnv1a", 1, 2),
    ("int", 1, 1),
    ("double", 1, 1),
    ("sqrt", 1, 1),
    ("pi", 0, 0),
    ("mod", 2, 2),
];

struct Parser<'a> {
    s: &'a [u8],
    at: usize,
}

/// Parse an expression; the error says what was expected and where (column, 1-based).
pub fn parse(text: &str) -> Result<Expr, String> {
    let mut p = Parser {
        s: text.as_bytes(),
        at: 0,
    };
    let e = p.expr()?;
    p.skip_ws();
    if p.at < p.s.len() {
        return Err(format!(
            "unexpected '{}' at column {}",
            &text[p.at..],
            p.at + 1
        ));
    }
    Ok(e)
}

impl Parser<'_> {
    fn skip_ws(&mut self) {
        while self.at < self.s.len() && self.s[self.at].is_ascii_whitespace() {
            self.at += 1;
        }
    }

    fn peek(&mut self) -> Option<u8> {
        self.skip_ws();
        self.s.get(self.at).copied()
    }

    fn expr(&mut self) -> Result<Expr, String> {
        let mut left = self.term()?;
        while let Some(op @ (b'+' | b'-')) = self.peek() {
            self.at += 1;
            let right = self.term()?;
            left = Expr::Bin(op as char, Box::new(left), Box::new(right));
        }
        Ok(left)
    }

    fn term(&mut self) -> Result<Expr, String> {
        let mut left = self.unary()?;
        while let Some(op @ (b'*' | b'/' | b'%')) = self.peek() {
            self.at += 1;
            let right = self.unary()?;
            left = Expr::Bin(op as char, Box::new(left), Box::new(right));
        }
        Ok(left)
    }

    fn unary(&mut self) -> Result<Expr, String> {
        match self.peek() {
            Some(b'-') => {
                self.at += 1;
                Ok(Expr::Neg(Box::new(self.unary()?)))
            }
            Some(b'+') => {
                self.at += 1;
                self.unary()
            }
            _ => self.primary(),
        }
    }

    fn word(&mut self) -> String {
        let start = self.at;
        while self.at < self.s.len()
            && (self.s[self.at].is_ascii_alphanumeric() || self.s[self.at] == b'_')
        {
            self.at += 1;
        }
        String::from_utf8_lossy(&self.s[start..self.at]).into_owned()
    }

    fn primary(&mut self) -> Result<Expr, String> {
        let col = self.at + 1;
        match self.peek() {
            None => Err("the expression ends too early".into()),
            Some(b'(') => {
                self.at += 1;
                let e = self.expr()?;
                if self.peek() != Some(b')') {
                    return Err(format!("')' expected at column {}", self.at + 1));
                }
                self.at += 1;
                Ok(e)
            }
            Some(b':') => {
                self.at += 1;
                let name = self.word();
                if name.is_empty() {
                    return Err(format!("variable name expected after ':' at column {col}"));
                }
                Ok(Expr::Var(name))
            }
            Some(c) if c.is_ascii_digit() || c == b'.' => {
                let start = self.at;
                while self.at < self.s.len()
                    && (self.s[self.at].is_ascii_alphanumeric() || self.s[self.at] == b'.')
                {
                    self.at += 1;
                }
                let t = std::str::from_utf8(&self.s[start..self.at]).unwrap_or_default();
                if let Ok(i) = t.parse::<i64>() {
                    return Ok(Expr::Lit(Num::Int(i)));
                }
                t.parse::<f64>()
                    .map(|f| Expr::Lit(Num::Float(f)))
                    .map_err(|_| format!("bad number '{t}' at column {col}"))
            }
            Some(c) if c.is_ascii_alphabetic() => {
                let name = self.word().to_ascii_lowercase();
                let Some(&(_, min, max)) = FUNCTIONS.iter().find(|(n, _, _)| *n == name) else {
                    return Err(format!("unknown function '{name}' at column {col}"));
                };
                if self.peek() != Some(b'(') {
                    return Err(format!(
                        "'(' expected after {name} at column {}",
                        self.at + 1
                    ));
                }
                self.at += 1;
                let mut args = Vec::new();
                if self.peek() == Some(b')') {
                    self.at += 1;
                } else {
                    loop {
                        args.push(self.expr()?);
                        match self.peek() {
                            Some(b',') => self.at += 1,
                            Some(b')') => {
                                self.at += 1;
                                break;
                            }
                            _ => {
                                return Err(format!(
                                    "',' or ')' expected at column {}",
                                    self.at + 1
                                ))
                            }
                        }
                    }
                }
                if args.len() < min || args.len() > max {
                    return Err(format!(
                        "{name} takes {} argument(s), got {}",
                        if min == max {
                            min.to_string()
                        } else {
                            format!("{min} or more")
                        },
                        args.len()
                    ));
                }
                Ok(Expr::Call(name, args))
            }
            Some(c) => Err(format!("unexpected '{}' at column {col}", c as char)),
        }
    }
}

/// What evaluation needs besides the expression: variables, this client's generator, and the
/// run's seed for hash().
pub struct Env<'a> {
    pub vars: &'a dyn Fn(&str) -> Option<Num>,
    pub rng: &'a mut Rng,
    pub default_seed: u64,
}

fn range(lb: i64, ub: i64) -> Result<(), String> {
    if lb > ub {
        return Err(format!(
            "empty range: lower bound {lb} is above upper bound {ub}"
        ));
    }
    Ok(())
}

/// pgbench's hash_murmur2: MurmurHash64A of one 8-byte value.
pub fn murmur2(v: i64, seed: u64) -> i64 {
    const M: u64 = 0xc6a4_a793_5bd1_e995;
    const R: u32 = 47;
    let mut h = seed ^ 8u64.wrapping_mul(M);
    let mut k = v as u64;
    k = k.wrapping_mul(M);
    k ^= k >> R;
    k = k.wrapping_mul(M);
    h ^= k;
    h = h.wrapping_mul(M);
    h ^= h >> R;
    h = h.wrapping_mul(M);
    h ^= h >> R;
    h as i64
}

/// pgbench's hash_fnv1a over the value's 8 bytes, little end first.
pub fn fnv1a(v: i64, seed: u64) -> i64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325 ^ seed;
    for b in (v as u64).to_le_bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h as i64
}

pub fn eval(e: &Expr, env: &mut Env<'_>) -> Result<Num, String> {
    Ok(match e {
        Expr::Lit(n) => n.clone(),
        Expr::Var(name) => {
            (env.vars)(name).ok_or_else(|| format!("variable :{name} is not set"))?
        }
        Expr::Neg(x) => match eval(x, env)? {
            Num::Int(i) => Num::Int(i.wrapping_neg()),
            other => Num::Float(-other.float()?),
        },
        Expr::Bin(op, a, b) => {
            let (a, b) = (eval(a, env)?, eval(b, env)?);
            match (&a, &b) {
                (Num::Int(x), Num::Int(y)) => Num::Int(match op {
                    '+' => x.wrapping_add(*y),
                    '-' => x.wrapping_sub(*y),
                    '*' => x.wrapping_mul(*y),
                    '/' | '%' if *y == 0 => return Err("division by zero".into()),
                    '/' => x.wrapping_div(*y),
                    _ => x.wrapping_rem(*y),
                }),
                _ => {
                    let (x, y) = (a.float()?, b.float()?);
                    Num::Float(match op {
                        '+' => x + y,
                        '-' => x - y,
                        '*' => x * y,
                        '/' if y == 0.0 => return Err("division by zero".into()),
                        '/' => x / y,
                        _ => return Err("% needs integers".into()),
                    })
                }
            }
        }
        Expr::Call(name, args) => {
            let mut v = Vec::with_capacity(args.len());
            for a in args {
                v.push(eval(a, env)?);
            }
            call(name, &v, env)?
        }
    })
}

fn call(name: &str, v: &[Num], env: &mut Env<'_>) -> Result<Num, String> {
    let int = |i: usize| v[i].int();
    let float = |i: usize| v[i].float();
    Ok(match name {
        "random" => {
            let (lb, ub) = (int(0)?, int(1)?);
            range(lb, ub)?;
            let span = (ub as i128 - lb as i128 + 1) as u128;
            Num::Int((lb as i128 + (u128::from(env.rng.next_u64()) % span) as i128) as i64)
        }
        "random_gaussian" => {
            let (lb, ub, p) = (int(0)?, int(1)?, float(2)?);
            range(lb, ub)?;
            if p < 2.0 {
                return Err(format!(
                    "random_gaussian's parameter must be at least 2.0, got {p}"
                ));
            }
            // Box-Muller, redrawn until within p standard deviations; p of them fit in half
            // the range, centred on its middle (pgbench's definition).
            let z = loop {
                let u1 = 1.0 - env.rng.uniform_double();
                let u2 = env.rng.uniform_double();
                let z = (-2.0 * u1.ln()).sqrt() * (2.0 * std::f64::consts::PI * u2).cos();
                if z.abs() < p {
                    break z;
                }
            };
            let rand = (z + p) / (2.0 * p);
            Num::Int(lb + ((ub - lb + 1) as f64 * rand) as i64)
        }
        "random_exponential" => {
            let (lb, ub, p) = (int(0)?, int(1)?, float(2)?);
            range(lb, ub)?;
            if p <= 0.0 {
                return Err(format!(
                    "random_exponential's parameter must be positive, got {p}"
                ));
            }
            let cut = (-p).exp();
            let u = 1.0 - env.rng.uniform_double();
            let rand = -(cut + (1.0 - cut) * u).ln() / p;
            Num::Int(lb + ((ub - lb + 1) as f64 * rand) as i64)
        }
        "random_zipfian" => {
            let (lb, ub, s) = (int(0)?, int(1)?, float(2)?);
            range(lb, ub)?;
            if !(1.001..=1000.0).contains(&s) {
                return Err(format!(
                    "random_zipfian's parameter must be in [1.001, 1000], got {s}"
                ));
            }
            let span = u32::try_from(ub - lb + 1)
                .map_err(|_| "random_zipfian's range is limited to 2^32 values".to_string())?;
            let d = Distribution::new(&DistParams {
                kind: DistKind::Zipfian,
                zipfian_exp: s,
                ..DistParams::default()
            });
            Num::Int(lb + i64::from(d.sample(env.rng, 1, span)) - 1)
        }
        "abs" => match &v[0] {
            Num::Int(i) => Num::Int(i.wrapping_abs()),
            other => Num::Float(other.float()?.abs()),
        },
        "least" | "greatest" => {
            let all_int = v.iter().all(|x| matches!(x, Num::Int(_)));
            let pick_least = name == "least";
            if all_int {
                let it = v.iter().map(|x| x.int().unwrap_or(0));
                Num::Int(if pick_least { it.min() } else { it.max() }.unwrap_or(0))
            } else {
                let mut best = v[0].float()?;
                for x in &v[1..] {
                    let f = x.float()?;
                    best = if pick_least { best.min(f) } else { best.max(f) };
                }
                Num::Float(best)
            }
        }
        "hash" | "hash_murmur2" | "hash_fnv1a" => {
            let seed = if v.len() > 1 {
                int(1)? as u64
            } else {
                env.default_seed
            };
            let x = int(0)?;
            Num::Int(if name == "hash_fnv1a" {
                fnv1a(x, seed)
            } else {
                murmur2(x, seed)
            })
        }
        "int" => Num::Int(int(0)?),
        "double" => Num::Float(float(0)?),
        "sqrt" => Num::Float(float(0)?.sqrt()),
        "pi" => Num::Float(std::f64::consts::PI),
        "mod" => {
            let (a, b) = (int(0)?, int(1)?);
            if b == 0 {
                return Err("division by zero".into());
            }
            Num::Int(a.wrapping_rem(b))
        }
        other => return Err(format!("unknown function '{other}'")),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(text: &str) -> Num {
        let mut rng = Rng::new(7, 1);
        let vars = |n: &str| (n == "scale").then_some(Num::Int(3));
        let mut env = Env {
            vars: &vars,
            rng: &mut rng,
            default_seed: 5,
        };
        eval(&parse(text).unwrap(), &mut env).unwrap()
    }

    #[test]
    fn arithmetic_follows_pgbench() {
        assert_eq!(run("1 + 2 * 3"), Num::Int(7));
        assert_eq!(run("(1 + 2) * 3"), Num::Int(9));
        assert_eq!(run("7 / 2"), Num::Int(3), "integer division truncates");
        assert_eq!(run("-7 % 3"), Num::Int(-1));
        assert_eq!(run("7.0 / 2"), Num::Float(3.5));
        assert_eq!(run("100000 * :scale"), Num::Int(300_000));
        assert_eq!(run("least(5, :scale, 9)"), Num::Int(3));
        assert_eq!(run("greatest(1, 2.5)"), Num::Float(2.5));
        assert_eq!(run("abs(-4)"), Num::Int(4));
        assert_eq!(run("mod(10, 4)"), Num::Int(2));
    }

    #[test]
    fn random_functions_stay_in_range_with_their_shapes() {
        let mut rng = Rng::new(11, 2);
        let vars = |_: &str| None;
        let mut env = Env {
            vars: &vars,
            rng: &mut rng,
            default_seed: 1,
        };
        let mut draw = |text: &str| -> Vec<i64> {
            let e = parse(text).unwrap();
            (0..20_000)
                .map(|_| eval(&e, &mut env).unwrap().int().unwrap())
                .collect()
        };
        let u = draw("random(1, 10)");
        assert!(u.iter().all(|v| (1..=10).contains(v)));
        assert!((1..=10).all(|k| u.iter().filter(|v| **v == k).count() > 1_600));
        let g = draw("random_gaussian(1, 100, 5.0)");
        assert!(g.iter().all(|v| (1..=100).contains(v)));
        let middle = g.iter().filter(|v| (41..=60).contains(*v)).count();
        assert!(
            middle > 10_000,
            "gaussian concentrates in the middle: {middle}"
        );
        let x = draw("random_exponential(1, 100, 5.0)");
        assert!(x.iter().all(|v| (1..=100).contains(v)));
        assert!(
            x.iter().filter(|v| **v <= 20).count() > 12_000,
            "exponential favours the low end"
        );
        let z = draw("random_zipfian(1, 1000, 1.5)");
        assert!(z.iter().all(|v| (1..=1000).contains(v)));
        assert!(
            z.iter().filter(|v| **v == 1).count() > 5_000,
            "zipfian's hottest key is the first"
        );
    }

    #[test]
    fn hashes_match_pgbench() {
        // pgbench 15 -d with `\set h hash_murmur2(1, 0)`, `\set f hash_fnv1a(1, 0)`,
        // `\set g hash_murmur2(-123456789, 42)` and `SELECT :h, :f, :g;` sent these values.
        assert_eq!(murmur2(1, 0), -8089716718896805586);
        assert_eq!(fnv1a(1, 0), -8517097267634966620);
        assert_eq!(murmur2(-123456789, 42), -7458701487178859300);
    }

    #[test]
    fn errors_say_what_and_where() {
        assert!(parse("random(1)")
            .unwrap_err()
            .contains("random takes 2 argument(s), got 1"));
        assert!(parse("1 +").unwrap_err().contains("ends too early"));
        assert!(parse("foo(1)")
            .unwrap_err()
            .contains("unknown function 'foo'"));
        assert!(parse("(1 + 2").unwrap_err().contains("')' expected"));
        assert!(parse("1 $ 2").unwrap_err().contains("unexpected '$ 2'"));
    }
}
