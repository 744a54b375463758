//! Descriptor parameters (squares, pieces, move filters) compiled to
//! masks for one position.

use super::*;

impl Session {
    /// Calls `f` on each item a value names: a list's items, a reference's
    /// items, or the value itself (as `items(val(v))` with each item
    /// resolved again), without copying literals.
    pub(super) fn each_item(&self, cx: &Cx, v: &Value, f: &mut dyn FnMut(&Value)) {
        match v {
            Value::String(s) if s.starts_with('$') => {
                let r = self.resolve_ref(cx, s);
                match r {
                    Value::Array(a) => {
                        for x in &a {
                            self.each_resolved(cx, x, f);
                        }
                    }
                    Value::Null => {}
                    x => self.each_resolved(cx, &x, f),
                }
            }
            Value::Array(a) => {
                for x in a {
                    self.each_resolved(cx, x, f);
                }
            }
            Value::Null => {}
            x => f(x),
        }
    }

    pub(super) fn each_resolved(&self, cx: &Cx, x: &Value, f: &mut dyn FnMut(&Value)) {
        match x {
            Value::String(s) if s.starts_with('$') => f(&self.resolve_ref(cx, s)),
            x => f(x),
        }
    }

    /// Squares a square parameter names (as `Session::squares`).
    pub(super) fn square_set(&self, cx: &Cx, v: &Value) -> u64 {
        let mut m = 0u64;
        self.each_item(cx, v, &mut |x| {
            if let Some(s) = square_of(self.geom, x) {
                m |= 1u64 << s;
            }
        });
        m
    }

    /// Squares holding a marker matching `spec` (as `has_marker`).
    pub(super) fn marker_squares(&self, cx: &Cx, spec: &Value) -> u64 {
        let kind = spec.get("kind").map(|k| match k {
            Value::String(s) if s.starts_with('$') => self.resolve_ref(cx, s),
            k => k.clone(),
        });
        let Some(kind) = kind
            .as_ref()
            .and_then(Value::as_str)
            .and_then(MarkerKind::parse)
        else {
            return 0;
        };
        let own = spec.get("own").and_then(Value::as_bool).unwrap_or(true);
        self.st
            .markers
            .iter()
            .filter(|m| m.kind == kind && (!own || Some(m.source) == cx.inst))
            .fold(0, |b, m| b | (1u64 << m.square))
    }

    /// Squares adjacent to the centres of `spec` (as `adjacent`).
    pub(super) fn adjacent_squares(&self, cx: &Cx, spec: &Value) -> u64 {
        let Some(of) = spec.get("of") else { return 0 };
        let ring = spec
            .get("ring")
            .map(|r| self.val(cx, r))
            .and_then(|r| r.as_u64())
            .unwrap_or(8);
        let mut centres = self.square_set(cx, of);
        let mut out = 0u64;
        while centres != 0 {
            let c = centres.trailing_zeros() as i32;
            centres &= centres - 1;
            for (df, dr) in [
                (-1, -1),
                (0, -1),
                (1, -1),
                (-1, 0),
                (1, 0),
                (-1, 1),
                (0, 1),
                (1, 1),
            ] {
                if ring == 4 && df != 0 && dr != 0 {
                    continue;
                }
                let (f, r) = (c % 8 + df, c / 8 + dr);
                if (0..8).contains(&f) && (0..8).contains(&r) {
                    out |= 1u64 << (r * 8 + f);
                }
            }
        }
        out
    }

