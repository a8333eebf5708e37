//! The `dbpress` binary exports sysbench's C functions (`sb_*`, defined in dbpress-lua's
//! `exports.rs`) as dynamic symbols, so a Lua script's `ffi.C.sb_counter_inc(...)` finds them:
//! LuaJIT resolves `ffi.C` names with dlsym on the executable, which sees only what the
//! dynamic symbol table lists. Only those names, not every symbol (`-rdynamic` lists ~1,700).

fn main() {
    let target = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    // GNU ld and lld take --export-dynamic-symbol on ELF targets; elsewhere scripts that call
    // sysbench's C functions by name are not supported yet (#41).
    if target == "linux" {
        println!("cargo:rustc-link-arg-bins=-Wl,--export-dynamic-symbol=sb_*");
    }
    println!("cargo:rerun-if-changed=build.rs");
}
