//! `[guardrails]`: what puts a hosted creature to sleep and holds it there until a person
//! wakes it (see `runner::guard`), for the garden, with a creature's own values over them:
//!
//! ```toml
//! [guardrails]
//! daily_cost_usd = 2.0
//! loop_repeats = 5
//! fatigue_ceiling = 120
//!
//! [guardrails.creatures.fern]
//! daily_cost_usd = 0.5
//! ```
//!
//! A table or value that cannot be used is a problem, and is left out (its rails off).

use std::collections::BTreeMap;

use serde::Deserialize;

use super::config::{Checked, ConfigError, ConfigFile, Watching};
use crate::llm::prices::Prices;
use crate::runner::driver::RunnerOptions;
use crate::runner::guard::Guardrails;

/// The garden's guardrails and each creature's own.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GardenGuardrails {
    pub garden: Guardrails,
    /// By the creature's name (its directory's).
    pub creatures: BTreeMap<String, Guardrails>,
}

impl GardenGuardrails {
    /// Sets a creature's guardrails (by its directory's name) and the prices its cost cap
    /// reads (the config's `[prices]` over the built-in table).
    pub fn apply(&self, opts: &mut RunnerOptions, watching: &Watching) {
        let name = opts
            .dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        opts.config.guardrails = self.of(&name);
        opts.prices = Prices::builtin().with(&watching.observatory.prices);
    }

    /// What watches the creature called `name`.
    pub fn of(&self, name: &str) -> Guardrails {
        match self.creatures.get(name) {
            Some(own) => self.garden.over(own),
            None => self.garden.clone(),
        }
    }
}

impl ConfigFile {
    pub fn guardrails(&self) -> Checked<GardenGuardrails> {
        let mut problems = Vec::new();
        let mut value = GardenGuardrails::default();
        let table = match self.table.get("guardrails") {
            None => toml::Table::new(),
            Some(toml::Value::Table(t)) => t.clone(),
            Some(_) => {
                problems.push(self.key_problem(None, "guardrails", "must be a table".into()));
                toml::Table::new()
            }
        };
        let mut garden = table.clone();
        let creatures = garden.remove("creatures");
        value.garden = self
            .rails(garden, "guardrails", &mut problems)
            .unwrap_or_default();
        match creatures {
            None => {}
            Some(toml::Value::Table(each)) => {
                for (name, rails) in each {
                    let at = format!("guardrails.creatures.{name}");
                    let own = match rails {
                        toml::Value::Table(t) => self.rails(t, &at, &mut problems),
                        _ => {
                            problems.push(self.key_problem(None, &at, "must be a table".into()));
                            None
                        }
                    };
                    if let Some(own) = own {
                        value.creatures.insert(name, own);
                    }
                }
            }
            Some(_) => problems.push(self.key_problem(
                Some("guardrails"),
                "creatures",
                "must be a table of creature names".into(),
            )),
        }
        Checked { value, problems }
    }

    /// One table of rails, checked; `None` (with a problem) when it cannot be used.
    fn rails(
        &self,
        table: toml::Table,
        at: &str,
        problems: &mut Vec<ConfigError>,
    ) -> Option<Guardrails> {
        let rails = match Guardrails::deserialize(toml::Value::Table(table)) {
            Ok(r) => r,
            Err(e) => {
                problems.push(self.key_problem(None, at, e.message().to_string()));
                return None;
            }
        };
        if let Some(why) = rails.invalid() {
            problems.push(self.key_problem(None, at, why.into()));
            return None;
        }
        Some(rails)
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;

    fn file(text: &str) -> ConfigFile {
        ConfigFile::parse(PathBuf::from("test.toml"), text).unwrap()
    }

    #[test]
    fn the_garden_s_rails_with_a_creature_s_own_over_them() {
        let f = file(
            "[guardrails]\ndaily_cost_usd = 2.0\nloop_repeats = 5\n\n\
             [guardrails.creatures.fern]\ndaily_cost_usd = 0.5\n",
        );
        let g = f.guardrails().strict().unwrap();
        assert_eq!(g.of("moss").daily_cost_usd, Some(2.0));
        assert_eq!(g.of("fern").daily_cost_usd, Some(0.5));
        assert_eq!(g.of("fern").loop_repeats, Some(5));
        assert_eq!(g.of("fern").fatigue_ceiling, None);
        assert!(
            f.observatory().strict().is_ok(),
            "the observatory leaves [guardrails] alone"
        );
    }

    #[test]
    fn a_bad_table_is_a_problem_naming_it_and_is_left_out() {
        let f = file("[guardrails]\nloop_repeats = 1\n\n[guardrails.creatures.fern]\ncost = 3\n");
        let g = f.guardrails();
        assert_eq!(g.value, GardenGuardrails::default());
        let said: Vec<String> = g.problems.iter().map(ToString::to_string).collect();
        assert_eq!(said.len(), 2, "{said:?}");
        assert!(
            said[0].contains("guardrails: loop_repeats must be 2 or more"),
            "{said:?}"
        );
        assert!(
            said[1].contains("guardrails.creatures.fern: unknown field `cost`"),
            "{said:?}"
        );
        assert!(file("guardrails = 3\n").guardrails().strict().is_err());
    }
}