    /// A square filter as a mask on `pos`, and whether it read the board.
    pub(super) fn square_mask(&self, cx: &Cx, f: &Value, pos: &Position<u64>) -> (u64, bool) {
        let Some(o) = f.as_object() else {
            return (self.square_set(cx, f), false);
        };
        let mut m = !0u64;
        let mut dynamic = false;
        for (k, x) in o {
            m &= match k.as_str() {
                "squares" => self.square_set(cx, x),
                "file" => {
                    let mut files = 0u64;
                    self.each_item(cx, x, &mut |v| {
                        if let Some(fl) = crate::runtime::eval::file_of(self.geom, v) {
                            files |= 0x0101_0101_0101_0101u64 << fl;
                        }
                    });
                    files
                }
                "rank" => {
                    let mut ranks = 0u64;
                    self.each_item(cx, x, &mut |v| {
                        if let Some(r) = crate::runtime::eval::rank_of(self.geom, v) {
                            ranks |= 0xffu64 << (8 * r);
                        }
                    });
                    ranks
                }
                "relRank" => {
                    let one = Value::Object([(k.clone(), x.clone())].into_iter().collect());
                    (0..64u8)
                        .filter(|&s| self.square_ok(cx, &one, s))
                        .fold(0, |b, s| b | (1u64 << s))
                }
                "empty" => {
                    dynamic = true;
                    match x.as_bool() {
                        Some(true) => !pos.occupied(),
                        Some(false) => pos.occupied(),
                        None => 0,
                    }
                }
                "hardBlocked" => {
                    // 8×8 only: the mask's low 64 bits are the board.
                    let b = self.blocked_mask() as u64;
                    match x.as_bool() {
                        Some(true) => b,
                        Some(false) => !b,
                        None => 0,
                    }
                }
                "hasMarker" => self.marker_squares(cx, x),
                "adjacentTo" => self.adjacent_squares(cx, x),
                "exclude" => !self.square_set(cx, x),
                // `$it` is each square in turn: judged square by square.
                "where" if mentions_it(x) => {
                    dynamic = true;
                    let one = Value::Object([(k.clone(), x.clone())].into_iter().collect());
                    (0..64u8)
                        .filter(|&s| self.square_ok(cx, &one, s))
                        .fold(0, |b, s| b | (1u64 << s))
                }
                "where" => {
                    dynamic |= reads_board(x);
                    if truthy(&self.eval(cx, x)) {
                        !0
                    } else {
                        0
                    }
                }
                _ => !0,
            };
        }
        (m, dynamic)
    }

    /// A piece filter compiled on `pos` (as `piece_ok`).
    pub(super) fn piece_mask(&self, cx: &Cx, f: &Value, pos: &Position<u64>) -> PieceMask {
        let def = self.game.variant().definition();
        let n = def.pieces.len();
        let Some(o) = f.as_object() else {
            if f.is_string() {
                // Pieces named by reference: their squares on this board.
                let sq = self
                    .pieces_param(cx, f)
                    .iter()
                    .fold(0u64, |b, p| b | (1u64 << p.sq));
                return PieceMask {
                    squares: sq,
                    dynamic: true,
                    ..PieceMask::all(n)
                };
            }
            return PieceMask::NONE;
        };
        let mut pm = PieceMask::all(n);
        let type_bits = |x: &Value| {
            let mut bits = 0u64;
            self.each_item(cx, x, &mut |v| {
                if let Some(name) = v.as_str() {
                    for k in 0..n {
                        if kind_is(def, k, name) {
                            bits |= 1u64 << k;
                        }
                    }
                }
            });
            bits
        };
        for (k, x) in o {
            match k.as_str() {
                "color" => {
                    let cs = self.players(cx, x);
                    for c in Color::ALL {
                        if !cs.contains(&c) {
                            pm.kinds[ci(c)] = 0;
                        }
                    }
                }
                "type" => {
                    let b = type_bits(x);
                    pm.kinds[0] &= b;
                    pm.kinds[1] &= b;
                }
                "notType" => {
                    let b = type_bits(x);
                    pm.kinds[0] &= !b;
                    pm.kinds[1] &= !b;
                }
                "royal" => {
                    pm.royal &= match x.as_bool() {
                        Some(true) => 2,
                        Some(false) => 1,
                        None => 0,
                    }
                }
                "on" => {
                    let (m, d) = self.square_mask(cx, x, pos);
                    pm.squares &= m;
                    pm.dynamic |= d;
                }
                "onMarker" => pm.squares &= self.marker_squares(cx, x),
                "adjacentTo" => pm.squares &= self.adjacent_squares(cx, x),
                "sameFileAs" => {
                    pm.dynamic = true;
                    let files = self
                        .pieces_param(cx, x)
                        .iter()
                        .fold(0u64, |b, p| b | (0x0101_0101_0101_0101u64 << (p.sq % 8)));
                    pm.squares &= files;
                }
                "exclude" => pm.squares &= !self.square_set(cx, x),
                // `$it` is each piece in turn: judged piece by piece.
                "where" if mentions_it(x) => {
                    pm.dynamic = true;
                    let one = Value::Object([(k.clone(), x.clone())].into_iter().collect());
                    let bd = Board::Small(pos, self.pos().1);
                    pm.squares &= crate::runtime::pieces_of(bd)
                        .iter()
                        .filter(|p| self.piece_ok(cx, &one, &self.view(bd, p)))
                        .fold(0u64, |b, p| b | (1u64 << p.sq));
                }
                "where" => {
                    pm.dynamic |= reads_board(x);
                    if !truthy(&self.eval(cx, x)) {
                        pm.kinds = [0, 0];
                    }
                }
                _ => {}
            }
        }
        pm
    }

