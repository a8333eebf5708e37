//! pgbench's expression language, whole (pgbench 15–17): integers, doubles, booleans and NULL;
//! every operator (arithmetic with overflow checks, comparisons, bitwise, three-valued AND/OR/
//! NOT, IS [NOT] NULL/TRUE/FALSE, CASE) and every function (random_*, hash_*, permute, debug,
//! least/greatest, int/double, sqrt/ln/exp/pow, abs, mod, pi).
//!
//! - `lex`: tokens, as pgbench's scanner splits them
//! - `grammar`: tokens to an [`Expr`], with pgbench's precedence and rewrites
//! - `eval`: an [`Expr`] to a [`Value`], with pgbench's coercions and error texts
//! - `prng`: pgbench's random generator and its draws (same values under `--random-seed`)
//! - `hash`: hash_murmur2, hash_fnv1a and permute
//! - `value`, `tree`: values, and expressions as trees
//! - `text`: numbers to and from text as C prints and reads them

pub mod eval;
pub mod grammar;
pub mod hash;
mod lex;
pub mod prng;
mod text;
mod tree;
mod value;

pub use eval::{eval, Env};
pub use grammar::parse;
pub use hash::{fnv1a, murmur2};
pub use text::format_double;
pub use tree::{Expr, Func, SyntaxError};
pub use value::Value;

#[cfg(test)]
mod tests;
