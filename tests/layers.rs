//! The crate's layering, read from its `use` lines: scenario reading names no ruleset (the
//! registry in `src/rules/registry.rs` is the one place that lists them), and no source file
//! depends on another that depends back on it, directly or through others.
//!
//! A file depends on the module files it names by a `crate::` or `super::` path outside its
//! `#[cfg(test)]` part; a module's own children (declared with `mod`) are not dependencies of
//! it, so a parent and the children it declares are not a cycle.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The module path of a source file (`rules::zone_d100::melee`; the crate root is empty).
fn module_of(src: &Path, file: &Path) -> Vec<String> {
    let relative = file.strip_prefix(src).unwrap_or(file).with_extension("");
    let mut parts: Vec<String> = relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if parts
        .last()
        .is_some_and(|p| p == "mod" || p == "lib" || p == "main")
    {
        parts.pop();
    }
    parts
}

/// The code of a file before its tests, without comments.
fn code(text: &str) -> String {
    let before_tests = text.split("#[cfg(test)]").next().unwrap_or("");
    before_tests
        .lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The paths that follow each `prefix` in `code` (`crate::rules::registry::Model`, and each
/// item of a `crate::scenario::{error::Source, schema}` group), as segments.
fn paths_after(code: &str, prefix: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    for (at, _) in code.match_indices(prefix) {
        let before = code[..at].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let rest = &code[at + prefix.len()..];
        let head: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
            .collect();
        let base: Vec<String> = head
            .split("::")
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
            .collect();
        let after = &rest[head.len()..];
        if head.ends_with("::") && after.starts_with('{') {
            let group = after[1..].split('}').next().unwrap_or("");
            for item in group.split(',') {
                let item = item.trim().split(" as ").next().unwrap_or("").trim();
                let mut path = base.clone();
                if !item.is_empty() && item != "self" {
                    path.extend(item.split("::").map(str::to_owned));
                }
                out.push(path);
            }
        } else {
            out.push(base);
        }
    }
    out
}

/// Every source file's module and the module files it depends on.
fn dependencies(root: &Path) -> BTreeMap<Vec<String>, BTreeSet<Vec<String>>> {
    let src = root.join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let modules: BTreeMap<Vec<String>, PathBuf> = files
        .iter()
        .map(|f| (module_of(&src, f), f.clone()))
        .collect();
    // The longest module that is a prefix of `path`.
    let resolve = |path: &[String]| {
        (1..=path.len())
            .rev()
            .map(|n| path[..n].to_vec())
            .find(|m| modules.contains_key(m))
    };
    let mut graph = BTreeMap::new();
    for (module, file) in &modules {
        let text = code(&std::fs::read_to_string(file).unwrap_or_default());
        // `super` of module `a::b` is `a`, whether `b` is `a/b.rs` or `a/b/mod.rs`.
        let parent: Vec<String> = module[..module.len().saturating_sub(1)].to_vec();
        let mut deps = BTreeSet::new();
        for path in paths_after(&text, "crate::") {
            if let Some(m) = resolve(&path) {
                deps.insert(m);
            }
        }
        for path in paths_after(&text, "super::") {
            let mut full = parent.clone();
            full.extend(path);
            if let Some(m) = resolve(&full) {
                deps.insert(m);
            } else if modules.contains_key(&parent) {
                deps.insert(parent.clone());
            }
        }
        deps.remove(module);
        deps.remove(&Vec::new());
        graph.insert(module.clone(), deps);
    }
    graph
}

/// The cycles of a graph: its strongly connected components of more than one node.
fn cycles(graph: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>) -> Vec<Vec<Vec<String>>> {
    // Kosaraju: finish order on the graph, then components on the reversed graph.
    fn visit<'g>(
        node: &'g Vec<String>,
        graph: &'g BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
        seen: &mut BTreeSet<&'g Vec<String>>,
        order: &mut Vec<&'g Vec<String>>,
    ) {
        if !seen.insert(node) {
            return;
        }
        for next in graph.get(node).into_iter().flatten() {
            visit(next, graph, seen, order);
        }
        order.push(node);
    }
    let mut seen = BTreeSet::new();
    let mut order = Vec::new();
    for node in graph.keys() {
        visit(node, graph, &mut seen, &mut order);
    }
    let mut reversed: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
    for (from, tos) in graph {
        for to in tos {
            reversed.entry(to.clone()).or_default().insert(from.clone());
        }
    }
    let mut assigned = BTreeSet::new();
    let mut out = Vec::new();
    for node in order.into_iter().rev() {
        let mut component = Vec::new();
        visit(node, &reversed, &mut assigned, &mut component);
        if component.len() > 1 {
            out.push(component.into_iter().cloned().collect());
        }
    }
    out
}

#[test]
fn scenario_reading_names_no_ruleset() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(&root.join("src/scenario"), &mut files);
    let mut rulesets = Vec::new();
    if let Ok(entries) = std::fs::read_dir(root.join("src/rules")) {
        for entry in entries.flatten() {
            let name = entry.path().with_extension("");
            if let Some(stem) = name.file_name() {
                let stem = stem.to_string_lossy().into_owned();
                if stem != "mod" && stem != "registry" {
                    rulesets.push(stem);
                }
            }
        }
    }
    assert!(rulesets.contains(&"zone_d100".to_owned()), "{rulesets:?}");
    assert!(files.len() >= 5, "{files:?}");
    for file in files {
        let text = code(&std::fs::read_to_string(&file).unwrap_or_default());
        assert!(
            !text.contains("crate::rules"),
            "{} uses crate::rules",
            file.display()
        );
        for ruleset in &rulesets {
            assert!(
                !text.contains(&format!("{ruleset}::")),
                "{} names the ruleset module {ruleset}",
                file.display()
            );
        }
    }
}