    /// A move filter compiled on `pos` for its side to move (as
    /// `move_matches`), piece conditions kept apart.
    pub(super) fn move_mask(
        &self,
        cx: &Cx,
        f: &std::collections::BTreeMap<String, Value>,
        pos: &Position<u64>,
    ) -> (StaticMove, bool) {
        let us = pos.turn();
        let mut dynamic = false;
        let mut sm = StaticMove {
            mask: MoveMask {
                gate: true,
                from: !0,
                to: !0,
                capture: None,
                target: None,
                castling: None,
                progress: None,
                crosses: None,
            },
            piece: None,
            target: None,
        };
        let mm = &mut sm.mask;
        for (k, x) in f {
            match k.as_str() {
                "side" => mm.gate &= self.players(cx, x).contains(&us),
                "piece" => {
                    let pm = self.piece_mask(cx, x, pos);
                    dynamic |= pm.dynamic;
                    sm.piece = Some(pm);
                }
                "from" | "to" => {
                    let (m, d) = self.square_mask(cx, x, pos);
                    dynamic |= d;
                    if k == "from" {
                        mm.from &= m;
                    } else {
                        mm.to &= m;
                    }
                }
                "capture" => match x.as_bool() {
                    Some(b) => mm.capture = Some(b),
                    None => mm.gate = false,
                },
                "target" => {
                    let pm = self.piece_mask(cx, x, pos);
                    dynamic |= pm.dynamic;
                    sm.target = Some(pm);
                }
                "castling" => match x.as_bool() {
                    Some(b) => mm.castling = Some(b),
                    None => mm.gate = false,
                },
                "progress" => {
                    let mut p = 0u8;
                    if let Some(a) = x.as_array() {
                        for v in a {
                            p |= match v.as_str() {
                                Some("forward") => 1,
                                Some("backward") => 2,
                                Some("sideways") => 4,
                                _ => 0,
                            };
                        }
                    }
                    mm.progress = Some(p);
                }
                "crossesFile" => {
                    // As the interpreter: one-letter strings and numbers.
                    let mut files = 0u8;
                    let v = self.val(cx, x);
                    for it in crate::runtime::eval::items(v) {
                        let f = match self.val(cx, &it) {
                            Value::String(s) if s.len() == 1 => {
                                Some(s.as_bytes()[0].wrapping_sub(b'a'))
                            }
                            Value::Number(n) => n.as_u64().map(|n| n as u8),
                            _ => None,
                        };
                        if let Some(f) = f.filter(|&f| f < 8) {
                            files |= 1 << f;
                        }
                    }
                    mm.crosses = Some(files);
                }
                "when" => mm.gate &= truthy(&self.eval(cx, x)),
                // A plan runs only without move shapes (module docs), so
                // no move is added: `added: true` matches nothing.
                "added" => mm.gate &= x.as_bool() == Some(false),
                _ => {}
            }
        }
        (sm, dynamic)
    }
}
