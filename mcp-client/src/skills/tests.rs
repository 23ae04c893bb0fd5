//! The host's checks of skill entries and of what is read for a skill, the conformance
//! suite's client scenarios among them (a tampered digest, a wrong size, a changed
//! frontmatter).

use serde_json::{Value, json};

use super::*;
use mcp_runtime::skills::{MAX_FILES, MAX_TOTAL_BYTES, digest};

const SKILL_MD_URI: &str = "skill://pdf-processing/SKILL.md";
const FORMS_URI: &str = "skill://pdf-processing/references/FORMS.md";
const SKILL_MD: &str = "---\nname: pdf-processing\ndescription: Extract, fill, and assemble PDF documents\n---\n\nSkill body.\n";
const FORMS: &str = "Supporting content.\n";

/// A file item of `resources`.
fn file(uri: &str, content: &str) -> Value {
    json!({ "uri": uri, "digest": digest(content.as_bytes()), "size": content.len() })
}

/// The suite's entry: the SKILL.md and one supporting file.
fn entry() -> Value {
    json!({
        "uri": SKILL_MD_URI,
        "frontmatter": {
            "name": "pdf-processing",
            "description": "Extract, fill, and assemble PDF documents",
        },
        "resources": [file(SKILL_MD_URI, SKILL_MD), file(FORMS_URI, FORMS)],
    })
}

/// The entry with `change` applied.
fn entry_with(change: impl FnOnce(&mut Value)) -> Value {
    let mut entry = entry();
    change(&mut entry);
    entry
}

/// The error building the changed entry gives.
fn entry_error(change: impl FnOnce(&mut Value)) -> EntryError {
    match HeldEntry::from_json(&entry_with(change)) {
        Ok(held) => panic!("accepted: {held:?}"),
        Err(e) => e,
    }
}

fn held() -> HeldEntry {
    HeldEntry::from_json(&entry()).expect("the suite's entry is valid")
}

/// A `resources/read` result with one text item.
fn text_result(uri: &str, text: &str) -> Value {
    json!({ "contents": [{ "uri": uri, "mimeType": "text/markdown", "text": text }] })
}

#[test]
fn a_good_entry_is_held_with_its_files() {
    let held = held();
    assert_eq!(held.uri(), SKILL_MD_URI);
    assert_eq!(held.root(), "skill://pdf-processing");
    assert_eq!(held.name(), "pdf-processing");
    assert_eq!(
        held.description(),
        "Extract, fill, and assemble PDF documents"
    );
    assert_eq!(held.frontmatter().len(), 2);
    assert!(!held.is_dynamic());
    let files = held.files().expect("listed");
    assert_eq!(files.len(), 2);
    assert_eq!(files[FORMS_URI].digest(), digest(FORMS.as_bytes()));
    assert_eq!(files[FORMS_URI].size(), FORMS.len() as u64);
    assert_eq!(
        held.total_size(),
        Some((SKILL_MD.len() + FORMS.len()) as u64)
    );
}

#[test]
fn from_entry_takes_any_serializable_entry() {
    #[derive(serde::Serialize)]
    struct Skill {
        uri: String,
        frontmatter: serde_json::Map<String, Value>,
        resources: Value,
    }
    let Value::Object(frontmatter) = entry()["frontmatter"].clone() else {
        panic!("an object");
    };
    let skill = Skill {
        uri: SKILL_MD_URI.into(),
        frontmatter,
        resources: entry()["resources"].clone(),
    };
    assert_eq!(HeldEntry::from_entry(&skill), Ok(held()));
}

