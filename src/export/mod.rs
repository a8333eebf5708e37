//! Renderers of a `RunResult`. Each renders from the result alone.

pub mod html;
pub mod json;
pub mod text;
