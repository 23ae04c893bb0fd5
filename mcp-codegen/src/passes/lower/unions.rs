//! Lowering unions: `anyOf`/`oneOf` (and `type` lists) to a tagged, JSON-type or shape union,
//! or to the results' union where every member is a result.

use serde_json::Value;

use super::*;

impl<'a> Lowerer<'a> {
    pub(super) fn type_list_members<'s>(
        &self,
        types: &[Value],
        pointer: &str,
    ) -> SchemaResult<Vec<Member<'s>>> {
        let mut out = Vec::new();
        for (i, t) in types.iter().enumerate() {
            let p = join(pointer, &i.to_string());
            let jt = t
                .as_str()
                .and_then(JsonType::parse)
                .ok_or_else(|| SchemaError::new(&p, "unknown JSON type"))?;
            out.push(Member {
                name: RustName::pascal(jt.variant()),
                ty: jt.ty(),
                object: None,
                json: Some(jt),
                def: None,
            });
        }
        Ok(out)
    }

    pub(super) fn union_kind(
        &mut self,
        any: &Value,
        at: &Cursor,
        rust: &RustName,
    ) -> SchemaResult<Kind> {
        let pointer = at.pointer();
        let list = any
            .as_array()
            .ok_or_else(|| SchemaError::new(pointer, "anyOf must be an array"))?;
        if list.is_empty() {
            return Err(SchemaError::new(pointer, "an empty anyOf matches nothing"));
        }
        let (flat, pointers) = match flatten_any_of(list, pointer) {
            Some((values, pointers)) => (Some(values), pointers),
            None => (None, Vec::new()),
        };
        let list = flat.as_deref().unwrap_or(list);
        // Each member with its index in `list`, whose pointer it keeps.
        let merged = merge_array_members(list);
        let indexed: Vec<(usize, &Value)> = match &merged {
            Some(m) => m.iter().map(|(index, v)| (*index, v)).collect(),
            None => list.iter().enumerate().collect(),
        };
        let mut members: Vec<Member<'a>> = Vec::new();
        for (i, (index, v)) in indexed.into_iter().enumerate() {
            let here = match pointers.get(index) {
                Some(p) => at.relocated(p.clone()),
                None => at.at(&index.to_string()),
            };
            let p = here.pointer();
            let s = obj(v, p)?;
            keywords::check(s, p)?;
            if let Some(r) = s.get("$ref").and_then(Value::as_str) {
                let target = self.resolve_ref(r, p)?;
                let tdef = obj(&self.defs[target], p)?;
                let object = self.object_schema(tdef, &here.deeper())?;
                let json = json_type_of(tdef, object.is_some());
                members.push(Member {
                    name: self.names.rust_of[target].clone(),
                    ty: Ty::Named(self.names.rust_of[target].clone()),
                    object,
                    json,
                    def: Some(target),
                });
            } else if let Some(Value::Array(types)) = s.get("type") {
                members.extend(self.type_list_members(types, &join(p, "type"))?);
            } else {
                let object = self.object_schema(s, &here.deeper())?;
                let json = json_type_of(s, object.is_some());
                let name = json
                    .map(|j| RustName::pascal(j.variant()))
                    .unwrap_or_else(|| RustName::pascal("Variant").suffixed(i));
                let ty = self.ty_of(v, &here.deeper(), &rust.suffixed(name.unraw()))?;
                members.push(Member {
                    name,
                    ty,
                    object,
                    json,
                    def: None,
                });
            }
        }
        let mut defs_seen = BTreeSet::new();
        for m in &members {
            if m.def.is_some() && !defs_seen.insert(m.name.clone()) {
                return Err(SchemaError::new(
                    pointer,
                    format!("the union lists `{}` twice", m.name),
                ));
            }
        }
        // Anonymous members named like another member (two of one JSON type, or one named like
        // a `$def` in the list) get a numbered name no other member has: told apart (or
        // refused) below.
        let mut taken: BTreeSet<RustName> = members.iter().map(|m| m.name.clone()).collect();
        let mut seen = BTreeSet::new();
        for (i, m) in members.iter_mut().enumerate() {
            let clash =
                m.def.is_none() && (!seen.insert(m.name.clone()) || defs_seen.contains(&m.name));
            if clash {
                let name = (i..)
                    .map(|k| m.name.suffixed(k))
                    .find(|n| !taken.contains(n))
                    .expect("some number is free");
                taken.insert(name.clone());
                seen.insert(name.clone());
                m.name = name;
            }
        }
        if members
            .iter()
            .any(|m| m.def.is_some_and(|d| self.protocol.results.contains_key(d)))
        {
            return results::union_of_results(
                self.protocol,
                &self.names.rust_of,
                &members,
                pointer,
            );
        }
        if members.iter().all(|m| m.object.is_some()) {
            if let Some(u) = tagged(&members) {
                return Ok(Kind::Union(u));
            }
            return Ok(Kind::Union(shaped(&members)));
        }
        self.json_type_union(members, pointer, rust)
    }

    pub(super) fn json_type_union(
        &mut self,
        members: Vec<Member<'a>>,
        pointer: &str,
        rust: &RustName,
    ) -> SchemaResult<Kind> {
        let mut by_type: BTreeMap<JsonType, Vec<Member<'a>>> = BTreeMap::new();
        for m in members {
            let Some(j) = m.json else {
                return Err(SchemaError::new(
                    pointer,
                    format!(
                        "cannot tell the members of this union apart: `{}` has no JSON type, constant tag or required members to dispatch on",
                        m.name
                    ),
                ));
            };
            by_type.entry(j).or_default().push(m);
        }
        let mut variants = Vec::new();
        for (j, group) in by_type {
            if group.len() == 1 {
                let m = group.into_iter().next().expect("one");
                variants.push(Variant {
                    name: m.name,
                    ty: m.ty,
                    select: Select::JsonType(j.name().to_owned()),
                });
                continue;
            }
            if j != JsonType::Object {
                return Err(SchemaError::new(
                    pointer,
                    format!(
                        "cannot tell the members of this union apart: several are of JSON type {}",
                        j.name()
                    ),
                ));
            }
            // Several objects: an inner union of the objects (reusing a named one if identical).
            let refs: Vec<String> = group
                .iter()
                .filter_map(|m| m.def.map(str::to_owned))
                .collect();
            let inner = match self.unions.get(&refs).filter(|_| refs.len() == group.len()) {
                Some(n) => n.clone(),
                None => {
                    let name = self.fresh(rust.suffixed("Object"));
                    let u = tagged(&group).unwrap_or_else(|| shaped(&group));
                    self.insert(TypeDef {
                        name: name.clone(),
                        pointer: pointer.to_owned(),
                        docs: None,
                        kind: Kind::Union(u),
                    });
                    name
                }
            };
            variants.push(Variant {
                name: RustName::pascal(JsonType::Object.variant()),
                ty: Ty::Named(inner),
                select: Select::JsonType("object".to_owned()),
            });
        }
        Ok(Kind::Union(Union {
            mode: UnionMode::JsonType,
            variants,
        }))
    }
}

