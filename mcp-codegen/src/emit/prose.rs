//! Generated sentences for the docs: the summary of an item the schema does not describe, the
//! line on how a union is read, a variant's line, a field's JSON name. Built from the IR only,
//! in words about JSON and Rust, none about the protocol.

use crate::model::ir::{
    ConstValue, Constant, Kind, Predicate, Select, Ty, TypeDef, Union, UnionMode, Variant,
};

use super::tokens::Docs;
use crate::model::docs::{article, capitalised};

/// The first sentence of a description, when it is short and whole (no link cut in two).
pub fn first_sentence(text: &str) -> Option<&str> {
    let paragraph = text.trim().split("\n\n").next()?;
    let end = paragraph
        .match_indices(". ")
        .chain(paragraph.match_indices(".\n"))
        .map(|(i, _)| i)
        .min()
        .unwrap_or(paragraph.len());
    let sentence = paragraph[..end].trim_end_matches('.').trim();
    let whole = sentence.matches('{').count() == sentence.matches('}').count()
        && sentence.matches('`').count() % 2 == 0;
    (whole && !sentence.is_empty() && sentence.len() <= 160).then_some(sentence)
}

/// `text` starting in lower case, unless its first word is a name or an acronym (a capital
/// after the first letter).
fn lowered(text: &str) -> String {
    let word = text.split(' ').next().unwrap_or_default();
    let mut chars = word.chars();
    match chars.next() {
        Some(a) if a.is_ascii_uppercase() && !chars.any(|c| c.is_uppercase()) => {
            a.to_ascii_lowercase().to_string() + &text[1..]
        }
        _ => text.to_owned(),
    }
}

/// A type as the docs name it: a link to a generated type, else its Rust spelling.
pub fn type_label(ty: &Ty) -> String {
    match ty {
        Ty::Named(n) => format!("[`{}`]", n.unraw()),
        Ty::Path(_) => "a type of the runtime".to_owned(),
        Ty::String => "a string".to_owned(),
        Ty::Bool => "a boolean".to_owned(),
        Ty::I64 | Ty::U64 => "an integer".to_owned(),
        Ty::F64 => "a number".to_owned(),
        Ty::Value => "any JSON value".to_owned(),
        Ty::Raw => "JSON kept as its text".to_owned(),
        Ty::Object => "any JSON object".to_owned(),
        Ty::Unit => "`null`".to_owned(),
        Ty::Vec(inner) => format!("a list of {}", plural(inner)),
        Ty::Map(inner) => format!("a map from strings to {}", plural(inner)),
        Ty::Boxed(inner) => type_label(inner),
    }
}

fn plural(ty: &Ty) -> String {
    match ty {
        Ty::Named(_) | Ty::Path(_) | Ty::Boxed(_) => type_label(ty),
        other => {
            let label = type_label(other);
            let bare = label
                .strip_prefix("an ")
                .or_else(|| label.strip_prefix("a "));
            bare.map_or(label.clone(), |b| format!("{b}s"))
        }
    }
}