#[test]
fn nested_skill_paths_and_other_fields_are_kept() {
    let uri = "skill://acme/billing/refunds/SKILL.md";
    let text = "---\nname: refunds\ndescription: Issue refunds\nlicense: MIT\n---\n";
    let held = HeldEntry::from_json(&json!({
        "uri": uri,
        "frontmatter": { "name": "refunds", "description": "Issue refunds", "license": "MIT" },
        "resources": [file(uri, text), file("skill://acme/billing/refunds/a/b.txt", "b")],
    }))
    .expect("valid");
    assert_eq!(held.root(), "skill://acme/billing/refunds");
    assert_eq!(held.frontmatter()["license"], "MIT");
    let loaded = held
        .verify_skill_md(text.as_bytes().to_vec())
        .expect("verified");
    assert_eq!(loaded.text(), text);
}

#[test]
fn an_entry_that_is_not_an_object_or_has_no_uri_is_refused() {
    assert_eq!(HeldEntry::from_json(&json!([])), Err(EntryError::NoUri));
    let error = entry_error(|e| e["uri"] = json!(7));
    assert_eq!(error, EntryError::NoUri);
    assert!(error.to_string().contains("`uri`"), "{error}");
}

#[test]
fn a_uri_that_is_not_a_skill_md_is_refused() {
    for uri in [
        "skill://pdf-processing/README.md",
        "skill://SKILL.md",
        "pdf-processing/SKILL.md",
    ] {
        let error = entry_error(|e| e["uri"] = json!(uri));
        assert_eq!(error, EntryError::NotSkillMd { uri: uri.into() });
        assert!(error.to_string().contains(uri), "{error}");
    }
}

#[test]
fn an_invalid_skill_name_is_refused() {
    let error = entry_error(|e| {
        e["uri"] = json!("skill://PDF/SKILL.md");
        e["frontmatter"]["name"] = json!("PDF");
    });
    assert_eq!(
        error,
        EntryError::InvalidName {
            uri: "skill://PDF/SKILL.md".into(),
            name: "PDF".into()
        }
    );
}

#[test]
fn a_missing_frontmatter_is_refused() {
    for frontmatter in [Value::Null, json!("name: x"), json!([])] {
        let error = entry_error(|e| e["frontmatter"] = frontmatter);
        assert_eq!(
            error,
            EntryError::NoFrontmatter {
                uri: SKILL_MD_URI.into()
            }
        );
    }
    let error = entry_error(|e| {
        if let Some(o) = e.as_object_mut() {
            o.remove("frontmatter");
        }
    });
    assert!(matches!(error, EntryError::NoFrontmatter { .. }), "{error}");
}

#[test]
fn a_missing_or_empty_name_or_description_is_refused() {
    for field in ["name", "description"] {
        for value in [Value::Null, json!(""), json!(3)] {
            let error = entry_error(|e| e["frontmatter"][field] = value);
            assert_eq!(
                error,
                EntryError::MissingField {
                    uri: SKILL_MD_URI.into(),
                    field
                }
            );
            assert!(error.to_string().contains(field), "{error}");
        }
    }
}

#[test]
fn a_name_other_than_the_last_path_segment_is_refused() {
    let error = entry_error(|e| e["frontmatter"]["name"] = json!("pdf"));
    assert_eq!(
        error,
        EntryError::NameMismatch {
            uri: SKILL_MD_URI.into(),
            name: "pdf".into()
        }
    );
}

#[test]
fn resources_neither_an_array_nor_dynamic_are_refused() {
    for resources in [json!("static"), json!({}), Value::Null, json!(1)] {
        let error = entry_error(|e| e["resources"] = resources);
        assert!(
            matches!(&error, EntryError::InvalidResources { uri, .. } if uri == SKILL_MD_URI),
            "{error}"
        );
    }
    let error = entry_error(|e| {
        if let Some(o) = e.as_object_mut() {
            o.remove("resources");
        }
    });
    assert_eq!(
        error,
        EntryError::InvalidResources {
            uri: SKILL_MD_URI.into(),
            found: "missing".into()
        }
    );
}

