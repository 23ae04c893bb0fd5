//! One direction of a conversion, decided from the two IRs: for each pair of types (a name
//! in the source revision, a name in the target), what of a source value the target cannot
//! hold. Pairs refer to pairs (a member's type); a pair converts fully when it has no reason
//! of its own and every pair it needs converts fully (the largest such set, so recursive
//! types converge).

use std::collections::{BTreeMap, BTreeSet};

use super::{Conversion, Era};
use crate::model::ir::{Constant, Field, Kind, ResultMode, ResultVariant, RustName, Struct, Ty};

/// A source type and a target type.
type Key = (RustName, RustName);

/// What one pair needs, found by looking at it alone.
#[derive(Debug, Default)]
struct Local {
    /// Reasons of its own.
    fails: Vec<String>,
    /// Pairs it needs, with the member each is for.
    needs: Vec<(String, Key)>,
}

/// The comparison of a source revision with a target revision.
pub struct Compare<'a> {
    from: Era<'a>,
    to: Era<'a>,
    shared: &'a BTreeSet<RustName>,
    locals: BTreeMap<Key, Local>,
    total: BTreeSet<Key>,
}

/// The most places a conversion drops a default `resultType` at (a bound on the walk).
const MAX_DEFAULTS: usize = 64;

impl<'a> Compare<'a> {
    /// A comparison of `from` with `to`; `shared` types convert as themselves.
    pub fn new(from: Era<'a>, to: Era<'a>, shared: &'a BTreeSet<RustName>) -> Self {
        Compare {
            from,
            to,
            shared,
            locals: BTreeMap::new(),
            total: BTreeSet::new(),
        }
    }

    /// Looks at every pair the same-named pairs `names` reach, then keeps as total the pairs
    /// with no reason of their own whose needs are all total.
    pub fn settle(&mut self, names: &[RustName]) {
        let mut work: Vec<Key> = names.iter().map(|n| (n.clone(), n.clone())).collect();
        while let Some(key) = work.pop() {
            if self.locals.contains_key(&key) {
                continue;
            }
            let local = self.local(&key);
            work.extend(local.needs.iter().map(|(_, k)| k.clone()));
            self.locals.insert(key, local);
        }
        self.total = self
            .locals
            .iter()
            .filter(|(_, l)| l.fails.is_empty())
            .map(|(k, _)| k.clone())
            .collect();
        loop {
            let kept: BTreeSet<Key> = self
                .total
                .iter()
                .filter(|k| {
                    self.locals[*k]
                        .needs
                        .iter()
                        .all(|(_, n)| self.total.contains(n))
                })
                .cloned()
                .collect();
            if kept.len() == self.total.len() {
                break;
            }
            self.total = kept;
        }
    }

    /// The conversion of the type `name` (after [`Compare::settle`]).
    pub fn conversion(&self, name: &RustName) -> Conversion {
        let key = (name.clone(), name.clone());
        let mut partial = Vec::new();
        if let Some(local) = self.locals.get(&key) {
            partial.extend(local.fails.iter().cloned());
            for (member, need) in &local.needs {
                if !self.total.contains(need) {
                    partial.push(format!(
                        "{member}: its {} converts only partly",
                        need.0.unraw()
                    ));
                }
            }
        }
        let mut defaults = Vec::new();
        self.defaults(&key, &mut Vec::new(), &mut Vec::new(), &mut defaults);
        Conversion { partial, defaults }
    }

    /// The pair's own reasons and needs.
    fn local(&self, (a, b): &Key) -> Local {
        let mut local = Local::default();
        let (Some(x), Some(y)) = (self.from.module.types.get(a), self.to.module.types.get(b))
        else {
            local.fails.push(format!("`{}`: no such type", a.unraw()));
            return local;
        };
        match (&x.kind, &y.kind) {
            (Kind::Struct(s), Kind::Struct(t)) => self.structure(s, t, &mut local),
            (Kind::StringEnum(s), Kind::StringEnum(t)) => {
                for v in s.iter().filter(|v| !t.iter().any(|w| w.json == v.json)) {
                    local.fails.push(format!(
                        "value \"{}\": unknown to {}",
                        v.json, self.to.revision
                    ));
                }
            }
            (Kind::Union(s), Kind::Union(t)) => {
                if s.mode != t.mode {
                    local
                        .fails
                        .push("a variant is chosen differently".to_owned());
                }
                for v in &s.variants {
                    let label = format!("variant `{}`", v.name.unraw());
                    match t.variants.iter().find(|w| w.name == v.name) {
                        Some(w) if w.select == v.select => {
                            self.member(&label, &v.ty, &w.ty, &mut local)
                        }
                        Some(_) => local.fails.push(format!("{label}: chosen differently")),
                        None => local
                            .fails
                            .push(format!("{label}: missing in {}", self.to.revision)),
                    }
                }
            }
            (Kind::Results(s), Kind::Results(t)) => {
                for v in &s.variants {
                    let label = format!("variant `{}`", v.name.unraw());
                    let same = |w: &&ResultVariant| {
                        w.name == v.name && w.select == v.select && w.wrapper == v.wrapper
                    };
                    match t.variants.iter().find(same) {
                        Some(w) => self.member(
                            &label,
                            &Ty::Named(v.ty.clone()),
                            &Ty::Named(w.ty.clone()),
                            &mut local,
                        ),
                        None => local.fails.push(format!(
                            "{label}: missing or read differently in {}",
                            self.to.revision
                        )),
                    }
                }
            }
            (Kind::Alias(s), _) => self.member("the value", s, &Ty::Named(b.clone()), &mut local),
            (_, Kind::Alias(t)) => self.member("the value", &Ty::Named(a.clone()), t, &mut local),
            _ => local.fails.push(format!(
                "its shape differs between {} and {}",
                self.from.revision, self.to.revision
            )),
        }
        local
    }

