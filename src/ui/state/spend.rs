//! What a creature's model calls cost: the tokens its runner recorded priced with the
//! app's table, or what an attached OpenSeed orchestrator says it spent today.

use std::path::Path;

use super::App;
use super::creature::CreatureUi;
use crate::llm::prices::Cost;
use crate::memory::usage::REHEARSAL;

/// A creature's recorded usage, priced.
#[derive(Debug, Clone, PartialEq)]
pub struct Spend {
    pub total: Cost,
    /// On the app clock's UTC day.
    pub today: Cost,
    /// Every call was the rehearsal brain's: no cost, estimated tokens.
    pub rehearsal: bool,
}

impl App {
    /// The priced usage of a creature whose runner records it (`None`: no record).
    pub fn spend(&self, ui: &CreatureUi) -> Option<Spend> {
        let totals = ui.usage.totals()?;
        Some(Spend {
            total: self.prices.cost(totals),
            today: self.prices.cost(&ui.usage.today(self.clock().at_day())),
            rehearsal: totals.keys().all(|m| m == REHEARSAL),
        })
    }

    /// What the creature cost today as far as known: its orchestrator's word, else its
    /// priced usage (`None`: unknown, or nothing recorded). The garden sorts by it.
    pub fn cost_today(&self, path: &Path, ui: &CreatureUi) -> Option<f64> {
        self.orchestrated_today(path)
            .or_else(|| self.spend(ui)?.today.known())
    }

    /// What an attached OpenSeed orchestrator says the creature spent today.
    fn orchestrated_today(&self, path: &Path) -> Option<f64> {
        self.openseed
            .as_ref()
            .filter(|o| o.up() && self.openseed_route(path))
            .and_then(|o| o.budget(path))
            .map(|b| b.daily_spent_usd)
    }

    /// What the creatures shown cost today, summed (`None` when none has a cost); the
    /// sum leaves out (and names) the models without a price.
    pub fn garden_cost_today(&self) -> Option<Cost> {
        // An orchestrator's word changes without the garden: summed each time then.
        if self.openseed.is_some() {
            return self.sum_cost_today();
        }
        let day = self.clock().at_day().date_naive();
        self.kept_cost
            .get_or(day, &self.creatures, usage_read, || self.sum_cost_today())
    }

    /// Takes in the creatures the garden reached before they are let go (see
    /// [`KeptByReads::note_reached`](super::kept::KeptByReads::note_reached)).
    pub(super) fn note_reached_costs(&self) {
        let day = self.clock().at_day().date_naive();
        self.kept_cost
            .note_reached(&day, &self.creatures, usage_read);
    }

    fn sum_cost_today(&self) -> Option<Cost> {
        let mut sum: Option<Cost> = None;
        for (path, ui) in self.creatures.iter() {
            let cost = match (self.orchestrated_today(path), self.spend(ui)) {
                (Some(usd), _) => Cost {
                    usd,
                    ..Cost::default()
                },
                (None, Some(spend)) => spend.today,
                (None, None) => continue,
            };
            sum.get_or_insert_with(Cost::default).add(&cost);
        }
        sum
    }
}

/// What [`App::garden_cost_today`] reads of a creature: its usage line's day and today's
/// sums (an append to a garden of a thousand summed every creature's cost again).
fn usage_read(ui: &CreatureUi) -> u64 {
    super::kept::fingerprint(ui.usage.last.as_ref().map(|line| (line.day, &line.today)))
}
