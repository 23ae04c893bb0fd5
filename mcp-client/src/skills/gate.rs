//! Which of the extension's requests a server allows, from the capabilities it declared: the
//! checks `bind!(Mcp = mcp, skills)` gives `Outgoing::allowed_by`, so that a client sends
//! `skills/*` only to a server that declared the extension, and `resources/directory/read` only
//! to one that declared `directoryRead: true`.

use mcp_runtime::extension::{Extension, ExtensionCapabilities};
use serde::Serialize;

/// The setting that says a server serves `resources/directory/read`.
const DIRECTORY_READ: &str = "directoryRead";

/// `Ok` when `capabilities` (a server's) declare extension `E`.
pub fn declared<E: Extension, C: ExtensionCapabilities>(capabilities: &C) -> Result<(), String> {
    if capabilities.declares::<E>() {
        Ok(())
    } else {
        Err(format!(
            "the server did not declare the extension {}",
            E::ID
        ))
    }
}

/// `Ok` when `capabilities` declare extension `E` with `directoryRead: true`.
pub fn reads_directories<E, C>(capabilities: &C) -> Result<(), String>
where
    E: Extension,
    C: ExtensionCapabilities,
    C::Settings: Serialize,
{
    declared::<E, C>(capabilities)?;
    let on = capabilities
        .settings::<E>()
        .and_then(|settings| serde_json::to_value(settings).ok())
        .and_then(|settings| settings.get(DIRECTORY_READ)?.as_bool())
        .unwrap_or(false);
    if on {
        Ok(())
    } else {
        Err(format!(
            "the server declared {} without {DIRECTORY_READ}: true",
            E::ID
        ))
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use mcp_runtime::extension::{Extension, ExtensionCapabilities};
    use serde_json::{Map, Value, json};

    use super::{declared, reads_directories};

    struct Skills;
    impl Extension for Skills {
        const ID: &'static str = "io.modelcontextprotocol/skills";
        const RESULT_TYPES: &'static [&'static str] = &[];
    }

    /// A server's capabilities, reduced to their extensions.
    #[derive(Default)]
    struct Caps(Option<BTreeMap<String, Map<String, Value>>>);
    impl ExtensionCapabilities for Caps {
        type Settings = Map<String, Value>;
        fn extensions(&self) -> Option<&BTreeMap<String, Self::Settings>> {
            self.0.as_ref()
        }
        fn extensions_mut(&mut self) -> &mut BTreeMap<String, Self::Settings> {
            self.0.get_or_insert_default()
        }
    }

    fn declaring(settings: Value) -> Caps {
        let Value::Object(settings) = settings else {
            panic!("settings are an object")
        };
        Caps(Some([(Skills::ID.to_owned(), settings)].into()))
    }

    #[test]
    fn skills_requests_need_the_declaration() {
        let e = declared::<Skills, _>(&Caps::default()).unwrap_err();
        assert_eq!(
            e,
            "the server did not declare the extension io.modelcontextprotocol/skills"
        );
        assert!(declared::<Skills, _>(&declaring(json!({}))).is_ok());
    }

    #[test]
    fn directory_reads_need_directory_read_true() {
        assert!(reads_directories::<Skills, _>(&declaring(json!({"directoryRead": true}))).is_ok());
        for settings in [
            json!({}),
            json!({"directoryRead": false}),
            json!({"directoryRead": "yes"}),
        ] {
            let e = reads_directories::<Skills, _>(&declaring(settings.clone())).unwrap_err();
            assert!(e.contains("without directoryRead: true"), "{settings}: {e}");
        }
        let e = reads_directories::<Skills, _>(&Caps::default()).unwrap_err();
        assert!(e.contains("did not declare"), "{e}");
    }
}
