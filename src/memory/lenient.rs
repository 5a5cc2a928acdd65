//! Records read leniently: every field optional, a field of another type read as missing
//! (so one odd field never loses the line), left out when absent on writing. Events and
//! the genomes' module files declare their payloads with [`lenient_records!`].

use serde::de::DeserializeOwned;
use serde::de::value::MapDeserializer;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{Map, Value};

use crate::memory::json::LineError;

/// Declares structs whose fields are all `Option`, read with [`lenient`], skipped when
/// `None`; `#[wire = "name"]` renames a field on the wire, `#[null]` writes `None` as
/// `null` (read as missing all the same), and `#[op = "name"]` on a struct makes it the
/// record of that op of a genome's module file ([`crate::memory::op_line::OpRecord`]).
macro_rules! lenient_records {
    // Every field declared: the struct.
    (@fields [$($attrs:tt)*] $name:ident [$($fields:tt)*]) => {
        $($attrs)*
        #[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
        pub struct $name { $($fields)* }
    };
    (@fields $attrs:tt $name:ident [$($fields:tt)*]
        $(#[doc = $fdoc:literal])* #[null] $field:ident: $ty:ty, $($rest:tt)*
    ) => {
        $crate::memory::lenient::lenient_records!(@fields $attrs $name [$($fields)*
            $(#[doc = $fdoc])*
            #[serde(default, deserialize_with = "crate::memory::lenient::lenient")]
            pub $field: Option<$ty>,
        ] $($rest)*);
    };
    (@fields $attrs:tt $name:ident [$($fields:tt)*]
        $(#[doc = $fdoc:literal])* $(#[wire = $wire:literal])? $field:ident: $ty:ty,
        $($rest:tt)*
    ) => {
        $crate::memory::lenient::lenient_records!(@fields $attrs $name [$($fields)*
            $(#[doc = $fdoc])*
            #[serde(
                default,
                deserialize_with = "crate::memory::lenient::lenient",
                skip_serializing_if = "Option::is_none"
            )]
            $(#[serde(rename = $wire)])?
            pub $field: Option<$ty>,
        ] $($rest)*);
    };
    ($(
        $(#[doc = $doc:literal])*
        $(#[op = $op:literal])?
        pub struct $name:ident { $($body:tt)* }
    )*) => {$(
        $crate::memory::lenient::lenient_records!(@fields [$(#[doc = $doc])*] $name [] $($body)*);
        $(
            impl $crate::memory::op_line::OpRecord for $name {
                const OP: &'static str = $op;
            }
        )?
    )*};
}

pub(crate) use lenient_records;

/// A field of another type than expected reads as missing.
pub fn lenient<'de, D: Deserializer<'de>, T: DeserializeOwned>(
    d: D,
) -> Result<Option<T>, D::Error> {
    Ok(T::deserialize(Value::deserialize(d)?).ok())
}

/// A lenient record read from the fields of a line (never fails: what does not fit is
/// missing).
pub fn read<T: DeserializeOwned + Default>(fields: &Map<String, Value>) -> T {
    // Field by field from the borrowed map: the line is not copied whole first.
    let map =
        MapDeserializer::<_, serde_json::Error>::new(fields.iter().map(|(k, v)| (k.as_str(), v)));
    T::deserialize(map).unwrap_or_default()
}

/// A key field that must be there for a line to mean anything (an id): a non-empty
/// string, else the line is bad.
pub fn key(value: Option<String>, name: &'static str) -> Result<String, LineError> {
    value
        .filter(|s| !s.is_empty())
        .ok_or(LineError::Missing(name))
}

/// A text field read as absent when empty.
pub fn text(value: Option<String>) -> Option<String> {
    value.filter(|s| !s.is_empty())
}

/// A list of strings read leniently: what is not a string in it is left out.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct Strings(pub Vec<String>);

impl<'de> Deserialize<'de> for Strings {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let items = Vec::<Value>::deserialize(d)?;
        Ok(Strings(
            items
                .into_iter()
                .filter_map(|v| match v {
                    Value::String(s) => Some(s),
                    _ => None,
                })
                .collect(),
        ))
    }
}
