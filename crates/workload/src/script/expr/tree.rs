//! An expression as a tree of operators and functions, and a parse error's parts.

use super::value::Value;

/// An operator or function, as pgbench evaluates them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Func {
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    Eq,
    Ne,
    Lt,
    Le,
    BitAnd,
    BitOr,
    BitXor,
    Shl,
    Shr,
    And,
    Or,
    Not,
    Is,
    Abs,
    Debug,
    Double,
    Exp,
    Greatest,
    HashFnv1a,
    HashMurmur2,
    Int,
    Least,
    Ln,
    Permute,
    Pi,
    Pow,
    Random,
    RandomExponential,
    RandomGaussian,
    RandomZipfian,
    Sqrt,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    Const(Value),
    Var(String),
    Call(Func, Vec<Expr>),
    /// `CASE WHEN c THEN v … ELSE e END` (ELSE NULL when absent).
    Case(Vec<(Expr, Expr)>, Box<Expr>),
}

impl Expr {
    /// Every variable the expression reads, in order.
    pub fn variables(&self, out: &mut Vec<String>) {
        match self {
            Expr::Const(_) => {}
            Expr::Var(n) => out.push(n.clone()),
            Expr::Call(_, args) => args.iter().for_each(|a| a.variables(out)),
            Expr::Case(arms, other) => {
                for (c, v) in arms {
                    c.variables(out);
                    v.variables(out);
                }
                other.variables(out);
            }
        }
    }
}

/// A parse error as pgbench reports one: the message, what it is about, and where (0-based
/// byte column in the expression).
#[derive(Clone, Debug, PartialEq)]
pub struct SyntaxError {
    pub message: String,
    pub more: Option<String>,
    pub column: usize,
}

impl std::fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)?;
        if let Some(m) = &self.more {
            write!(f, " ({m})")?;
        }
        write!(f, " at column {}", self.column + 1)
    }
}
