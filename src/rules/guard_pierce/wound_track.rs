//! The wound track, from the text's "Marking Wounds" (L31–L36), "The Immediate Effects"
//! (L38–L44) and "Death and Dying" (L46–L50): a fighter's compiled [`Track`] (the penalty
//! written beside each row, the worst penalty row, the circled rows, the row from which an
//! Injury kills) and the Injury and Stun marks on its rows ([`WoundRows`]): where a Wound is
//! marked (the nearest empty row, ties higher; an Injury over a Stun replaces it), the penalty
//! of the highest Wound, unable to act, dying and dead.

use crate::rules::two_d20::highest_row;

/// The default wound track: penalties of rows 1 to 12 (the worst penalty row is 12).
pub const DEFAULT_PENALTIES: [u8; 12] = [0, 0, 1, 2, 3, 3, 4, 4, 5, 5, 6, 6];

/// A fighter's wound track, compiled: penalties by row and the masks the rules test.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Track {
    /// The penalty for a highest Wound on each row (rows above the worst take its penalty).
    penalty: [u8; 64],
    /// The worst penalty row.
    pub worst: u32,
    /// Rows on the sheet: up to the first row where an Injury kills; `top + 1` is "beyond".
    pub top: u32,
    /// The first row on which an Injury kills (more than `dead_margin` above the worst).
    pub dead_from: u32,
    /// Rows above the worst penalty row.
    above_worst: u64,
    /// The circled rows.
    circled: u64,
}

impl Track {
    /// Compiles a track from its penalties (rows 1..) and circled rows.
    pub fn new(penalties: &[u8], circled: &[u32], dead_margin: u32) -> Self {
        let worst = penalties.len() as u32;
        let dead_from = worst + dead_margin + 1;
        let mut penalty = [0u8; 64];
        for (row, p) in penalty.iter_mut().enumerate().skip(1) {
            *p = penalties[(row - 1).min(penalties.len() - 1)];
        }
        Track {
            penalty,
            worst,
            top: dead_from,
            dead_from,
            above_worst: u64::MAX << (worst + 1),
            circled: circled.iter().fold(0, |m, &r| m | 1 << r),
        }
    }

    /// The default sheet: [`DEFAULT_PENALTIES`], circled rows worst + 2 and worst + 4.
    pub fn default_sheet(dead_margin: u32) -> Self {
        let worst = DEFAULT_PENALTIES.len() as u32;
        Track::new(&DEFAULT_PENALTIES, &[worst + 2, worst + 4], dead_margin)
    }
}

/// Injury and Stun marks on the wound rows: bit `n` is row `n`; the two sets never overlap.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WoundRows {
    /// Rows marked with an Injury (|, or + over a Stun).
    pub injury: u64,
    /// Rows marked with a Stun (-).
    pub stun: u64,
}

/// Which kind of wound an attack marks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Injury: kills.
    Injury,
    /// Stun: knocks out.
    Stun,
}

impl WoundRows {
    /// Rows marked with anything.
    #[inline]
    pub fn marked(self) -> u64 {
        self.injury | self.stun
    }

    /// The nearest empty row to `row` (itself when empty); of two equally near, the higher.
    /// Row `top + 1` ("beyond the sheet") always takes a mark.
    #[inline]
    pub fn nearest_empty(self, row: u32, top: u32) -> u32 {
        let beyond = top + 1;
        let row = row.clamp(1, beyond);
        let sheet = (u64::MAX >> (63 - beyond)) & !1;
        let empty = (!self.marked() & sheet) | 1 << beyond;
        let up = (empty & (u64::MAX << row)).trailing_zeros();
        let below = empty & ((1u64 << row) - 1);
        if below == 0 {
            return up;
        }
        let down = highest_row(below);
        if row - down < up - row { down } else { up }
    }

    /// The lowest row with no mark (row `top + 1`, beyond the sheet, when every row is
    /// marked): [`WoundRows::nearest_empty`] to row 1, as one bit scan.
    #[inline]
    pub fn lowest_empty(self, top: u32) -> u32 {
        (!(self.marked() | 1)).trailing_zeros().min(top + 1)
    }

