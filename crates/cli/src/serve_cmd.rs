//! `houserules serve`: the game server (crates/server).
//!
//! Every option can also come from an environment variable
//! (`HOUSERULES_ADDR`, `HOUSERULES_DB`, …, shown by `--help`) and from a
//! TOML file (`--config FILE` or `HOUSERULES_CONFIG`, keys named as the
//! options: `addr = "0.0.0.0:8080"`, `max-connections = 5000`). The
//! precedence is: the command line, then the environment, then the file,
//! then the defaults. The file is applied before clap reads the command
//! line ([`apply_config_file`]): each of its keys sets the option's
//! variable when the environment does not, so clap's own order does the
//! rest.

use std::ffi::OsString;
use std::io::Write;
use std::net::SocketAddr;
use std::time::Duration;

use clap::{Args, ValueEnum};

use crate::error::{CliError, Outcome};

const EXAMPLES: &str = "\
Examples:
  houserules serve
  houserules serve --addr 0.0.0.0:8080 --db sqlite:/var/lib/houserules/games.db
  houserules serve --db postgres://postgres@127.0.0.1:5432/test
  HOUSERULES_DB=sqlite:/srv/games.db RUST_LOG=info,houserules_server=debug houserules serve --log-format json
  houserules serve --config /etc/houserules/houserules.toml
  houserules serve --db postgres://postgres@127.0.0.1:5432/test --cluster nats://127.0.0.1:4222 --node-id a

  curl -s -X POST localhost:8080/api/games -d '{\"presets\": [\"knight-immunity\"], \"clock\": {\"initialSeconds\": 300, \"incrementSeconds\": 2}}'

Games are kept in a SQLite file (houserules-games.db in the current
directory by default) or in Postgres. At start, the unfinished games
with a running clock, a choice timer or an engine seat are rebuilt from
their logs; the others are rebuilt on their first request. A finished game
leaves memory when its last connection closes, an idle one after
--idle-unload seconds. The API and the WebSocket protocol are in
docs/protocol.md; the OpenAPI document is served at /api/openapi.json.

Settings: each option also reads the environment variable shown, and a
TOML file given by --config (keys as the options without the dashes in
front: addr = \"0.0.0.0:8080\"). The command line wins over the
environment, the environment over the file, the file over the defaults.
Logs go to standard error (RUST_LOG filters them, default info); the one
line on standard output says where the server listens. SIGTERM or SIGINT
stops it within 10 s (docs/operations.md).";

/// The log line format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LogFormat {
    /// Human-readable lines.
    Text,
    /// One JSON object per line (with the span fields: game id, seat).
    Json,
}

