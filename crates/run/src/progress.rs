//! What a run tells as it goes: the vocabulary (`Phase`, the `Progress` sink) is the result
//! contract's, `dbpress_result::progress`, so a renderer of it needs nothing of the runner.
//! Named here as before for the runner's files and the commands (issue 40 item 4 moved it;
//! drop once they import it from the result crate).

pub use dbpress_measure::result::progress::{Phase, Progress};
