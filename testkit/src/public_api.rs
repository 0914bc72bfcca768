//! A crate's public surface, listed from its source, checked against a
//! committed list so that it does not grow by accident.
//!
//! [`check`] reads `src/` with `syn`, follows the public modules and the
//! `pub use` re-exports from `lib.rs`, and lists every item a user can
//! name: functions, types, constants, their public fields and variants, the
//! public methods of their inherent impls (in whichever module), their trait
//! impls and derives.
//! Items of `include!`d files (generated code) are not listed. The list is
//! compared with the committed file, one item a line.
//!
//! When the surface changes on purpose, the test is run with
//! `KWIRE_BLESS=1` ([`crate::bless`]), which rewrites the list; the diff is
//! reviewed with the change.
//!
//! What is not followed fails the check rather than being missed: glob
//! re-exports (`pub use x::*`), a `pub use` of a path the crate does not
//! define, and a public module whose file is not found.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use quote::ToTokens;

/// A module of the crate: its path from the crate root and its items.
struct Module {
    path: Vec<String>,
    items: Vec<syn::Item>,
    /// The names its `use` items bring in ([`imports`]), read once.
    imports: Vec<(Vec<String>, String)>,
}

/// Every module of the crate, public or not (a `pub use` may name an item
/// of a private module), keyed by path.
struct Crate {
    modules: Vec<Module>,
}

impl Crate {
    fn read(src: &Path) -> Result<Self, String> {
        let mut krate = Crate { modules: Vec::new() };
        krate.load(Vec::new(), &src.join("lib.rs"), src.to_path_buf())?;
        Ok(krate)
    }

    /// Loads the module at `path` from `file`, its child modules from `dir`.
    fn load(&mut self, path: Vec<String>, file: &Path, dir: PathBuf) -> Result<(), String> {
        let text = std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
        let parsed = syn::parse_file(&text).map_err(|e| format!("{}: {e}", file.display()))?;
        self.add(path, parsed.items, &dir)
    }

    fn add(&mut self, path: Vec<String>, items: Vec<syn::Item>, dir: &Path) -> Result<(), String> {
        for item in &items {
            let syn::Item::Mod(m) = item else { continue };
            if is_test_only(&m.attrs) {
                continue;
            }
            let name = m.ident.to_string();
            let mut child = path.clone();
            child.push(name.clone());
            match &m.content {
                Some((_, inline)) => self.add(child, inline.clone(), &dir.join(&name))?,
                None => {
                    let (flat, nested) = (dir.join(format!("{name}.rs")), dir.join(&name).join("mod.rs"));
                    let file = if flat.exists() { flat } else { nested };
                    if !file.exists() {
                        return Err(format!(
                            "module {}: neither {name}.rs nor {name}/mod.rs in {}",
                            child.join("::"),
                            dir.display()
                        ));
                    }
                    self.load(child, &file, dir.join(&name))?;
                }
            }
        }
        let imports = imports(&items);
        self.modules.push(Module { path, items, imports });
        Ok(())
    }

    /// True when `path`, written in module `at`, names the item `target`
    /// (its module and name): directly, through an import of `at` (for a
    /// one-segment path), or through re-exports, followed at most `depth`
    /// times.
    fn leads_to(&self, at: &[String], path: &[String], target: &(Vec<String>, String), depth: usize) -> bool {
        if depth == 0 || path.is_empty() {
            return false;
        }
        let Ok(module) = self.module(at) else { return false };
        if let [name] = path {
            if module.path == target.0 && *name == target.1 {
                return true;
            }
            // A name that `at` imports.
            return module.imports.iter().any(|(p, n)| n == name && self.leads_to(at, p, target, depth - 1));
        }
        let Ok((module, name)) = resolve(at, path) else { return false };
        self.leads_to(&module, &[name], target, depth - 1)
    }

    fn module(&self, path: &[String]) -> Result<&Module, String> {
        self.modules.iter().find(|m| m.path == path).ok_or_else(|| format!("no module {}", path.join("::")))
    }
}

/// True for items compiled only for tests.
fn is_test_only(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| a.path().is_ident("cfg") && a.meta.to_token_stream().to_string().contains("test"))
}

