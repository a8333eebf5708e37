//! Renderers of a `RunResult`. Each renders from the result alone.

pub mod json;
pub mod text;