    /// Marks a wound of `kind` on `row` by the marking rules; returns the row marked.
    /// An Injury on a Stun replaces it; on an Injury it goes to the nearest empty row.
    /// A Stun on any mark goes to the nearest empty row.
    #[inline(always)]
    pub fn mark(&mut self, kind: Kind, row: u32, top: u32) -> u32 {
        let row = row.clamp(1, top + 1);
        match kind {
            Kind::Injury => {
                let at = if self.injury >> row & 1 == 1 {
                    self.nearest_empty(row, top)
                } else {
                    row
                };
                self.injury |= 1 << at;
                self.stun &= !(1 << at);
                at
            }
            Kind::Stun => {
                let at = self.nearest_empty(row, top);
                self.stun |= (1 << at) & !self.injury;
                at
            }
        }
    }

    /// The highest row marked, 0 when none.
    #[inline]
    pub fn highest(self) -> u32 {
        highest_row(self.marked())
    }

    /// The penalty to combat actions: that of the highest Wound.
    #[inline]
    pub fn penalty(self, track: &Track) -> i32 {
        i32::from(track.penalty[self.highest() as usize])
    }

    /// Able to act: no Stun above the worst penalty row, and no Injury there outside the
    /// circled rows.
    #[inline]
    pub fn can_act(self, track: &Track) -> bool {
        (self.stun & track.above_worst) == 0
            && (self.injury & track.above_worst & !track.circled) == 0
    }

    /// Dying: an Injury above the worst penalty row.
    #[inline]
    pub fn dying(self, track: &Track) -> bool {
        self.injury & track.above_worst != 0
    }