#[test]
fn a_malformed_file_item_is_refused_with_its_index() {
    let cases: [(Value, &str); 6] = [
        (json!("skill://pdf-processing/x"), "not an object"),
        (json!({ "digest": digest(b""), "size": 0 }), "`uri`"),
        (
            json!({ "uri": FORMS_URI, "digest": "sha256:ABC", "size": 0 }),
            "`digest`",
        ),
        (
            json!({ "uri": FORMS_URI, "digest": digest(b"").to_uppercase(), "size": 0 }),
            "`digest`",
        ),
        (
            json!({ "uri": FORMS_URI, "digest": digest(b""), "size": -1 }),
            "`size`",
        ),
        (
            json!({ "uri": FORMS_URI, "digest": digest(b""), "size": "0" }),
            "`size`",
        ),
    ];
    for (item, what) in cases {
        let error = entry_error(|e| e["resources"][1] = item);
        match &error {
            EntryError::InvalidFile { uri, index, reason } => {
                assert_eq!((uri.as_str(), *index), (SKILL_MD_URI, 1));
                assert!(reason.contains(what), "{error}");
            }
            other => panic!("{other:?}"),
        }
        assert!(error.to_string().contains("resources[1]"), "{error}");
    }
}

#[test]
fn a_file_outside_the_skill_root_is_refused() {
    for outside in [
        "skill://other/FORMS.md",
        "skill://pdf-processing-2/FORMS.md",
        "skill://pdf-processing",
        "skill://pdf-processing/",
        "skill://pdf-processing/../other/SKILL.md",
        "skill://pdf-processing/a/%2E%2e/b",
        "skill://pdf-processing/a//b",
    ] {
        let error = entry_error(|e| e["resources"][1] = file(outside, FORMS));
        assert_eq!(
            error,
            EntryError::OutsideRoot {
                uri: SKILL_MD_URI.into(),
                file: outside.into()
            }
        );
    }
}

#[test]
fn a_file_with_an_encoded_separator_or_dot_segment_in_a_segment_is_refused() {
    for hidden in [
        "skill://pdf-processing/a%2Fb.md",
        "skill://pdf-processing/a%2fb.md",
        "skill://pdf-processing/a%5Cb.md",
        "skill://pdf-processing/a%5cb.md",
        "skill://pdf-processing/a\\b.md",
        "skill://pdf-processing/%2E%2E",
        "skill://pdf-processing/%2E%2E%2Fother%2FSKILL.md",
        "skill://pdf-processing/references/..%5C..%5Cother%5CSKILL.md",
        "skill://pdf-processing/.%2e/other/SKILL.md",
    ] {
        let error = entry_error(|e| e["resources"][1] = file(hidden, FORMS));
        assert_eq!(
            error,
            EntryError::OutsideRoot {
                uri: SKILL_MD_URI.into(),
                file: hidden.into()
            },
            "{hidden}"
        );
    }
    // A percent sign that encodes no separator and no dot is a name like another.
    let plain = "skill://pdf-processing/references/100%25.md";
    let held = HeldEntry::from_json(&entry_with(|e| e["resources"][1] = file(plain, FORMS)))
        .expect("an encoded percent sign is not a separator");
    assert!(held.files().unwrap().contains_key(plain));
}

#[test]
fn a_skill_md_uri_with_an_encoded_separator_or_dot_segment_is_refused() {
    for uri in [
        "skill://acme%2Fother/pdf-processing/SKILL.md",
        "skill://acme%2fother/pdf-processing/SKILL.md",
        "skill://acme%5Cother/pdf-processing/SKILL.md",
        "skill://acme%5cother/pdf-processing/SKILL.md",
        "skill://acme\\other/pdf-processing/SKILL.md",
        "skill://acme/%2E%2E/pdf-processing/SKILL.md",
        "skill://acme/../pdf-processing/SKILL.md",
        "skill://acme//pdf-processing/SKILL.md",
    ] {
        let error = entry_error(|e| {
            e["uri"] = json!(uri);
            e["resources"] = json!([file(uri, SKILL_MD)]);
        });
        assert_eq!(error, EntryError::NotSkillMd { uri: uri.into() }, "{uri}");
        assert!(error.to_string().contains("%2F"), "{error}");
    }
    let nested = "skill://acme/billing/pdf-processing/SKILL.md";
    HeldEntry::from_json(&entry_with(|e| {
        e["uri"] = json!(nested);
        e["resources"] = json!([file(nested, SKILL_MD)]);
    }))
    .expect("a nested skill-path of plain segments is held");
}

