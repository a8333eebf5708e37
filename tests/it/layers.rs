//! The house, checked from the code's own imports (issue #31): in every crate of the workspace
//! no file imports a file that imports it back, directly or around a circle, nor a top-level
//! module one that imports it back; and the modules of
//! the `dbpress` crate import only the layers below their own, in the order docs/ARCHITECTURE.md
//! draws. Between crates Cargo forbids circles already.
//!
//! Imports are read as text: `crate::a::b`, `super::x`, `self::x`, grouped `{…}` paths, and a
//! child module named by its own name (`worker::Worker` in runner/mod.rs). Comments and test
//! modules (`#[cfg(test)] mod …` and `tests.rs`) are left out: tests may reach anywhere.
//!
//! And the foundations (issue #40): `dbpress-core` on no crate of the workspace, the result
//! contract on serde alone, and the store and the renderers, by `cargo tree` (their tests
//! too), on no TLS, protocol client, driver, measuring side or runner.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The `dbpress` crate's top-level modules, highest layer first. A module may import modules
/// of its own layer (without a circle) and of the layers below it, never one above. The layers
/// under these are crates (`crates/`), whose order Cargo keeps.
const LAYERS: &[(&str, &[&str])] = &[
    ("entry", &["lib", "main", "commands"]),
    (
        "subcommands",
        &["mysqlslap", "pgbench", "slap", "script", "tpcc_mysql"],
    ),
    ("runs", &["sweep", "run", "store_option"]),
    ("grammar", &["cli"]),
];

struct Crate {
    name: String,
    src: PathBuf,
    /// Module path (`["runner", "worker"]`) → file.
    modules: BTreeMap<Vec<String>, PathBuf>,
}

fn workspace() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn crates() -> Vec<Crate> {
    let root = workspace();
    let mut dirs = vec![("dbpress".to_string(), root.join("src"))];
    let mut members: Vec<_> = std::fs::read_dir(root.join("crates"))
        .expect("crates/ is there")
        .map(|e| e.unwrap().path())
        .collect();
    members.sort();
    for m in members {
        let name = m.file_name().unwrap().to_string_lossy().into_owned();
        dirs.push((name, m.join("src")));
    }
    dirs.into_iter()
        .map(|(name, src)| {
            let mut modules = BTreeMap::new();
            collect(&src, &src, &mut modules);
            Crate { name, src, modules }
        })
        .collect()
}

fn collect(src: &Path, dir: &Path, out: &mut BTreeMap<Vec<String>, PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            collect(src, &p, out);
            continue;
        }
        let stem = p.file_stem().unwrap().to_string_lossy().into_owned();
        if p.extension().is_none_or(|e| e != "rs") || stem == "tests" {
            continue;
        }
        let mut path: Vec<String> = p
            .parent()
            .unwrap()
            .strip_prefix(src)
            .unwrap()
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        match stem.as_str() {
            "mod" => {}
            "lib" | "main" if path.is_empty() => path.push(stem),
            _ => path.push(stem),
        }
        out.insert(path, p);
    }
}

