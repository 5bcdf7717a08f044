//! derive(Object) / derive(ObjectRef) stand-ins: accept the attributes, generate nothing.
use proc_macro::TokenStream;

#[proc_macro_derive(Object, attributes(type_key, type_final))]
pub fn derive_object(_input: TokenStream) -> TokenStream {
    TokenStream::new()
}

#[proc_macro_derive(ObjectRef)]
pub fn derive_object_ref(_input: TokenStream) -> TokenStream {
    TokenStream::new()
}