#[test]
fn a_file_listed_twice_is_refused() {
    let error = entry_error(|e| {
        if let Some(files) = e["resources"].as_array_mut() {
            files.push(file(FORMS_URI, "other"));
        }
    });
    assert_eq!(
        error,
        EntryError::Duplicate {
            uri: SKILL_MD_URI.into(),
            file: FORMS_URI.into()
        }
    );
}

#[test]
fn resources_without_the_skill_md_are_incomplete() {
    let error = entry_error(|e| e["resources"] = json!([file(FORMS_URI, FORMS)]));
    assert_eq!(
        error,
        EntryError::SkillMdUnlisted {
            uri: SKILL_MD_URI.into()
        }
    );
}

#[test]
fn the_file_count_limit_is_checked_from_the_entry() {
    let many = |count: usize| {
        entry_with(|e| {
            let mut files = vec![file(SKILL_MD_URI, SKILL_MD)];
            files.extend((1..count).map(|i| file(&format!("skill://pdf-processing/f{i}"), "")));
            e["resources"] = Value::Array(files);
        })
    };
    let held = HeldEntry::from_json(&many(MAX_FILES)).expect("at the limit");
    assert_eq!(held.files().map(|f| f.len()), Some(MAX_FILES));
    assert_eq!(
        HeldEntry::from_json(&many(MAX_FILES + 1)),
        Err(EntryError::TooManyFiles {
            uri: SKILL_MD_URI.into(),
            count: MAX_FILES + 1
        })
    );
}

#[test]
fn the_total_size_limit_is_checked_from_the_entry() {
    let sized = |size: u64| entry_with(|e| e["resources"][1]["size"] = json!(size));
    let at_limit = MAX_TOTAL_BYTES - SKILL_MD.len() as u64;
    let held = HeldEntry::from_json(&sized(at_limit)).expect("at the limit");
    assert_eq!(held.total_size(), Some(MAX_TOTAL_BYTES));
    assert_eq!(
        HeldEntry::from_json(&sized(at_limit + 1)),
        Err(EntryError::TooLarge {
            uri: SKILL_MD_URI.into(),
            total: MAX_TOTAL_BYTES + 1
        })
    );
    // Sizes that would overflow a u64 saturate rather than wrap under the limit.
    let error = entry_error(|e| {
        e["resources"][0]["size"] = json!(u64::MAX);
        e["resources"][1]["size"] = json!(u64::MAX);
    });
    assert_eq!(
        error,
        EntryError::TooLarge {
            uri: SKILL_MD_URI.into(),
            total: u64::MAX
        }
    );
}

#[test]
fn the_skill_md_and_a_listed_file_verify() {
    let held = held();
    let loaded = held
        .verify_skill_md(SKILL_MD.as_bytes().to_vec())
        .expect("verified");
    assert_eq!((loaded.uri(), loaded.text()), (SKILL_MD_URI, SKILL_MD));
    assert!(loaded.integrity_checked());
    let forms = held
        .verify(FORMS_URI, FORMS.as_bytes().to_vec())
        .expect("verified");
    assert_eq!((forms.uri(), forms.bytes()), (FORMS_URI, FORMS.as_bytes()));
    assert!(forms.integrity_checked());
    assert_eq!(forms.into_bytes(), FORMS.as_bytes());
}