/// "`a`, `b` and `c`".
fn listed(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// The summary of an item the schema does not describe.
pub fn summary(def: &TypeDef, docs: &Docs<'_>) -> String {
    if let Some((parent, rest)) = docs.parent(&def.pointer) {
        let parent = parent.unraw();
        return match rest.strip_prefix("/properties/") {
            Some(key) if !key.contains('/') => {
                format!("The value of the `{key}` member of [`{parent}`].")
            }
            _ => format!("A part of [`{parent}`] (at `#{rest}` in its schema)."),
        };
    }
    match &def.kind {
        Kind::Struct(s) => {
            let keys: Vec<String> = s
                .constants
                .iter()
                .map(|c| format!("`{}`", c.json))
                .chain(s.fields.iter().map(|f| format!("`{}`", f.json)))
                .collect();
            match keys.len() {
                0 => "A JSON object.".to_owned(),
                1 => format!("A JSON object with the member {}.", keys[0]),
                _ => format!("A JSON object with the members {}.", listed(&keys)),
            }
        }
        Kind::StringEnum(values) => {
            let values: Vec<String> = values.iter().map(|v| format!("`\"{}\"`", v.json)).collect();
            format!("One of the strings {}.", listed(&values))
        }
        Kind::Union(u) => {
            let types: Vec<String> = u.variants.iter().map(|v| type_label(&v.ty)).collect();
            format!("One of {}.", listed(&types).replace(" and ", " or "))
        }
        Kind::Results(r) => {
            let types: Vec<String> = r
                .variants
                .iter()
                .map(|v| format!("[`{}`]", v.ty.unraw()))
                .collect();
            format!("One of {}.", listed(&types).replace(" and ", " or "))
        }
        Kind::Alias(t) => format!("Another name for {}.", type_label(t)),
    }
}

/// The line on how a union's variant is chosen.
pub fn dispatch(u: &Union) -> String {
    match &u.mode {
        UnionMode::Tag(key) => {
            let default = u.variants.iter().find_map(|v| match &v.select {
                Select::Tag { default: true, .. } => Some(v.name.unraw()),
                _ => None,
            });
            let missing = default
                .map(|d| format!("; a value without `{key}` is read as `{d}`"))
                .unwrap_or_default();
            format!(
                "Variants are told apart by the `{key}` member (each variant shows the value that selects it){missing}."
            )
        }
        UnionMode::JsonType => "Variants are told apart by the JSON type of the value.".to_owned(),
        UnionMode::Shape => "The schema gives these variants no discriminator: a value is read as the first variant, in the order listed, whose members it has (each variant shows its test).".to_owned(),
    }
}

/// A union variant's doc line: its type, with an article; the tag value that selects it; and
/// the first sentence of the type's description.
pub fn variant(v: &Variant, mode: &UnionMode, docs: &Docs<'_>) -> String {
    let Ty::Named(n) = &v.ty else {
        let kind = v.name.unraw().to_lowercase();
        return format!("{} JSON {kind}.", capitalised(article("JSON")));
    };
    let name = n.unraw();
    let mut line = format!("{} [`{name}`]", capitalised(article(name)));
    match (mode, &v.select) {
        (UnionMode::Tag(key), Select::Tag { value, .. }) => {
            line.push_str(&format!(" (`\"{key}\": \"{value}\"`)"));
        }
        (_, Select::Shape(tests)) if !tests.is_empty() => {
            let tests: Vec<String> = tests.iter().map(predicate).collect();
            line.push_str(&format!(" (a value that {})", listed(&tests)));
        }
        _ => {}
    }
    let about = docs
        .description_of(n)
        .and_then(first_sentence)
        .map(|s| docs.rustdoc(Some(s)));
    match about {
        Some(s) => format!("{line}: {}.", lowered(&s)),
        None => format!("{line}."),
    }
}

/// A shape test in words.
fn predicate(p: &Predicate) -> String {
    match p {
        Predicate::Equals(k, v) => format!("has `\"{k}\": \"{v}\"`"),
        Predicate::OneOf(k, vs) => {
            let vs: Vec<String> = vs.iter().map(|v| format!("`\"{v}\"`")).collect();
            format!(
                "has `{k}` equal to {}",
                listed(&vs).replace(" and ", " or ")
            )
        }
        Predicate::Has(k) => format!("has `{k}`"),
        Predicate::Lacks(k) => format!("lacks `{k}`"),
    }
}

/// The line on a struct's constant members: written for the caller, checked when read.
pub fn constants(constants: &[Constant]) -> Option<String> {
    if constants.is_empty() {
        return None;
    }
    let members: Vec<String> = constants
        .iter()
        .map(|c| {
            let value = match &c.value {
                ConstValue::Str(s) => format!("\"{s}\""),
                ConstValue::Int(i) => i.to_string(),
            };
            let optional = if c.optional { " (may be missing)" } else { "" };
            format!("`\"{}\": {value}`{optional}", c.json)
        })
        .collect();
    Some(format!(
        "Fixed members, written when serialized and checked when read (no field holds them): {}.",
        listed(&members)
    ))
}

/// A field's doc: the schema's description (else a sentence naming the member, with the
/// first sentence of its type's description), and its JSON name.
pub fn field(json: &str, description: &str, ty: &Ty, docs: &Docs<'_>) -> String {
    if !description.is_empty() {
        return format!("{description}\n\nJSON: `{json}`.");
    }
    let named = match ty {
        Ty::Named(n) => Some(n),
        Ty::Boxed(inner) => inner.by_value(),
        _ => None,
    };
    let about = named
        .and_then(|n| docs.description_of(n))
        .and_then(first_sentence)
        .map(|s| docs.rustdoc(Some(s)));
    match about {
        Some(s) => format!("The `{json}` member: {}.", lowered(&s)),
        None => format!("The `{json}` member."),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_sentences() {
        assert_eq!(
            first_sentence("Text provided to or from an LLM."),
            Some("Text provided to or from an LLM")
        );
        assert_eq!(first_sentence("One. Two."), Some("One"));
        assert_eq!(first_sentence("A {@link X. y} z. More."), None);
        assert_eq!(lowered("The result"), "the result");
        assert_eq!(lowered("JSON text"), "JSON text");
        assert_eq!(lowered("A resource"), "a resource");
        assert_eq!(
            lowered("InputRequiredResult sent"),
            "InputRequiredResult sent"
        );
    }

    #[test]
    fn labels() {
        assert_eq!(
            type_label(&Ty::Vec(Box::new(Ty::String))),
            "a list of strings"
        );
        assert_eq!(
            listed(&["`a`".into(), "`b`".into(), "`c`".into()]),
            "`a`, `b` and `c`"
        );
    }
}
