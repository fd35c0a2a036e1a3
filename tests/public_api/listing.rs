//! The lister: a crate's module tree from its `mod` declarations, parsed with syn.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use quote::ToTokens;
use syn::{Attribute, Fields, ImplItem, Item, TraitItem, Visibility};

/// The listing of the crate whose root is `lib`: one line per item, sorted.
pub fn list(krate: &str, lib: &Path) -> String {
    let mut lister = Lister::default();
    lister.file(lib, lib.parent().unwrap(), Some(krate.to_string()));
    let public_types: BTreeSet<String> = lister.type_names.clone();
    let mut lines: Vec<String> = lister.items;
    lines.sort();
    let mut impls: Vec<String> = lister
        .impls
        .into_iter()
        .filter(|(self_type, _)| public_types.contains(self_type))
        .map(|(_, line)| line)
        .collect();
    impls.sort();
    lines.extend(impls);
    lines.dedup();
    lines.into_iter().map(|l| l + "\n").collect()
}

#[derive(Default)]
struct Lister {
    items: Vec<String>,
    /// (self type's last segment, line) of every public method and trait implementation.
    impls: Vec<(String, String)>,
    /// Names of public types (and of re-exported names, which may be types).
    type_names: BTreeSet<String>,
}

fn is_public(v: &Visibility) -> bool {
    matches!(v, Visibility::Public(_))
}

fn skipped(attrs: &[Attribute]) -> bool {
    attrs.iter().any(|a| {
        let text = a.to_token_stream().to_string();
        text.contains("cfg (test)") || text.contains("doc (hidden)")
    })
}

/// Token text made readable: no spaces inside paths, before punctuation or after openers.
fn tidy(tokens: impl ToTokens) -> String {
    let mut s = tokens.to_token_stream().to_string();
    for (from, to) in [
        (" :: ", "::"),
        (":: ", "::"),
        (" ,", ","),
        (" ;", ";"),
        (" :", ":"),
        ("( ", "("),
        (" )", ")"),
        ("[ ", "["),
        (" ]", "]"),
        ("< ", "<"),
        (" <", "<"),
        (" >", ">"),
        ("& ", "&"),
        ("# [", "#["),
        ("! [", "!["),
        (" .", "."),
        ("' ", "'"),
    ] {
        s = s.replace(from, to);
    }
    s = s.replace(" (", "(").replace(",)", ")").replace(", }", " }");
    for (from, to) in [("->(", "-> ("), (",(", ", ("), (":(", ": ("), ("=(", "= (")] {
        s = s.replace(from, to);
    }
    s.replace("->", " -> ").replace("  ", " ")
}

/// Derives and `non_exhaustive`, the attributes that are part of a type's surface.
fn surface_attributes(attrs: &[Attribute]) -> String {
    let mut out = String::new();
    for a in attrs {
        let path = a.path().to_token_stream().to_string();
        if path == "derive" || path == "non_exhaustive" {
            out += &tidy(a);
            out.push(' ');
        }
    }
    out
}

