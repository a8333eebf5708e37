//! Tokens to an expression tree with pgbench's grammar. Lowest binding first: OR; AND; NOT;
//! IS/ISNULL/NOTNULL; comparisons (not chained); `| # & << >>`; `+ -`; `* / %`; unary `+ - ~`.
//! pgbench's rewrites are kept, so evaluation matches: `a > b` is `b < a`, `-x` is `0 - x`,
//! `~x` is `-1 # x`, a one-argument hash or two-argument permute reads `:default_seed`.

use super::lex::{tokens, Kw, Spanned, Tok};
use super::tree::{Expr, Func, SyntaxError};
use super::value::Value;

/// (name, function, fewest arguments, most).
const FUNCTIONS: &[(&str, Func, usize, usize)] = &[
    ("abs", Func::Abs, 1, 1),
    ("debug", Func::Debug, 1, 1),
    ("double", Func::Double, 1, 1),
    ("exp", Func::Exp, 1, 1),
    ("greatest", Func::Greatest, 1, usize::MAX),
    ("hash", Func::HashMurmur2, 1, 2),
    ("hash_fnv1a", Func::HashFnv1a, 1, 2),
    ("hash_murmur2", Func::HashMurmur2, 1, 2),
    ("int", Func::Int, 1, 1),
    ("least", Func::Least, 1, usize::MAX),
    ("ln", Func::Ln, 1, 1),
    ("mod", Func::Mod, 2, 2),
    ("permute", Func::Permute, 2, 3),
    ("pi", Func::Pi, 0, 0),
    ("pow", Func::Pow, 2, 2),
    ("power", Func::Pow, 2, 2),
    ("random", Func::Random, 2, 2),
    ("random_exponential", Func::RandomExponential, 3, 3),
    ("random_gaussian", Func::RandomGaussian, 3, 3),
    ("random_zipfian", Func::RandomZipfian, 3, 3),
    ("sqrt", Func::Sqrt, 1, 1),
];

/// Parse a whole expression.
pub fn parse(text: &str) -> Result<Expr, SyntaxError> {
    let mut p = Parser {
        toks: tokens(text)?,
        at: 0,
    };
    let e = p.expr(1)?;
    match p.peek() {
        Tok::End => Ok(e),
        _ => Err(p.syntax_error()),
    }
}

/// An operator between or after operands.
enum Infix {
    /// A function of the two sides; `true`: the sides swapped.
    Binary(Func, bool),
    /// `ISNULL` (false) or `NOTNULL` (true).
    IsNull(bool),
    Is,
}

struct Parser {
    toks: Vec<Spanned>,
    at: usize,
}

fn call(f: Func, args: Vec<Expr>) -> Expr {
    Expr::Call(f, args)
}

fn not(e: Expr) -> Expr {
    call(Func::Not, vec![e])
}

impl Parser {
    fn peek(&self) -> &Tok {
        &self.toks[self.at].0
    }

    /// Where an error at the token ahead points: its last character.
    fn column(&self) -> usize {
        self.toks[self.at].2 - 1
    }

    fn next(&mut self) -> Tok {
        let t = self.toks[self.at].0.clone();
        if self.at + 1 < self.toks.len() {
            self.at += 1;
        }
        t
    }

    fn syntax_error(&self) -> SyntaxError {
        SyntaxError {
            message: "syntax error".into(),
            more: None,
            column: self.column(),
        }
    }

    fn eat_kw(&mut self, kw: Kw) -> bool {
        if *self.peek() == Tok::Kw(kw) {
            self.next();
            return true;
        }
        false
    }

    fn expect(&mut self, t: Tok) -> Result<(), SyntaxError> {
        if *self.peek() != t {
            return Err(self.syntax_error());
        }
        self.next();
        Ok(())
    }

    /// An expression whose operators all bind at `min` or tighter (precedence climbing with
    /// pgbench's levels: 1 OR, 2 AND, 3 NOT, 4 IS, 5 comparisons, 6 bitwise and `~`, 7 `+ -`,
    /// 8 `* / %`, 9 unary `+ -`).
    fn expr(&mut self, min: u8) -> Result<Expr, SyntaxError> {
        let mut left = self.prefix()?;
        let mut last_level = 0;
        loop {
            let Some((level, op)) = self.infix() else {
                return Ok(left);
            };
            if level < min {
                return Ok(left);
            }
            // Comparisons and IS do not chain (`1 < 2 < 3` is a syntax error).
            if (level == 4 || level == 5) && level == last_level {
                return Err(self.syntax_error());
            }
            self.next();
            left = match op {
                Infix::Binary(f, swap) => {
                    let right = self.expr(level + 1)?;
                    if swap {
                        call(f, vec![right, left])
                    } else {
                        call(f, vec![left, right])
                    }
                }
                Infix::IsNull(negated) => {
                    let e = call(Func::Is, vec![left, Expr::Const(Value::Null)]);
                    if negated {
                        not(e)
                    } else {
                        e
                    }
                }
                Infix::Is => self.is_tail(left)?,
            };
            last_level = level;
        }
    }