    /// A member of source type `a` held by a member of target type `b`.
    fn member(&self, label: &str, a: &Ty, b: &Ty, local: &mut Local) {
        let mut needs = Vec::new();
        if self.ty(a, b, &mut needs) {
            local
                .needs
                .extend(needs.into_iter().map(|k| (label.to_owned(), k)));
        } else {
            local.fails.push(format!(
                "{label}: its type differs between {} and {}",
                self.from.revision, self.to.revision
            ));
        }
    }

    /// Whether every value of `a` fits `b`, given the pairs pushed on `needs`.
    fn ty(&self, a: &Ty, b: &Ty, needs: &mut Vec<Key>) -> bool {
        let (a, b) = (
            self.from.module.types.resolve(a),
            self.to.module.types.resolve(b),
        );
        match (a, b) {
            (_, Ty::Value | Ty::Raw) => true,
            (Ty::Boxed(x), _) => self.ty(x, b, needs),
            (_, Ty::Boxed(y)) => self.ty(a, y, needs),
            (Ty::Named(x), Ty::Named(y)) => {
                if !(x == y && self.shared.contains(x)) {
                    needs.push((x.clone(), y.clone()));
                }
                true
            }
            (Ty::Named(x), Ty::Object) => self.from.module.types.structure(x).is_some(),
            (Ty::Vec(x), Ty::Vec(y)) | (Ty::Map(x), Ty::Map(y)) => self.ty(x, y, needs),
            (x, y) => x == y,
        }
    }

    /// A struct's members, constants and rules, compared.
    fn structure(&self, s: &Struct, t: &Struct, local: &mut Local) {
        let (from, to) = (self.from.revision, self.to.revision);
        for c in &t.constants {
            match s.constants.iter().find(|d| d.json == c.json) {
                Some(d) if d.value != c.value => local
                    .fails
                    .push(format!("`{}`: another constant in {to}", c.json)),
                Some(d) if d.optional && !c.optional => local.fails.push(format!(
                    "`{}`: optional in {from}, required in {to}",
                    c.json
                )),
                Some(_) => {}
                None => local
                    .fails
                    .push(format!("`{}`: a constant of {to} only", c.json)),
            }
        }
        for c in s
            .constants
            .iter()
            .filter(|c| constant(t, &c.json).is_none())
        {
            if t.extra.is_none() {
                local
                    .fails
                    .push(format!("`{}`: {to} has no place for it", c.json));
            }
        }
        self.result(s, t, local);
        for g in &t.fields {
            self.target_field(s, g, local);
        }
        for f in s.fields.iter().filter(|f| t.field(&f.json).is_none()) {
            if t.extra.is_none() {
                local
                    .fails
                    .push(format!("`{}`: {to} has no place for it", f.json));
            }
        }
        if !t.at_least_one_of.is_empty() && t.at_least_one_of != s.at_least_one_of {
            local.fails.push(format!(
                "at least one of {} must be present in {to}",
                t.at_least_one_of.join(", ")
            ));
        }
        if s.extra.is_some() && t.extra.is_none() {
            local
                .fails
                .push(format!("undeclared members: {to} does not keep them"));
        }
    }

    /// How `resultType` is read on each side. A missing one means `"complete"`, so a source
    /// without it converts to a target whose default is `"complete"`, and a `"complete"` the
    /// target does not declare is dropped (see [`Compare::defaults`]).
    fn result(&self, s: &Struct, t: &Struct, local: &mut Local) {
        use ResultMode::{Default, Field, Fixed};
        match (&s.result, &t.result) {
            (None, None) | (Some(Default), Some(Default)) | (None, Some(Default)) => {}
            (Some(Default), None) => {}
            (Some(Fixed(x)), Some(Fixed(y))) if x == y => {}
            (Some(Fixed(_)), None) if t.extra.is_some() => {}
            (Some(Field(f)), Some(Field(g))) => {
                self.member(&format!("`{}`", g.json), &f.ty, &g.ty, local)
            }
            _ => local.fails.push(format!(
                "`resultType`: read differently in {} and {}",
                self.from.revision, self.to.revision
            )),
        }
    }

