//! A bare test name found as sysbench finds it: a file of that name, else the module
//! `require(name)` would load from `package.path` (`LUA_PATH` with `;;` for the default, the
//! current folder, LuaRocks' and the system's Lua folders, sysbench's packaged scripts).

/// sysbench's default search path, its packaged scripts last.
fn default_path() -> String {
    let home = std::env::var("HOME").unwrap_or_default();
    [
        "./?.lua".to_string(),
        "./?/init.lua".to_string(),
        "./src/lua/?.lua".to_string(),
        format!("{home}/.luarocks/share/lua/5.1/?.lua"),
        format!("{home}/.luarocks/share/lua/5.1/?/init.lua"),
        "/usr/local/share/lua/5.1/?.lua".to_string(),
        "/usr/local/share/lua/5.1/?/init.lua".to_string(),
        "/usr/share/lua/5.1/?.lua".to_string(),
        "/usr/share/lua/5.1/?/init.lua".to_string(),
        "/usr/local/share/sysbench/?.lua".to_string(),
        "/usr/share/sysbench/?.lua".to_string(),
    ]
    .join(";")
}

/// The script `name` names: the file itself, or the first module file on the search path.
pub fn find(name: &str) -> Option<String> {
    if std::path::Path::new(name).is_file() {
        return Some(name.to_string());
    }
    if name.contains('/') {
        return None;
    }
    let path = match std::env::var("LUA_PATH") {
        Ok(p) => p.replace(";;", &format!(";{};", default_path())),
        Err(_) => default_path(),
    };
    let module = name.replace('.', "/");
    path.split(';')
        .filter(|t| t.contains('?'))
        .map(|t| t.replace('?', &module))
        .find(|f| std::path::Path::new(f).is_file())
}