/// Options of `houserules serve`.
#[derive(Debug, Args)]
#[command(after_help = EXAMPLES)]
pub struct ServeArgs {
    /// A TOML file of settings (keys as the options: addr, db,
    /// max-connections, …); the command line and the environment win
    /// over it
    #[arg(long, value_name = "FILE", env = "HOUSERULES_CONFIG")]
    config: Option<std::path::PathBuf>,
    /// The address to listen on
    #[arg(long, default_value = "127.0.0.1:8080", env = "HOUSERULES_ADDR")]
    addr: SocketAddr,
    /// Where games are kept: sqlite:PATH or postgres://USER@HOST:PORT/DB
    /// (a password in it is never printed)
    #[arg(
        long,
        value_name = "URL",
        default_value = "sqlite:houserules-games.db",
        env = "HOUSERULES_DB",
        hide_env_values = true
    )]
    db: String,
    /// Seconds a player must be gone before the opponent may claim the win
    #[arg(
        long,
        value_name = "SECONDS",
        default_value_t = 40,
        env = "HOUSERULES_CLAIM_VICTORY_AFTER"
    )]
    claim_victory_after: u64,
    /// Seconds an unfinished game with no connection and nothing timed stays in memory
    #[arg(
        long,
        value_name = "SECONDS",
        default_value_t = 120,
        env = "HOUSERULES_IDLE_UNLOAD"
    )]
    idle_unload: u64,
    /// Log format on standard error: text or json (RUST_LOG filters,
    /// default info)
    #[arg(
        long,
        value_enum,
        default_value = "text",
        env = "HOUSERULES_LOG_FORMAT"
    )]
    log_format: LogFormat,
    /// Messages per second one WebSocket may send (bursts of twice that)
    #[arg(
        long,
        value_name = "N",
        default_value_t = 20,
        value_parser = clap::value_parser!(u32).range(1..),
        env = "HOUSERULES_MESSAGES_PER_SECOND"
    )]
    messages_per_second: u32,
    /// Seconds a client may take to send a request's header (also how
    /// long an idle HTTP connection is kept between requests)
    #[arg(long, value_name = "SECONDS", default_value = "10", value_parser = seconds, env = "HOUSERULES_HEADER_READ_TIMEOUT")]
    header_read_timeout: Duration,
    /// Seconds a request may take before it is answered 408
    #[arg(long, value_name = "SECONDS", default_value = "30", value_parser = seconds, env = "HOUSERULES_REQUEST_TIMEOUT")]
    request_timeout: Duration,
    /// Seconds a WebSocket may stay silent (the server pings at a third
    /// of it) before it is closed
    #[arg(long, value_name = "SECONDS", default_value = "60", value_parser = seconds, env = "HOUSERULES_WS_IDLE_TIMEOUT")]
    ws_idle_timeout: Duration,
    /// Seconds one WebSocket write may take before the client counts as
    /// not reading and is dropped (close code 1008)
    #[arg(long, value_name = "SECONDS", default_value = "10", value_parser = seconds, env = "HOUSERULES_WS_WRITE_TIMEOUT")]
    ws_write_timeout: Duration,
    /// Messages queued for one WebSocket before it counts as not reading
    #[arg(long, value_name = "N", default_value_t = 256, value_parser = clap::value_parser!(u32).range(1..), env = "HOUSERULES_WS_QUEUE")]
    ws_queue: u32,
    /// Connections held at once; more are answered 503 and closed
    #[arg(long, value_name = "N", default_value_t = 10_000, value_parser = clap::value_parser!(u32).range(1..), env = "HOUSERULES_MAX_CONNECTIONS")]
    max_connections: u32,
    /// Connections held at once from one IP address (0: no cap; behind a
    /// reverse proxy, cap in the proxy); more are answered 429
    #[arg(
        long,
        value_name = "N",
        default_value_t = 256,
        env = "HOUSERULES_MAX_CONNECTIONS_PER_IP"
    )]
    max_connections_per_ip: u32,
    /// Game creation requests one IP address may send per minute, refused
    /// ones included (0: no limit); more are answered 429 with Retry-After
    #[arg(
        long,
        value_name = "N",
        default_value_t = 30,
        env = "HOUSERULES_CREATIONS_PER_MINUTE"
    )]
    creations_per_minute: u32,
    /// Modifier saves (POST /api/modifiers) one IP address may send per
    /// minute, refused ones included (0: no limit); more are answered 429
    /// with Retry-After
    #[arg(
        long,
        value_name = "N",
        default_value_t = 10,
        env = "HOUSERULES_MODIFIER_SAVES_PER_MINUTE"
    )]
    modifier_saves_per_minute: u32,
    /// Engine searches that run at once; others wait their turn (default:
    /// half the cores, at least 1)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..), env = "HOUSERULES_ENGINE_SEARCHES")]
    engine_searches: Option<u32>,
    /// Reverse proxies whose X-Forwarded-For is believed (CIDR blocks or
    /// addresses, comma-separated: 127.0.0.1,10.0.0.0/8): the
    /// per-address limits then apply to the client's address; the header
    /// of anyone else is ignored
    #[arg(
        long,
        value_name = "CIDR,…",
        value_delimiter = ',',
        env = "HOUSERULES_TRUSTED_PROXIES"
    )]
    trusted_proxies: Vec<houserules_server::limits::Cidr>,
    /// Run as one node of a cluster: the NATS server the nodes share
    /// (nats://HOST:PORT); needs a Postgres --db shared by every node
    /// (docs/cluster.md)
    #[arg(long, value_name = "URL", env = "HOUSERULES_CLUSTER")]
    cluster: Option<String>,
    /// This node's name in a cluster (letters, digits, '-', '_'; default:
    /// the host name and process id)
    #[arg(
        long,
        value_name = "ID",
        env = "HOUSERULES_NODE_ID",
        requires = "cluster"
    )]
    node_id: Option<String>,
}

