//! A genome's own settings: its table under `[runner]` in the config file
//! (`[runner.<section>]`), read and checked by the genome's own type, and kept typed in
//! the runner's config ([`GenomeConfigs`]) for the genome to read back. The runner's core
//! knows no section: a hosted genome's plug-in gives its [`ConfigSection`], and the
//! composition root hands it the table.

use std::any::Any;
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt::{self, Debug};
use std::sync::Arc;

use serde::de::DeserializeOwned;

/// A genome's settings type: what its `[runner.<SECTION>]` table reads into.
pub trait GenomeConfig:
    Any + Debug + Clone + Default + PartialEq + Send + Sync + DeserializeOwned
{
    /// The table's name under `[runner]`.
    const SECTION: &'static str;
}

/// A genome's table that cannot be read; the message names the table.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("[runner.{section}]: {message}")]
pub struct SectionError {
    pub section: &'static str,
    /// What is wrong with it (toml's words).
    pub message: String,
}

/// One genome's settings, of its own type.
trait Section: Any + Debug + Send + Sync {
    fn same(&self, other: &dyn Section) -> bool;
    fn is_default(&self) -> bool;
}

impl<C: GenomeConfig> Section for C {
    fn same(&self, other: &dyn Section) -> bool {
        (other as &dyn Any).downcast_ref::<C>() == Some(self)
    }

    fn is_default(&self) -> bool {
        *self == C::default()
    }
}

/// The genomes' settings a runner's config carries, by section. A section not given is
/// its type's default.
#[derive(Debug, Clone, Default)]
pub struct GenomeConfigs(BTreeMap<&'static str, Arc<dyn Section>>);

impl PartialEq for GenomeConfigs {
    /// Equal when every section is: one not given equals its default.
    fn eq(&self, other: &Self) -> bool {
        let same = |a: &Self, b: &Self| {
            a.0.iter().all(|(name, s)| match b.0.get(name) {
                Some(t) => s.same(t.as_ref()),
                None => s.is_default(),
            })
        };
        same(self, other) && same(other, self)
    }
}

impl GenomeConfigs {
    /// The settings of type `C` (its default when its section was not given).
    pub fn get<C: GenomeConfig>(&self) -> Cow<'_, C> {
        self.0
            .get(C::SECTION)
            .and_then(|s| (s.as_ref() as &dyn Any).downcast_ref::<C>())
            .map_or_else(|| Cow::Owned(C::default()), Cow::Borrowed)
    }

    pub fn set<C: GenomeConfig>(&mut self, config: C) {
        self.0.insert(C::SECTION, Arc::new(config));
    }

    /// Changes the settings of type `C`.
    pub fn edit<C: GenomeConfig>(&mut self, change: impl FnOnce(&mut C)) {
        let mut config = self.get::<C>().into_owned();
        change(&mut config);
        self.set(config);
    }
}

/// How a genome's table is read: its name and its reader, given by the genome's plug-in.
#[derive(Clone, Copy)]
pub struct ConfigSection {
    pub name: &'static str,
    read: fn(&toml::Value, &mut GenomeConfigs) -> Result<(), SectionError>,
}

impl Debug for ConfigSection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ConfigSection({})", self.name)
    }
}

impl ConfigSection {
    /// The section read into `C`.
    pub const fn of<C: GenomeConfig>() -> Self {
        Self {
            name: C::SECTION,
            read: read_into::<C>,
        }
    }

    /// Reads `table` (the section as written) into `configs`; nothing changes when it
    /// cannot be read.
    pub fn read(
        &self,
        table: &toml::Value,
        configs: &mut GenomeConfigs,
    ) -> Result<(), SectionError> {
        (self.read)(table, configs)
    }
}

fn read_into<C: GenomeConfig>(
    table: &toml::Value,
    configs: &mut GenomeConfigs,
) -> Result<(), SectionError> {
    let config = C::deserialize(table.clone()).map_err(|e| SectionError {
        section: C::SECTION,
        message: e.message().to_string(),
    })?;
    configs.set(config);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::{Deserialize, Serialize};

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    #[serde(default, deny_unknown_fields)]
    struct Mine {
        ticks: u32,
    }

    impl Default for Mine {
        fn default() -> Self {
            Self { ticks: 5 }
        }
    }

    impl GenomeConfig for Mine {
        const SECTION: &'static str = "mine";
    }

    #[test]
    fn a_section_reads_into_its_type_and_defaults_when_not_given() {
        let mut configs = GenomeConfigs::default();
        assert_eq!(configs.get::<Mine>().ticks, 5);
        assert_eq!(configs, GenomeConfigs::default());
        let section = ConfigSection::of::<Mine>();
        let table: toml::Value = toml::Value::Table("ticks = 9".parse().unwrap());
        section.read(&table, &mut configs).unwrap();
        assert_eq!(configs.get::<Mine>().ticks, 9);
        assert_ne!(configs, GenomeConfigs::default());
        let bad = toml::Value::Table("tocks = 9".parse().unwrap());
        let e = section.read(&bad, &mut configs).unwrap_err().to_string();
        assert!(e.starts_with("[runner.mine]: unknown field `tocks`"), "{e}");
        assert_eq!(
            configs.get::<Mine>().ticks,
            9,
            "a bad table changes nothing"
        );
        configs.edit(|m: &mut Mine| m.ticks = 5);
        assert_eq!(
            configs,
            GenomeConfigs::default(),
            "the default, given, is equal"
        );
    }
}
