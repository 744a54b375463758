//! How a command ends: its [`Outcome`] when it ran, or a [`CliError`] when
//! it could not, each with its exit status.

use std::io;

/// Exit status of a run that finished and found every check passing.
pub const EXIT_SUCCESS: u8 = 0;
/// Exit status of a run that finished but found a failure (a perft
/// mismatch, a PGN game with an error).
pub const EXIT_FAILURE: u8 = 1;
/// Exit status of bad input: a bad FEN, a missing file, a malformed suite
/// line, a bad command line (clap uses 2 as well); also of output that
/// cannot be written. A closed pipe is no write error: the output is then
/// discarded and the command keeps its own status.
pub const EXIT_BAD_INPUT: u8 = 2;

/// The result of a command that ran to the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Everything checked passed.
    Success,
    /// The command ran but found failures (already reported on stdout).
    Failed,
    /// Some input could not be read (already reported on stdout); exit 2.
    Unreadable,
}

impl Outcome {
    /// [`Outcome::Failed`] when `failed`, else [`Outcome::Success`].
    pub fn failed_if(failed: bool) -> Outcome {
        if failed {
            Outcome::Failed
        } else {
            Outcome::Success
        }
    }

    /// The process exit status.
    pub fn exit_code(self) -> u8 {
        match self {
            Outcome::Success => EXIT_SUCCESS,
            Outcome::Failed => EXIT_FAILURE,
            Outcome::Unreadable => EXIT_BAD_INPUT,
        }
    }
}

/// Why a command could not run to the end.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// Bad input; the message names what is wrong and where.
    #[error("{0}")]
    Input(String),
    /// Writing the output failed.
    #[error("cannot write output: {0}")]
    Output(#[from] io::Error),
}

impl CliError {
    /// A bad-input error with this message.
    pub fn input(message: impl Into<String>) -> CliError {
        CliError::Input(message.into())
    }

    /// The process exit status: 2.
    pub fn exit_code(&self) -> u8 {
        match self {
            CliError::Input(_) | CliError::Output(_) => EXIT_BAD_INPUT,
        }
    }
}

/// Reads a text file of at most `limit` bytes, so that `/dev/zero` or a
/// huge file cannot exhaust memory. Text that is not UTF-8 is an
/// [`io::ErrorKind::InvalidData`] error naming the byte offset, line and
/// column of the first invalid byte.
pub(crate) fn read_text_limited(path: &std::path::Path, limit: u64) -> std::io::Result<String> {
    use std::io::Read;
    let mut bytes = Vec::new();
    std::fs::File::open(path)?
        .take(limit + 1)
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("larger than {}", size_text(limit)),
        ));
    }
    houserules_definitions::diag::decode_utf8(bytes)
        .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))
}

/// A size as written in messages: whole MiB as `16 MiB`, else bytes.
pub(crate) fn size_text(bytes: u64) -> String {
    if bytes >= 1 << 20 && bytes.is_multiple_of(1 << 20) {
        format!("{} MiB", bytes >> 20)
    } else {
        format!("{bytes} bytes")
    }
}
