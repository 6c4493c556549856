//! The ruleset's own tally columns (the report's extras): how fights end, Bleeders, amputations
//! and glancing blows per fight, injuries per fight by zone and severity (the INJURY SEQUENCE's
//! results), and the healing sequence's outcome per patient (the cause of a death, infection,
//! coma, permanent impairment by zone); and what each strike counts.

use super::ZoneD100;
use super::body::Zone;
use super::healing;
use super::injury;
use super::melee;
use crate::stats::{Extra, ExtraKind, Side, Tally, consecutive};

/// The ruleset's own counts: how fights end, bleeders and amputations per fight, the healing
/// outcome, and each side's injuries per fight by zone and severity.
pub const EXTRAS: &[Extra] = &[
    Extra {
        name: "end_death",
        kind: ExtraKind::ShareOfTrials,
    },
    Extra {
        name: "end_unconscious",
        kind: ExtraKind::ShareOfTrials,
    },
    Extra {
        name: "end_extended_shock",
        kind: ExtraKind::ShareOfTrials,
    },
    Extra {
        name: "end_incapacitated_at_limit",
        kind: ExtraKind::ShareOfTrials,
    },
    Extra {
        name: "end_morale",
        kind: ExtraKind::ShareOfTrials,
    },
    Extra {
        name: "bleeders",
        kind: ExtraKind::MeanPerTrial,
    },
    Extra {
        name: "amputations",
        kind: ExtraKind::MeanPerTrial,
    },
    Extra {
        name: "glancing_blows",
        kind: ExtraKind::MeanPerTrial,
    },
    Extra {
        name: "died_blood_loss",
        kind: ExtraKind::ShareOfPatients,
    },
    Extra {
        name: "died_extended_shock",
        kind: ExtraKind::ShareOfPatients,
    },
    Extra {
        name: "died_infection",
        kind: ExtraKind::ShareOfPatients,
    },
    Extra {
        name: "died_grim_wound",
        kind: ExtraKind::ShareOfPatients,
    },
    Extra {
        name: "infected",
        kind: ExtraKind::ShareOfPatients,
    },
    Extra {
        name: "coma",
        kind: ExtraKind::ShareOfPatients,
    },
    Extra {
        name: "comatose_at_horizon",
        kind: ExtraKind::ShareOfPatients,
    },
    Extra {
        name: "permanent_head",
        kind: ExtraKind::MeanPerPatient,
    },
    Extra {
        name: "permanent_torso",
        kind: ExtraKind::MeanPerPatient,
    },
    Extra {
        name: "permanent_arm",
        kind: ExtraKind::MeanPerPatient,
    },
    Extra {
        name: "permanent_leg",
        kind: ExtraKind::MeanPerPatient,
    },
    Extra {
        name: "a_injuries_head_minor",
        kind: ExtraKind::MeanPerTrial,
    },
    Extra {
        name: "a_injuries_head_serious",
        kind: ExtraKind::MeanPerTrial,
    },
    Extra {
        name: "a_injuries_head_grievous",
        kind: ExtraKind::MeanPerTrial,
    },
    Extra {
        name: "a_injuries_arm_minor",
        kind: ExtraKind::MeanPerTrial,
    },
    Extra {
        name: "a_injuries_arm_serious",
        kind: ExtraKind::MeanPerTrial,
    },
    Extra {
        name: "a_injuries_arm_grievous",
        kind: ExtraKind::MeanPerTrial,
    },
    Extra {
        name: "a_injuries_torso_minor",
        kind: ExtraKind::MeanPerTrial,
    },
    Extra {
        name: "a_injuries_torso_serious",
        kind: ExtraKind::MeanPerTrial,
    },
    Extra {
        name: "a_injuries_torso_grievous",
        kind: ExtraKind::MeanPerTrial,
    },
    Extra {
        name: "a_injuries_leg_minor",
        kind: ExtraKind::MeanPerTrial,
    },
    Extra {
        name: "a_injuries_leg_serious",
        kind: ExtraKind::MeanPerTrial,
    },
    Extra {
        name: "a_injuries_leg_grievous",
        kind: ExtraKind::MeanPerTrial,
    },
    Extra {
        name: "b_injuries_head_minor",
        kind: ExtraKind::MeanPerTrial,
    },
    Extra {
        name: "b_injuries_head_serious",
        kind: ExtraKind::MeanPerTrial,
    },
    Extra {
        name: "b_injuries_head_grievous",
        kind: ExtraKind::MeanPerTrial,
    },
    Extra {
        name: "b_injuries_arm_minor",
        kind: ExtraKind::MeanPerTrial,
    },
    Extra {
        name: "b_injuries_arm_serious",
        kind: ExtraKind::MeanPerTrial,
    },
    Extra {
        name: "b_injuries_arm_grievous",
        kind: ExtraKind::MeanPerTrial,
    },
    Extra {
        name: "b_injuries_torso_minor",
        kind: ExtraKind::MeanPerTrial,
    },
    Extra {
        name: "b_injuries_torso_serious",
        kind: ExtraKind::MeanPerTrial,
    },
    Extra {
        name: "b_injuries_torso_grievous",
        kind: ExtraKind::MeanPerTrial,
    },
    Extra {
        name: "b_injuries_leg_minor",
        kind: ExtraKind::MeanPerTrial,
    },
    Extra {
        name: "b_injuries_leg_serious",
        kind: ExtraKind::MeanPerTrial,
    },
    Extra {
        name: "b_injuries_leg_grievous",
        kind: ExtraKind::MeanPerTrial,
    },
];
const DIED: usize = 8;
const INFECTED: usize = 12;
const COMA: usize = 13;
const COMATOSE_AT_HORIZON: usize = 14;
const PERMANENT: usize = 15;
pub(super) const END_DEATH: usize = 0;
pub(super) const END_UNCONSCIOUS: usize = 1;
pub(super) const END_EXTENDED_SHOCK: usize = 2;
pub(super) const END_INCAPACITATED_AT_LIMIT: usize = 3;
pub(super) const END_MORALE: usize = 4;
pub(super) const BLEEDERS: usize = 5;
pub(super) const AMPUTATIONS: usize = 6;
const GLANCING: usize = 7;
/// The first of the injuries by side, zone and severity: `a`'s 12, then `b`'s.
const INJURIES: usize = 19;

