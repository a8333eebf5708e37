//! sysbench's packaged Lua scripts given by path (`sysbench /usr/share/sysbench/oltp_read_write.lua
//! run`, pasted as `dbpress /usr/share/sysbench/oltp_read_write.lua run`): only a byte-identical
//! stock script runs as dbpress's built-in workload of the same name, which issues the same SQL.
//! A file at that path is compared with Debian's sysbench 1.0.20 package by its SHA-256; an
//! edited copy (the very case of an `oltp_read_write.lua` changed to let the server pick ids), or
//! any script under `--lua`, runs as written in embedded LuaJIT (`lua_note`, #41), since the
//! built-in workload would measure something else under its name.

use dbpress_core::error::{usage, Result};
use dbpress_core::options::scan::workload_from_test;
use sha2::{Digest, Sha256};

/// SHA-256 of each script in /usr/share/sysbench of Debian's sysbench 1.0.20+ds-5.
const STOCK: [(&str, &str); 12] = [
    (
        "bulk_insert",
        "90ef17c63b8f959fa85f7c459b106b26d44d7f1686bfff467837a4c41d0a84de",
    ),
    (
        "oltp_common",
        "710c3b38027668c83e46f3c0814dc7cfd67cc8c4012df6cab461e46d62b5996a",
    ),
    (
        "oltp_delete",
        "11dc20862684615384145641e0114c1ea76b80d7c9ba8c755e0fd9ad0fe62711",
    ),
    (
        "oltp_insert",
        "46d250ef3be841b1a349b23e6390d6f7adfb2435a239802ef4ceed9873d1cd68",
    ),
    (
        "oltp_point_select",
        "5002f6d702e1099fff451cfba06b03b77fc6a3110144c9a1102bfdb5de14b83d",
    ),
    (
        "oltp_read_only",
        "25eeb32f5877c254c7fceb5f0bc23a2da9ed708a9f07df5b95f0a9fdfe4817eb",
    ),
    (
        "oltp_read_write",
        "d3d68413ecce348242308cf693d5db7a320292e1def93ecc9cb080b2b4f32b45",
    ),
    (
        "oltp_update_index",
        "b79f401177f44f02dacf88175327e5bfd9410c54c75faf347b9458ae638fd21a",
    ),
    (
        "oltp_update_non_index",
        "5c6c923cc000bb6d4a535dd2dafbd3c4da2003c411ad8e585f146be4d713b984",
    ),
    (
        "oltp_write_only",
        "fcb462e264097d93c1d8cd0f7b55151c42261a5ab84ce553e41d6bd8bec8d690",
    ),
    (
        "select_random_points",
        "028832d7ce71e1bd615eaa61149ef1652d828ccfe2dec8d5c39fe35075f06c54",
    ),
    (
        "select_random_ranges",
        "be269a98a901e1305e69653c5fc977299a97487e5ef673051bcacee3c16dfaa0",
    ),
];

/// The built-in workload `path` stands for, and the line that says how it was recognised; or
/// the one line that says why it is refused. `name` is the script's workload name (its stem).
pub fn recognise(path: &str, name: &str) -> Result<String> {
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        // No such file here: the name as sysbench resolves it, through its packaged scripts.
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Ok(format!(
                "{path}: no such file here, taken as sysbench's packaged {name}.lua: running dbpress's built-in {name}"
            ))
        }
        Err(e) => return Err(usage(format!("cannot read the Lua script '{path}': {e}"))),
    };
    let digest = Sha256::digest(&bytes);
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    match STOCK.iter().find(|(n, _)| *n == name) {
        Some((_, stock)) if *stock == hex => Ok(format!(
            "{path} is sysbench 1.0.20's stock {name}.lua (its SHA-256 matches): running dbpress's built-in {name}, which sends the same SQL"
        )),
        _ => Err(usage(format!(
            "'{path}' is not sysbench 1.0.20's stock {name}.lua (its SHA-256 differs: an edited copy?): dbpress does not run Lua, \
             so it cannot measure this script as written; put its SQL in a script for `dbpress script run -f FILE`, \
             or run the built-in workload as `dbpress {name}`"
        ))),
    }
}

/// Why the script at `path` runs in Lua (the notice), or None when it is a stock script that
/// runs as dbpress's built-in workload; the one line when it is neither.
pub fn lua_note(path: &str, force_lua: bool) -> Result<Option<String>> {
    // sysbench takes its packaged scripts by path (`sysbench /usr/share/sysbench/oltp_read_write.lua run`):
    // each byte-identical stock one is one of dbpress's built-in workloads under the same
    // name; anything else runs as written, in Lua.
    let name = workload_from_test(path);
    let exists = std::path::Path::new(path).is_file();
    if force_lua {
        return Ok(Some(format!(
            "{path}: --lua given: running the script in embedded LuaJIT"
        )));
    }
    if dbpress_workload::registry::known(&name).is_err() {
        if !exists {
            return Err(usage(format!(
                "cannot find the Lua script '{path}' (no such file): give the path of a sysbench script, \
                 or a built-in workload (`dbpress list`)"
            )));
        }
        return Ok(Some(format!(
            "{path} is not one of sysbench's stock scripts: running it in embedded LuaJIT"
        )));
    }
    match recognise(path, &name) {
        Ok(_) => Ok(None),
        Err(_) if exists => Ok(Some(format!(
            "{path} is not sysbench 1.0.20's stock {name}.lua (its SHA-256 differs): running it as written, in embedded LuaJIT"
        ))),
        Err(e) => Err(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn issue_34_only_the_stock_script_maps_to_the_built_in_workload() {
        let dir = std::env::temp_dir().join(format!("dbpress-stock-lua-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let edited = dir.join("oltp_read_write.lua");
        std::fs::write(&edited, "-- edited\nfunction event() end\n").unwrap();
        let e = recognise(edited.to_str().unwrap(), "oltp_read_write")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("is not sysbench 1.0.20's stock oltp_read_write.lua"),
            "{e}"
        );
        let missing = dir.join("nowhere/oltp_read_write.lua");
        let note = recognise(missing.to_str().unwrap(), "oltp_read_write").unwrap();
        assert!(note.contains("no such file here"), "{note}");
        // The packaged script itself, where this machine has it (always in CI: scripts/test.sh
        // installs sysbench).
        let stock = "/usr/share/sysbench/oltp_point_select.lua";
        let ci = std::env::var("CI").is_ok_and(|v| v == "true" || v == "1");
        assert!(
            std::path::Path::new(stock).exists() || !ci,
            "{stock} missing: scripts/services.sh sysbench installs it"
        );
        if std::path::Path::new(stock).exists() {
            let note = recognise(stock, "oltp_point_select").unwrap();
            assert!(note.contains("SHA-256 matches"), "{note}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