#[test]
fn a_wrong_size_is_reported_as_size_before_any_digest() {
    // The suite's size scenario: bytes appended, so the digest differs too.
    let longer = format!("{SKILL_MD}extra bytes the entry did not account for\n");
    let error = held()
        .verify_skill_md(longer.clone().into_bytes())
        .unwrap_err();
    assert_eq!(
        error,
        VerifyError::Size {
            uri: SKILL_MD_URI.into(),
            expected: SKILL_MD.len() as u64,
            actual: longer.len() as u64,
        }
    );
    assert!(error.to_string().contains("bytes read"), "{error}");
    let error = held().verify(FORMS_URI, b"short".to_vec()).unwrap_err();
    assert!(
        matches!(error, VerifyError::Size { actual: 5, .. }),
        "{error}"
    );
}

#[test]
fn a_wrong_digest_is_refused() {
    // The suite's digest scenario: same length, other bytes.
    let evil = SKILL_MD.replace("Skill body.", "Evil body!!");
    assert_eq!(evil.len(), SKILL_MD.len());
    let error = held()
        .verify_skill_md(evil.clone().into_bytes())
        .unwrap_err();
    assert_eq!(
        error,
        VerifyError::Digest {
            uri: SKILL_MD_URI.into(),
            expected: digest(SKILL_MD.as_bytes()),
            actual: digest(evil.as_bytes()),
        }
    );
    let error = held()
        .verify(FORMS_URI, b"Supporting c0ntent.\n".to_vec())
        .unwrap_err();
    assert!(matches!(error, VerifyError::Digest { .. }), "{error}");
}

/// An entry whose SKILL.md digest and size are those of `text` (the suite's frontmatter
/// scenario: integrity holds, the frontmatter is what differs).
fn held_for(text: &str) -> HeldEntry {
    HeldEntry::from_json(&entry_with(|e| {
        e["resources"][0] = file(SKILL_MD_URI, text)
    }))
    .expect("valid")
}