/// A duration in seconds (decimals allowed: 0.5), more than 0 and at most
/// a day.
fn seconds(s: &str) -> Result<Duration, String> {
    let v: f64 = s
        .trim()
        .parse()
        .map_err(|_| format!("`{s}` is not a number of seconds"))?;
    if !(v > 0.0 && v <= 86_400.0) {
        return Err(format!("`{s}`: give more than 0 and at most 86400 seconds"));
    }
    Ok(Duration::from_secs_f64(v))
}

/// Reads the `serve` settings file named by `--config FILE`,
/// `--config=FILE` or `HOUSERULES_CONFIG` in `args` (the whole command
/// line) and sets, for each of its keys, the option's environment
/// variable when it is not set, so that the command line and the
/// environment win over the file. Before that, checks the value of every
/// `HOUSERULES_*` variable the command line does not override, so that a
/// bad one is named by its variable. Does nothing for other commands.
///
/// # Errors
/// A variable's value is refused by its option; the file cannot be read
/// or is not TOML, a key is not an option of `serve` (the message lists
/// them), a value is not a string, a number or a boolean, or the option
/// refuses it (the message names the file, the key and the value).
pub fn apply_config_file(args: &[OsString]) -> Result<(), CliError> {
    if args.get(1).and_then(|a| a.to_str()) != Some("serve")
        || args[2..].iter().any(|a| a == "--help" || a == "-h")
    {
        return Ok(());
    }
    let mut file: Option<OsString> = std::env::var_os("HOUSERULES_CONFIG");
    let mut i = 2;
    while i < args.len() {
        let a = args[i].to_string_lossy();
        if a == "--config" {
            file = args.get(i + 1).cloned();
            i += 1;
        } else if let Some(f) = a.strip_prefix("--config=") {
            file = Some(f.into());
        }
        i += 1;
    }
    // The options and their variables, from the options' own definitions.
    let command = <ServeArgs as Args>::augment_args(clap::Command::new("serve"));
    let known: Vec<(String, String, &clap::Arg)> = command
        .get_arguments()
        .filter_map(|a| {
            let long = a.get_long()?.to_string();
            let env = a.get_env()?.to_string_lossy().to_string();
            (long != "config").then_some((long, env, a))
        })
        .collect();
    // A bad value in a variable is named by the variable (clap would name
    // only the option), unless the command line gives the option.
    for (long, env, arg) in &known {
        let on_line = args[2..].iter().any(|a| {
            let a = a.to_string_lossy();
            a == format!("--{long}") || a.starts_with(&format!("--{long}="))
        });
        let Some(value) = std::env::var_os(env).filter(|_| !on_line) else {
            continue;
        };
        let value = value.to_string_lossy();
        let shown = if long == "db" {
            houserules_server::listen::redact_db_url(&value)
        } else {
            value.to_string()
        };
        check_value(arg, &value).map_err(|why| {
            CliError::input(format!(
                "{env}={shown}: {}",
                why.replace(value.as_ref(), &shown)
            ))
        })?;
    }
    let Some(file) = file else {
        return Ok(());
    };
    let path = std::path::Path::new(&file);
    let text = std::fs::read_to_string(path)
        .map_err(|e| CliError::input(format!("--config {}: {e}", path.display())))?;
    let table: toml::Table = text
        .parse()
        .map_err(|e| CliError::input(format!("--config {}: not TOML: {e}", path.display())))?;
    for (key, value) in &table {
        let name = key.replace('_', "-");
        let Some((_, env, arg)) = known.iter().find(|(long, _, _)| *long == name) else {
            // A misspelt key gets the closest setting (session-11 trial:
            // `max-conections` got only the whole list).
            let hint = houserules_definitions::diag::suggest(
                &name,
                known.iter().map(|(l, _, _)| l.as_str()),
            )
            .map(|s| format!("did you mean `{s}`? "))
            .unwrap_or_default();
            return Err(CliError::input(format!(
                "--config {}: unknown setting `{key}` ({hint}the settings are {})",
                path.display(),
                known
                    .iter()
                    .map(|(l, _, _)| l.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )));
        };
        let value = match value {
            toml::Value::String(s) => s.clone(),
            toml::Value::Integer(n) => n.to_string(),
            toml::Value::Float(x) => x.to_string(),
            toml::Value::Boolean(b) => b.to_string(),
            _ => {
                return Err(CliError::input(format!(
                    "--config {}: `{key}` takes a string, a number or true/false",
                    path.display()
                )))
            }
        };
        // Checked here, by the option's own parser, so that the message
        // names the file and the key (clap, reading the variable, would
        // name only the option).
        check_value(arg, &value).map_err(|why| {
            CliError::input(format!(
                "--config {}: `{key} = {value}`: {why}",
                path.display()
            ))
        })?;
        if std::env::var_os(env).is_none() {
            // Before any thread starts (main calls this first).
            std::env::set_var(env, value);
        }
    }
    Ok(())
}

/// Whether `arg`'s parser (its type, range or possible values) takes
/// `value`; the reason when not, as clap words it without its `error:`
/// prefix and usage hints. (The option alone is parsed from `--NAME=VALUE`:
/// given on that line, its variable is not read.)
fn check_value(arg: &clap::Arg, value: &str) -> Result<(), String> {
    let long = arg.get_long().unwrap_or_default();
    match clap::Command::new("serve")
        .no_binary_name(true)
        .disable_help_flag(true)
        .arg(arg.clone())
        .try_get_matches_from([format!("--{long}={value}")])
    {
        Ok(_) => Ok(()),
        Err(e) => {
            // The first line, and clap's list of the possible values.
            let text = e.to_string();
            let mut lines = text.lines();
            let first = lines.next().unwrap_or_default();
            let mut why = first.trim_start_matches("error: ").to_string();
            if let Some(p) = lines.find(|l| l.contains("possible values")) {
                why = format!("{why} {}", p.trim());
            }
            Err(why)
        }
    }
}

/// Installs the log subscriber: `RUST_LOG` (default `info`) on standard
/// error, as text or JSON lines with the spans' fields.
fn init_logs(format: LogFormat) {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .with_writer(std::io::stderr);
    let _ = match format {
        LogFormat::Text => builder.try_init(),
        LogFormat::Json => builder
            .json()
            .with_current_span(true)
            .with_span_list(true)
            .try_init(),
    };
}

/// The stop signals, registered at once: a SIGTERM that comes right after
/// the start line (before the accept loop first waits on them) stops the
/// server cleanly rather than killing it (found by
/// `tests/serve_ops.rs`). Needs the runtime's context.
struct StopSignals {
    #[cfg(unix)]
    term: Option<tokio::signal::unix::Signal>,
    #[cfg(unix)]
    int: Option<tokio::signal::unix::Signal>,
}

impl StopSignals {
    fn register() -> StopSignals {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{signal, SignalKind};
            StopSignals {
                term: signal(SignalKind::terminate()).ok(),
                int: signal(SignalKind::interrupt()).ok(),
            }
        }
        #[cfg(not(unix))]
        StopSignals {}
    }

    /// Completes on SIGTERM or SIGINT; from then the process has 10 s: a
    /// watchdog ends it if stopping hangs.
    async fn wait(self) {
        #[cfg(unix)]
        let name = {
            let StopSignals { term, int } = self;
            let one = |s: Option<tokio::signal::unix::Signal>, name: &'static str| async move {
                match s {
                    Some(mut s) => {
                        s.recv().await;
                        name
                    }
                    None => std::future::pending().await,
                }
            };
            tokio::select! {
                n = one(term, "SIGTERM") => n,
                n = one(int, "SIGINT") => n,
            }
        };
        #[cfg(not(unix))]
        let name = {
            let _ = self;
            match tokio::signal::ctrl_c().await {
                Ok(()) => "SIGINT",
                Err(_) => std::future::pending().await,
            }
        };
        tracing::info!(signal = name, "stopping within 10 s");
        std::thread::spawn(|| {
            std::thread::sleep(Duration::from_millis(9_800));
            tracing::error!("stopping took 10 s: exiting now");
            std::process::exit(1);
        });
    }
}

