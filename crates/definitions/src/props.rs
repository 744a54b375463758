//! Declared piece properties packed into the engine's per-piece attribute
//! byte ([`houserules_engine::Position::piece_attribute`]).
//!
//! Each piece type lays its properties out as bit fields of one byte.
//! A field holds the value's offset from its default, so the byte 0 means
//! "every property at its default": pieces of the setup, pieces placed by
//! a promotion and pieces read from FEN all start with their defaults
//! without the engine knowing the layout. Layouts are per piece type; a
//! promoted piece starts again from byte 0 in its new type's layout.

use crate::cond::check::{Ty, Val};

/// One property's bit field.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Field {
    /// The property's name.
    pub name: String,
    /// Its type.
    pub ty: Ty,
    /// Lowest bit.
    pub shift: u8,
    /// Width in bits (0 for a property with one possible value).
    pub bits: u8,
    /// The smallest number (numbers only; 0 otherwise).
    pub min: i64,
    /// How many values the property can take.
    pub count: u16,
    /// The index (offset from `min`, or the value's own index) of the
    /// default.
    pub default: u16,
}

impl Field {
    fn mask(&self) -> u16 {
        (1u16 << self.bits) - 1
    }

    /// The value index stored in `raw`, if it is a valid one.
    fn index(&self, raw: u8) -> Option<u16> {
        let m = self.mask();
        let r = (u16::from(raw) >> self.shift) & m;
        let i = (r + self.default) & m;
        (i < self.count).then_some(i)
    }

    /// The largest number. `min + (count - 1)` in that order: `min +
    /// count` alone can overflow when the range ends at `i64::MAX`.
    pub fn max(&self) -> i64 {
        self.min.saturating_add(i64::from(self.count) - 1)
    }

    fn value(&self, i: u16) -> Val {
        match self.ty {
            Ty::Bool => Val::Bool(i == 1),
            Ty::Int => Val::Int(self.min + i64::from(i)),
            Ty::Piece => Val::Piece(usize::from(i)),
            Ty::Color | Ty::Entity => Val::Color(usize::from(i)),
        }
    }

    /// The index of `v` (numbers are clamped into the field's range).
    fn index_of(&self, v: Val) -> u16 {
        let i = match v {
            Val::Bool(b) => i64::from(b),
            // In `min..=max`, so the offset is 0..count and cannot overflow.
            Val::Int(n) => n.clamp(self.min, self.max()).abs_diff(self.min) as i64,
            Val::Piece(k) | Val::Color(k) => k as i64,
        };
        i.clamp(0, i64::from(self.count) - 1) as u16
    }
}

/// The properties of one piece type.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Layout {
    /// The fields, lowest bits first.
    pub fields: Vec<Field>,
}

/// Bits needed to store `count` values.
pub(crate) fn bits_for(count: u16) -> u8 {
    let mut b = 0u8;
    while (1u32 << b) < u32::from(count) {
        b += 1;
    }
    b
}

impl Layout {
    /// Bits used.
    pub fn bits(&self) -> u8 {
        self.fields.iter().map(|f| f.bits).sum()
    }

    /// Adds a field; returns the bits used after it.
    pub fn push(&mut self, name: &str, ty: Ty, min: i64, count: u16, default: u16) -> u32 {
        let shift = u32::from(self.bits());
        let bits = bits_for(count);
        if shift + u32::from(bits) <= 8 {
            self.fields.push(Field {
                name: name.to_string(),
                ty,
                shift: shift as u8,
                bits,
                min,
                count,
                default,
            });
        }
        shift + u32::from(bits)
    }

    /// The field named `name`.
    pub fn field(&self, name: &str) -> Option<&Field> {
        self.fields.iter().find(|f| f.name == name)
    }

    /// Whether `raw` is a byte a piece of this type can hold.
    pub fn valid(&self, raw: u8) -> bool {
        u32::from(raw) < (1u32 << self.bits()) && self.fields.iter().all(|f| f.index(raw).is_some())
    }

    /// Every byte a piece of this type can hold (0, the defaults, first).
    pub fn raws(&self) -> Vec<u8> {
        (0..(1u32 << self.bits()))
            .map(|r| r as u8)
            .filter(|&r| self.valid(r))
            .collect()
    }

    /// The value of property `name` in `raw`.
    pub fn get(&self, raw: u8, name: &str) -> Option<Val> {
        let f = self.field(name)?;
        Some(f.value(f.index(raw)?))
    }

    /// `raw` with property `name` set to `v`.
    pub fn set(&self, raw: u8, name: &str, v: Val) -> u8 {
        let Some(f) = self.field(name) else {
            return raw;
        };
        let m = f.mask();
        let stored = (f.index_of(v) + (1 << f.bits) - f.default) & m;
        let cleared = u16::from(raw) & !(m << f.shift);
        (cleared | (stored << f.shift)) as u8
    }
}

/// A set of attribute bytes (bit `r` for byte `r`): the bytes for which a
/// guarded movement entry may be used.
pub(crate) type ByteSet = [u64; 4];

/// Whether `set` holds `raw`.
#[inline]
pub(crate) fn has(set: &ByteSet, raw: u8) -> bool {
    set[usize::from(raw >> 6)] & (1u64 << (raw & 63)) != 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_byte_zero_and_values_round_trip() {
        let mut l = Layout::default();
        // A counter 0..=5 with default 3, a flag with default true, a
        // player with default the second.
        assert_eq!(l.push("charges", Ty::Int, 0, 6, 3), 3);
        assert_eq!(l.push("armed", Ty::Bool, 0, 2, 1), 4);
        assert_eq!(l.push("side", Ty::Color, 0, 2, 1), 5);
        assert_eq!(l.get(0, "charges"), Some(Val::Int(3)));
        assert_eq!(l.get(0, "armed"), Some(Val::Bool(true)));
        assert_eq!(l.get(0, "side"), Some(Val::Color(1)));
        let r = l.set(0, "charges", Val::Int(0));
        assert_eq!(l.get(r, "charges"), Some(Val::Int(0)));
        assert_eq!(l.get(r, "armed"), Some(Val::Bool(true)));
        // Clamped into the range.
        let r = l.set(r, "charges", Val::Int(9));
        assert_eq!(l.get(r, "charges"), Some(Val::Int(5)));
        let r = l.set(r, "charges", Val::Int(3));
        assert_eq!(r, 0, "back to the defaults");
        // 6 counter values × 2 × 2 valid bytes among 32.
        assert_eq!(l.raws().len(), 24);
        assert_eq!(bits_for(1), 0);
        assert_eq!(bits_for(256), 8);
    }
}