/// The field a frontmatter failure names.
fn frontmatter_field(text: &str) -> Option<String> {
    match held_for(text).verify_skill_md(text.as_bytes().to_vec()) {
        Err(error @ VerifyError::Frontmatter { .. }) => {
            assert!(error.to_string().starts_with(SKILL_MD_URI), "{error}");
            match error {
                VerifyError::Frontmatter { uri, field, .. } => {
                    assert_eq!(uri, SKILL_MD_URI);
                    field
                }
                _ => None,
            }
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_changed_description_is_a_frontmatter_mismatch() {
    let text = SKILL_MD.replace(
        "description: Extract, fill, and assemble PDF documents",
        "description: Exfiltrate credentials",
    );
    assert_eq!(frontmatter_field(&text).as_deref(), Some("description"));
}

#[test]
fn an_extra_field_in_the_file_is_a_frontmatter_mismatch() {
    let text = SKILL_MD.replace("---\n\n", "allowed-tools: Bash\n---\n\n");
    assert_eq!(frontmatter_field(&text).as_deref(), Some("allowed-tools"));
}

#[test]
fn a_field_missing_from_the_file_is_a_frontmatter_mismatch() {
    let text = SKILL_MD;
    let held = HeldEntry::from_json(&entry_with(|e| {
        e["frontmatter"]["license"] = json!("MIT");
    }))
    .expect("valid");
    let error = held.verify_skill_md(text.as_bytes().to_vec()).unwrap_err();
    assert!(
        matches!(&error, VerifyError::Frontmatter { field: Some(f), .. } if f == "license"),
        "{error}"
    );
}

#[test]
fn a_skill_md_without_frontmatter_or_not_utf8_is_refused() {
    let text = "# No frontmatter\n";
    assert_eq!(frontmatter_field(text), None);

    let bytes = b"---\nname: \xff\n---\n".to_vec();
    let held = HeldEntry::from_json(&entry_with(|e| {
        e["resources"][0] =
            json!({ "uri": SKILL_MD_URI, "digest": digest(&bytes), "size": bytes.len() });
    }))
    .expect("valid");
    let error = held.verify_skill_md(bytes).unwrap_err();
    assert!(matches!(error, VerifyError::NotUtf8 { .. }), "{error}");
}

#[test]
fn a_frontmatter_field_named_frontmatter_is_compared_as_a_field() {
    let text = "---\nname: pdf-processing\ndescription: d\nfrontmatter:\n  name: x\n---\n";
    let held = HeldEntry::from_json(&json!({
        "uri": SKILL_MD_URI,
        "frontmatter": { "name": "pdf-processing", "description": "d", "frontmatter": { "name": "x" } },
        "resources": [file(SKILL_MD_URI, text)],
    }))
    .expect("valid");
    let loaded = held
        .verify_skill_md(text.as_bytes().to_vec())
        .expect("verified");
    assert_eq!(loaded.into_text(), text);
}

#[test]
fn verify_on_the_skill_md_checks_its_frontmatter_too() {
    let text = SKILL_MD.replace("---\n\n", "extra: 1\n---\n\n");
    let error = held_for(&text)
        .verify(SKILL_MD_URI, text.into_bytes())
        .unwrap_err();
    assert!(matches!(error, VerifyError::Frontmatter { .. }), "{error}");
    let file = held()
        .verify(SKILL_MD_URI, SKILL_MD.as_bytes().to_vec())
        .expect("verified");
    assert_eq!(file.bytes(), SKILL_MD.as_bytes());
}

#[test]
fn an_unlisted_file_is_refused_before_and_after_reading() {
    let unlisted = "skill://pdf-processing/references/OTHER.md";
    let expected = VerifyError::Unlisted {
        skill: SKILL_MD_URI.into(),
        uri: unlisted.into(),
    };
    assert_eq!(held().check_readable(unlisted), Err(expected.clone()));
    assert_eq!(
        held().verify(unlisted, b"anything".to_vec()),
        Err(expected.clone())
    );
    assert_eq!(
        held().verify_read(unlisted, &text_result(unlisted, "anything")),
        Err(expected)
    );
    assert_eq!(held().check_readable(FORMS_URI), Ok(()));
}

#[test]
fn text_and_blob_contents_give_their_bytes() {
    let text = text_result(FORMS_URI, FORMS);
    assert_eq!(
        content_bytes(&text, FORMS_URI),
        Ok(FORMS.as_bytes().to_vec())
    );
    // "Supporting content.\n" in standard base64.
    let blob = json!({ "contents": [
        { "uri": SKILL_MD_URI, "text": "other item" },
        { "uri": FORMS_URI, "mimeType": "application/octet-stream",
          "blob": "U3VwcG9ydGluZyBjb250ZW50Lgo=" },
    ]});
    assert_eq!(
        content_bytes(&blob, FORMS_URI),
        Ok(FORMS.as_bytes().to_vec())
    );
    let file = held().verify_read(FORMS_URI, &blob).expect("verified");
    assert_eq!(file.bytes(), FORMS.as_bytes());
    let loaded = held()
        .verify_skill_md_read(&text_result(SKILL_MD_URI, SKILL_MD))
        .expect("verified");
    assert_eq!(loaded.text(), SKILL_MD);
}

#[test]
fn contents_that_do_not_give_one_file_are_refused() {
    let uri = FORMS_URI.to_owned();
    let no_contents = json!({ "content": [] });
    assert_eq!(
        content_bytes(&no_contents, FORMS_URI),
        Err(ContentError::NoContents { uri: uri.clone() })
    );
    let other = text_result(SKILL_MD_URI, SKILL_MD);
    assert_eq!(
        content_bytes(&other, FORMS_URI),
        Err(ContentError::Absent { uri: uri.clone() })
    );
    let twice = json!({ "contents": [
        { "uri": FORMS_URI, "text": "a" }, { "uri": FORMS_URI, "text": "b" },
    ]});
    assert_eq!(
        content_bytes(&twice, FORMS_URI),
        Err(ContentError::Ambiguous {
            uri: uri.clone(),
            count: 2
        })
    );
    for item in [
        json!({ "uri": FORMS_URI }),
        json!({ "uri": FORMS_URI, "text": "a", "blob": "YQ==" }),
        json!({ "uri": FORMS_URI, "text": 1 }),
    ] {
        let result = json!({ "contents": [item] });
        assert_eq!(
            content_bytes(&result, FORMS_URI),
            Err(ContentError::NoData { uri: uri.clone() })
        );
    }
    let bad = json!({ "contents": [{ "uri": FORMS_URI, "blob": "not base64!" }] });
    let error = content_bytes(&bad, FORMS_URI).unwrap_err();
    assert!(matches!(error, ContentError::Base64 { .. }), "{error}");
    assert!(error.to_string().contains(FORMS_URI), "{error}");
    // Through verification, the content error is the failure.
    assert_eq!(
        held().verify_read(FORMS_URI, &other),
        Err(VerifyError::Content(ContentError::Absent { uri }))
    );
}

/// A dynamic entry of the suite's skill.
fn dynamic() -> HeldEntry {
    let held =
        HeldEntry::from_json(&entry_with(|e| e["resources"] = json!("dynamic"))).expect("valid");
    assert!(held.is_dynamic());
    assert_eq!((held.files(), held.total_size()), (None, None));
    held
}

#[test]
fn a_dynamic_skill_is_refused_without_opt_in() {
    let refused = VerifyError::DynamicRefused {
        skill: SKILL_MD_URI.into(),
    };
    let held = dynamic();
    assert_eq!(held.check_readable(SKILL_MD_URI), Err(refused.clone()));
    assert_eq!(
        held.verify_skill_md(SKILL_MD.as_bytes().to_vec()),
        Err(refused.clone())
    );
    assert_eq!(
        held.verify(FORMS_URI, FORMS.as_bytes().to_vec()),
        Err(refused.clone())
    );
    assert!(refused.to_string().contains("dynamic"), "{refused}");
}

#[test]
fn an_opted_in_dynamic_skill_checks_frontmatter_and_root_only() {
    let held = dynamic().allow_dynamic();
    let loaded = held
        .verify_skill_md(SKILL_MD.as_bytes().to_vec())
        .expect("verified");
    assert!(!loaded.integrity_checked());
    let file = held
        .verify(FORMS_URI, b"whatever the server sends".to_vec())
        .expect("no integrity to check");
    assert!(!file.integrity_checked());
    // The frontmatter is still compared.
    let changed = SKILL_MD.replace("Extract", "Exfiltrate");
    let error = held.verify_skill_md(changed.into_bytes()).unwrap_err();
    assert!(
        matches!(&error, VerifyError::Frontmatter { field: Some(f), .. } if f == "description"),
        "{error}"
    );
    // And nothing outside the skill root is read.
    assert_eq!(
        held.check_readable("skill://other/SKILL.md"),
        Err(VerifyError::Unlisted {
            skill: SKILL_MD_URI.into(),
            uri: "skill://other/SKILL.md".into()
        })
    );
}

#[test]
fn allow_dynamic_changes_nothing_for_a_listed_skill() {
    let held = held().allow_dynamic();
    let error = held
        .verify(FORMS_URI, b"whatever the server sends".to_vec())
        .unwrap_err();
    assert!(matches!(error, VerifyError::Size { .. }), "{error}");
}

#[test]
fn errors_name_the_rule_and_the_uri() {
    let errors: Vec<Box<dyn std::error::Error>> = vec![
        Box::new(entry_error(|e| e["frontmatter"]["name"] = json!("pdf"))),
        Box::new(entry_error(|e| e["resources"] = json!([]))),
        Box::new(
            held()
                .check_readable(FORMS_URI.replace("FORMS", "X").as_str())
                .unwrap_err(),
        ),
        Box::new(held().verify(FORMS_URI, Vec::new()).unwrap_err()),
    ];
    for error in errors {
        let text = error.to_string();
        assert!(text.contains("skill://pdf-processing/"), "{text}");
    }
}
