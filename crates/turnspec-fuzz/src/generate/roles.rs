//! Seat roles (`[roles.*]`): who holds each first, whether it goes back
//! as each turn begins, and the one whose holder takes the next turn.

use std::fmt::Write as _;

use super::*;

impl Gen<'_> {
    pub(super) fn write_roles(&mut self) {
        let mut next_turn = false;
        for i in 0..self.roles.len() {
            self.f.set(Feature::Roles);
            let id = self.roles[i].id.clone();
            let _ = writeln!(self.out, "\n[roles.{id}]");
            if self.chance(1, 2) {
                let _ = writeln!(self.out, "name = \"Role {i}\"");
            }
            if self.chance(1, 2) {
                self.f.set(Feature::Rules);
                let r = self.rule();
                let _ = writeln!(self.out, "rule = \"{r}\"");
            }
            if self.chance(1, 4) {
                self.out.push_str("description = \"a generated role\"\n");
            }
            match self.below(4) {
                0 => self.f.set(Feature::RoleInitialNext),
                1 => {
                    self.f.set(Feature::RoleInitialNext);
                    self.out.push_str("initial = \"next_player\"\n");
                }
                2 => {
                    self.f.set(Feature::RoleInitialActive);
                    self.out.push_str("initial = \"active_player\"\n");
                }
                _ => {
                    self.f.set(Feature::RoleInitialStarting);
                    self.out.push_str("initial = \"starting_player\"\n");
                }
            }
            match self.below(3) {
                0 => {
                    self.f.set(Feature::RoleResetNever);
                    self.out.push_str("reset = \"never\"\n");
                }
                1 => self.out.push_str("reset = \"turn\"\n"),
                _ => {}
            }
            // At most one role says who takes the next turn.
            if !next_turn && self.chance(1, 3) {
                next_turn = true;
                self.f.set(Feature::RoleNextTurn);
                self.out.push_str("next_turn = true\n");
            } else if self.chance(1, 8) {
                self.out.push_str("next_turn = false\n");
            }
        }
    }
}