/// The members of an anyOf with the members of anyOfs nested in it spliced in (an anyOf of
/// anyOfs matches what the flat list matches), with the pointer of each; `None` when no member
/// is a plain nested anyOf. Keeps its own stack: the nesting may be hundreds deep.
fn flatten_any_of(list: &[Value], pointer: &str) -> Option<(Vec<Value>, Vec<String>)> {
    let plain_any_of = |v: &Value| {
        v.as_object().is_some_and(|m| {
            m.get("anyOf").is_some_and(Value::is_array)
                && m.keys().all(|k| k == "anyOf" || keywords::is_describing(k))
        })
    };
    if !list.iter().any(plain_any_of) {
        return None;
    }
    let (mut values, mut pointers) = (Vec::new(), Vec::new());
    let mut stack: Vec<(&Value, String)> = list
        .iter()
        .enumerate()
        .rev()
        .map(|(i, v)| (v, join(pointer, &i.to_string())))
        .collect();
    while let Some((v, p)) = stack.pop() {
        if plain_any_of(v) {
            let inner = v["anyOf"].as_array().expect("checked");
            let base = join(&p, "anyOf");
            stack.extend(
                inner
                    .iter()
                    .enumerate()
                    .rev()
                    .map(|(i, x)| (x, join(&base, &i.to_string()))),
            );
        } else {
            values.push(v.clone());
            pointers.push(p);
        }
    }
    Some((values, pointers))
}
