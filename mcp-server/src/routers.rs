//! What the routers of tools, prompts and resources share: what a routed function is handed
//! ([`Invoked`]: `tools::Call` and `prompts::Get`; [`WithState`], the context with the
//! server's state), and inside the crate their table of entries by name and the JSON Schema of
//! an argument type.

use std::collections::HashMap;
use std::fmt;
use std::future::Future;
use std::ops::Deref;
use std::pin::Pin;
use std::sync::Arc;

use mcp_runtime::RpcError;

use serde_json::{Value, json};

/// Entries by name (a tool's, a prompt's, a resource's URI), each listed as an `L` and
/// answered by an `H`, listed in the order they were added.
pub(crate) struct ByName<L, H> {
    listed: Vec<L>,
    handlers: HashMap<String, H>,
}

impl<L: Clone, H> ByName<L, H> {
    /// No entries.
    pub(crate) fn new() -> Self {
        ByName {
            listed: Vec::new(),
            handlers: HashMap::new(),
        }
    }

    /// Whether `name` has an entry.
    pub(crate) fn contains(&self, name: &str) -> bool {
        self.handlers.contains_key(name)
    }

    /// Adds the entry `name` (which has none yet: see [`ByName::contains`]).
    pub(crate) fn insert(&mut self, name: &str, listed: L, handler: H) {
        self.listed.push(listed);
        self.handlers.insert(name.to_owned(), handler);
    }

    /// Whether there are no entries.
    pub(crate) fn is_empty(&self) -> bool {
        self.listed.is_empty()
    }

    /// Every entry as listed.
    pub(crate) fn listed(&self) -> Vec<L> {
        self.listed.clone()
    }

    /// The handler of `name`.
    pub(crate) fn get(&self, name: &str) -> Option<&H> {
        self.handlers.get(name)
    }

    /// The same entries, each handler replaced by what `wrap` makes of it.
    pub(crate) fn map_handlers<G>(self, mut wrap: impl FnMut(H) -> G) -> ByName<L, G> {
        ByName {
            listed: self.listed,
            handlers: self
                .handlers
                .into_iter()
                .map(|(name, handler)| (name, wrap(handler)))
                .collect(),
        }
    }
}

/// The context of a routed function whose router holds the server's state (the routers'
/// `with_state`, as axum's `Router::with_state`): the request's context `ctx` (which this
/// dereferences to) and a clone of the state.
#[derive(Debug, Clone)]
pub struct WithState<C, T> {
    /// The context the transport handed the request.
    pub ctx: C,
    /// The state the router was given.
    pub state: T,
}

impl<C, T> Deref for WithState<C, T> {
    type Target = C;

    fn deref(&self) -> &C {
        &self.ctx
    }
}

/// `handler`, a handler of contexts with state, as a handler of contexts without: each call is
/// handed a clone of `state`.
pub(crate) fn with_state<C, T, P, O>(
    handler: Handler<WithState<C, T>, P, O>,
    state: T,
) -> Handler<C, P, O>
where
    C: 'static,
    T: Clone + Send + Sync + 'static,
    P: 'static,
    O: 'static,
{
    Box::new(move |ctx, params| {
        let ctx = WithState {
            ctx,
            state: state.clone(),
        };
        handler(ctx, params)
    })
}

/// One call of a routed function: the context of the request, the arguments read into the
/// function's argument type, and the request's params (for what a multi round-trip function
/// reads: its input responses and request state).
pub struct Invoked<C, A, P> {
    /// The context the transport handed the request.
    pub ctx: C,
    /// The arguments, read into the function's argument type.
    pub args: A,
    /// The request's params.
    pub params: P,
}

/// An entry's handler: what it answers for a context and the request's params.
pub(crate) type Handler<C, P, O> =
    Box<dyn Fn(C, P) -> Pin<Box<dyn Future<Output = Result<O, RpcError>> + Send>> + Send + Sync>;

/// The handler of a function of arguments `A`: `read` takes them from the params (or gives
/// the early answer when they do not fit), `function` is called with them, and `finish`
/// turns what it returned into the request's outcome.
pub(crate) fn handler<C, P, A, R, O, F, Fut>(
    read: fn(&P) -> Result<A, Result<O, RpcError>>,
    function: F,
    finish: fn(R) -> O,
) -> Handler<C, P, O>
where
    C: Send + 'static,
    P: Send + 'static,
    A: Send + 'static,
    R: 'static,
    O: Send + 'static,
    F: Fn(Invoked<C, A, P>) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<R, RpcError>> + Send + 'static,
{
    let function = Arc::new(function);
    Box::new(move |ctx, params| {
        let function = Arc::clone(&function);
        Box::pin(async move {
            let args = match read(&params) {
                Ok(args) => args,
                Err(early) => return early,
            };
            Ok(finish(function(Invoked { ctx, args, params }).await?))
        })
    })
}

impl<L: Clone, C, P, O> ByName<L, Handler<C, P, O>> {
    /// The handler of `name` called with `ctx` and `params` (moved, never copied: a large
    /// request's arguments exist once); an unknown name is `-32602` ("Unknown `kind`:
    /// `name`").
    pub(crate) fn dispatch(
        &self,
        kind: &str,
        name: &str,
        ctx: C,
        params: P,
    ) -> impl Future<Output = Result<O, RpcError>> + Send + use<L, C, P, O> {
        let called = match self.get(name) {
            Some(handler) => Ok(handler(ctx, params)),
            None => Err(RpcError::invalid_params(format!("Unknown {kind}: {name}"))),
        };
        async move { called?.await }
    }
}

/// The names, sorted.
impl<L, H> fmt::Debug for ByName<L, H> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut names: Vec<&String> = self.handlers.keys().collect();
        names.sort();
        f.debug_list().entries(names).finish()
    }
}

/// `A`'s JSON Schema as an object's: subschemas inline, no title, `"type": "object"`.
pub(crate) fn object_schema<A: schemars::JsonSchema>() -> Value {
    let settings = schemars::generate::SchemaSettings::draft2020_12().with(|s| {
        s.inline_subschemas = true;
        s.meta_schema = None;
    });
    let schema = settings.into_generator().into_root_schema_for::<A>();
    let mut value = schema.to_value();
    if let Value::Object(object) = &mut value {
        object.remove("title");
        object.entry("type").or_insert_with(|| json!("object"));
    }
    value
}