fn is_pub(vis: &syn::Visibility) -> bool {
    matches!(vis, syn::Visibility::Public(_))
}

/// Token text with the spaces the token printer puts everywhere taken out
/// where Rust code has none, e.g. `& [(String , String)]` → `&[(String, String)]`,
/// and trailing commas, so that how a signature is formatted does not change it.
fn tidy(tokens: impl ToTokens) -> String {
    let mut s = tokens.to_token_stream().to_string();
    for (from, to) in [
        (" :: ", "::"),
        (":: ", "::"),
        (" ,", ","),
        ("( ", "("),
        (" )", ")"),
        ("[ ", "["),
        (" ]", "]"),
        (" ;", ";"),
        (" <", "<"),
        ("< ", "<"),
        (" >", ">"),
        ("& ", "&"),
        (" :", ":"),
        ("# ", "#"),
        // A trailing comma (rustfmt adds one when it breaks a list over lines).
        (",)", ")"),
        (",>", ">"),
        (",]", "]"),
        (",}", "}"),
    ] {
        while s.contains(from) {
            s = s.replace(from, to);
        }
    }
    let s = s.replace("->", " -> ").replace("  ", " ");
    s.strip_suffix(',').map_or(s.clone(), str::to_owned)
}

/// The list: every public item, one a line.
struct Surface<'a> {
    krate: &'a Crate,
    name: &'a str,
    lines: BTreeSet<String>,
}

