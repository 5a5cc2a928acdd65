//! Records read leniently: every field optional, a field of another type read as missing
//! (so one odd field never loses the line), left out when absent on writing. Events and
//! the genomes' module files declare their payloads with [`lenient_records!`].

use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer};
use serde_json::{Map, Value};

/// Declares structs whose fields are all `Option`, read with [`lenient`], skipped when
/// `None`; `#[wire = "name"]` renames a field on the wire.
macro_rules! lenient_records {
    ($(
        $(#[doc = $doc:literal])*
        pub struct $name:ident {
            $( $(#[doc = $fdoc:literal])* $(#[wire = $wire:literal])? $field:ident: $ty:ty, )*
        }
    )*) => {$(
        $(#[doc = $doc])*
        #[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
        pub struct $name {
            $(
                $(#[doc = $fdoc])*
                #[serde(
                    default,
                    deserialize_with = "crate::memory::lenient::lenient",
                    skip_serializing_if = "Option::is_none"
                )]
                $(#[serde(rename = $wire)])?
                pub $field: Option<$ty>,
            )*
        }
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
    T::deserialize(Value::Object(fields.clone())).unwrap_or_default()
}
