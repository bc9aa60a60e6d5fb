//! `cargo run -p vendor-tree [-- --check] [-- --out DIR]`
//!
//! Writes the vendor-scale test tree into `fixtures/vendor-scale/` (or DIR), or with `--check`
//! exits 1 when the committed tree differs from what the program produces.

use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut check = false;
    let mut root = vendor_tree::default_root();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--check" => check = true,
            "--out" => match args.next() {
                Some(d) => root = PathBuf::from(d),
                None => {
                    eprintln!("vendor-tree: --out needs a directory");
                    return ExitCode::from(2);
                }
            },
            "-h" | "--help" => {
                println!("usage: vendor-tree [--check] [--out DIR]");
                return ExitCode::SUCCESS;
            }
            other => {
                eprintln!("vendor-tree: unknown argument `{other}` (usage: vendor-tree [--check] [--out DIR])");
                return ExitCode::from(2);
            }
        }
    }
    let out = match vendor_tree::generate() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("vendor-tree: {e}");
            return ExitCode::from(2);
        }
    };
    if check {
        let problems = vendor_tree::check(&out, &root);
        if problems.is_empty() {
            println!("vendor-tree: {} is up to date", root.display());
            return ExitCode::SUCCESS;
        }
        for p in &problems {
            eprintln!("vendor-tree: {p}");
        }
        eprintln!("vendor-tree: the committed tree is stale; run `cargo run -p vendor-tree`");
        return ExitCode::FAILURE;
    }
    if let Err(e) = vendor_tree::write(&out, &root) {
        eprintln!("vendor-tree: {e}");
        return ExitCode::from(2);
    }
    print!("{}", vendor_tree::report(&out));
    println!(
        "vendor-tree: wrote {}",
        root.join(vendor_tree::TREE).display()
    );
    ExitCode::SUCCESS
}
