//! A script's output through dbpress's own stdout (`dbpress_core::out::Stdout`): `print`,
//! `io.write` and `io.stdout:write` are replaced in every state (`prelude/output.lua`) by calls
//! into here. LuaJIT would write them to C's `stdout`, a second buffer beside Rust's: into a pipe
//! the two come out of order (sysbench has one buffer, so a script's lines and its own keep
//! their order, and transcripts of its output rely on it). Called through LuaJIT FFI, not the
//! Lua C API: `print` in an event costs a plain call.

use std::io::Write;

/// `len` bytes at `ptr` to dbpress's stdout, flushed at once: a line without its newline yet
/// (`io.write("x")`) must not wait in Rust's buffer behind what a child (`os.execute`) or the
/// process's exit (`os.exit`, which skips Rust's buffers) writes after it.
extern "C" fn write(ptr: *const u8, len: usize) {
    if ptr.is_null() || len == 0 {
        return;
    }
    // SAFETY: the prelude passes a Lua string's bytes and its length, alive for the call.
    let bytes = unsafe { std::slice::from_raw_parts(ptr, len) };
    let mut out = dbpress_core::out::Stdout;
    let _ = out.write_all(bytes);
    let _ = out.flush();
}

/// Install the replacements in `lua`, before the prelude and the script run.
pub(crate) fn install(lua: &mlua::Lua) -> mlua::Result<()> {
    let addr = write as extern "C" fn(*const u8, usize) as usize;
    lua.load(include_str!("prelude/output.lua"))
        .set_name("@dbpress-prelude/output.lua")
        .call::<()>(addr as f64)
}
