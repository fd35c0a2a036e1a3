//! One collector for every problem in a definition, reported together with their spans
//! (serde_derive's `Ctxt` pattern).

use proc_macro2::TokenStream;
use quote::ToTokens;
use std::fmt::Display;

#[derive(Default)]
pub struct Errors {
    errors: Vec<syn::Error>,
}

impl Errors {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn push(&mut self, error: syn::Error) {
        self.errors.push(error);
    }

    /// An error at the tokens of `at`.
    pub fn at<T: ToTokens, M: Display>(&mut self, at: T, message: M) {
        self.errors.push(syn::Error::new_spanned(at, message));
    }

    pub fn is_empty(&self) -> bool {
        self.errors.is_empty()
    }

    /// All errors combined into one, or `Ok` if there were none.
    pub fn finish(self) -> Result<(), syn::Error> {
        let mut iter = self.errors.into_iter();
        match iter.next() {
            None => Ok(()),
            Some(mut first) => {
                for e in iter {
                    first.combine(e);
                }
                Err(first)
            }
        }
    }

    pub fn into_compile_errors(self) -> TokenStream {
        self.errors
            .into_iter()
            .map(|e| e.to_compile_error())
            .collect()
    }
}