    /// The operator ahead, if it continues an expression: its level and what it makes.
    fn infix(&self) -> Option<(u8, Infix)> {
        use Func::*;
        let b = |f, level| Some((level, Infix::Binary(f, false)));
        match self.peek() {
            Tok::Kw(Kw::Or) => b(Or, 1),
            Tok::Kw(Kw::And) => b(And, 2),
            Tok::Kw(Kw::Is) => Some((4, Infix::Is)),
            Tok::Kw(Kw::IsNull) => Some((4, Infix::IsNull(false))),
            Tok::Kw(Kw::NotNull) => Some((4, Infix::IsNull(true))),
            Tok::Op("=") => b(Eq, 5),
            Tok::Op("<>" | "!=") => b(Ne, 5),
            Tok::Op("<") => b(Lt, 5),
            Tok::Op("<=") => b(Le, 5),
            // pgbench writes `a > b` as `b < a`: b is evaluated first.
            Tok::Op(">") => Some((5, Infix::Binary(Lt, true))),
            Tok::Op(">=") => Some((5, Infix::Binary(Le, true))),
            Tok::Op("|") => b(BitOr, 6),
            Tok::Op("#") => b(BitXor, 6),
            Tok::Op("&") => b(BitAnd, 6),
            Tok::Op("<<") => b(Shl, 6),
            Tok::Op(">>") => b(Shr, 6),
            Tok::Op("+") => b(Add, 7),
            Tok::Op("-") => b(Sub, 7),
            Tok::Op("*") => b(Mul, 8),
            Tok::Op("/") => b(Div, 8),
            Tok::Op("%") => b(Mod, 8),
            _ => None,
        }
    }

    /// After `IS`: `[NOT] NULL|TRUE|FALSE`.
    fn is_tail(&mut self, left: Expr) -> Result<Expr, SyntaxError> {
        let negated = self.eat_kw(Kw::Not);
        let v = match self.peek() {
            Tok::Kw(Kw::Null) => Value::Null,
            Tok::Kw(Kw::True) => Value::Bool(true),
            Tok::Kw(Kw::False) => Value::Bool(false),
            _ => return Err(self.syntax_error()),
        };
        self.next();
        let e = call(Func::Is, vec![left, Expr::Const(v)]);
        Ok(if negated { not(e) } else { e })
    }

    /// Prefix operators, each taking an operand that binds as tightly as it does.
    fn prefix(&mut self) -> Result<Expr, SyntaxError> {
        match self.peek() {
            Tok::Kw(Kw::Not) => {
                self.next();
                Ok(not(self.expr(3)?))
            }
            Tok::Op("~") => {
                self.next();
                let x = self.expr(7)?;
                Ok(call(Func::BitXor, vec![Expr::Const(Value::Int(-1)), x]))
            }
            Tok::Op("+") => {
                self.next();
                self.expr(9)
            }
            Tok::Op("-") => {
                self.next();
                if *self.peek() == Tok::MaxIntPlusOne {
                    self.next();
                    return Ok(Expr::Const(Value::Int(i64::MIN)));
                }
                let x = self.expr(9)?;
                Ok(call(Func::Sub, vec![Expr::Const(Value::Int(0)), x]))
            }
            _ => self.primary(),
        }
    }

    fn primary(&mut self) -> Result<Expr, SyntaxError> {
        let column = self.column();
        match self.next() {
            Tok::Int(i) => Ok(Expr::Const(Value::Int(i))),
            Tok::Double(d) => Ok(Expr::Const(Value::Double(d))),
            Tok::Kw(Kw::Null) => Ok(Expr::Const(Value::Null)),
            Tok::Kw(Kw::True) => Ok(Expr::Const(Value::Bool(true))),
            Tok::Kw(Kw::False) => Ok(Expr::Const(Value::Bool(false))),
            Tok::Var(name) => Ok(Expr::Var(name)),
            Tok::LParen => {
                let e = self.expr(1)?;
                self.expect(Tok::RParen)?;
                Ok(e)
            }
            Tok::Kw(Kw::Case) => self.case(),
            Tok::Ident(name) => self.function(&name, column),
            _ => Err(SyntaxError {
                message: "syntax error".into(),
                more: None,
                column,
            }),
        }
    }

    fn case(&mut self) -> Result<Expr, SyntaxError> {
        let mut arms = Vec::new();
        while self.eat_kw(Kw::When) {
            let c = self.expr(1)?;
            self.expect(Tok::Kw(Kw::Then))?;
            arms.push((c, self.expr(1)?));
        }
        if arms.is_empty() {
            return Err(self.syntax_error());
        }
        let other = if self.eat_kw(Kw::Else) {
            self.expr(1)?
        } else {
            Expr::Const(Value::Null)
        };
        self.expect(Tok::Kw(Kw::End))?;
        Ok(Expr::Case(arms, Box::new(other)))
    }

    /// A call: the name is looked up before its `(` is read, as pgbench's grammar does. The
    /// argument list may open with one comma (`abs(,-1)`), as pgbench's allows.
    fn function(&mut self, name: &str, column: usize) -> Result<Expr, SyntaxError> {
        let lower = name.to_ascii_lowercase();
        let Some(&(canonical, f, fewest, most)) = FUNCTIONS.iter().find(|(n, ..)| *n == lower)
        else {
            return Err(SyntaxError {
                message: "unexpected function name".into(),
                more: Some(name.to_string()),
                column,
            });
        };
        self.expect(Tok::LParen)?;
        let mut args = Vec::new();
        if *self.peek() == Tok::Comma {
            self.next();
            args.push(self.expr(1)?);
        } else if *self.peek() != Tok::RParen {
            args.push(self.expr(1)?);
        }
        while *self.peek() == Tok::Comma {
            self.next();
            args.push(self.expr(1)?);
        }
        let close = self.column();
        self.expect(Tok::RParen)?;
        let error = |message: &str| SyntaxError {
            message: message.into(),
            more: Some(canonical.to_string()),
            column: close,
        };
        if most == usize::MAX && args.is_empty() {
            return Err(error("at least one argument expected"));
        }
        if args.len() < fewest || args.len() > most {
            return Err(error("unexpected number of arguments"));
        }
        let seeded = matches!(f, Func::HashMurmur2 | Func::HashFnv1a | Func::Permute);
        if seeded && args.len() == fewest {
            args.push(Expr::Var("default_seed".into()));
        }
        Ok(call(f, args))
    }
}
