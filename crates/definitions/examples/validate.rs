//! Validates game files and prints their diagnostics:
//! `cargo run -p houserules-definitions --example validate -- FILE.yaml…`
//! (with no file, the shipped definitions).

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut failed = false;
    if args.is_empty() {
        for (id, src) in houserules_definitions::BUILTIN_SOURCES {
            match houserules_definitions::load_str(&format!("{id}.yaml"), src) {
                Ok(d) => println!(
                    "{id}: ok ({}x{}, {} piece types)",
                    d.width,
                    d.height,
                    d.pieces.len()
                ),
                Err(e) => {
                    failed = true;
                    print!("{}", e.render());
                }
            }
        }
    }
    for path in &args {
        match houserules_definitions::load_file(std::path::Path::new(path)) {
            Ok(d) => println!(
                "{path}: ok ({}x{}, {} piece types)",
                d.width,
                d.height,
                d.pieces.len()
            ),
            Err(e) => {
                failed = true;
                print!("{}", e.render());
            }
        }
    }
    if failed {
        std::process::exit(1);
    }
}
