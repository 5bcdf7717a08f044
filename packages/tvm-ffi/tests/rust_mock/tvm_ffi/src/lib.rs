//! Stand-in for the tvm_ffi crate's names that generated bindings use (type checking only).
use std::marker::PhantomData;

pub mod derive {
    pub use tvm_ffi_derive::{Object, ObjectRef};
}

pub mod object {
    #[derive(Clone)]
    pub struct ObjectRef;
}

pub mod reflection {
    #[derive(Clone)]
    pub struct AccessPath;
    #[derive(Clone)]
    pub struct AccessStep;
}

#[repr(C)]
pub struct Object {
    _header: [u64; 3],
}

impl Object {
    pub fn new() -> Self {
        Object { _header: [0; 3] }
    }
}

pub struct ObjectArc<T>(Box<T>);

impl<T> ObjectArc<T> {
    pub fn new(value: T) -> Self {
        ObjectArc(Box::new(value))
    }
}

impl<T> Clone for ObjectArc<T> {
    fn clone(&self) -> Self {
        unimplemented!()
    }
}

impl<T> std::ops::Deref for ObjectArc<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

/// What derive(Object) implements upstream; a blanket impl here.
pub trait ObjectCore {
    fn type_index() -> i32 {
        0
    }
}
impl<T> ObjectCore for T {}

pub struct Error;
pub const VALUE_ERROR: &str = "ValueError";
impl Error {
    pub fn new(_kind: &str, _message: &str, _backtrace: &str) -> Self {
        Error
    }
}
pub type Result<T> = std::result::Result<T, Error>;

pub struct FieldGetter;
impl FieldGetter {
    pub fn new(_type_index: i32, _name: &str) -> Result<Self> {
        Ok(FieldGetter)
    }
    pub fn get<T, O>(&self, _obj: &O) -> Result<T> {
        Err(Error)
    }
    pub fn get_any<O>(&self, _obj: &O) -> Result<Any> {
        Err(Error)
    }
}

#[derive(Clone)]
pub struct Any;
#[derive(Clone)]
pub struct String;
#[derive(Clone)]
pub struct Bytes;
#[derive(Clone)]
pub struct Tensor;
#[derive(Clone)]
pub struct Shape;
#[derive(Clone)]
pub struct Function;
#[derive(Clone)]
pub struct Module;
#[derive(Clone)]
pub struct BigInt;
#[derive(Clone, Copy)]
pub struct DLDevice;
#[derive(Clone, Copy)]
pub struct DLDataType;
#[derive(Clone)]
pub struct Array<T>(PhantomData<T>);
#[derive(Clone)]
pub struct List<T>(PhantomData<T>);
#[derive(Clone)]
pub struct Map<K, V>(PhantomData<(K, V)>);

#[macro_export]
macro_rules! impl_object_upcast {
    ($($from:ty => $to:ty),* $(,)?) => {
        $(const _: fn($from) -> Option<$to> = |_| None;)*
    };
}