/// Runs the server until SIGTERM or SIGINT.
pub fn run(args: &ServeArgs, out: &mut dyn Write) -> Result<Outcome, CliError> {
    let shown = houserules_server::listen::redact_db_url(&args.db);
    if !(args.db.starts_with("sqlite:")
        || args.db.starts_with("postgres://")
        || args.db.starts_with("postgresql://"))
    {
        return Err(CliError::input(format!(
            "--db {shown}: use sqlite:PATH or postgres://USER@HOST:PORT/DB"
        )));
    }
    if let Some(nats) = &args.cluster {
        if args.db.starts_with("sqlite:") {
            return Err(CliError::input(format!(
                "--cluster {nats} needs a Postgres --db (postgres://USER@HOST:PORT/DB), not {shown}: \
                 the nodes of a cluster share one database, and a SQLite file belongs to one machine"
            )));
        }
        if !nats.starts_with("nats://") {
            return Err(CliError::input(format!(
                "--cluster {nats}: use nats://HOST:PORT"
            )));
        }
    }
    init_logs(args.log_format);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| CliError::input(format!("cannot start the async runtime: {e}")))?;
    let mut limits = houserules_server::limits::Limits {
        header_read_timeout: args.header_read_timeout,
        request_timeout: args.request_timeout,
        ws_idle_timeout: args.ws_idle_timeout,
        ws_write_timeout: args.ws_write_timeout,
        ws_queue: args.ws_queue as usize,
        max_connections: args.max_connections as usize,
        max_connections_per_ip: args.max_connections_per_ip as usize,
        creations_per_minute: args.creations_per_minute,
        modifier_saves_per_minute: args.modifier_saves_per_minute,
        trusted_proxies: args.trusted_proxies.clone(),
        ..Default::default()
    };
    if let Some(n) = args.engine_searches {
        limits.engine_searches = n as usize;
    }
    let config = houserules_server::Config {
        timing: houserules_server::game::Timing {
            claim_victory_after: Duration::from_secs(args.claim_victory_after),
            idle_unload: Duration::from_secs(args.idle_unload),
            ..Default::default()
        },
        rate_per_second: args.messages_per_second,
        limits,
        cluster: args
            .cluster
            .as_ref()
            .map(|nats| houserules_server::cluster::ClusterConfig {
                nats: nats.clone(),
                node_id: args.node_id.clone(),
                ..Default::default()
            }),
    };
    let signals = {
        let _context = runtime.enter();
        StopSignals::register()
    };
    let mut printed = Ok(());
    let served = runtime.block_on(houserules_server::serve_until(
        args.addr,
        &args.db,
        None,
        config,
        |addr, rebuilt| {
            printed = writeln!(
                out,
                "houserules server on http://{addr}/ (games in {shown}; {rebuilt} unfinished game{} rebuilt)",
                if rebuilt == 1 { "" } else { "s" }
            )
            .and_then(|()| out.flush());
        },
        signals.wait(),
    ));
    // A search still on the blocking pool is not waited for.
    runtime.shutdown_timeout(Duration::from_millis(300));
    printed?;
    served.map_err(CliError::input)?;
    Ok(Outcome::Success)
}