// The end of a duel is recorded as one of five consecutive counts, and a fighter's bleeders
// and amputations together (`Tally::record_extras`).
const _: () = assert!(
    consecutive(&[
        END_DEATH,
        END_UNCONSCIOUS,
        END_EXTENDED_SHOCK,
        END_INCAPACITATED_AT_LIMIT,
        END_MORALE
    ]) && consecutive(&[BLEEDERS, AMPUTATIONS]),
    "the ends of a duel, and bleeders and amputations, are consecutive counts"
);

/// Counts a healing timeline: the recovery, the cause of a death, infection, coma and
/// permanent impairment by zone.
/// How a fight ended, read from the loser whose fall ended it: one of [`END_DEATH`],
/// [`END_MORALE`], [`END_UNCONSCIOUS`], [`END_EXTENDED_SHOCK`] and
/// [`END_INCAPACITATED_AT_LIMIT`], counted in the tally; returns the loser's state in words
/// (no allocation: this is on every trial's path).
pub(crate) fn record_end(tally: &mut Tally, loser: &super::melee::State) -> &'static str {
    use super::injury::ShockState;
    let end = if loser.dead {
        END_DEATH
    } else if loser.routed {
        END_MORALE
    } else if loser.shock == ShockState::Unconscious {
        END_UNCONSCIOUS
    } else if loser.extended_shock.is_some() {
        END_EXTENDED_SHOCK
    } else {
        END_INCAPACITATED_AT_LIMIT
    };
    tally.record_extras(
        END_DEATH,
        std::array::from_fn::<u64, 5, _>(|k| u64::from(END_DEATH + k == end)),
    );
    match end {
        END_DEATH => "dead",
        END_MORALE => "routed (morale)",
        END_EXTENDED_SHOCK => "INC in Extended Shock",
        END_INCAPACITATED_AT_LIMIT => "INC at the round limit",
        _ => loser.shock.abbreviation(),
    }
}