impl Lister {
    fn file(&mut self, path: &Path, dir: &Path, module: Option<String>) {
        let text =
            std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let file = syn::parse_file(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        self.items_of(&file.items, dir, module);
    }

    fn items_of(&mut self, items: &[Item], dir: &Path, module: Option<String>) {
        for item in items {
            self.item(item, dir, &module);
        }
    }

    fn item(&mut self, item: &Item, dir: &Path, module: &Option<String>) {
        let public = |v: &Visibility| module.clone().filter(|_| is_public(v));
        match item {
            Item::Mod(m) if skipped(&m.attrs) => {}
            Item::Mod(m) => {
                let name = m.ident.to_string();
                let inner = public(&m.vis).map(|p| format!("{p}::{name}"));
                match &m.content {
                    Some((_, items)) => self.items_of(items, &dir.join(&name), inner),
                    None => {
                        let flat: PathBuf = dir.join(format!("{name}.rs"));
                        let (file, next) = if flat.exists() {
                            (flat, dir.join(&name))
                        } else {
                            (dir.join(&name).join("mod.rs"), dir.join(&name))
                        };
                        self.file(&file, &next, inner);
                    }
                }
            }
            Item::Impl(i) if !skipped(&i.attrs) => self.implementation(i),
            _ => {
                let Some((vis, attrs, line, names)) = describe(item) else {
                    return;
                };
                if skipped(attrs) {
                    return;
                }
                if let Some(path) = public(vis) {
                    self.type_names.extend(names);
                    self.items.push(format!("{path}: {line}"));
                }
            }
        }
    }

    fn implementation(&mut self, i: &syn::ItemImpl) {
        let self_type = match &*i.self_ty {
            syn::Type::Path(p) => p.path.segments.last().map(|s| s.ident.to_string()),
            _ => None,
        };
        let Some(self_type) = self_type else { return };
        let generics = tidy(&i.generics);
        if let Some((trait_path, _)) = &i.trait_ {
            let line = format!(
                "impl{generics} {} for {}",
                tidy(trait_path),
                tidy(&i.self_ty)
            );
            self.impls.push((self_type, line));
            return;
        }
        for member in &i.items {
            match member {
                ImplItem::Fn(f) if is_public(&f.vis) && !skipped(&f.attrs) => {
                    let line = format!("impl {self_type}: pub {}", tidy(&f.sig));
                    self.impls.push((self_type.clone(), line));
                }
                ImplItem::Const(c) if is_public(&c.vis) => {
                    let line = format!(
                        "impl {}: pub const {}: {}",
                        tidy(&i.self_ty),
                        c.ident,
                        tidy(&c.ty)
                    );
                    self.impls.push((self_type.clone(), line));
                }
                _ => {}
            }
        }
    }
}

/// An item's visibility, attributes, line and the type names it introduces.
fn describe(item: &Item) -> Option<(&Visibility, &[Attribute], String, Vec<String>)> {
    Some(match item {
        Item::Fn(f) => (&f.vis, &f.attrs, format!("pub {}", tidy(&f.sig)), vec![]),
        Item::Struct(s) => {
            let fields = match &s.fields {
                Fields::Named(n) => {
                    let shown: Vec<String> = n
                        .named
                        .iter()
                        .filter(|f| is_public(&f.vis))
                        .map(|f| format!("pub {}: {}", f.ident.as_ref().unwrap(), tidy(&f.ty)))
                        .collect();
                    let hidden = n.named.iter().any(|f| !is_public(&f.vis));
                    let mut all = shown;
                    if hidden {
                        all.push("..".into());
                    }
                    format!(" {{ {} }}", all.join(", "))
                }
                Fields::Unnamed(u) => format!(
                    "({})",
                    u.unnamed
                        .iter()
                        .map(|f| if is_public(&f.vis) {
                            format!("pub {}", tidy(&f.ty))
                        } else {
                            "_".into()
                        })
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                Fields::Unit => String::new(),
            };
            let line = format!(
                "{}pub struct {}{}{}",
                surface_attributes(&s.attrs),
                s.ident,
                tidy(&s.generics),
                fields
            );
            (&s.vis, &s.attrs, line, vec![s.ident.to_string()])
        }
        Item::Enum(e) => {
            let variants: Vec<String> = e.variants.iter().map(tidy).collect();
            let line = format!(
                "{}pub enum {}{} {{ {} }}",
                surface_attributes(&e.attrs),
                e.ident,
                tidy(&e.generics),
                variants
                    .iter()
                    .map(|v| strip_docs(v))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
            (&e.vis, &e.attrs, line, vec![e.ident.to_string()])
        }
        Item::Trait(t) => {
            let members: Vec<String> = t
                .items
                .iter()
                .filter_map(|m| match m {
                    TraitItem::Fn(f) => Some(tidy(&f.sig)),
                    TraitItem::Const(c) => Some(format!("const {}: {}", c.ident, tidy(&c.ty))),
                    TraitItem::Type(ty) => Some(format!("type {}", ty.ident)),
                    _ => None,
                })
                .collect();
            let line = format!(
                "pub trait {}{} {{ {} }}",
                t.ident,
                tidy(&t.generics),
                members.join("; ")
            );
            (&t.vis, &t.attrs, line, vec![t.ident.to_string()])
        }
        Item::Const(c) => (
            &c.vis,
            &c.attrs,
            format!("pub const {}: {}", c.ident, tidy(&c.ty)),
            vec![],
        ),
        Item::Static(s) => (
            &s.vis,
            &s.attrs,
            format!("pub static {}: {}", s.ident, tidy(&s.ty)),
            vec![],
        ),
        Item::Type(t) => (
            &t.vis,
            &t.attrs,
            format!(
                "pub type {}{} = {}",
                t.ident,
                tidy(&t.generics),
                tidy(&t.ty)
            ),
            vec![t.ident.to_string()],
        ),
        Item::Use(u) => {
            let mut names = Vec::new();
            leaf_names(&u.tree, &mut names);
            (
                &u.vis,
                &u.attrs,
                format!("pub use {};", tidy(&u.tree)),
                names,
            )
        }
        Item::Macro(m) if m.mac.path.is_ident("macro_rules") => return None,
        _ => return None,
    })
}

/// A variant's text without its doc attributes (`#[doc = r" …"]`, whose text may hold `]`).
fn strip_docs(variant: &str) -> String {
    let mut s = variant.to_string();
    while let Some(start) = s.find("#[doc") {
        let end = s[start..].find("\"]").map_or(s.len(), |e| start + e + 2);
        s.replace_range(start..end, "");
    }
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn leaf_names(tree: &syn::UseTree, out: &mut Vec<String>) {
    match tree {
        syn::UseTree::Path(p) => leaf_names(&p.tree, out),
        syn::UseTree::Name(n) => out.push(n.ident.to_string()),
        syn::UseTree::Rename(r) => out.push(r.rename.to_string()),
        syn::UseTree::Group(g) => g.items.iter().for_each(|t| leaf_names(t, out)),
        syn::UseTree::Glob(_) => {}
    }
}