    /// A member the target declares.
    fn target_field(&self, s: &Struct, g: &Field, local: &mut Local) {
        let (from, to) = (self.from.revision, self.to.revision);
        let label = format!("`{}`", g.json);
        let target = &self.to.module.types;
        match s.field(&g.json) {
            Some(f) => {
                if g.required && !f.required {
                    local
                        .fails
                        .push(format!("{label}: optional in {from}, required in {to}"));
                }
                self.member(&label, &f.ty, &g.ty, local);
            }
            None if constant(s, &g.json).is_some() => {
                self.member(&label, &Ty::String, &g.ty, local)
            }
            None if g.required => local
                .fails
                .push(format!("{label}: required in {to}, missing in {from}")),
            None if s.extra.is_some() && !matches!(target.resolve(&g.ty), Ty::Value | Ty::Raw) => {
                local.fails.push(format!(
                    "{label}: declared in {to} only (a value kept among {from}'s undeclared members may not fit)"
                ))
            }
            None => {}
        }
    }

    /// Where, under the pair `key`, a result of the source with a default `resultType` meets
    /// a target type without one: the places a conversion drops `"complete"` at.
    fn defaults(
        &self,
        key: &Key,
        path: &mut Vec<String>,
        stack: &mut Vec<Key>,
        out: &mut Vec<Vec<String>>,
    ) {
        if stack.contains(key) || out.len() >= MAX_DEFAULTS {
            return;
        }
        let (Some(x), Some(y)) = (
            self.from.module.types.get(&key.0),
            self.to.module.types.get(&key.1),
        ) else {
            return;
        };
        stack.push(key.clone());
        if writes_result_type(self.from.module, &x.kind)
            && !writes_result_type(self.to.module, &y.kind)
        {
            out.push(path.clone());
        }
        match (&x.kind, &y.kind) {
            (Kind::Struct(s), Kind::Struct(t)) => {
                for f in &s.fields {
                    if let Some(g) = t.field(&f.json) {
                        path.push(f.json.clone());
                        self.defaults_ty(&f.ty, &g.ty, path, stack, out);
                        path.pop();
                    }
                }
            }
            (Kind::Union(s), Kind::Union(t)) => {
                for v in &s.variants {
                    if let Some(w) = t.variants.iter().find(|w| w.name == v.name) {
                        self.defaults_ty(&v.ty, &w.ty, path, stack, out);
                    }
                }
            }
            (Kind::Results(s), Kind::Results(t)) => {
                for v in &s.variants {
                    if let Some(w) = t.variants.iter().find(|w| w.name == v.name) {
                        let pair = (v.ty.clone(), w.ty.clone());
                        self.defaults(&pair, path, stack, out);
                    }
                }
            }
            (Kind::Alias(a), _) => self.defaults_ty(a, &Ty::Named(key.1.clone()), path, stack, out),
            (_, Kind::Alias(b)) => self.defaults_ty(&Ty::Named(key.0.clone()), b, path, stack, out),
            _ => {}
        }
        stack.pop();
    }

    /// [`Compare::defaults`] through a member's types.
    fn defaults_ty(
        &self,
        a: &Ty,
        b: &Ty,
        path: &mut Vec<String>,
        stack: &mut Vec<Key>,
        out: &mut Vec<Vec<String>>,
    ) {
        match (
            self.from.module.types.resolve(a),
            self.to.module.types.resolve(b),
        ) {
            (Ty::Boxed(x), _) => self.defaults_ty(x, b, path, stack, out),
            (_, Ty::Boxed(y)) => self.defaults_ty(a, y, path, stack, out),
            (Ty::Named(x), Ty::Named(y)) if !(x == y && self.shared.contains(x)) => {
                self.defaults(&(x.clone(), y.clone()), path, stack, out)
            }
            (Ty::Vec(x), Ty::Vec(y)) | (Ty::Map(x), Ty::Map(y)) => {
                path.push("*".to_owned());
                self.defaults_ty(x, y, path, stack, out);
                path.pop();
            }
            _ => {}
        }
    }
}

/// The constant member `json` of `s`.
fn constant<'s>(s: &'s Struct, json: &str) -> Option<&'s Constant> {
    s.constants.iter().find(|c| c.json == json)
}

/// Whether a value of `kind` carries a `resultType`: a result struct, an enum read by it, or a
/// union with a variant that is one of those.
fn writes_result_type(module: &crate::model::ir::Module, kind: &Kind) -> bool {
    let direct = |kind: &Kind| match kind {
        Kind::Struct(s) => s.result.is_some(),
        Kind::Results(_) => true,
        _ => false,
    };
    match kind {
        Kind::Union(u) => u.variants.iter().any(|v| {
            let Ty::Named(n) = module.types.resolve(&v.ty) else {
                return false;
            };
            module.types.get(n).is_some_and(|d| direct(&d.kind))
        }),
        other => direct(other),
    }
}