/// The code a file runs, without comments and test modules.
fn code_of(file: &Path) -> String {
    let text = without_test_modules(&std::fs::read_to_string(file).unwrap());
    text.lines()
        .map(|l| match l.find("//") {
            Some(at) => &l[..at],
            None => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// `text` without its `#[cfg(test)] mod …` items: a one-line `mod x;` or a `mod x { … }`
/// block (to its matching brace), keeping the code before and after each.
fn without_test_modules(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find("#[cfg(test)]\nmod ") {
        out.push_str(&rest[..at]);
        let item = &rest[at..];
        let (semi, open) = (item.find(';'), item.find('{'));
        rest = match (semi, open) {
            (Some(s), o) if o.is_none_or(|o| s < o) => &item[s + 1..],
            (_, Some(o)) => {
                let mut depth = 0;
                let end = item[o..]
                    .char_indices()
                    .find(|&(_, c)| {
                        depth += match c {
                            '{' => 1,
                            '}' => -1,
                            _ => 0,
                        };
                        depth == 0
                    })
                    .map_or(item.len(), |(i, _)| o + i + 1);
                &item[end..]
            }
            _ => "",
        };
    }
    out.push_str(rest);
    out
}

fn is_ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// Every path written after `at` (just past a `crate::`, `super::` or a module's name and its
/// `::`): `a::b::c`, or each path of a `{a::b, c}` group.
fn paths_at(code: &[u8], mut at: usize) -> Vec<Vec<String>> {
    let mut prefix = Vec::new();
    loop {
        let start = at;
        while at < code.len() && is_ident(code[at]) {
            at += 1;
        }
        if at == start {
            break;
        }
        prefix.push(String::from_utf8_lossy(&code[start..at]).into_owned());
        if code[at..].starts_with(b"::") {
            at += 2;
        } else {
            return vec![prefix];
        }
    }
    if code.get(at) != Some(&b'{') {
        return vec![prefix];
    }
    // A group: its paths, each after the prefix; nested groups are read the same way.
    let mut out = Vec::new();
    let mut depth = 0;
    let mut item = at + 1;
    for i in at..code.len() {
        match code[i] {
            b'{' => depth += 1,
            b'}' | b',' if depth == 1 => {
                let mut k = item;
                while k < i && code[k].is_ascii_whitespace() {
                    k += 1;
                }
                for p in paths_at(&code[..i], k) {
                    out.push(prefix.iter().cloned().chain(p).collect());
                }
                item = i + 1;
                if code[i] == b'}' {
                    break;
                }
            }
            b'}' => depth -= 1,
            _ => {}
        }
    }
    out
}

/// The files `file` (module `me`) imports within its crate.
fn imports(c: &Crate, me: &[String], file: &Path) -> BTreeSet<PathBuf> {
    let code = code_of(file);
    let bytes = code.as_bytes();
    // The module a file's `super` names: a mod.rs or lib.rs is its folder's module.
    let own: Vec<String> = me
        .iter()
        .filter(|s| !(s.as_str() == "lib" || s.as_str() == "main"))
        .cloned()
        .collect();
    let children: Vec<String> = c
        .modules
        .keys()
        .filter(|k| k.len() == own.len() + 1 && k.starts_with(&own))
        .map(|k| k.last().unwrap().clone())
        .collect();
    let mut found = BTreeSet::new();
    let mut i = 0;
    while i < bytes.len() {
        if i > 0 && (is_ident(bytes[i - 1]) || bytes[i - 1] == b':') {
            i += 1;
            continue;
        }
        let rest = &bytes[i..];
        let mut base: Option<(Vec<String>, usize)> = None;
        if rest.starts_with(b"crate::") {
            base = Some((Vec::new(), i + 7));
        } else if rest.starts_with(b"self::") {
            base = Some((own.clone(), i + 6));
        } else if rest.starts_with(b"super::") {
            let mut up = own.clone();
            let mut at = i;
            while bytes[at..].starts_with(b"super::") {
                up.pop();
                at += 7;
            }
            base = Some((up, at));
        } else if let Some(child) = children.iter().find(|ch| {
            rest.starts_with(ch.as_bytes())
                && rest[ch.len()..].starts_with(b"::")
                && !bytes[i..].starts_with(b"std::")
        }) {
            let mut p = own.clone();
            p.push(child.clone());
            base = Some((p, i + child.len() + 2));
        }
        if let Some((prefix, at)) = base {
            for tail in paths_at(bytes, at) {
                let full: Vec<String> = prefix.iter().cloned().chain(tail).collect();
                // The longest leading part that names a module file.
                if let Some(target) = (0..=full.len())
                    .rev()
                    .find_map(|n| c.modules.get(&full[..n]))
                    .or_else(|| c.modules.get(&vec!["lib".to_string()]))
                {
                    if target != file {
                        found.insert(target.clone());
                    }
                }
            }
        }
        i += 1;
    }
    found
}

fn graph(c: &Crate) -> BTreeMap<PathBuf, BTreeSet<PathBuf>> {
    c.modules
        .iter()
        .map(|(m, f)| (f.clone(), imports(c, m, f)))
        .collect()
}

/// The circles of `g`: each strongly connected set of two or more files.
fn circles(g: &BTreeMap<PathBuf, BTreeSet<PathBuf>>) -> Vec<Vec<PathBuf>> {
    let reach = |from: &PathBuf| {
        let mut seen = BTreeSet::new();
        let mut todo = vec![from.clone()];
        while let Some(f) = todo.pop() {
            for n in g.get(&f).into_iter().flatten() {
                if seen.insert(n.clone()) {
                    todo.push(n.clone());
                }
            }
        }
        seen
    };
    let reached: BTreeMap<&PathBuf, BTreeSet<PathBuf>> = g.keys().map(|f| (f, reach(f))).collect();
    let mut out: Vec<Vec<PathBuf>> = Vec::new();
    for f in g.keys() {
        if !reached[f].contains(f) || out.iter().any(|c| c.contains(f)) {
            continue;
        }
        let circle: Vec<PathBuf> = g
            .keys()
            .filter(|o| reached[f].contains(*o) && reached[*o].contains(f))
            .cloned()
            .collect();
        out.push(circle);
    }
    out
}

fn shown(p: &Path) -> String {
    p.strip_prefix(workspace())
        .unwrap_or(p)
        .display()
        .to_string()
}

#[test]
fn issue31_no_file_imports_a_file_that_imports_it_back() {
    let mut found = Vec::new();
    for c in crates() {
        let files = graph(&c);
        for circle in circles(&files) {
            let files: Vec<String> = circle.iter().map(|p| shown(p)).collect();
            found.push(format!("{}: {}", c.name, files.join(" ⇄ ")));
        }
        // The same between top-level modules (a folder is one): `a/x.rs` importing `b/y.rs`
        // while `b/z.rs` imports `a/w.rs` is a circle of modules though no file closes one.
        let top = |p: &PathBuf| -> PathBuf {
            let rel = p.strip_prefix(&c.src).unwrap();
            let first = rel
                .components()
                .next()
                .unwrap()
                .as_os_str()
                .to_string_lossy();
            c.src.join(first.trim_end_matches(".rs"))
        };
        let mut modules: BTreeMap<PathBuf, BTreeSet<PathBuf>> = BTreeMap::new();
        for (from, targets) in &files {
            let entry = modules.entry(top(from)).or_default();
            entry.extend(targets.iter().map(top).filter(|t| *t != top(from)));
        }
        for circle in circles(&modules) {
            let names: Vec<String> = circle.iter().map(|p| shown(p)).collect();
            found.push(format!("{} (modules): {}", c.name, names.join(" ⇄ ")));
        }
    }
    assert!(found.is_empty(), "import circles:\n{}", found.join("\n"));
}

#[test]
fn issue31_the_tools_modules_import_only_their_own_layer_and_those_below() {
    let c = crates().remove(0);
    let layer_of = |m: &str| LAYERS.iter().position(|(_, ms)| ms.contains(&m));
    let top = |p: &Path| {
        let rel = p.strip_prefix(workspace().join("src")).unwrap();
        let first = rel
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_string_lossy();
        first.trim_end_matches(".rs").to_string()
    };
    let mut upward = Vec::new();
    for (file, targets) in graph(&c) {
        let from = top(&file);
        let from_layer = layer_of(&from)
            .unwrap_or_else(|| panic!("src/{from} is in no layer: add it to LAYERS"));
        for t in targets {
            let to = top(&t);
            let to_layer = layer_of(&to).expect("every module is in a layer");
            // Lower layers come later in LAYERS.
            if to_layer < from_layer {
                upward.push(format!(
                    "{} ({}) imports {} ({})",
                    shown(&file),
                    LAYERS[from_layer].0,
                    shown(&t),
                    LAYERS[to_layer].0
                ));
            }
        }
    }
    assert!(
        upward.is_empty(),
        "imports that run up a layer:\n{}",
        upward.join("\n")
    );
}

#[test]
fn issue31_the_import_reader_sees_what_it_must() {
    // The checks above are only as good as this reader: a circle planted in text is found.
    let dir = std::env::temp_dir().join(format!("dbpress-layers-{}", std::process::id()));
    let src = dir.join("src");
    std::fs::create_dir_all(src.join("runner")).unwrap();
    std::fs::write(src.join("lib.rs"), "pub mod runner;\n").unwrap();
    std::fs::write(
        src.join("runner/mod.rs"),
        // The import after a one-line test module counts (crates/config/src/lib.rs has one).
        "mod worker;\n// crate::nothing in a comment\n#[cfg(test)]\nmod tests;\npub fn go() { worker::run() }\npub struct Shared;\n",
    )
    .unwrap();
    std::fs::write(
        src.join("runner/worker.rs"),
        "use super::{Shared, other::{X}};\npub fn run() {}\n#[cfg(test)]\nmod tests { use crate::lib; }\n",
    )
    .unwrap();
    let mut modules = BTreeMap::new();
    collect(&src, &src, &mut modules);
    let c = Crate {
        name: "t".into(),
        src: src.clone(),
        modules,
    };
    let g = graph(&c);
    let _ = std::fs::remove_dir_all(&dir);
    let circle = circles(&g);
    assert_eq!(circle.len(), 1, "{g:?}");
    assert_eq!(
        circle[0]
            .iter()
            .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
            .collect::<Vec<_>>(),
        ["mod.rs", "worker.rs"]
    );
}

/// The crates a crate's Cargo.toml depends on (its `[dependencies]`, not its
/// dev-dependencies), by name.
fn dependencies(name: &str) -> Vec<String> {
    let manifest = workspace().join("crates").join(name).join("Cargo.toml");
    let text = std::fs::read_to_string(&manifest).unwrap();
    let mut section = String::new();
    let mut found = Vec::new();
    for line in text.lines().map(str::trim) {
        if line.starts_with('[') {
            section = line.to_string();
        } else if section == "[dependencies]" && !line.is_empty() && !line.starts_with('#') {
            found.push(line.split([' ', '=']).next().unwrap().to_string());
        }
    }
    found
}

/// The workspace crates among them.
fn workspace_dependencies(name: &str) -> Vec<String> {
    dependencies(name)
        .into_iter()
        .filter(|d| d.starts_with("dbpress-"))
        .collect()
}

/// Issue 40: the foundations at the bottom. `dbpress-core` (errors, signals, options, random
/// numbers) is what every layer shares, so it stands on no crate of the workspace.
#[test]
fn issue40_core_depends_on_no_workspace_crate() {
    assert_eq!(
        workspace_dependencies("core"),
        Vec::<String>::new(),
        "crates/core/Cargo.toml"
    );
    // The reader itself sees a workspace dependency where there is one.
    assert!(workspace_dependencies("config").contains(&"dbpress-core".to_string()));
}

/// Issue 40: the result contract (`dbpress-result`) is the bottom the drivers and measurement
/// fill in and the store and the renderers read; anything but serde under it would be built by
/// all of them, and would let a driver's type change the result's schema unseen.
#[test]
fn issue40_the_result_contract_depends_on_serde_alone() {
    assert_eq!(
        dependencies("result"),
        ["serde"],
        "crates/result/Cargo.toml: the result contract depends on serde alone"
    );
    // The reader sees an outside crate where there is one.
    assert!(dependencies("store").contains(&"rusqlite".to_string()));
}

/// What the store and the renderers must not build: TLS, a protocol client, the drivers, the
/// measuring side, the runner (issue 40: they read results, they do not make them).
const NOT_UNDER_STORE_OR_REPORT: &[&str] = &[
    "rustls",
    "ring",
    "mysql",
    "dbpress-pg",
    "dbpress-mysql",
    "dbpress-net",
    "dbpress-run",
    "dbpress-driver",
    "dbpress-measure",
];

/// Every package `cargo tree -p package` lists under it, by name: along its default edges,
/// normal, build and dev, so what building it or its tests builds (issue 40 asks this of the
/// plain command: a dev-dependency pulling in a driver counts as much as a dependency).
fn tree(package: &str) -> BTreeSet<String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = std::process::Command::new(cargo)
        .args(["tree", "--offline", "-p", package])
        .args(["--prefix", "none", "--format", "{p}"])
        .current_dir(workspace())
        .output()
        .expect("cargo tree runs");
    assert!(
        out.status.success(),
        "cargo tree -p {package}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let names: BTreeSet<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .map(str::to_string)
        .collect();
    // The tree is read at all: the package itself is its first line.
    assert!(
        names.contains(package),
        "cargo tree -p {package}: {names:?}"
    );
    names
}

fn forbidden_under(package: &str) -> Vec<String> {
    let tree = tree(package);
    NOT_UNDER_STORE_OR_REPORT
        .iter()
        .filter(|name| tree.contains(**name))
        .map(|name| name.to_string())
        .collect()
}

#[test]
fn issue40_the_store_builds_no_tls_protocol_client_driver_or_runner() {
    assert_eq!(
        forbidden_under("dbpress-store"),
        Vec::<String>::new(),
        "cargo tree -p dbpress-store (dev-dependencies too)"
    );
}

#[test]
fn issue40_the_renderers_build_no_tls_protocol_client_driver_or_runner() {
    assert_eq!(
        forbidden_under("dbpress-report"),
        Vec::<String>::new(),
        "cargo tree -p dbpress-report (dev-dependencies too)"
    );
    // The check sees what is there: the runner builds every one of them.
    let run = forbidden_under("dbpress-run");
    for name in [
        "rustls",
        "dbpress-driver",
        "dbpress-measure",
        "dbpress-mysql",
    ] {
        assert!(run.contains(&name.to_string()), "{run:?}");
    }
}