pub(crate) fn record_healing(tally: &mut Tally, side: Side, out: &healing::Outcome) {
    tally.record_recovery(side, &out.recovery);
    record_healing_counts(tally, out);
}

/// Counts the healing timeline of fighter `i` of `side`, a side of several.
pub(crate) fn record_healing_of(tally: &mut Tally, i: usize, side: Side, out: &healing::Outcome) {
    tally.record_recovery_of(i, side, &out.recovery);
    record_healing_counts(tally, out);
}

/// Counts a healing timeline's own counts: the cause of a death, infection, coma, permanent
/// impairment.
fn record_healing_counts(tally: &mut Tally, out: &healing::Outcome) {
    if let Some(cause) = out.cause {
        // The column by the cause, read from a table, not matched: the cause is the dice's.
        const COLUMN: [usize; 4] = {
            let mut column = [0; 4];
            column[healing::Cause::BloodLoss as usize] = DIED;
            column[healing::Cause::ExtendedShock as usize] = DIED + 1;
            column[healing::Cause::Infection as usize] = DIED + 2;
            column[healing::Cause::GrimWound as usize] = DIED + 3;
            column
        };
        tally.record_extra(COLUMN[cause as usize], 1);
    }
    // INFECTED, COMA, COMATOSE_AT_HORIZON and PERMANENT's zones, in that order.
    let [p0, p1, p2, p3] = out.permanent.map(|p| p as u64);
    tally.record_extras(
        INFECTED,
        [
            u64::from(out.infected),
            u64::from(out.coma),
            u64::from(out.comatose_at_horizon),
            p0,
            p1,
            p2,
            p3,
        ],
    );
}

// A timeline's counts are recorded together (`Tally::record_extras`).
const _: () = assert!(
    consecutive(&[INFECTED, COMA, COMATOSE_AT_HORIZON, PERMANENT]),
    "a healing timeline's counts are consecutive"
);

/// The count of an injury of level `il` to `zone` of the fighter of side `injured`.
pub(super) fn injury_column(injured: Side, zone: Zone, il: u8) -> usize {
    let z = match zone {
        Zone::Head => 0,
        Zone::Arm => 1,
        Zone::Torso => 2,
        Zone::Leg => 3,
    };
    let s = injury::severity(il) as usize;
    INJURIES + injured.index() * 12 + z * 3 + s
}

impl ZoneD100 {
    pub(super) fn count(&self, tally: &mut Tally, r: &melee::StrikeReport) {
        tally.record_hit(r.striker, u32::from(r.il), !r.missed);
        tally.record_extra(GLANCING, u64::from(r.glancing));
        if let (Some(zone), true) = (r.zone, r.il > 0) {
            let injured = if r.on_ally {
                r.striker
            } else {
                r.striker.other()
            };
            tally.record_extra(injury_column(injured, zone, r.il), 1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_count_is_at_the_column_of_its_name() {
        let named = [
            (END_DEATH, "end_death"),
            (END_MORALE, "end_morale"),
            (BLEEDERS, "bleeders"),
            (AMPUTATIONS, "amputations"),
            (GLANCING, "glancing_blows"),
            (DIED, "died_blood_loss"),
            (DIED + 3, "died_grim_wound"),
            (INFECTED, "infected"),
            (COMATOSE_AT_HORIZON, "comatose_at_horizon"),
            (PERMANENT, "permanent_head"),
            (PERMANENT + 3, "permanent_leg"),
            (
                injury_column(Side::A, Zone::Head, 1),
                "a_injuries_head_minor",
            ),
            (
                injury_column(Side::A, Zone::Torso, 3),
                "a_injuries_torso_serious",
            ),
            (
                injury_column(Side::B, Zone::Arm, 5),
                "b_injuries_arm_grievous",
            ),
            (
                injury_column(Side::B, Zone::Leg, 4),
                "b_injuries_leg_grievous",
            ),
        ];
        for (column, name) in named {
            assert_eq!(EXTRAS[column].name, name);
        }
        assert_eq!(EXTRAS.len(), INJURIES + 24);
    }
}
