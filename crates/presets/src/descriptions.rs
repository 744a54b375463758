//! What each preset does, in a sentence or two: shown by `houserules rules`
//! (text and `--json`) and in docs/presets.md. The rules themselves are in
//! [`crate::rules`]; the rulings that settle details are cited by number
//! (RULINGS.md P1–P27).

use crate::registry::PresetInfo;

impl PresetInfo {
    /// What the preset does (see [`description`]).
    pub fn description(&self) -> &'static str {
        description(self.id)
    }
}

/// What the preset `id` does, in a sentence or two; empty for an unknown
/// id (every registry id has one, which a test checks).
pub fn description(id: &str) -> &'static str {
    match id {
        "suicide-chess" => "Losing chess (antichess): captures are compulsory, kings are ordinary pieces, and a side wins by losing all its pieces or by having no legal move.",
        "capture-all" => "Kings are ordinary pieces and there is no check; a side wins by capturing every enemy piece. Captures are not compulsory.",
        "last-piece-standing" => "Kings are ordinary pieces and there is no check; a side whose last piece is captured loses, and a side with no legal move loses too.",
        "knightmate-rules" => "Knights are royal instead of the king: check and mate apply to the knights, and the king is an ordinary piece. Meant for FIDE chess's knightmate layout.",
        "coregal" => "The queen is royal as well as the king: a move may leave neither in check, and mating either wins. A side whose queen is gone plays on with its king alone royal.",
        "dual-king" => "Every king is royal: a move may leave no king in check, and mating any one king wins. Meant for FIDE chess's dual-classic layout (two kings a side).",
        "weak-dual-king" => "A side may lose a king and play on: a side loses when it has no king left, or when all its kings are attacked and no move saves them. Meant for FIDE chess's dual-classic layout.",
        "god-kings" => "Kings can never be captured and are never in check; they also leap up to two squares in any direction and may capture by that leap (P26).",
        "capture-to-win" => "The first side to capture any enemy piece wins at once; checkmate does not end the game.",
        "extinction-chess" => "A side loses at once when its last piece of the target type is gone (default: pawns; `any` means every piece kind of the game, so a side loses when any of its kinds is gone); check and mate still apply (P19).",
        "first-promotion-wins" => "The first side to promote a pawn wins at once. Meant for FIDE chess's pawns-only layout.",
        "pawns-move-backward" => "Pawns may also step one square straight back onto an empty square, never capturing; a pawn that has moved loses its double step (P21).",
        "double-pawn-sprint" => "Pawns may advance two empty squares straight ahead from any rank, not only their start rank; on every game the sprint can be taken en passant (where pawns have no double step of their own, their captures take the sprint en passant) and a sprint onto the last rank promotes (P22).",
        "pawn-diagonal-no-capture" => "Pawns may also step one square diagonally forward onto an empty square without capturing; on the en passant square that step is the en passant capture (P20).",
        "berolina-pawns" => "Berolina pawns for the chosen side(s): they move diagonally forward (two squares from their start rank) and capture straight ahead; en passant follows the diagonal double step (P27).",
        "berolina-pawns-2" => "Berolina pawns that may also capture sideways on their own rank; sideways captures neither give nor take en passant.",
        "knights-leap-twice" => "A knight may make two knight leaps in one move when the square between them is empty; one leap stays legal.",
        "bishops-ignore-color" => "Bishops may also step one square orthogonally (onto an empty square or to capture), so they can change square colour.",
        "proletariat" => "Every piece but the king moves and captures as a pawn; those pieces never double-step, capture en passant, promote or castle (P26).",
        "short-stop" => "Every piece moves at most one square: slides and pawn moves stop after one square, a longer straight leap becomes a step in its direction, and a knight's leap (also the knight part of a compound piece such as Capablanca's archbishop and chancellor) becomes a one-square orthogonal step; castling is removed (P26).",
        "trans-rights" => "Kings slide like queens and queens step like kings.",
        "knight-immunity" => "Bishops cannot capture knights; a bishop still attacks a knight's square for check and pins.",
        "rook-warp" => "A rook's slide may continue past the board's edge onto the far end of the same rank or file (P3).",
        "wrap-board" => "The first and last files (a and h on 8×8) are adjacent: lines, leaps and pawn captures continue across the side edge; ranks and castling never wrap (P4, P24).",
        "bouncing-pieces" => "Bishop and queen diagonal rays reflect once off the first and last files (a and h on 8×8) (P23).",
        "bouncing-pieces-2" => "Bishop and queen diagonal rays reflect off all four edges, at most twice per ray; a corner counts as two reflections (P23).",
        "queen-splits" => "A queen that captures becomes a rook on the capture square and a bishop on the first empty adjacent square (clockwise from north); with no such square only the rook stays.",
        "explosive-rook" => "A rook that captures also removes every other piece within two squares of the capture square along its rank and file; the rook stays.",
        "early-promotion" => "A pawn that ends a move on the third rank from its last (the sixth on 8×8; on 5×5 the rank its first step reaches) becomes a queen at once, as well as promoting on its last rank; the move is written without `=Q`, and it counts as a promotion for every rule (P26).",
        "piece-hp" => "Pieces have hit points (kings 1, others 2): a capture takes one point and the captured piece, if it survives, is pushed to the first empty adjacent square (clockwise from north); at 0 it is removed. Check is a royal that could be killed (P6).",
        "king-heals" => "With piece-hp: a king that ends its side's turn out of check regains one hit point, up to 3.",
        "poisoned-squares" => "With piece-hp: a piece that ends its owner's turn on a centre square loses one hit point; at 0 it is removed. The centre is the middle two files by the middle two ranks, one of each on an odd size: d4, d5, e4 and e5 on 8×8, c3 on 5×5, c3, d3, c4 and d4 on 6×6, e4, f4, e5 and f5 on 10×8.",
        "double-move" => "Each side plays two moves per turn (white, white, black, black); a mate on the first ends the game.",
        "monster-rules" => "The chosen side plays two moves per turn and the other one (scope white by default: White moves twice). Meant for FIDE chess's monster layout.",
        _ => "",
    }
}
