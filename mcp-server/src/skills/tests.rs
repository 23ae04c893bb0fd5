//! Tests of the catalog on trees written to a temporary directory.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use mcp_runtime::skills::{DIRECTORY_MIME_TYPE, digest};

use super::*;

/// A directory of its own under the system's temporary directory, removed when dropped.
struct Tree(PathBuf);

impl Tree {
    fn new(files: &[(&str, &str)]) -> Tree {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let root =
            std::env::temp_dir().join(format!("mcp-server-skills-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(&root).expect("temporary directory");
        for (path, text) in files {
            let path = root.join(path);
            std::fs::create_dir_all(path.parent().expect("a parent")).expect("directories");
            std::fs::write(path, text).expect("a file");
        }
        Tree(root)
    }

    fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for Tree {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn skill_md(name: &str) -> String {
    format!("---\nname: {name}\ndescription: The {name} skill\n---\n# {name}\n")
}

fn sample() -> Tree {
    Tree::new(&[
        ("acme/billing/refunds/SKILL.md", &skill_md("refunds")),
        ("acme/billing/refunds/examples/email.md", "Hello"),
        (
            "acme/billing/refunds/partial/SKILL.md",
            &skill_md("partial"),
        ),
        ("acme/billing/refunds/partial/run.sh", "echo partial"),
        ("acme/billing/notes.txt", "not in any skill"),
        ("solo/SKILL.md", &skill_md("solo")),
        ("stray.txt", "outside"),
    ])
}

fn uris<T>(items: &[T], uri: impl Fn(&T) -> &str) -> Vec<&str> {
    items.iter().map(uri).collect()
}

#[test]
fn nested_prefixes_and_nested_skills() {
    let tree = sample();
    let catalog = Catalog::load(tree.path()).expect("loads");
    let page = catalog.entries(None, 10).expect("a page");
    assert_eq!(
        uris(&page.items, |e| &e.uri),
        [
            "skill://acme/billing/refunds/SKILL.md",
            "skill://acme/billing/refunds/partial/SKILL.md",
            "skill://solo/SKILL.md",
        ]
    );
    assert_eq!(page.next_cursor, None);
    let refunds = catalog
        .get("skill://acme/billing/refunds/SKILL.md")
        .expect("refunds");
    assert_eq!(
        uris(&refunds.files, |f| &f.uri),
        [
            "skill://acme/billing/refunds/SKILL.md",
            "skill://acme/billing/refunds/examples/email.md",
            "skill://acme/billing/refunds/partial/SKILL.md",
            "skill://acme/billing/refunds/partial/run.sh",
        ]
    );
    let partial = catalog
        .get("skill://acme/billing/refunds/partial/SKILL.md")
        .expect("partial");
    assert_eq!(partial.files.len(), 2);
    assert_eq!(partial.frontmatter["name"], "partial");
    // Each file once, files outside every skill left out.
    let all: Vec<&str> = catalog.resources().map(|f| f.uri.as_str()).collect();
    assert_eq!(all.len(), 5, "{all:?}");
    assert!(catalog.file("skill://acme/billing/notes.txt").is_none());
    assert!(catalog.file("skill://stray.txt").is_none());
    assert!(
        catalog
            .get("skill://acme/billing/refunds/examples/email.md")
            .is_none()
    );
}

#[test]
fn digests_and_sizes_are_of_the_bytes_served() {
    let tree = sample();
    let catalog = Catalog::load(tree.path()).expect("loads");
    let page = catalog.entries(None, 10).expect("a page");
    for entry in page.items {
        for listed in &entry.files {
            let file = catalog.file(&listed.uri).expect("served");
            assert_eq!(listed.digest, digest(&file.bytes), "{}", listed.uri);
            assert_eq!(listed.digest, file.digest);
            assert_eq!(listed.size, file.bytes.len() as u64);
        }
    }
    let email = catalog
        .file("skill://acme/billing/refunds/examples/email.md")
        .expect("email");
    assert_eq!(email.text(), Some("Hello"));
    assert_eq!(
        (email.name.as_str(), email.mime_type),
        ("email.md", "text/markdown")
    );
    assert_eq!(email.skill, None);
    let md = catalog.file("skill://solo/SKILL.md").expect("SKILL.md");
    assert_eq!(
        md.skill,
        Some(SkillSummary {
            name: "solo".into(),
            description: "The solo skill".into()
        })
    );
}

#[test]
fn pagination_round_trips_and_refuses_bad_cursors() {
    let tree = sample();
    let catalog = Catalog::load(tree.path()).expect("loads");
    let mut seen = Vec::new();
    let mut cursor = None;
    loop {
        let page = catalog.entries(cursor.as_deref(), 1).expect("a page");
        assert_eq!(page.items.len(), 1);
        seen.push(page.items[0].uri.clone());
        match page.next_cursor {
            Some(next) => cursor = Some(next),
            None => break,
        }
    }
    let whole: Vec<String> = catalog
        .entries(None, 100)
        .expect("a page")
        .items
        .iter()
        .map(|e| e.uri.clone())
        .collect();
    assert_eq!(seen, whole);

    assert_eq!(catalog.entries(Some("nonsense"), 1).unwrap_err(), BadCursor);
    let first = catalog
        .entries(None, 1)
        .expect("a page")
        .next_cursor
        .expect("more");
    let mut garbled = first.clone();
    garbled.pop();
    assert_eq!(catalog.entries(Some(&garbled), 1).unwrap_err(), BadCursor);
    // A cursor of the entries is not one of a directory's.
    let error = catalog
        .directory("skill://acme", Some(&first), 1)
        .unwrap_err();
    assert_eq!(error, DirectoryError::BadCursor);
}

#[test]
fn directories_list_their_direct_children() {
    let tree = sample();
    let catalog = Catalog::load(tree.path()).expect("loads");
    let root = catalog
        .directory("skill://acme/billing/refunds", None, 10)
        .expect("a directory");
    assert_eq!(
        root.items,
        [
            Child {
                uri: "skill://acme/billing/refunds/SKILL.md".into(),
                name: "SKILL.md".into(),
                mime_type: "text/markdown",
                size: Some(skill_md("refunds").len() as u64),
            },
            Child {
                uri: "skill://acme/billing/refunds/examples".into(),
                name: "examples".into(),
                mime_type: DIRECTORY_MIME_TYPE,
                size: None,
            },
            Child {
                uri: "skill://acme/billing/refunds/partial".into(),
                name: "partial".into(),
                mime_type: DIRECTORY_MIME_TYPE,
                size: None,
            },
        ]
    );
    // The levels above a skill root are directories; a file outside skills is not listed.
    let acme = catalog
        .directory("skill://acme", None, 10)
        .expect("a directory");
    assert_eq!(uris(&acme.items, |c| &c.uri), ["skill://acme/billing"]);
    let billing = catalog
        .directory("skill://acme/billing", None, 10)
        .expect("a directory");
    assert_eq!(
        uris(&billing.items, |c| &c.uri),
        ["skill://acme/billing/refunds"]
    );
    assert!(catalog.is_directory("skill://acme/billing/refunds/examples"));

    // Paged one child at a time, the same children.
    let mut paged = Vec::new();
    let mut cursor = None;
    loop {
        let page = catalog
            .directory("skill://acme/billing/refunds", cursor.as_deref(), 1)
            .expect("a page");
        paged.extend(page.items);
        match page.next_cursor {
            Some(next) => cursor = Some(next),
            None => break,
        }
    }
    assert_eq!(paged, root.items);

    let file = "skill://acme/billing/refunds/SKILL.md";
    assert_eq!(
        catalog.directory(file, None, 10).unwrap_err(),
        DirectoryError::NotADirectory
    );
    for missing in [
        "skill://nowhere",
        "skill://acme/",
        "skill://acme/billing/notes.txt",
    ] {
        assert_eq!(
            catalog.directory(missing, None, 10).unwrap_err(),
            DirectoryError::NotFound,
            "{missing}"
        );
    }
}

#[test]
fn names_with_reserved_characters_are_percent_encoded() {
    let tree = Tree::new(&[
        ("my team/notes/SKILL.md", &skill_md("notes")),
        ("my team/notes/a b#.txt", "x"),
    ]);
    let catalog = Catalog::load(tree.path()).expect("loads");
    let file = catalog
        .file("skill://my%20team/notes/a%20b%23.txt")
        .expect("encoded");
    assert_eq!(
        (file.name.as_str(), file.mime_type),
        ("a b#.txt", "text/plain")
    );
    let top = catalog
        .directory("skill://my%20team", None, 10)
        .expect("a directory");
    assert_eq!(top.items[0].name, "notes");
}

#[test]
fn a_name_that_is_not_the_directory_is_an_error_naming_the_file() {
    let tree = Tree::new(&[("tools/SKILL.md", &skill_md("other"))]);
    let error = Catalog::load(tree.path()).unwrap_err();
    assert!(
        matches!(&error, CatalogError::NameMismatch { name, directory, .. } if name == "other" && directory == "tools"),
        "{error}"
    );
    assert!(error.to_string().contains("tools/SKILL.md"), "{error}");

    let tree = Tree::new(&[("Bad_Name/SKILL.md", &skill_md("Bad_Name"))]);
    let error = Catalog::load(tree.path()).unwrap_err();
    assert!(
        matches!(&error, CatalogError::InvalidName { name, .. } if name == "Bad_Name"),
        "{error}"
    );

    let tree = Tree::new(&[("broken/SKILL.md", "---\nname: broken\n---\n")]);
    let error = Catalog::load(tree.path()).unwrap_err();
    assert!(
        matches!(&error, CatalogError::Frontmatter { .. }),
        "{error}"
    );
    assert!(
        error.to_string().contains("broken/SKILL.md")
            && error.to_string().contains("`description`"),
        "{error}"
    );

    let tree = Tree::new(&[("SKILL.md", &skill_md("root"))]);
    let error = Catalog::load(tree.path()).unwrap_err();
    assert!(matches!(&error, CatalogError::RootSkill { .. }), "{error}");
}

#[test]
fn limits_are_errors_naming_the_skill() {
    let tree = Tree::new(&[
        ("big/SKILL.md", &skill_md("big")),
        ("big/a.txt", "aaaa"),
        ("big/b.txt", "bbbb"),
    ]);
    let few = Limits {
        max_files_per_skill: 2,
        ..Limits::default()
    };
    let error = Catalog::load_with(tree.path(), &few).unwrap_err();
    assert!(
        matches!(
            &error,
            CatalogError::TooManyFiles {
                count: 3,
                limit: 2,
                ..
            }
        ),
        "{error}"
    );
    assert!(error.to_string().contains("big"), "{error}");

    let small = Limits {
        max_bytes_per_skill: 20,
        ..Limits::default()
    };
    let error = Catalog::load_with(tree.path(), &small).unwrap_err();
    assert!(
        matches!(&error, CatalogError::SkillTooLarge { limit: 20, .. }),
        "{error}"
    );

    let tiny_catalog = Limits {
        max_total_bytes: 20,
        ..Limits::default()
    };
    let error = Catalog::load_with(tree.path(), &tiny_catalog).unwrap_err();
    assert!(
        matches!(&error, CatalogError::CatalogTooLarge { limit: 20, .. }),
        "{error}"
    );

    let short_walk = Limits {
        max_tree_files: 2,
        ..Limits::default()
    };
    let error = Catalog::load_with(tree.path(), &short_walk).unwrap_err();
    assert!(
        matches!(&error, CatalogError::TooManyTreeFiles { limit: 2, .. }),
        "{error}"
    );

    let shallow = Limits {
        max_depth: 0,
        ..Limits::default()
    };
    let error = Catalog::load_with(tree.path(), &shallow).unwrap_err();
    assert!(
        matches!(&error, CatalogError::TooDeep { limit: 0, .. }),
        "{error}"
    );

    assert!(Catalog::load(tree.path()).is_ok());
}

#[test]
fn an_empty_root_is_an_empty_catalog_and_a_missing_one_an_error() {
    let tree = Tree::new(&[("readme.txt", "no skills here")]);
    let catalog = Catalog::load(tree.path()).expect("loads");
    assert!(catalog.is_empty());
    let page = catalog.entries(None, 10).expect("a page");
    assert!(page.items.is_empty() && page.next_cursor.is_none());
    assert_eq!(catalog.resources().count(), 0);

    let missing = tree.path().join("missing");
    let error = Catalog::load(&missing).unwrap_err();
    assert!(matches!(&error, CatalogError::Root { .. }), "{error}");
    assert!(error.to_string().contains("missing"), "{error}");
    let error = Catalog::load(&tree.path().join("readme.txt")).unwrap_err();
    assert!(matches!(&error, CatalogError::Root { .. }), "{error}");
}

#[cfg(unix)]
#[test]
fn symbolic_links_are_skipped() {
    let tree = Tree::new(&[
        ("linked/SKILL.md", &skill_md("linked")),
        ("outside.txt", "secret"),
    ]);
    std::os::unix::fs::symlink(
        tree.path().join("outside.txt"),
        tree.path().join("linked/leak.txt"),
    )
    .expect("a link");
    std::os::unix::fs::symlink(tree.path().join("linked"), tree.path().join("linked/loop"))
        .expect("a link");
    let catalog = Catalog::load(tree.path()).expect("loads");
    let entry = catalog.get("skill://linked/SKILL.md").expect("linked");
    assert_eq!(uris(&entry.files, |f| &f.uri), ["skill://linked/SKILL.md"]);
}

#[test]
fn the_conformance_server_fixture_loads() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/conformance-server/skills");
    let catalog = Catalog::load(&root).expect("the fixture loads");
    let page = catalog.entries(None, 100).expect("a page");
    let counts: Vec<(&str, usize)> = page
        .items
        .iter()
        .map(|e| (e.uri.as_str(), e.files.len()))
        .collect();
    assert_eq!(
        counts,
        [
            ("skill://acme/billing/refunds/SKILL.md", 2),
            ("skill://git-workflow/SKILL.md", 1),
            ("skill://pdf-processing/SKILL.md", 5),
        ]
    );
    let refunds = page.items[0];
    assert_eq!(refunds.frontmatter["license"], "Apache-2.0");
    assert_eq!(refunds.frontmatter["metadata"]["version"], "1.2.0");
    // The first skill has a subdirectory.
    let root = catalog
        .directory("skill://acme/billing/refunds", None, 10)
        .expect("a directory");
    assert!(
        root.items
            .iter()
            .any(|c| c.mime_type == DIRECTORY_MIME_TYPE && c.name == "examples")
    );
    let script = catalog
        .file("skill://pdf-processing/scripts/extract.py")
        .expect("the script");
    assert_eq!(script.mime_type, "text/x-python");
}

#[test]
fn dot_files_and_dot_folders_are_neither_listed_nor_served() {
    let tree = Tree::new(&[
        ("tidy/SKILL.md", &skill_md("tidy")),
        ("tidy/notes.md", "kept"),
        ("tidy/.env", "API_KEY=secret"),
        ("tidy/.git/config", "[remote] url = secret"),
        ("tidy/docs/.draft.md", "unfinished"),
        ("tidy/docs/guide.md", "kept"),
        // Not a skill either: its name could never be a skill's.
        (".hidden/SKILL.md", &skill_md("hidden")),
    ]);
    let catalog = Catalog::load(tree.path()).expect("loads");
    let page = catalog.entries(None, 10).expect("a page");
    assert_eq!(uris(&page.items, |e| &e.uri), ["skill://tidy/SKILL.md"]);
    let expected = [
        "skill://tidy/SKILL.md",
        "skill://tidy/docs/guide.md",
        "skill://tidy/notes.md",
    ];
    assert_eq!(uris(&page.items[0].files, |f| &f.uri), expected);
    let listed: Vec<&str> = catalog.resources().map(|f| f.uri.as_str()).collect();
    assert_eq!(listed, expected);
    for hidden in [
        "skill://tidy/.env",
        "skill://tidy/.git/config",
        "skill://tidy/docs/.draft.md",
        "skill://.hidden/SKILL.md",
    ] {
        assert!(catalog.file(hidden).is_none(), "{hidden} is served");
    }
    let children = catalog.directory("skill://tidy", None, 10).expect("tidy");
    assert_eq!(
        uris(&children.items, |c| &c.uri),
        [
            "skill://tidy/SKILL.md",
            "skill://tidy/docs",
            "skill://tidy/notes.md"
        ]
    );
    assert!(catalog.directory("skill://tidy/.git", None, 10).is_err());
}

/// A skill of one file besides its `SKILL.md`, `swap/<file>` holding `public!`, walked; and a
/// tree outside it holding `secret!` (as long) at `outside/<file>`.
#[cfg(unix)]
fn walked_then(file: &str) -> (Tree, Tree, Vec<load::Found>) {
    let tree = Tree::new(&[("swap/SKILL.md", &skill_md("swap")), (file, "public!")]);
    let outside = Tree::new(&[(file, "secret!")]);
    let found = load::walk(tree.path(), &Limits::default()).expect("walks");
    (tree, outside, found)
}

/// The load of what was walked fails: `path` changed since the walk.
#[cfg(unix)]
fn refused_as_changed(tree: &Tree, found: &[load::Found], path: &str) {
    match load::load_walked(tree.path(), found, &Limits::default()) {
        Err(CatalogError::Changed { path: at }) => assert_eq!(at, tree.path().join(path)),
        Err(other) => panic!("{other}"),
        Ok(catalog) => {
            let read = catalog.file(&format!("skill://{path}")).map(File::text);
            panic!("loaded, {path} read as {read:?}");
        }
    }
}

#[cfg(unix)]
#[test]
fn a_file_swapped_for_a_link_after_the_walk_is_not_followed() {
    let (tree, outside, found) = walked_then("swap/notes.md");
    let notes = tree.path().join("swap/notes.md");
    std::fs::remove_file(&notes).expect("removed");
    std::os::unix::fs::symlink(outside.path().join("swap/notes.md"), &notes).expect("a link");
    refused_as_changed(&tree, &found, "swap/notes.md");
}

#[cfg(unix)]
#[test]
fn a_directory_swapped_for_a_link_after_the_walk_is_not_followed() {
    let (tree, outside, found) = walked_then("swap/sub/notes.md");
    let sub = tree.path().join("swap/sub");
    std::fs::rename(&sub, tree.path().join("swap-sub-was")).expect("moved away");
    std::os::unix::fs::symlink(outside.path().join("swap/sub"), &sub).expect("a link");
    refused_as_changed(&tree, &found, "swap/sub/notes.md");
}

#[cfg(unix)]
#[test]
fn another_file_moved_in_after_the_walk_is_not_read() {
    let (tree, outside, found) = walked_then("swap/notes.md");
    std::fs::copy(
        outside.path().join("swap/notes.md"),
        tree.path().join("other.md"),
    )
    .expect("a copy");
    std::fs::rename(
        tree.path().join("other.md"),
        tree.path().join("swap/notes.md"),
    )
    .expect("moved in");
    refused_as_changed(&tree, &found, "swap/notes.md");
}