    /// Dead: an Injury more than `dead_margin` rows above the worst penalty row.
    #[inline]
    pub fn dead(self, track: &Track) -> bool {
        self.injury >> track.dead_from != 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::ScriptedDice;
    use crate::log::NoLog;
    use crate::rules::guard_pierce::test_support::{
        attack_with, fighter, ledger_attack, ledger_cudgel, model, rows,
    };
    use crate::rules::two_d20::rows_of;
    use crate::stats::Side;

    /// The marking rules searched row by row, as the text says them: the row itself when it
    /// takes the mark, else the nearest empty row, of two equally near the higher; the row
    /// beyond the sheet (`top + 1`) takes any mark.
    fn marked_by_search(rows: WoundRows, kind: Kind, row: u32, top: u32) -> WoundRows {
        let row = row.clamp(1, top + 1);
        let empty = |r: u32| r == top + 1 || (r >= 1 && r <= top && rows.marked() >> r & 1 == 0);
        let takes = match kind {
            Kind::Injury => row == top + 1 || rows.injury >> row & 1 == 0,
            Kind::Stun => empty(row),
        };
        let at = if takes {
            row
        } else {
            (1..=top + 1)
                .flat_map(|d| [row + d, row.wrapping_sub(d)])
                .find(|&r| r <= top + 1 && empty(r))
                .unwrap_or(top + 1)
        };
        let mut out = rows;
        match kind {
            Kind::Injury => {
                out.injury |= 1 << at;
                out.stun &= !(1 << at);
            }
            Kind::Stun => out.stun |= (1 << at) & !rows.injury,
        }
        out
    }

    #[test]
    fn the_lowest_empty_row_is_the_nearest_empty_row_to_row_1() {
        // Every set of marks on rows 1 to 9 (row 0 is never marked), on sheets of 1 to 8 rows:
        // rows above the sheet's top are marked too, as the row beyond it takes any mark.
        for top in 1..=8 {
            for marks in 0u64..1 << 9 {
                let rows = WoundRows {
                    injury: marks << 1,
                    stun: 0,
                };
                assert_eq!(
                    rows.lowest_empty(top),
                    rows.nearest_empty(1, top),
                    "top {top}, rows {:?}",
                    rows_of(rows.injury)
                );
            }
        }
    }

    #[test]
    fn marking_is_the_row_by_row_search_on_every_sheet_of_six_rows() {
        let top = 6;
        for injury in 0u64..1 << 7 {
            for stun in 0u64..1 << 7 {
                let (injury, stun) = (injury << 1, stun << 1);
                if injury & stun != 0 {
                    continue;
                }
                let rows = WoundRows { injury, stun };
                for kind in [Kind::Injury, Kind::Stun] {
                    for row in 0..=top + 2 {
                        let mut marked = rows;
                        marked.mark(kind, row, top);
                        let expected = marked_by_search(rows, kind, row, top);
                        assert_eq!(marked, expected, "{rows:?} {kind:?} on row {row}");
                    }
                }
            }
        }
    }

    #[test]
    fn example_8_damage_marks_row_8_as_injury_and_star_10_marks_row_10_as_stun() {
        let mut w = WoundRows::default();
        assert_eq!(w.mark(Kind::Injury, 8, 18), 8);
        assert_eq!(w.mark(Kind::Stun, 10, 18), 10);
        assert_eq!(w, rows(&[8], &[10]));
        // The same through attacks: a Stun weapon's damage roll of 10 marks Stun on row 10.
        let mut cudgel = fighter(14, 5, 12, 2);
        cudgel.stun_weapon = true;
        let m = model(cudgel, fighter(10, 5, 5, 5));
        let (_, wounds) = attack_with(&m, WoundRows::default(), &[8, 20, 10, 15]);
        assert_eq!(wounds, rows(&[], &[10]));
    }

    #[test]
    fn an_injury_on_an_injury_goes_to_the_nearest_empty_row_and_ties_go_higher() {
        // Row 8 filled, 7 and 9 empty: equally near, the higher (9).
        let mut w = rows(&[8], &[]);
        assert_eq!(w.mark(Kind::Injury, 8, 18), 9);
        // Rows 8, 9, 10 filled, an Injury on 8: 7 is one away, 11 three away: 7.
        let mut w = rows(&[8, 9, 10], &[]);
        assert_eq!(w.mark(Kind::Injury, 8, 18), 7);
        // The same rows, an Injury on 9: 7 and 11 are both two away: 11.
        let mut w = rows(&[8, 9, 10], &[]);
        assert_eq!(w.mark(Kind::Injury, 9, 18), 11);
        // Rows 1 to 3 filled: nothing below, 4 above.
        let mut w = rows(&[1, 2, 3], &[]);
        assert_eq!(w.mark(Kind::Injury, 1, 18), 4);
    }

    #[test]
    fn an_injury_over_a_stun_replaces_it_and_a_stun_moves_on() {
        let mut w = rows(&[], &[10]);
        assert_eq!(w.mark(Kind::Injury, 10, 18), 10);
        assert_eq!(w, rows(&[10], &[]), "the + counts as Injury");
        let mut w = rows(&[10], &[]);
        assert_eq!(w.mark(Kind::Stun, 10, 18), 11);
        assert_eq!(w, rows(&[10], &[11]));
        let mut w = rows(&[], &[10]);
        assert_eq!(w.mark(Kind::Stun, 10, 18), 11, "a Stun on a Stun moves too");
    }

    #[test]
    fn example_a_wound_on_row_5_with_3_written_beside_it_is_minus_3_to_attack() {
        let track = Track::default_sheet(5);
        assert_eq!(rows(&[5], &[]).penalty(&track), 3);
        assert_eq!(
            rows(&[2, 5], &[1]).penalty(&track),
            3,
            "the highest Wound counts"
        );
        // Attack 12 with the penalty is 9: a 10 no longer hits Guard 5.
        let m = model(fighter(12, 5, 10, 5), fighter(10, 5, 5, 5));
        let mut both = [rows(&[5], &[]), WoundRows::default()];
        let mut dice = ScriptedDice::new([10, 20]);
        let attack = m.attack(Side::A, &mut both, &mut dice, &mut NoLog);
        assert_eq!(attack.hits, 0);
    }

    #[test]
    fn above_the_worst_penalty_row_unable_to_act_dying_dead_and_the_circled_rows() {
        let t = Track::default_sheet(5);
        assert_eq!((t.worst, t.dead_from), (12, 18));
        assert!(rows(&[12], &[]).can_act(&t));
        assert!(
            !rows(&[], &[13]).can_act(&t),
            "Stun above the worst: knocked out"
        );
        let injury_13 = rows(&[13], &[]);
        assert!(!injury_13.can_act(&t) && injury_13.dying(&t) && !injury_13.dead(&t));
        let circled = rows(&[14], &[]);
        assert!(
            circled.can_act(&t) && circled.dying(&t),
            "row 14 is circled"
        );
        assert!(rows(&[16], &[]).can_act(&t), "row 16 is circled");
        assert!(
            !rows(&[17], &[]).dead(&t),
            "17 is 5 above 12: not more than 5"
        );
        assert!(rows(&[18], &[]).dead(&t));
    }

    // Rule ledger tests (docs/rules/guard-pierce.md, "Rule ledger").

    #[test]
    fn through_an_attack_a_filled_row_sends_the_wound_to_the_nearest_empty_row_ties_higher() {
        // L35-36: "If the circle is already filled from a previous Injury, mark the nearest empty
        // circle. If two circles are equally close, mark the higher number. ... An incoming Stun
        // moves to a different row, as described above."
        // A Stun of 10 on Injuries 9-12: 8 is two away, 13 three: row 8 (below).
        let m = model(ledger_cudgel(10, 2), fighter(10, 5, 5, 5));
        let before = rows(&[9, 10, 11, 12], &[]);
        let (attack, wounds) = attack_with(&m, before, &[8, 20, 10, 15]);
        assert_eq!(attack.marked, [8, 0]);
        assert_eq!(wounds, rows(&[9, 10, 11, 12], &[8]));
        // An Injury of 13 on an Injury 13: 12 and 14 are equally close: the higher, 14.
        let m = model(fighter(14, 5, 15, 5), fighter(10, 5, 5, 5));
        let (attack, wounds) = attack_with(&m, rows(&[13], &[]), &[8, 20, 9, 13]);
        assert_eq!(attack.marked, [14, 0]);
        assert_eq!(wounds, rows(&[13, 14], &[]));
    }

    #[test]
    fn a_stun_as_the_highest_wound_sets_the_penalty() {
        // L40: "Most of your combat actions ... suffer the penalty of the highest Wound you've
        // sustained." A Stun is a Wound.
        let m = model(fighter(14, 5, 15, 5), fighter(10, 5, 5, 5));
        let track = Track::default_sheet(5);
        assert_eq!(rows(&[3], &[9]).penalty(&track), 5);
        // Injury 3 only: penalty 1, value 13: 10 hits. Damage roll 9, 13 -> 13.
        let (attack, _, _) = ledger_attack(
            &m,
            [rows(&[3], &[]), WoundRows::default()],
            &[10, 20, 9, 13],
        );
        assert_eq!(attack.hits, 1);
        // Injury 3 and Stun 9: the Stun is the highest, penalty 5, value 9: 10 misses.
        let (attack, _, story) =
            ledger_attack(&m, [rows(&[3], &[9]), WoundRows::default()], &[10, 20]);
        assert_eq!(attack.hits, 0);
        assert!(story.contains("value 9 (penalty 5)"), "{story}");
    }

    #[test]
    fn acting_from_a_circled_row_takes_the_worst_rows_penalty() {
        // Design (assumptions, "Penalty above the worst row"): "suffer the penalty of the highest
        // Wound you've sustained"; row 14 has none written: the worst row's 6.
        let track = Track::default_sheet(5);
        assert_eq!(rows(&[14], &[]).penalty(&track), 6);
        let m = model(fighter(14, 5, 15, 5), fighter(10, 5, 5, 5));
        // Value 14 - 6 = 8: 9 misses.
        let (attack, _, _) = ledger_attack(&m, [rows(&[14], &[]), WoundRows::default()], &[9, 20]);
        assert_eq!(attack.hits, 0);
    }

    #[test]
    fn a_wound_beyond_the_last_row_is_marked_beyond_it_and_an_injury_there_kills() {
        // Design (assumptions, "Rows on the sheet": up to row 18, worst + 6; a mark with no
        // empty row left goes beyond the last row). L49: "If an Injury is more than 5 rows above
        // the highest wound penalty, the character is dead."
        let t = Track::default_sheet(5);
        assert_eq!((t.top, t.dead_from), (18, 18));
        let mut w = WoundRows::default();
        assert_eq!(w.mark(Kind::Injury, 25, t.top), 19);
        assert!(w.dead(&t));
        let mut s = WoundRows::default();
        assert_eq!(s.mark(Kind::Stun, 30, t.top), 19);
        assert!(
            !s.can_act(&t) && !s.dead(&t),
            "a Stun knocks out, it does not kill"
        );
        // Every row filled: an Injury on 18 finds nothing below, beyond above: 19.
        let all: Vec<u32> = (1..=18).collect();
        let mut full = rows(&all, &[]);
        assert_eq!(full.mark(Kind::Injury, 18, t.top), 19);
    }
}
