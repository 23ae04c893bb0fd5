//! Collecting every error of one derive, so that the user sees all of them at once.

use proc_macro2::Span;
use quote::ToTokens;
use std::cell::RefCell;
use std::fmt::Display;

/// The errors found while parsing and checking one derive input.
///
/// Shared by reference through the parse and check phases; [`Errors::finish`] turns them into
/// one combined [`syn::Error`].
#[derive(Default)]
pub struct Errors {
    list: RefCell<Vec<syn::Error>>,
}

impl Errors {
    pub fn new() -> Self {
        Self::default()
    }

    /// An error spanning the tokens of `node`.
    pub fn spanned(&self, node: impl ToTokens, msg: impl Display) {
        self.push(syn::Error::new_spanned(node.into_token_stream(), msg));
    }

    /// An error at `span`.
    pub fn at(&self, span: Span, msg: impl Display) {
        self.push(syn::Error::new(span, msg));
    }

    /// An error from syn's parsers.
    pub fn push(&self, err: syn::Error) {
        self.list.borrow_mut().push(err);
    }

    /// `Ok` when nothing was reported, else all errors combined in report order.
    pub fn finish(self) -> syn::Result<()> {
        let mut errors = self.list.into_inner().into_iter();
        let Some(mut combined) = errors.next() else {
            return Ok(());
        };
        for e in errors {
            combined.combine(e);
        }
        Err(combined)
    }
}