impl Surface<'_> {
    /// Lists the public items of the module at `at`, reachable as `shown`.
    fn module(&mut self, at: &[String], shown: &str) -> Result<(), String> {
        let module = self.krate.module(at)?;
        for item in &module.items {
            match item {
                syn::Item::Mod(m) if is_pub(&m.vis) && !is_test_only(&m.attrs) => {
                    let name = m.ident.to_string();
                    self.lines.insert(format!("mod {shown}::{name}{}", markers(&m.attrs)));
                    let mut child = at.to_vec();
                    child.push(name.clone());
                    self.module(&child, &format!("{shown}::{name}"))?;
                }
                syn::Item::Use(u) if is_pub(&u.vis) && !is_test_only(&u.attrs) => {
                    let mut leaves = Vec::new();
                    use_leaves(&u.tree, Vec::new(), &mut leaves, Globs::Fail)?;
                    for (path, name) in leaves {
                        self.reexport(at, &path, &format!("{shown}::{name}"))?;
                    }
                }
                other => self.item(at, other, shown, None)?,
            }
        }
        Ok(())
    }

    /// Lists the item `path` (as written in a `pub use` in module `at`),
    /// reachable as `shown`.
    fn reexport(&mut self, at: &[String], path: &[String], shown: &str) -> Result<(), String> {
        let (module, name) = resolve(at, path)?;
        let Ok(target) = self.krate.module(&module) else {
            // A re-export of another crate's item: listed by its path there.
            let local = matches!(path.first().map(String::as_str), Some("crate" | "self" | "super"));
            if local {
                return Err(format!("pub use {}: module {} not found", path.join("::"), module.join("::")));
            }
            self.lines.insert(format!("use {} as {shown}", path.join("::")));
            return Ok(());
        };
        let mut found = false;
        for item in &target.items {
            if item_name(item).as_deref() != Some(name.as_str()) {
                continue;
            }
            found = true;
            match item {
                syn::Item::Mod(_) => {
                    self.lines.insert(format!("mod {shown}"));
                    let mut child = module.clone();
                    child.push(name.clone());
                    self.module(&child, shown)?;
                }
                other => {
                    let parent = shown.rsplit_once("::").map_or(shown, |(p, _)| p).to_owned();
                    self.item(&module, other, &parent, Some(shown))?;
                }
            }
        }
        if !found {
            // A re-export of a re-export.
            for item in &target.items {
                let syn::Item::Use(u) = item else { continue };
                if has_glob(&u.tree) {
                    continue;
                }
                let mut leaves = Vec::new();
                use_leaves(&u.tree, Vec::new(), &mut leaves, Globs::Fail)?;
                if let Some((inner, _)) = leaves.into_iter().find(|(_, n)| *n == name) {
                    return self.reexport(&module, &inner, shown);
                }
            }
            // A module that `include!`s generated code or defines items with a
            // macro: those items are not read, only named.
            let macros = target.items.iter().any(|i| matches!(i, syn::Item::Macro(_)));
            if !macros {
                return Err(format!("pub use {}: no item {name} in module {}", path.join("::"), module.join("::")));
            }
            self.lines.insert(format!("use {}::{name} as {shown} (generated)", module.join("::")));
        }
        Ok(())
    }

    /// Lists one item of module `at` (when public, or when re-exported: then
    /// `renamed` is its full public path).
    fn item(&mut self, at: &[String], item: &syn::Item, shown: &str, renamed: Option<&str>) -> Result<(), String> {
        let path = |ident: &syn::Ident| renamed.map_or_else(|| format!("{shown}::{ident}"), str::to_owned);
        let visible = |vis: &syn::Visibility, attrs: &[syn::Attribute]| {
            (renamed.is_some() || is_pub(vis)) && !is_test_only(attrs)
        };
        match item {
            syn::Item::Fn(f) if visible(&f.vis, &f.attrs) => {
                self.lines.insert(format!("fn {}{}", path(&f.sig.ident), signature(&f.sig)));
            }
            syn::Item::Const(c) if visible(&c.vis, &c.attrs) => {
                self.lines.insert(format!("const {}: {}", path(&c.ident), tidy(&c.ty)));
            }
            syn::Item::Static(s) if visible(&s.vis, &s.attrs) => {
                self.lines.insert(format!("static {}: {}", path(&s.ident), tidy(&s.ty)));
            }
            syn::Item::Type(t) if visible(&t.vis, &t.attrs) => {
                self.lines.insert(format!("type {}{} = {}", path(&t.ident), tidy(&t.generics), tidy(&t.ty)));
            }
            syn::Item::Struct(s) if visible(&s.vis, &s.attrs) => {
                let p = path(&s.ident);
                self.lines.insert(format!("struct {p}{}{}", tidy(&s.generics), markers(&s.attrs)));
                self.fields(&p, &s.fields, false);
                self.impls(at, &s.ident, &s.attrs, &p)?;
            }
            syn::Item::Enum(e) if visible(&e.vis, &e.attrs) => {
                let p = path(&e.ident);
                self.lines.insert(format!("enum {p}{}{}", tidy(&e.generics), markers(&e.attrs)));
                for v in &e.variants {
                    let vp = format!("{p}::{}", v.ident);
                    self.lines.insert(format!("variant {vp}{}", markers(&v.attrs)));
                    self.fields(&vp, &v.fields, true);
                }
                self.impls(at, &e.ident, &e.attrs, &p)?;
            }
            syn::Item::Trait(t) if visible(&t.vis, &t.attrs) => {
                let p = path(&t.ident);
                self.lines.insert(format!("trait {p}{}", tidy(&t.generics)));
                for ti in &t.items {
                    if let syn::TraitItem::Fn(f) = ti {
                        self.lines.insert(format!("fn {p}::{}{}", f.sig.ident, signature(&f.sig)));
                    }
                }
            }
            syn::Item::Macro(m) if m.attrs.iter().any(|a| a.path().is_ident("macro_export")) => {
                if let Some(ident) = &m.ident {
                    self.lines.insert(format!("macro {}::{ident}!", self.name));
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// The public fields of a struct or variant at `p` (all fields of a variant).
    fn fields(&mut self, p: &str, fields: &syn::Fields, all: bool) {
        for (i, field) in fields.iter().enumerate() {
            if !(all || is_pub(&field.vis)) {
                continue;
            }
            let name = field.ident.as_ref().map_or_else(|| i.to_string(), ToString::to_string);
            self.lines.insert(format!("field {p}::{name}: {}", tidy(&field.ty)));
        }
    }

    /// The derives of a type defined in module `at`, and the impls for it
    /// anywhere in the crate: trait impls by trait, inherent impls by their
    /// public methods and constants.
    fn impls(&mut self, at: &[String], ident: &syn::Ident, attrs: &[syn::Attribute], p: &str) -> Result<(), String> {
        for attr in attrs.iter().filter(|a| a.path().is_ident("derive")) {
            let _ = attr.parse_nested_meta(|meta| {
                let name = meta.path.segments.last().map(|s| s.ident.to_string()).unwrap_or_default();
                self.lines.insert(format!("impl {name} for {p}"));
                Ok(())
            });
        }
        let target = (at.to_vec(), ident.to_string());
        let krate = self.krate;
        let impls = krate.modules.iter().flat_map(|m| m.items.iter().map(move |item| (m, item)));
        for (module, item) in impls {
            let syn::Item::Impl(imp) = item else { continue };
            // In the type's module, an impl of its name; in another, an impl
            // whose path leads to this type (an import, renamed or not, a
            // qualified path, re-exports on the way): a type of the same
            // name elsewhere is another type.
            let for_this = if module.path == at {
                names_type(&imp.self_ty, ident)
            } else {
                krate.leads_to(&module.path, &type_path(&imp.self_ty), &target, 8)
            };
            if is_test_only(&imp.attrs) || !for_this {
                continue;
            }
            match &imp.trait_ {
                Some((_, tr, _)) => {
                    // By the trait's name, however its path is written
                    // (`fmt::Display`, `std::fmt::Display`), as derives are.
                    let name = tr.segments.last().map(tidy).unwrap_or_default();
                    self.lines.insert(format!("impl{} {name} for {p}", tidy(&imp.generics)));
                }
                None => {
                    for ii in &imp.items {
                        match ii {
                            syn::ImplItem::Fn(f) if is_pub(&f.vis) && !is_test_only(&f.attrs) => {
                                self.lines.insert(format!("fn {p}::{}{}", f.sig.ident, signature(&f.sig)));
                            }
                            syn::ImplItem::Const(c) if is_pub(&c.vis) => {
                                self.lines.insert(format!("const {p}::{}: {}", c.ident, tidy(&c.ty)));
                            }
                            _ => {}
                        }
                    }
                }
            }
        }
        Ok(())
    }
}

/// `(generics)(inputs) -> output` of a function, without its name.
fn signature(sig: &syn::Signature) -> String {
    let mut s = tidy(&sig.generics);
    // `mut` on a parameter is the function body's business, not its API.
    let mut inputs = sig.inputs.clone();
    for input in &mut inputs {
        if let syn::FnArg::Typed(t) = input {
            if let syn::Pat::Ident(p) = &mut *t.pat {
                p.mutability = None;
            }
        }
    }
    s.push('(');
    s.push_str(&tidy(&inputs));
    s.push(')');
    if let syn::ReturnType::Type(_, ty) = &sig.output {
        s.push_str(" -> ");
        s.push_str(&tidy(ty));
    }
    if let Some(wc) = &sig.generics.where_clause {
        s.push(' ');
        s.push_str(&tidy(wc));
    }
    s
}

/// `#[non_exhaustive]` and `#[doc(hidden)]`, the attributes that change
/// what users may do with an item.
fn markers(attrs: &[syn::Attribute]) -> String {
    let mut s = String::new();
    for a in attrs {
        if a.path().is_ident("non_exhaustive") {
            s.push_str(" #[non_exhaustive]");
        }
        if a.path().is_ident("doc") && tidy(&a.meta).contains("hidden") {
            s.push_str(" #[doc(hidden)]");
        }
    }
    s
}

/// The path of a type as written (`RecordBatch`, `super::batch::RecordBatch`),
/// without generics; empty for a type that is not a path.
fn type_path(ty: &syn::Type) -> Vec<String> {
    match ty {
        syn::Type::Path(p) => p.path.segments.iter().map(|s| s.ident.to_string()).collect(),
        _ => Vec::new(),
    }
}

/// The names a module's `use` items bring in, public or not, with their
/// paths; glob imports are skipped (they name no item).
fn imports(items: &[syn::Item]) -> Vec<(Vec<String>, String)> {
    let mut out = Vec::new();
    for item in items {
        if let syn::Item::Use(u) = item {
            if !is_test_only(&u.attrs) {
                // Cannot fail: globs are skipped.
                let _ = use_leaves(&u.tree, Vec::new(), &mut out, Globs::Skip);
            }
        }
    }
    out
}

/// True when `ty` is `ident` (with or without generics or a path).
fn names_type(ty: &syn::Type, ident: &syn::Ident) -> bool {
    match ty {
        syn::Type::Path(p) => p.path.segments.last().is_some_and(|s| s.ident == *ident),
        _ => false,
    }
}

fn item_name(item: &syn::Item) -> Option<String> {
    let ident = match item {
        syn::Item::Fn(f) => &f.sig.ident,
        syn::Item::Const(c) => &c.ident,
        syn::Item::Static(s) => &s.ident,
        syn::Item::Type(t) => &t.ident,
        syn::Item::Struct(s) => &s.ident,
        syn::Item::Enum(e) => &e.ident,
        syn::Item::Trait(t) => &t.ident,
        syn::Item::Mod(m) => &m.ident,
        _ => return None,
    };
    Some(ident.to_string())
}

/// True when a use tree imports with a glob somewhere (`use super::*`).
fn has_glob(tree: &syn::UseTree) -> bool {
    match tree {
        syn::UseTree::Path(p) => has_glob(&p.tree),
        syn::UseTree::Glob(_) => true,
        syn::UseTree::Group(g) => g.items.iter().any(has_glob),
        syn::UseTree::Name(_) | syn::UseTree::Rename(_) => false,
    }
}

/// What [`use_leaves`] does with a glob (`use x::*`).
#[derive(Clone, Copy)]
enum Globs {
    /// Fails: a public glob re-export is not followed.
    Fail,
    /// Skips it: a glob import names no item.
    Skip,
}

/// The leaves of a use tree: each path and the name it is visible as.
fn use_leaves(
    tree: &syn::UseTree,
    prefix: Vec<String>,
    out: &mut Vec<(Vec<String>, String)>,
    globs: Globs,
) -> Result<(), String> {
    match tree {
        syn::UseTree::Path(p) => {
            let mut prefix = prefix;
            prefix.push(p.ident.to_string());
            use_leaves(&p.tree, prefix, out, globs)?;
        }
        syn::UseTree::Name(n) => {
            let mut path = prefix;
            path.push(n.ident.to_string());
            let name = n.ident.to_string();
            out.push((path, name));
        }
        syn::UseTree::Rename(r) => {
            let mut path = prefix;
            path.push(r.ident.to_string());
            out.push((path, r.rename.to_string()));
        }
        syn::UseTree::Glob(_) => {
            if let Globs::Fail = globs {
                return Err(format!(
                    "pub use {}::*: glob re-exports are not followed; name the items",
                    prefix.join("::")
                ));
            }
        }
        syn::UseTree::Group(g) => {
            for t in &g.items {
                use_leaves(t, prefix.clone(), out, globs)?;
            }
        }
    }
    Ok(())
}

/// The module and item name a use path of module `at` names.
fn resolve(at: &[String], path: &[String]) -> Result<(Vec<String>, String), String> {
    let (name, module) = path.split_last().ok_or("an empty use path")?;
    let mut resolved: Vec<String> = at.to_vec();
    for (i, segment) in module.iter().enumerate() {
        match segment.as_str() {
            "crate" if i == 0 => resolved.clear(),
            "self" if i == 0 => {}
            "super" => {
                resolved.pop();
            }
            other => resolved.push(other.to_owned()),
        }
    }
    Ok((resolved, name.clone()))
}

/// [`check`] for the library of the package `package` at `manifest_dir`,
/// against its `tests/public_api.txt`: called from each package's
/// `tests/public_api.rs` as
/// `check_package(env!("CARGO_MANIFEST_DIR").as_ref(), env!("CARGO_PKG_NAME"))`.
pub fn check_package(manifest_dir: &Path, package: &str) -> Result<(), String> {
    let refresh = format!("KWIRE_BLESS=1 cargo test -p {package} --all-features --test public_api");
    check(manifest_dir, &package.replace('-', "_"), "tests/public_api.txt", &refresh)
}

/// Checks the public surface of the crate at `manifest_dir` (its `src/`),
/// named `crate_name` in paths, against the list `manifest_dir/list`;
/// rewrites the list instead under [`crate::bless`].
///
/// # Errors
/// The difference (`-` listed but gone, `+` public but not listed) and the
/// command that refreshes the list, `refresh`, when they differ; a source
/// file or module that cannot be read or followed.
pub fn check(manifest_dir: &Path, crate_name: &str, list: &str, refresh: &str) -> Result<(), String> {
    let krate = Crate::read(&manifest_dir.join("src"))?;
    let mut surface = Surface { krate: &krate, name: crate_name, lines: BTreeSet::new() };
    surface.module(&[], crate_name)?;
    let actual: String = surface.lines.iter().map(|l| format!("{l}\n")).collect();

    let list = manifest_dir.join(list);
    if crate::bless() {
        return std::fs::write(&list, &actual).map_err(|e| format!("{}: {e}", list.display()));
    }
    let expected = std::fs::read_to_string(&list).unwrap_or_default();
    if expected == actual {
        return Ok(());
    }
    let expected_lines: BTreeSet<&str> = expected.lines().collect();
    let actual_lines: BTreeSet<&str> = actual.lines().collect();
    let mut diff = String::new();
    for gone in expected_lines.difference(&actual_lines) {
        diff.push_str(&format!("- {gone}\n"));
    }
    for new in actual_lines.difference(&expected_lines) {
        diff.push_str(&format!("+ {new}\n"));
    }
    Err(format!(
        "the public API of {crate_name} differs from {} \
         (- listed but gone, + public but not listed):\n{diff}\n\
         If the change is meant, refresh the list and commit it with the change:\n    {refresh}",
        list.display()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The list of a crate made of `files` (path under `src/`, text).
    fn surface(files: &[(&str, &str)]) -> Result<Vec<String>, String> {
        let dir =
            std::env::temp_dir().join(format!("public-api-{}-{:?}", std::process::id(), std::thread::current().id()));
        for (path, text) in files {
            let file = dir.join("src").join(path);
            std::fs::create_dir_all(file.parent().ok_or("no parent")?).map_err(|e| e.to_string())?;
            std::fs::write(&file, text).map_err(|e| e.to_string())?;
        }
        let krate = Crate::read(&dir.join("src"));
        let _ = std::fs::remove_dir_all(&dir);
        let krate = krate?;
        let mut surface = Surface { krate: &krate, name: "k", lines: BTreeSet::new() };
        surface.module(&[], "k")?;
        Ok(surface.lines.into_iter().collect())
    }

    #[test]
    fn methods_of_impls_in_other_modules_are_listed_for_the_type_they_name() {
        let lines = surface(&[
            ("lib.rs", "pub mod a;\nmod b;\nmod c;\npub use a::Thing as Again;\n"),
            ("a.rs", "pub struct Thing;\nimpl Thing { pub fn here(&self, mut n: u8) {} }\n"),
            // Through an import, and through a qualified path.
            ("b.rs", "use crate::Again;\nimpl Again { pub fn imported(&self) {} }\nimpl super::a::Thing { pub fn qualified(&self) {} fn private(&self) {} }\n"),
            // A private type of the same name: its methods are not the public one's.
            ("c.rs", "struct Thing;\nimpl Thing { pub fn other(&self) {} }\n"),
        ])
        .unwrap();
        let methods: Vec<&str> =
            lines.iter().filter(|l| l.starts_with("fn k::a::Thing::")).map(String::as_str).collect();
        assert_eq!(
            methods,
            [
                "fn k::a::Thing::here(&self, n: u8)",
                "fn k::a::Thing::imported(&self)",
                "fn k::a::Thing::qualified(&self)"
            ]
        );
        assert!(lines.contains(&"fn k::Again::imported(&self)".to_owned()), "{lines:?}");
        assert!(!lines.iter().any(|l| l.contains("other")), "{lines:?}");
    }
}