#[test]
fn no_source_file_depends_on_one_that_depends_back_on_it() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let graph = dependencies(root);
    // The reading sees the dependencies that are there.
    let registry = vec!["rules".to_owned(), "registry".to_owned()];
    let scenario = vec!["scenario".to_owned()];
    assert!(
        graph.get(&registry).is_some_and(|d| d.contains(&scenario)),
        "the registry builds scenarios: {:?}",
        graph.get(&registry)
    );
    let found = cycles(&graph);
    let shown: Vec<Vec<String>> = found
        .iter()
        .map(|c| c.iter().map(|m| m.join("::")).collect())
        .collect();
    assert!(shown.is_empty(), "import cycles: {shown:?}");
}

#[test]
fn a_cycle_is_found_when_there_is_one() {
    let m = |s: &str| vec![s.to_owned()];
    let mut graph = BTreeMap::new();
    graph.insert(m("a"), BTreeSet::from([m("b")]));
    graph.insert(m("b"), BTreeSet::from([m("c")]));
    graph.insert(m("c"), BTreeSet::from([m("a")]));
    graph.insert(m("d"), BTreeSet::from([m("a")]));
    let found = cycles(&graph);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].len(), 3);
    graph.insert(m("c"), BTreeSet::new());
    assert!(cycles(&graph).is_empty());
}

#[test]
fn a_ruleset_is_registered_by_one_line_of_the_registry() {
    // Everything the registry knows of a ruleset comes from its folder (its `Registered`
    // impl, made by `crate::registered!`); the registry names each ruleset's module once, in the list `Model`, `RULESETS`
    // and the dispatch macros are made from.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let registry = std::fs::read_to_string(root.join("src/rules/registry.rs"))
        .unwrap_or_else(|e| panic!("{e}"));
    let registry = code(&registry);
    let mut rulesets = 0;
    for entry in std::fs::read_dir(root.join("src/rules"))
        .unwrap_or_else(|e| panic!("{e}"))
        .flatten()
    {
        let folder = entry.path();
        let module = entry.file_name().to_string_lossy().into_owned();
        let registered = std::fs::read_to_string(folder.join("mod.rs"))
            .is_ok_and(|m| m.contains("crate::registered!("));
        if !registered {
            continue;
        }
        rulesets += 1;
        let named = registry.matches(&format!("rules::{module}::")).count();
        let lines = registry
            .lines()
            .filter(|l| l.contains(&format!("rules::{module}::")))
            .count();
        assert!(
            lines == 1 && named <= 2,
            "src/rules/registry.rs names {module} on {lines} lines; expected one line"
        );
    }
    assert_eq!(rulesets, 5, "the registered rulesets");
}
