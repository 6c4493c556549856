//! The Amputation treatment (TREATMENTS: AMP; step 7 INFECTION: "amputating an infected limb
//! also defeats infection"): the new Edge injury it inflicts, a Bleeder the healer staunches,
//! then that wound's own Treatment Roll; and the amputation of an infected limb.

use super::healing::{Cause, Healing, Timeline};
use super::skill::SuccessLevel;
use super::treatment::Effect::{Amputate, Hr};
use super::treatment::{
    Kind, Treatment, amputable, capped_row, severity_index, table, treatment_rolls, wound,
};
use crate::dice::Dice;
use crate::log::Log;

impl<D: Dice, L: Log, S: Fn(usize) -> i32> Timeline<'_, D, L, S> {
    /// The Amputation treatment's new Edge injury of level `edge_il` at injury `i`'s location:
    /// a Bleeder the healer staunches, then its own Treatment Roll as an Edge injury.
    pub(super) fn amputation_wound(
        &mut self,
        i: usize,
        edge_il: u8,
        site: (u8, i32),
    ) -> Result<Healing, Cause> {
        let care = self.care;
        self.log
            .say(|| format!("  Amputation: a new E injury IL{edge_il}, a Bleeder"));
        let induced = Some((site.1, i32::from(edge_il)));
        self.treatment_bleeder(i, induced)?;
        let edge = table(Kind::Edge);
        let esev = severity_index(edge_il);
        let treatment = edge.treatment[esev];
        let boxed = matches!(treatment, Treatment::Sur);
        // No delay: the amputation wound is new.
        let eml = edge.modifier[esev] + if boxed { care.dexterity_modifier } else { 0 };
        let what = || format!("the amputation wound E IL{edge_il}");
        let (level, index) =
            treatment_rolls(care.healers.rolling(), eml, &what, self.dice, self.log);
        let row = capped_row(edge, level, esev, index);
        if row <= SuccessLevel::Failure as usize && treatment == Treatment::Sur {
            self.log
                .say(|| "  the treatment opens a new Bleeder".to_owned());
            self.treatment_bleeder(i, induced)?;
        }
        match edge.effect[row][esev] {
            Hr(hr) => {
                let grim = esev == 2 && row == 0;
                let mut w = wound(edge_il, hr, row, edge, grim, self.cauterised[i], site);
                w.lasting = true;
                w.born = self.day;
                w.minor_day = if edge_il <= 1 { self.day } else { u32::MAX };
                Ok(w)
            }
            _ => Ok(Healing::default()),
        }
    }

    /// "Amputating an infected limb also defeats infection; follow the Amputation treatment as
    /// for frost injuries": the AMP Treatment Roll (MOD 0 and DEX, no delay: the treatment is
    /// of the infection, now) gives the new Edge injury of the Frost table's Grievous column,
    /// which takes the infected wound's place. Returns the new wound, `None` when the option
    /// is off, nobody can amputate or the location is no limb.
    pub(super) fn amputate_infected(
        &mut self,
        i: usize,
        w: &Healing,
    ) -> Result<Option<Healing>, Cause> {
        let care = self.care;
        let Some(injury) = self.injuries.get(i).copied() else {
            return Ok(None);
        };
        if !care.amputate_infected_limbs || !care.has_healer() || !amputable(injury.location) {
            return Ok(None);
        }
        let frost = table(Kind::Frost);
        let eml = frost.modifier[2] + care.dexterity_modifier;
        let what = || format!("amputating the infected {}", injury.location);
        let (level, _) = treatment_rolls(care.healers.rolling(), eml, &what, self.dice, self.log);
        let Amputate(edge_il) = frost.effect[level as usize][2] else {
            return Ok(None);
        };
        let mut new = self.amputation_wound(i, edge_il, (w.zone, w.location_shock))?;
        if new.live {
            new.next_roll = new.born + self.period();
        }
        Ok(Some(new))
    }
}

#[cfg(test)]
mod tests {
    use crate::log::assert_in_order as in_order;
    use crate::rules::zone_d100::body::Location;
    use crate::rules::zone_d100::healing::tests::{care, injury, run};
    use crate::rules::zone_d100::injury::Aspect;
    use crate::rules::zone_d100::melee::State;

    #[test]
    fn grievous_frost_on_a_limb_is_amputated_into_a_new_edge_wound() {
        let mut state = State::default();
        state
            .injuries
            .add(injury(Location::Forearm, Aspect::Frost, 4, false));
        // AMP +0 with ML60: 42 S: a new S3 Edge injury, a Bleeder: Blood Stoppage 10 (CS). Its
        // treatment (Edge S, Clean & Dress +10): 31 S: HR5.
        let (_, story) = run(&care(60), &state, &[42, 10, 31, 20, 20, 20]);
        in_order(
            &story,
            &[
                "Treatment Roll 42 vs EML60: S",
                "Amputation: a new E injury IL3, a Bleeder",
                "Blood Stoppage Roll 10 vs EML60: CS",
                "day 5: Healing Roll 20 vs EML65",
            ],
        );
        // On the thorax there is nothing to amputate: a grim wound.
        let mut state = State::default();
        state
            .injuries
            .add(injury(Location::Thorax, Aspect::Frost, 4, false));
        let (_, story) = run(&care(60), &state, &[90, 90, 90]);
        assert!(
            story.contains("no Amputation possible: a grim wound") && !story.contains("Treatment"),
            "{story}"
        );
    }
}
