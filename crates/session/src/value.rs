//! What goes into a statement and what comes of it: bound values, sysbench's classification of
//! an executed statement, and the handle of a prepared one.

/// A bound parameter. Strings are borrowed so that generating an event allocates nothing.
#[derive(Clone, Copy, Debug)]
pub enum Value<'a> {
    Int(i64),
    Str(&'a [u8]),
    /// SQL NULL (e.g. to let the server assign an AUTO_INCREMENT id).
    Null,
}

/// sysbench's classification of an executed statement (ref §2.11): a result set is a read,
/// affected rows > 0 is a write, anything else (BEGIN, COMMIT, an UPDATE that matched nothing)
/// is "other".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QueryKind {
    Read,
    Write,
    Other,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct StmtHandle(pub u32);
